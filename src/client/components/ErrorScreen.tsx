import { AlertTriangle, RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";

export function ErrorScreen({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-6 text-center">
      <AlertTriangle className="size-12 text-red-500" aria-hidden="true" />
      <h1 className="text-2xl font-semibold">{t("errorScreen.title")}</h1>
      <p className="text-slate-600 dark:text-slate-300">{t("errorScreen.description")}</p>
      {message ? (
        <pre className="max-w-full whitespace-pre-wrap break-words rounded-md bg-slate-100 px-3 py-2 text-left text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {message}
        </pre>
      ) : null}
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
      >
        <RefreshCw className="size-4" aria-hidden="true" />
        {t("errorScreen.refresh")}
      </button>
    </div>
  );
}
