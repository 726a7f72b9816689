/** The lockout banners of spec §8 on the sign-in form. */
import { AlertTriangle, Lock } from "lucide-react";
import { useTranslation } from "react-i18next";

export function LockedBanner({ minutes }: { minutes: number }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200"
    >
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{t("auth.lock.title")}</p>
        <p>{t("auth.lock.tryAgainIn", { count: minutes })}</p>
      </div>
    </div>
  );
}

export function AttemptsBanner({ remaining }: { remaining: number }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex items-center gap-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
      <p>{t("auth.lock.attemptsRemaining", { count: remaining })}</p>
    </div>
  );
}
