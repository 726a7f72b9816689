import { Cpu } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Allowance } from "../../lib/renderTypes";

/**
 * The engine's name, and what the Preview engine does and does not do, said plainly. A `sizer` is
 * the same note, invisible and hidden from screen readers: it holds the note's room before the
 * engine is known.
 */
export function EngineNote({ engine, sizer = false }: { engine: Pick<Allowance["engine"], "isAi" | "label">; sizer?: boolean }) {
  const { t } = useTranslation();
  return (
    <p
      className={`flex items-start gap-2 text-sm text-slate-600 dark:text-slate-400 ${sizer ? "invisible" : ""}`}
      {...(sizer ? { "aria-hidden": true } : { "data-testid": "engine-note" })}
    >
      <Cpu className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        {engine.isAi ? (
          t("flow.engineAi", { name: engine.label })
        ) : (
          <>
            <span className="font-semibold text-slate-800 dark:text-slate-200">{t("flow.previewEngine")}</span>
            {" · "}
            {t("flow.previewEngineNote")}
          </>
        )}
      </span>
    </p>
  );
}
