import { useTranslation } from "react-i18next";
import { trpc } from "../trpc";

/** "3 days 4 hr 5 min", in the interface language; seconds only in the first minute. */
function formatUptime(totalSeconds: number, language: string): string {
  const unit = (value: number, name: "day" | "hour" | "minute" | "second") =>
    new Intl.NumberFormat(language, { style: "unit", unit: name, unitDisplay: "short" }).format(value);
  if (totalSeconds < 60) return unit(totalSeconds, "second");
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const parts = [days ? unit(days, "day") : "", days || hours ? unit(hours, "hour") : "", unit(minutes, "minute")];
  return parts.filter(Boolean).join(" ");
}

/** The hidden panel under "All rights reserved" (spec §2): this installation's version and build, for a signed-in user. */
export default function BuildInfo({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  // Fresh figures each time the panel opens (uptime moves on).
  const info = trpc.system.info.useQuery(undefined, { staleTime: 0 });
  const performance = trpc.system.performance.useQuery(undefined, { staleTime: 0 });
  const engine = performance.data?.engine;
  const rows: [string, string | undefined][] = [
    [t("home.footer.version"), info.data?.version],
    [t("home.footer.uptime"), info.data ? formatUptime(info.data.uptimeSeconds, i18n.language) : undefined],
    [
      t("home.footer.engine"),
      engine
        ? engine.isAi
          ? t("home.footer.engineAi", { name: engine.label })
          : t("home.footer.enginePreview", { name: t("flow.previewEngine") })
        : undefined,
    ],
    [t("home.footer.database"), info.data ? t(info.data.databaseOk ? "home.footer.databaseOk" : "home.footer.databaseDown") : undefined],
  ];
  return (
    <div
      id={id}
      className="mx-auto mt-4 max-w-md rounded-lg border border-slate-200 bg-white px-4 py-3 text-left text-sm dark:border-slate-800 dark:bg-slate-950"
      data-testid="build-info"
    >
      <p className="font-semibold">{t("home.footer.buildInfo")}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="font-mono text-slate-800 dark:text-slate-200">{value ?? t("common.loading")}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
