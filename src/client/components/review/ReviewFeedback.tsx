/**
 * What the client page and the studio's panel both show of a picture under review: its state, and
 * its comments and decisions in order. Comments are plain text, rendered as React text (escaped),
 * line breaks kept; never as HTML.
 */
import { CheckCircle2, Clock, MessageSquareWarning } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { ReviewComment, ReviewDecision, ReviewState } from "../../../shared/review";

const STATE_STYLE: Record<ReviewState, string> = {
  awaiting: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  approved: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  "changes-requested": "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};

export function ReviewStateBadge({ state }: { state: ReviewState }) {
  const { t } = useTranslation();
  const Icon = state === "approved" ? CheckCircle2 : state === "changes-requested" ? MessageSquareWarning : Clock;
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ${STATE_STYLE[state]}`}
      data-testid="review-state"
      data-state={state}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {t(`review.state.${state}`)}
    </span>
  );
}

type Entry = { kind: "comment"; at: number; item: ReviewComment } | { kind: "decision"; at: number; item: ReviewDecision };

/** Comments and decisions, oldest first. */
export function ReviewFeedbackList({ comments, decisions }: { comments: ReviewComment[]; decisions: ReviewDecision[] }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" });
  const entries: Entry[] = [
    ...comments.map((item) => ({ kind: "comment" as const, at: item.at, item })),
    ...decisions.map((item) => ({ kind: "decision" as const, at: item.at, item })),
  ].sort((a, b) => a.at - b.at || (a.kind === b.kind ? a.item.id - b.item.id : a.kind === "comment" ? -1 : 1));
  if (entries.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">{t("review.page.noComments")}</p>;
  return (
    <ol className="space-y-2" data-testid="review-feedback">
      {entries.map((entry) =>
        entry.kind === "comment" ? (
          <li key={`c${entry.item.id}`} className="rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60" data-testid="review-comment">
            <p className="text-xs text-slate-500 dark:text-slate-400">
              <span className="font-semibold text-slate-700 dark:text-slate-200">{entry.item.author}</span> · {format.format(entry.at)}
            </p>
            <p className="mt-0.5 whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">{entry.item.text}</p>
          </li>
        ) : (
          <li
            key={`d${entry.item.id}`}
            className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300"
            data-testid="review-decision"
          >
            <ReviewStateBadge state={entry.item.state} />
            <span>
              {t(entry.item.state === "approved" ? "review.page.approvedBy" : "review.page.changesBy", { name: entry.item.author })} ·{" "}
              {format.format(entry.at)}
            </span>
          </li>
        ),
      )}
    </ol>
  );
}
