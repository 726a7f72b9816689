/**
 * /admin → Community (decision 102): open reports, oldest first, each with the picture, who reported
 * it and why, and who published it; hide the picture (gone from every public page, its reports
 * settled), dismiss the report, stop its publisher from publishing. Below: hidden pictures to show
 * again, and accounts to allow again. The server checks the admin role on every call.
 */
import { EyeOff, Flag } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { Picture } from "../render/Picture";
import { Spinner } from "../Spinner";
import { buttonClass } from "../ui/buttons";
import { Badge, EmptyNote, ErrorNote, Panel, useFormatters } from "./common";

const smallButton = `${buttonClass.secondary} px-3 py-1.5 text-sm`;

export function CommunitySection() {
  const { t } = useTranslation();
  const { dateTime } = useFormatters();
  const utils = trpc.useUtils();
  const state = trpc.admin.communityReports.useQuery();
  const hide = trpc.admin.setPublicationHidden.useMutation();
  const dismiss = trpc.admin.dismissReport.useMutation();
  const block = trpc.admin.setPublishingBlocked.useMutation();
  const busy = hide.isPending || dismiss.isPending || block.isPending;

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      toast.success(done);
      await utils.admin.communityReports.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };
  const styleOf = (entry: { style: string; styleName: string | null }) => entry.styleName ?? t(`styles.${entry.style}`);

  if (state.isLoading) return <Spinner label={t("common.loading")} />;
  if (state.error || !state.data) return <ErrorNote>{friendlyError(state.error, t)}</ErrorNote>;
  const { reports, hidden, blocked } = state.data;
  return (
    <div className="space-y-5" data-testid="admin-community">
      <Panel title={t("admin.community.reportsTitle")}>
        {reports.length === 0 ? (
          <EmptyNote>{t("admin.community.reportsEmpty")}</EmptyNote>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {reports.map((report) => {
              const { publication } = report;
              const publisher = publication.publisher;
              return (
                <li key={report.id} className="flex flex-col gap-3 py-3 sm:flex-row" data-testid="community-report">
                  {publication.after ? (
                    <Picture
                      src={publication.after}
                      alt=""
                      className="aspect-[4/3] w-full rounded-lg object-cover sm:w-40"
                      loading="lazy"
                    />
                  ) : null}
                  <div className="min-w-0 flex-1 space-y-1 text-sm">
                    <p className="font-semibold [overflow-wrap:anywhere]">
                      {publication.title || t("admin.community.untitled")} · {styleOf(publication)}
                    </p>
                    <p className="inline-flex items-center gap-1.5">
                      <Flag className="size-4 text-red-600 dark:text-red-400" aria-hidden="true" />
                      {t(`community.reasons.${report.reason}`)}
                    </p>
                    {report.note ? <p className="text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">“{report.note}”</p> : null}
                    <p className="text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
                      {t("admin.community.reportedBy", { email: report.reporter.email })} · {dateTime(report.createdAt)}
                    </p>
                    <p className="text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
                      {t("admin.community.publishedBy", { email: publisher.email })}{" "}
                      {publisher.blocked ? <Badge tone="red">{t("admin.community.blockedBadge")}</Badge> : null}
                    </p>
                    <div className="flex flex-wrap gap-2 pt-1">
                      <button
                        type="button"
                        className={smallButton}
                        disabled={busy}
                        onClick={() =>
                          void run(() => hide.mutateAsync({ id: publication.id, hidden: true }), t("admin.community.hiddenToast"))
                        }
                      >
                        <EyeOff className="size-4" aria-hidden="true" />
                        {t("admin.community.hide")}
                      </button>
                      <button
                        type="button"
                        className={smallButton}
                        disabled={busy}
                        onClick={() => void run(() => dismiss.mutateAsync({ reportId: report.id }), t("admin.community.dismissedToast"))}
                      >
                        {t("admin.community.dismiss")}
                      </button>
                      {publisher.blocked ? null : (
                        <button
                          type="button"
                          className={smallButton}
                          disabled={busy}
                          onClick={() =>
                            void run(
                              () => block.mutateAsync({ userId: publisher.id, blocked: true }),
                              t("admin.community.blockedToast", { email: publisher.email }),
                            )
                          }
                        >
                          {t("admin.community.block")}
                        </button>
                      )}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Panel>
      <div className="grid gap-5 lg:grid-cols-2">
        <Panel title={t("admin.community.hiddenTitle")}>
          {hidden.length === 0 ? (
            <EmptyNote>{t("admin.community.hiddenEmpty")}</EmptyNote>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {hidden.map((entry) => (
                <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0 [overflow-wrap:anywhere]">
                    <span className="font-medium">{entry.title || t("admin.community.untitled")}</span> · {styleOf(entry)} ·{" "}
                    {entry.publisherEmail}
                  </span>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={busy}
                    onClick={() => void run(() => hide.mutateAsync({ id: entry.id, hidden: false }), t("admin.community.unhiddenToast"))}
                  >
                    {t("admin.community.unhide")}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title={t("admin.community.blockedTitle")}>
          {blocked.length === 0 ? (
            <EmptyNote>{t("admin.community.blockedEmpty")}</EmptyNote>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {blocked.map((entry) => (
                <li key={entry.userId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0 [overflow-wrap:anywhere]">
                    {entry.email}{" "}
                    <span className="text-slate-500 dark:text-slate-400">
                      ({t("admin.community.since", { date: dateTime(entry.since) })})
                    </span>
                  </span>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={busy}
                    onClick={() =>
                      void run(
                        () => block.mutateAsync({ userId: entry.userId, blocked: false }),
                        t("admin.community.unblockedToast", { email: entry.email }),
                      )
                    }
                  >
                    {t("admin.community.unblock")}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}
