/**
 * Around a finished render: its downloads, each labelled with its true size; the structure check's
 * score; re-rendering (new seed, same seed, holding the structure harder) and the AI upscale where
 * the engine can; and the render's details (engine, model, seed, prompt, parameters, times).
 */
import { Dices, Download, Info, Landmark, Maximize2, Repeat } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useSearch } from "wouter";
import type { EngineInfo } from "../../../shared/render";
import type { FollowedJob } from "../../hooks/useRenderJobs";
import { formatSeconds, labelled } from "../../lib/format";
import { engineName } from "../info/common";
import { friendlyError, translateServerMessage } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { buttonClass } from "../ui/buttons";

export function RenderDownloads({ job }: { job: FollowedJob }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <div className="grid gap-2 sm:grid-cols-2" data-testid="downloads">
        {job.downloads.map((download, index) => (
          <a
            key={download.kind}
            href={download.url}
            download
            className={index === 0 ? buttonClass.primary : buttonClass.secondary}
            data-testid={`download-${download.kind}`}
          >
            <Download className="size-4" aria-hidden="true" />
            {t(`renderOptions.downloadKinds.${download.kind}`, {
              width: download.width,
              height: download.height,
              model: download.upscaledWith?.model,
              engine: download.upscaledWith?.engine,
            })}
          </a>
        ))}
      </div>
      {job.engine.isAi ? <p className="text-xs text-slate-500 dark:text-slate-400">{t("renderOptions.aiMarked")}</p> : null}
    </div>
  );
}

/** "Walls and windows kept: 91 %", flagged below the warning threshold. */
export function StructureScore({ job }: { job: FollowedJob }) {
  const { t } = useTranslation();
  if (job.structureScore === null) return null;
  const percent = Math.round(job.structureScore * 100);
  return (
    <p
      className={`flex items-start gap-2 rounded-lg p-3 text-sm ${
        job.structureFlagged
          ? "border border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
          : "bg-emerald-50 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100"
      }`}
      data-testid="structure-score"
      data-flagged={job.structureFlagged}
    >
      <Landmark className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        <span className="font-semibold">{t("renderOptions.structureKept", { percent })}</span>
        {job.structureFlagged ? ` · ${t("renderOptions.structureFlagged")}` : null}
      </span>
    </p>
  );
}

/**
 * Re-renders (a new seed, the same seed, holding the structure harder) cost a credit, so they are
 * offered to accounts only: a visitor's one free demo render cannot be rendered again (the server
 * refuses it too). The upscale of a finished render is offered to both.
 */
