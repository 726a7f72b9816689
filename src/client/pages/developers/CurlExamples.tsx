/**
 * /developers' "Try it" (issue 31, decision 097): the commands a developer copies to upload a photo,
 * order a render waiting for it and download the picture, against this very server (the page's
 * origin). curl.ts builds them; a test runs them against a real server.
 */
import { Copy, Terminal } from "lucide-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { buttonClass, cardClass } from "../../components/ui/buttons";
import { copyOrSelect } from "./copy";
import { CURL_STEPS, curlCommands, IMAGE_ID, RENDER_ID, type CurlStep } from "./curl";

function Command({ step, command }: { step: CurlStep; command: string }) {
  const { t } = useTranslation();
  const code = useRef<HTMLPreElement>(null);
  return (
    <li className="space-y-2">
      <p className="text-sm text-slate-700 dark:text-slate-200">
        {t(`developers.curl.${step}`, { imageId: IMAGE_ID, renderId: RENDER_ID })}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <pre
          ref={code}
          data-testid={`curl-${step}`}
          className="min-w-0 flex-1 whitespace-pre-wrap break-all rounded-md border border-slate-300 bg-slate-950 px-3 py-2 font-mono text-sm text-slate-100 dark:border-slate-700"
        >
          <code>{command}</code>
        </pre>
        <button
          type="button"
          className={`${buttonClass.secondary} shrink-0`}
          onClick={() =>
            void copyOrSelect(command, code.current, t("developers.copyFailed")).then((ok) =>
              ok ? toast.success(t("developers.copied")) : undefined,
            )
          }
        >
          <Copy className="size-4" aria-hidden="true" />
          {t("developers.copyExample")}
          <span className="sr-only"> {t(`developers.curl.${step}Short`)}</span>
        </button>
      </div>
    </li>
  );
}

export function CurlExamples() {
  const { t } = useTranslation();
  const commands = curlCommands(window.location.origin, t("developers.placeholder"));
  return (
    <section className={`${cardClass} space-y-3 p-4 sm:p-5`} aria-labelledby="developers-try">
      <h2 id="developers-try" className="flex items-center gap-2 text-lg font-semibold">
        <Terminal className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
        {t("developers.tryTitle")}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("developers.tryIntro")}</p>
      <ol className="list-decimal space-y-4 pl-5 marker:text-sm marker:text-slate-500">
        {CURL_STEPS.map((step) => (
          <Command key={step} step={step} command={commands[step]} />
        ))}
      </ol>
    </section>
  );
}
