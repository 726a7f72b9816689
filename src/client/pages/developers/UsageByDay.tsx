/**
 * /developers' "Usage by day" (issue 31, decision 097): the requests of the space's keys over the
 * last 30 UTC days, as counted by the API's edge: a bar a day (its refusals and failures in amber),
 * the same figures as a table for whoever wants numbers, and each key's totals. Measured figures only.
 */
import { BarChart3 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { API_USAGE, type UsageCounts, type UsageDay } from "../../../shared/api-usage";
import { ErrorText } from "../../components/render/PageShell";
import { cardClass } from "../../components/ui/buttons";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";

const cell = "px-2 py-1.5 text-right tabular-nums";
const head = "px-2 py-1.5 text-right font-medium";

function useDayFormat() {
  const { i18n } = useTranslation();
  const short = new Intl.DateTimeFormat(i18n.language, { month: "short", day: "numeric", timeZone: "UTC" });
  const long = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
  const at = (day: string) => new Date(`${day}T00:00:00Z`);
  return { short: (day: string) => short.format(at(day)), long: (day: string) => long.format(at(day)) };
}

function CountCells({ counts }: { counts: UsageCounts }) {
  return (
    <>
      <td className={cell}>{counts.requests}</td>
      <td className={cell}>{counts.renders}</td>
      <td className={cell}>{counts.clientErrors}</td>
      <td className={cell}>{counts.serverErrors}</td>
    </>
  );
}

function CountHeads() {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col" className={head}>
        {t("developers.usage.requests")}
      </th>
      <th scope="col" className={head}>
        {t("developers.usage.renders")}
      </th>
      <th scope="col" className={head}>
        {t("developers.usage.refused")}
      </th>
      <th scope="col" className={head}>
        {t("developers.usage.failed")}
      </th>
    </>
  );
}

