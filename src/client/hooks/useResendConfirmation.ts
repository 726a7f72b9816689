import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

/** Sends the sign-up confirmation e-mail again, with the toasts of spec §8. */
export function useResendConfirmation() {
  const { t } = useTranslation();
  const { mutateAsync, isPending } = trpc.auth.resendConfirmation.useMutation();

  const resend = useCallback(
    async (email: string) => {
      try {
        await mutateAsync({ email });
        toast.success(t("toasts.confirmationSent"), { description: t("toasts.confirmationSentDescription") });
      } catch (error) {
        toast.error(t("toasts.resendFailed"), { description: friendlyError(error, t) });
      }
    },
    [mutateAsync, t],
  );

  return { resend, isPending };
}
