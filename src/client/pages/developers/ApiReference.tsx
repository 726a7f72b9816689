/**
 * /developers' "API reference" (issue 31, decision 097): the OpenAPI document rendered inside the
 * app by Swagger UI, bundled with it. The viewer's code is a chunk of its own, loaded only when the
 * user opens the reference, so that the rest of the app does not grow.
 */
import { BookOpen, ChevronDown } from "lucide-react";
import { lazy, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { API_BASE } from "../../../shared/api";
import { buttonClass, cardClass, linkClass } from "../../components/ui/buttons";

const SwaggerViewer = lazy(() => import("./SwaggerViewer"));

export function ApiReference() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Kept once opened: closing hides it, opening again shows it as it was.
  const [opened, setOpened] = useState(false);
  const [ready, setReady] = useState(false);
  const panel = useId();
  const loading = <p className="text-sm text-slate-500 dark:text-slate-400">{t("developers.reference.loading")}</p>;
  return (
    <section className={`${cardClass} space-y-3 p-4 sm:p-5`} aria-labelledby="developers-reference">
      <h2 id="developers-reference" className="flex items-center gap-2 text-lg font-semibold">
        <BookOpen className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
        {t("developers.reference.title")}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("developers.reference.intro")}{" "}
        <a className={`${linkClass} font-mono`} href={`${API_BASE}/openapi.json`} target="_blank" rel="noreferrer">
          openapi.json
        </a>
      </p>
      <button
        type="button"
        className={buttonClass.secondary}
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => {
          setOpen(!open);
          setOpened(true);
        }}
      >
        <ChevronDown className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden="true" />
        {open ? t("developers.reference.hide") : t("developers.reference.show")}
      </button>
      <div id={panel} hidden={!open} aria-busy={open && !ready} data-testid="api-reference" data-ready={ready || undefined}>
        {opened ? (
          <Suspense fallback={loading}>
            <SwaggerViewer onReady={() => setReady(true)} />
            {ready ? null : loading}
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}