function Chart({ days }: { days: UsageDay[] }) {
  const { t } = useTranslation();
  const format = useDayFormat();
  const highest = Math.max(1, ...days.map((day) => day.requests));
  return (
    <figure className="space-y-1">
      <div
        className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400"
        aria-hidden="true"
      >
        <span>{t("developers.usage.most", { count: highest })}</span>
        <span className="flex items-center gap-3">
          <span className="flex items-center gap-1">
            <span className="inline-block size-2.5 rounded-sm bg-brand-500" /> {t("developers.usage.answered")}
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block size-2.5 rounded-sm bg-amber-500" /> {t("developers.usage.errors")}
          </span>
        </span>
      </div>
      <ol
        className="flex h-32 items-end gap-px border-b border-l border-slate-300 sm:gap-0.5 dark:border-slate-700"
        aria-label={t("developers.usage.chartLabel", { count: days.length })}
        data-testid="usage-chart"
      >
        {days.map((day) => {
          const errors = day.clientErrors + day.serverErrors;
          const label = t("developers.usage.dayLabel", { date: format.long(day.day), count: day.requests, errors });
          return (
            <li key={day.day} className="flex h-full min-w-0 flex-1 flex-col justify-end" title={label}>
              <span className="sr-only">{label}</span>
              {day.requests > 0 ? (
                <span className="flex flex-col overflow-hidden rounded-t-sm" style={{ height: `${(day.requests / highest) * 100}%` }}>
                  <span className="min-h-0 flex-1 bg-brand-500 dark:bg-brand-500" />
                  {errors > 0 ? <span className="bg-amber-500" style={{ height: `${(errors / day.requests) * 100}%` }} /> : null}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      <figcaption className="flex justify-between text-xs text-slate-500 dark:text-slate-400">
        <span>{format.short(days[0]!.day)}</span>
        <span>{format.short(days.at(-1)!.day)}</span>
      </figcaption>
    </figure>
  );
}

export function UsageByDay({ teamId, enabled }: { teamId: string | null; enabled: boolean }) {
  const { t } = useTranslation();
  const format = useDayFormat();
  const days = API_USAGE.daysShown;
  const usage = trpc.developers.usage.useQuery({ teamId, days }, { enabled, staleTime: 0 });
  const report = usage.data;
  const used = report?.days.filter((day) => day.requests > 0) ?? [];
  const total = used.reduce(
    (sum, day) => ({
      requests: sum.requests + day.requests,
      renders: sum.renders + day.renders,
      clientErrors: sum.clientErrors + day.clientErrors,
      serverErrors: sum.serverErrors + day.serverErrors,
    }),
    { requests: 0, renders: 0, clientErrors: 0, serverErrors: 0 },
  );
  return (
    <section className={`${cardClass} space-y-4 p-4 sm:p-5`} aria-labelledby="developers-usage" data-testid="usage">
      <div>
        <h2 id="developers-usage" className="flex items-center gap-2 text-lg font-semibold">
          <BarChart3 className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
          {t("developers.usage.title")}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("developers.usage.intro", { count: days })}</p>
      </div>
      {usage.error ? <ErrorText message={friendlyError(usage.error, t)} /> : null}
      {usage.isLoading ? <p className="text-sm text-slate-500 dark:text-slate-400">{t("common.loading")}</p> : null}
      {report && used.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="usage-empty">
          {t("developers.usage.empty", { count: days })}
        </p>
      ) : null}
      {report && used.length > 0 ? (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="usage-totals">
            {(
              [
                ["requests", total.requests],
                ["renders", total.renders],
                ["refused", total.clientErrors],
                ["failed", total.serverErrors],
              ] as const
            ).map(([what, count]) => (
              <div key={what} className="rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
                <dt className="text-xs text-slate-600 dark:text-slate-400">{t(`developers.usage.${what}`)}</dt>
                <dd className="text-xl font-semibold tabular-nums">{count}</dd>
              </div>
            ))}
          </dl>
          <Chart days={report.days} />
          {/* Scrolls sideways on a phone: focusable, so that a keyboard can scroll it too. */}
          <div className="overflow-x-auto" tabIndex={0} role="group" aria-labelledby="developers-usage-keys">
            <table className="w-full min-w-[28rem] text-sm" data-testid="usage-keys">
              <caption id="developers-usage-keys" className="mb-1 text-left font-medium">
                {t("developers.usage.perKey", { count: days })}
              </caption>
              <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-400">
                <tr>
                  <th scope="col" className="px-2 py-1.5 text-left font-medium">
                    {t("developers.usage.key")}
                  </th>
                  <CountHeads />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {report.keys.map((key) => (
                  <tr key={key.id}>
                    <th scope="row" className="px-2 py-1.5 text-left font-normal">
                      <span className="font-medium [overflow-wrap:anywhere]">{key.name}</span>{" "}
                      <code className="font-mono text-xs text-slate-500 dark:text-slate-400">{key.prefix}…</code>
                      {key.revoked ? <span className="ml-1 text-xs text-red-700 dark:text-red-300">{t("developers.revoked")}</span> : null}
                    </th>
                    <CountCells counts={key.total} />
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t border-slate-200 font-semibold dark:border-slate-700">
                <tr>
                  <th scope="row" className="px-2 py-1.5 text-left">
                    {t("developers.usage.total")}
                  </th>
                  <CountCells counts={total} />
                </tr>
              </tfoot>
            </table>
          </div>
          <details className="text-sm">
            <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-100">
              {t("developers.usage.showDays", { count: used.length })}
            </summary>
            <div className="mt-2 overflow-x-auto" tabIndex={0} role="group" aria-labelledby="developers-usage-days">
              <table className="w-full min-w-[28rem]" data-testid="usage-days">
                <caption id="developers-usage-days" className="sr-only">
                  {t("developers.usage.daysCaption")}
                </caption>
                <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium">
                      {t("developers.usage.day")}
                    </th>
                    <CountHeads />
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {[...used].reverse().map((day) => (
                    <tr key={day.day}>
                      <th scope="row" className="px-2 py-1.5 text-left font-normal">
                        {format.long(day.day)}
                      </th>
                      <CountCells counts={day} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      ) : null}
    </section>
  );
}
