/** Admin · Mail outbox, System status and Self-test history. */
import {
  AlertTriangle,
  CheckCircle2,
  ChevronDown,
  Clock,
  Cpu,
  Database,
  HardDrive,
  Inbox,
  ListOrdered,
  Package,
  Users,
  XCircle,
} from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { friendlyError } from "../../lib/friendlyError";
import { selfTestItemDetail, selfTestItemMessage, selfTestSummary } from "../../lib/selfTestText";
import { engineName } from "../info/common";
import { trpc } from "../../trpc";
import { ProgressBar } from "../render/ProgressBar";
import { Spinner } from "../Spinner";
import { cardClass } from "../ui/buttons";
import { Badge, EmptyNote, ErrorNote, Panel, useFormatters } from "./common";
import SelfTests from "./SelfTests";

export function OutboxSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const outbox = trpc.admin.outbox.useQuery({ limit: 50 }, { staleTime: 0 });
  return (
    <Panel title={t("admin.outbox.title")} description={t("admin.outbox.description")} testId="admin-outbox">
      {outbox.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {outbox.error ? <ErrorNote>{friendlyError(outbox.error, t)}</ErrorNote> : null}
      {outbox.data && outbox.data.length === 0 ? <EmptyNote>{t("admin.outbox.none")}</EmptyNote> : null}
      {outbox.data && outbox.data.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {outbox.data.map((mail) => (
            <li key={mail.id} className="space-y-1 px-3 py-3 sm:px-4" data-testid="admin-mail">
              <div className="flex flex-wrap items-center gap-1.5">
                <p className="min-w-0 truncate font-medium">{mail.subject}</p>
                {mail.error ? (
                  <Badge tone="red">{t("admin.outbox.failed")}</Badge>
                ) : mail.sentAt ? (
                  <Badge tone="green">{t("admin.outbox.sent")}</Badge>
                ) : (
                  <Badge tone="amber">{t("admin.outbox.pending")}</Badge>
                )}
                <Badge>{t(`admin.outbox.transports.${mail.transport}`, { defaultValue: mail.transport })}</Badge>
              </div>
              <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-500 dark:text-slate-400">
                <span className="truncate">{t("admin.outbox.to", { to: mail.to })}</span>
                <span>{format.dateTime(mail.createdAt)}</span>
              </p>
              {mail.error ? <p className="break-words text-xs text-red-700 dark:text-red-300">{mail.error}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}

function Stat({
  icon,
  label,
  value,
  detail,
  testId,
}: {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`${cardClass} min-w-0 p-4`} data-testid={testId}>
      <p className="flex items-center gap-2 text-xs font-medium text-slate-500 sm:text-sm dark:text-slate-400">
        <span className="shrink-0 [&>svg]:size-4">{icon}</span>
        {label}
      </p>
      <p className="mt-1 truncate text-xl font-bold tabular-nums sm:text-2xl">{value}</p>
      {detail ? <div className="mt-1 text-xs text-slate-500 dark:text-slate-400">{detail}</div> : null}
    </div>
  );
}

/** "3 d 4 h", "5 h 12 min", "12 min". */
function uptimeText(seconds: number, t: (key: string, options?: Record<string, unknown>) => string): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return t("admin.system.uptimeDays", { days, hours });
  if (hours > 0) return t("admin.system.uptimeHours", { hours, minutes });
  return t("admin.system.uptimeMinutes", { minutes });
}

export function SystemSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const overview = trpc.admin.overview.useQuery(undefined, { staleTime: 0, refetchInterval: 15_000 });
  const data = overview.data;
  const usedShare = data && data.diskTotalBytes > 0 ? (data.diskTotalBytes - data.diskFreeBytes) / data.diskTotalBytes : 0;
  return (
    <Panel title={t("admin.system.title")} description={t("admin.system.description")} testId="admin-system">
      {overview.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {overview.error ? <ErrorNote>{friendlyError(overview.error, t)}</ErrorNote> : null}
      {data ? (
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat icon={<Package />} label={t("admin.system.version")} value={data.version} testId="system-version" />
          <Stat icon={<Clock />} label={t("admin.system.uptime")} value={uptimeText(data.uptimeSeconds, t)} />
          <Stat icon={<Cpu />} label={t("admin.system.provider")} value={engineName(data.provider, t)} detail={data.provider.id} />
          <Stat
            icon={<ListOrdered />}
            label={t("admin.system.queue")}
            value={format.number(data.queue.queued)}
            detail={t("admin.system.queueDetail", { queued: format.number(data.queue.queued), running: format.number(data.queue.running) })}
          />
          <Stat icon={<Users />} label={t("admin.system.users")} value={format.number(data.users)} />
          <Stat icon={<Database />} label={t("admin.system.database")} value={format.bytes(data.databaseBytes)} />
          <Stat icon={<Inbox />} label={t("admin.system.storage")} value={format.bytes(data.storageBytes)} />
          <Stat
            icon={<HardDrive />}
            label={t("admin.system.diskFree")}
            value={format.bytes(data.diskFreeBytes)}
            detail={
              <div className="space-y-1">
                <ProgressBar value={usedShare * 100} label={t("admin.system.diskUsed")} tone={usedShare > 0.9 ? "danger" : "brand"} />
                <p>{t("admin.system.diskOf", { total: format.bytes(data.diskTotalBytes) })}</p>
              </div>
            }
          />
        </div>
      ) : null}
    </Panel>
  );
}

export function SelfTestSection() {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const runs = trpc.selfTest.runs.useQuery({ limit: 20 }, { staleTime: 0 });
  return (
    <div className="space-y-6">
      <Panel title={t("admin.selfTests.runTitle")} description={t("admin.selfTests.runDescription")}>
        <SelfTests />
      </Panel>
      <Panel title={t("admin.selfTests.historyTitle")} testId="admin-self-test-history">
        {runs.isLoading ? <Spinner label={t("common.loading")} /> : null}
        {runs.error ? <ErrorNote>{friendlyError(runs.error, t)}</ErrorNote> : null}
        {runs.data && runs.data.length === 0 ? <EmptyNote>{t("admin.selfTests.none")}</EmptyNote> : null}
        {runs.data && runs.data.length > 0 ? (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {runs.data.map((run) => (
              <li key={run.id} data-testid="self-test-run">
                <details className="group">
                  <summary className="flex cursor-pointer list-none items-center gap-3 px-3 py-3 sm:px-4 [&::-webkit-details-marker]:hidden">
                    {run.failed > 0 ? (
                      <XCircle className="size-5 shrink-0 text-red-600 dark:text-red-400" aria-hidden="true" />
                    ) : run.warnings > 0 ? (
                      <AlertTriangle className="size-5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
                    ) : (
                      <CheckCircle2 className="size-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                    )}
                    <div className="min-w-0 flex-1">
                      <p className="font-medium">
                        {run.suite === "system" ? t("selfTest.systemTab") : t("selfTest.authTab")}
                        <span className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">
                          {t(`admin.selfTests.source.${run.source}`, { defaultValue: run.source })}
                        </span>
                      </p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        {format.dateTime(run.startedAt)} · {selfTestSummary(run, t)}
                      </p>
                    </div>
                    <ChevronDown className="size-4 shrink-0 text-slate-400 transition-transform group-open:rotate-180" aria-hidden="true" />
                  </summary>
                  <ul className="space-y-1 px-4 pb-3 pl-11">
                    {run.items.map((item) => (
                      <li key={item.id} className="text-sm">
                        <span
                          className={
                            item.status === "passed"
                              ? "text-emerald-700 dark:text-emerald-300"
                              : item.status === "failed"
                                ? "text-red-700 dark:text-red-300"
                                : item.status === "warning"
                                  ? "text-amber-700 dark:text-amber-300"
                                  : ""
                          }
                        >
                          {item.status === "passed" ? "✓" : item.status === "failed" ? "✗" : item.status === "warning" ? "!" : "•"}
                        </span>{" "}
                        {t(`selfTest.items.${item.id}`, { defaultValue: item.name })}
                        {item.message ? (
                          <span className="block break-words pl-4 text-xs text-slate-500 dark:text-slate-400">
                            {selfTestItemMessage(item, t, i18n.language)}
                          </span>
                        ) : null}
                        {item.detail ? (
                          <span className="block break-words pl-4 text-xs text-slate-500 dark:text-slate-400">
                            {selfTestItemDetail(item, t, i18n.language)}
                          </span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        ) : null}
      </Panel>
    </div>
  );
}
