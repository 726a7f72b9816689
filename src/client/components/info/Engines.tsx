/** The render engines the studio can use, with the one this server runs marked. */
import { useTranslation } from "react-i18next";
import { cardClass } from "../ui/buttons";
import { AiBadge } from "./common";

const ENGINES = [
  { id: "local", isAi: false },
  { id: "comfyui", isAi: true },
  { id: "replicate", isAi: true },
  { id: "openai", isAi: true },
] as const;

export function EngineCards({ activeId }: { activeId: string | undefined }) {
  const { t } = useTranslation();
  return (
    <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-4">
      {ENGINES.map((candidate) => {
        const active = activeId === candidate.id;
        return (
          <li
            key={candidate.id}
            className={`${cardClass} p-5 ${active ? "ring-2 ring-brand-600 dark:ring-brand-500" : ""}`}
            data-testid={`engine-${candidate.id}`}
            data-active={active || undefined}
          >
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-semibold">{t(`infoPages.features.engines.${candidate.id}.name`)}</h3>
              <AiBadge isAi={candidate.isAi} />
              {active ? (
                <span className="rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-semibold text-white">
                  {t("infoPages.features.activeEngine")}
                </span>
              ) : null}
            </div>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t(`infoPages.features.engines.${candidate.id}.body`)}</p>
          </li>
        );
      })}
    </ul>
  );
}
