/**
 * The versions of the photo as a tree: the photo, its renders, edits under what they were made
 * from (indented, joined by a line, "from v2"), each with the number it was given when it was made. The version being edited is highlighted; choosing another
 * continues from it (a new branch). Each finished version can be downloaded; an edit can be
 * re-rolled; any render or edit can be deleted (its later versions are kept).
 */
import { AlertCircle, Ban, Dices, Download, ImageOff, Loader2, Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { VersionNode } from "../../../shared/edits";
import { paintColourLabel } from "./PaintColour";
import { isFinished, type VersionRow } from "../../lib/versionTree";
import { usePictureFailure } from "../render/Picture";
import { buttonClass } from "../ui/buttons";
import { styleLabel } from "../../lib/styleNames";
import type { TFunction } from "i18next";

/** A version's name in the history and the compare pickers. */
export function versionLabel(node: VersionNode, t: TFunction): string {
  if (node.kind === "photo") return t("studio.versions.photo");
  if (node.kind === "render") return t("studio.versions.render", { style: node.style ? styleLabel(t, node.style, node.styleName) : "" });
  // A paint names its colour; on the Preview engine it is an exact recolour, not AI (issue 33).
  if (node.paint) {
    const colour = paintColourLabel(t, node.paint);
    return node.engine && !node.engine.isAi ? t("paint.version.recolour", { colour }) : t("paint.version.ai", { colour });
  }
  // The Preview engine tints the painted area and never reads the instruction: its label says what it did.
  if (node.engine && !node.engine.isAi) return t("studio.versions.editTint");
  return node.instruction ? t("studio.versions.edit", { instruction: node.instruction }) : t("studio.versions.editFill");
}

/** Where a version can be downloaded: its largest picture (an AI upscale, where one was made). */
export function downloadHref(node: VersionNode): string {
  return node.kind === "photo" ? `/files/uploads/${node.id}/original` : `/files/renders/${node.id}/download/high`;
}

const INDENT_REM = 1.25;
/** Deeper branches stop indenting, so a long chain of edits still fits a phone. */
const MAX_INDENT = 6;

interface VersionHistoryProps {
  rows: VersionRow[];
  currentId: string | null;
  busy: boolean;
  onSelect(node: VersionNode): void;
  onReroll(node: VersionNode): void;
  onDelete(node: VersionNode): void;
}

export function VersionHistory({ rows, currentId, busy, onSelect, onReroll, onDelete }: VersionHistoryProps) {
  const { t, i18n } = useTranslation();
  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "short", timeStyle: "short" });
  return (
    <ol className="space-y-1.5" data-testid="version-history" aria-label={t("studio.versions.title")}>
      {rows.map(({ node, depth, number, parentNumber }) => {
        const current = node.id === currentId;
        const finished = isFinished(node);
        const label = versionLabel(node, t);
        const working = !finished && node.status !== "failed" && node.status !== "canceled" && node.status !== "succeeded";
        return (
          <li
            key={node.id}
            className="relative"
            style={{ paddingLeft: `${Math.min(depth, MAX_INDENT) * INDENT_REM}rem` }}
            data-testid="version-row"
            data-version-id={node.id}
            data-kind={node.kind}
            data-status={node.status}
            data-depth={depth}
            data-number={number}
            data-current={current}
          >
            {depth > 0 ? (
              <span
                aria-hidden="true"
                className="absolute top-0 bottom-1/2 w-3 rounded-bl-md border-b-2 border-l-2 border-slate-300 dark:border-slate-600"
                style={{ left: `${(Math.min(depth, MAX_INDENT) - 1) * INDENT_REM + 0.5}rem` }}
              />
            ) : null}
            <div
              className={`flex items-center gap-2 rounded-lg border p-1.5 ${
                current
                  ? "border-brand-600 bg-brand-50 ring-2 ring-brand-600/30 dark:border-brand-500 dark:bg-brand-700/20"
                  : "border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
              }`}
            >
              <button
                type="button"
                className="flex min-w-0 flex-1 items-center gap-2.5 rounded-md text-left disabled:cursor-default"
                disabled={!finished || busy}
                aria-current={current ? "true" : undefined}
                aria-label={t("studio.versions.select", { number, label })}
                onClick={() => onSelect(node)}
                data-testid="version-select"
              >
                <span className="relative size-12 shrink-0 overflow-hidden rounded-md bg-slate-100 dark:bg-slate-800">
                  {node.thumb ? <VersionThumb src={node.thumb} /> : null}
                  {!finished ? (
                    <span className="absolute inset-0 flex items-center justify-center bg-slate-950/40 text-white">
                      {working ? (
                        <Loader2 className="size-5 animate-spin motion-reduce:animate-none" aria-hidden="true" />
                      ) : node.status === "failed" ? (
                        <AlertCircle className="size-5" aria-hidden="true" />
                      ) : (
                        <Ban className="size-5" aria-hidden="true" />
                      )}
                    </span>
                  ) : null}
                </span>
                <span className="min-w-0">
                  <span className="line-clamp-2 text-sm font-semibold break-words" title={label}>
                    <span className="mr-1.5 text-slate-500 tabular-nums dark:text-slate-400">v{number}</span>
                    {label}
                  </span>
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    {/* Where it came from first: on a phone the line is cut at its end, the date. */}
                    {node.kind === "edit" && parentNumber !== null ? (
                      <span data-testid="version-from">{`${t("studio.versions.from", { number: parentNumber })} · `}</span>
                    ) : null}
                    {current ? `${t("studio.versions.current")} · ` : ""}
                    {finished ? time.format(node.createdAt) : t(`job.status.${node.status}`)}
                  </span>
                </span>
              </button>
              <div className="flex shrink-0 items-center">
                {finished ? (
                  <a
                    href={downloadHref(node)}
                    download
                    className={buttonClass.icon}
                    aria-label={t("studio.versions.download", { number })}
                    title={t("studio.versions.download", { number })}
                  >
                    <Download className="size-4" aria-hidden="true" />
                  </a>
                ) : null}
                {finished && node.kind === "edit" ? (
                  <button
                    type="button"
                    className={buttonClass.icon}
                    aria-label={t("studio.versions.reroll", { number })}
                    title={t("studio.versions.rerollHint")}
                    disabled={busy}
                    onClick={() => onReroll(node)}
                    data-testid="version-reroll"
                  >
                    <Dices className="size-4" aria-hidden="true" />
                  </button>
                ) : null}
                {node.kind !== "photo" && !working ? (
                  <button
                    type="button"
                    className={`${buttonClass.icon} hover:text-red-600 dark:hover:text-red-400`}
                    aria-label={t("studio.versions.delete", { number })}
                    title={t("studio.versions.delete", { number })}
                    disabled={busy}
                    onClick={() => onDelete(node)}
                    data-testid="version-delete"
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                ) : null}
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** A version's 48 px thumbnail; a missing file shows the missing-picture icon (its text is read out, too small to show). */
function VersionThumb({ src }: { src: string }) {
  const { t } = useTranslation();
  const failure = usePictureFailure(src);
  if (failure.failed) {
    return (
      <span className="flex size-full items-center justify-center text-slate-500 dark:text-slate-400" data-testid="missing-picture">
        <ImageOff className="size-5" aria-hidden="true" />
        <span className="sr-only">{t("flows.missingPicture.title")}</span>
      </span>
    );
  }
  return <img src={src} alt="" className="size-full object-cover" loading="lazy" onError={failure.onError} />;
}
