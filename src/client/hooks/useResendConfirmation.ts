import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { loadData } from "../lazy";
import { notify } from "../lib/notify";

/**
 * Sends the sign-up confirmation e-mail again, with the toasts of spec §8. Used by parts of the
 * first load (the callouts), so the call goes through the data layer fetched on use.
 */
export function useResendConfirmation() {
  const { t } = useTranslation();
  const [isPending, setPending] = useState(false);

  const resend = useCallback(
    async (email: string) => {
      setPending(true);
      try {
        const { trpcClient } = await loadData();
        await trpcClient.auth.resendConfirmation.mutate({ email });
        notify(({ toast }) => toast.success(t("toasts.confirmationSent"), { description: t("toasts.confirmationSentDescription") }));
      } catch (error) {
        notify(({ toast, friendlyError }) => toast.error(t("toasts.resendFailed"), { description: friendlyError(error, t) }));
      } finally {
        setPending(false);
      }
    },
    [t],
  );

  return { resend, isPending };
}