export function RerenderActions({ job, engine, signedIn }: { job: FollowedJob; engine: EngineInfo | undefined; signedIn: boolean }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const utils = trpc.useUtils();
  const rerender = trpc.render.rerender.useMutation();
  const upscale = trpc.render.upscale.useMutation();
  if (!engine?.isAi) return null;
  const capabilities = engine.capabilities;

  const start = async (choice: { seed: "new" | "same"; structure?: "strong" }) => {
    try {
      const created = await rerender.mutateAsync({ id: job.id, ...choice });
      toast.success(t("renderOptions.rerenderStarted"));
      await utils.render.allowance.invalidate();
      const shown = new URLSearchParams(search).get("jobs")?.split(",").filter(Boolean) ?? [job.id];
      navigate(`/render?jobs=${[...shown, ...created.jobs.map((created) => created.id)].map(encodeURIComponent).join(",")}`);
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const onUpscale = async () => {
    try {
      const size = await upscale.mutateAsync({ id: job.id });
      toast.success(t("renderOptions.upscaled", size));
      await utils.render.job.invalidate({ id: job.id });
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const canHoldStructure = signedIn && capabilities.structureStrength && job.structure !== "strong";
  const canUpscale = capabilities.upscale && !job.downloads.some((download) => download.kind === "upscaled");
  if (!signedIn && !canUpscale) return null;
  return (
    <div className="flex flex-wrap gap-2" data-testid="rerender-actions">
      {job.structureFlagged && canHoldStructure ? (
        <button
          type="button"
          className={buttonClass.primary}
          disabled={rerender.isPending}
          onClick={() => void start({ seed: "new", structure: "strong" })}
        >
          <Landmark className="size-4" aria-hidden="true" />
          {t("renderOptions.holdStructure")}
        </button>
      ) : null}
      {signedIn ? (
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={rerender.isPending}
          onClick={() => void start({ seed: "new" })}
          title={t("renderOptions.rerenderCost")}
        >
          <Dices className="size-4" aria-hidden="true" />
          {t("renderOptions.reroll")}
        </button>
      ) : null}
      {signedIn && capabilities.seeds && job.seed !== null ? (
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={rerender.isPending}
          onClick={() => void start({ seed: "same" })}
          title={t("renderOptions.rerenderCost")}
        >
          <Repeat className="size-4" aria-hidden="true" />
          {t("renderOptions.sameSeed")}
        </button>
      ) : null}
      {canUpscale ? (
        <button type="button" className={buttonClass.secondary} disabled={upscale.isPending} onClick={() => void onUpscale()}>
          <Maximize2 className="size-4" aria-hidden="true" />
          {upscale.isPending ? t("renderOptions.upscaling") : t("renderOptions.upscale")}
        </button>
      ) : null}
    </div>
  );
}

export function RenderDetails({ job }: { job: FollowedJob }) {
  const { t, i18n } = useTranslation();
  const rows: Array<[string, string | null]> = [
    [
      t("renderOptions.engine"),
      // The Preview engine's name in the reader's language ("Motor de vista previa · no es IA: ..."), never the server's English.
      t(job.engine.isAi ? "renderOptions.engineAi" : "renderOptions.enginePreview", {
        label: engineName({ id: job.engine.id, label: job.providerLabel }, t),
      }),
    ],
    // Another engine than the task's first made it: which was skipped and why (decision 088).
    [t("renderOptions.fallback"), job.fallbackReason ? translateServerMessage(job.fallbackReason, t) : null],
    [
      t("renderOptions.upscaleFallback"),
      job.upscaleEngine?.fallbackReason ? translateServerMessage(job.upscaleEngine.fallbackReason, t) : null,
    ],
    [t("renderOptions.model"), job.model],
    [t("renderOptions.modelVersion"), job.modelVersion],
    [t("renderOptions.mode"), t(`renderOptions.modes.${job.renderMode}`)],
    [t("renderOptions.seed"), job.seed === null ? null : String(job.seed)],
    [t("renderOptions.structureSetting"), t(`renderOptions.structureSettings.${job.structure}`)],
    [t("renderOptions.prompt"), job.prompt],
    [
      t("renderOptions.parameters"),
      job.parameters
        ? Object.entries(job.parameters)
            .map(([key, value]) => labelled(key, JSON.stringify(value), i18n.language))
            .join(", ")
        : null,
    ],
  ];
  const phases: Array<[string, number | null]> = [
    [t("renderOptions.queued"), job.durations.queuedMs],
    [t("renderOptions.preprocessing"), job.durations.preprocessingMs],
    [t("renderOptions.engineTime"), job.durations.engineMs],
    [t("renderOptions.saving"), job.durations.savingMs],
  ];
  return (
    <details className="rounded-lg border border-slate-200 text-sm dark:border-slate-800" data-testid="render-details">
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 font-medium">
        <Info className="size-4" aria-hidden="true" />
        {t("renderOptions.details")}
      </summary>
      <dl className="grid gap-x-4 gap-y-1.5 border-t border-slate-200 px-3 py-3 sm:grid-cols-[max-content_minmax(0,1fr)] dark:border-slate-800">
        {rows
          .filter((row): row is [string, string] => row[1] !== null && row[1] !== "")
          .map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        <dt className="text-slate-500 dark:text-slate-400">{t("renderOptions.durations")}</dt>
        <dd>
          {phases
            .map(
              ([label, ms]) =>
                `${label} ${ms === null ? t("renderOptions.notRecorded") : t("renderOptions.seconds", { value: formatSeconds(ms, i18n.language) })}`,
            )
            .join(" · ")}
        </dd>
      </dl>
    </details>
  );
}
