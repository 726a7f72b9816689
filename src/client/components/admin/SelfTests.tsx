/**
 * The self-test runner of spec sections 4 and 8, shared by the Quick Admin bar and /admin: two
 * tabs (System Tests, Auth Tests); Run goes through the suite of src/selftest against
 * this server's real API, each item going pending → running → passed or failed, then the spec's
 * toast, and the run is recorded on the server (selfTest.recordRun).
 */
import { AlertTriangle, CheckCircle2, Circle, Loader2, Play, ShieldCheck, Server, XCircle } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { SELF_TEST } from "../../../shared/constants";
import { createSelfTestClient, pendingItems, runSelfTests, summarize } from "../../../selftest/suite";
import type { SelfTestEnvironment, SelfTestItem, SelfTestStatus, SelfTestSuiteName } from "../../../selftest/types";
import { useSession } from "../../hooks/useSession";
import { friendlyError } from "../../lib/friendlyError";
import { selfTestItemDetail, selfTestItemMessage, selfTestSummary } from "../../lib/selfTestText";
import { trpc } from "../../trpc";
import { buttonClass } from "../ui/buttons";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/Tabs";

/** A 100×100 PNG drawn on a canvas (spec section 7: the storage test's generated image). */
export async function makeCanvasPng(size: number = SELF_TEST.testImageSize): Promise<Uint8Array> {
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("Canvas is not available in this browser");
  const gradient = context.createLinearGradient(0, 0, size, size);
  gradient.addColorStop(0, "#4f46e5");
  gradient.addColorStop(1, "#f59e0b");
  context.fillStyle = gradient;
  context.fillRect(0, 0, size, size);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("The test image could not be made");
  return new Uint8Array(await blob.arrayBuffer());
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface RunState {
  items: readonly SelfTestItem[];
  running: boolean;
  finished: boolean;
}

const idle = (suite: SelfTestSuiteName): RunState => ({ items: pendingItems(suite), running: false, finished: false });

function StatusIcon({ status }: { status: SelfTestStatus }) {
  switch (status) {
    case "pending":
      return <Circle className="size-4 text-slate-400" aria-hidden="true" />;
    case "running":
      return <Loader2 className="size-4 animate-spin text-brand-600 motion-reduce:animate-none dark:text-brand-100" aria-hidden="true" />;
    case "passed":
      return <CheckCircle2 className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />;
    case "warning":
      return <AlertTriangle className="size-4 text-amber-600 dark:text-amber-400" aria-hidden="true" />;
    case "failed":
      return <XCircle className="size-4 text-red-600 dark:text-red-400" aria-hidden="true" />;
  }
}

function ItemList({ items }: { items: readonly SelfTestItem[] }) {
  const { t, i18n } = useTranslation();
  const statusText: Record<SelfTestStatus, string> = {
    pending: t("selfTest.status.pending"),
    running: t("selfTest.status.running"),
    passed: t("selfTest.status.passed"),
    warning: t("selfTest.status.warning"),
    failed: t("selfTest.status.failed"),
  };
  return (
    <ul
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
      data-testid="self-test-items"
    >
      {items.map((item) => (
        <li key={item.id} className="flex items-start gap-2.5 px-3 py-2" data-testid="self-test-item" data-status={item.status}>
          <span className="mt-0.5 shrink-0">
            <StatusIcon status={item.status} />
          </span>
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium">{t(`selfTest.items.${item.id}`, { defaultValue: item.name })}</p>
            {selfTestItemMessage(item, t, i18n.language) ? (
              <p
                className={`break-words text-xs ${item.status === "failed" ? "text-red-700 dark:text-red-300" : item.status === "warning" ? "text-amber-800 dark:text-amber-200" : "text-slate-500 dark:text-slate-400"}`}
                data-testid="self-test-message"
              >
                {selfTestItemMessage(item, t, i18n.language)}
              </p>
            ) : null}
            {item.detail ? (
              <p className="break-words text-xs text-slate-500 dark:text-slate-400">{selfTestItemDetail(item, t, i18n.language)}</p>
            ) : null}
          </div>
          <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">
            <span className="sr-only">{statusText[item.status]}</span>
            {item.durationMs !== undefined && item.status !== "running" ? (
              <span aria-hidden="true">{`${Math.round(item.durationMs)} ms`}</span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

function SuiteRunner({ suite, state, onRun }: { suite: SelfTestSuiteName; state: RunState; onRun(): void }) {
  const { t } = useTranslation();
  const counts = summarize(state.items);
  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="min-w-0 flex-1 text-sm text-slate-600 dark:text-slate-300">
          {suite === "system" ? t("selfTest.systemIntro") : t("selfTest.authIntro")}
        </p>
        <button
          type="button"
          className={`${buttonClass.primary} shrink-0 py-2`}
          disabled={state.running}
          aria-busy={state.running || undefined}
          onClick={onRun}
          data-testid={`run-${suite}-tests`}
        >
          {state.running ? (
            <Loader2 className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          ) : (
            <Play className="size-4" aria-hidden="true" />
          )}
          {state.running ? t("selfTest.running") : suite === "system" ? t("selfTest.runSystem") : t("selfTest.runAuth")}
        </button>
      </div>
      {state.items.length > 0 ? <ItemList items={state.items} /> : null}
      <p className="text-sm font-medium" aria-live="polite" data-testid={`${suite}-summary`}>
        {state.finished ? selfTestSummary(counts, t) : ""}
      </p>
    </div>
  );
}

/** Both suites in tabs; each keeps its last run while the other tab is shown. */
export default function SelfTests() {
  const { t } = useTranslation();
  const { user } = useSession();
  const utils = trpc.useUtils();
  const recordRun = trpc.selfTest.recordRun.useMutation();
  const [states, setStates] = useState<Record<SelfTestSuiteName, RunState>>(() => ({ system: idle("system"), auth: idle("auth") }));
  const runningRef = useRef<Set<SelfTestSuiteName>>(new Set());

  const run = async (suite: SelfTestSuiteName) => {
    if (runningRef.current.has(suite)) return;
    runningRef.current.add(suite);
    const update = (next: Partial<RunState>) => setStates((current) => ({ ...current, [suite]: { ...current[suite], ...next } }));
    update({ items: pendingItems(suite), running: true, finished: false });
    const startedAt = Date.now();
    try {
      const env: SelfTestEnvironment = {
        // Its own client, whose answers are streamed: the refusals the checks ask for on purpose are
        // not logged by the browser as failed loads (createSelfTestClient).
        client: createSelfTestClient("", "same-origin"),
        baseUrl: "",
        fetch: (input, init) => window.fetch(input, init),
        makeTestPng: () => makeCanvasPng(),
        sleep,
        ...(user ? { expectedUser: { id: user.id, email: user.email } } : {}),
      };
      const items = await runSelfTests(suite, env, (live) => update({ items: [...live] }));
      update({ items: [...items], running: false, finished: true });
      const counts = summarize(items);
      const complete = suite === "system" ? t("selfTest.systemComplete") : t("selfTest.authComplete");
      const description = selfTestSummary(counts, t);
      if (counts.failed > 0 || counts.warnings > 0) toast.warning(complete, { description });
      else toast.success(complete, { description });
      try {
        await recordRun.mutateAsync({ suite, source: "browser", startedAt, finishedAt: Date.now(), items: [...items] });
        await utils.selfTest.runs.invalidate();
      } catch (caught) {
        toast.error(t("selfTest.recordFailed"), { description: friendlyError(caught, t) });
      }
    } catch (caught) {
      update({ running: false, finished: false });
      toast.error(t("selfTest.runFailed"), { description: friendlyError(caught, t) });
    } finally {
      runningRef.current.delete(suite);
    }
  };

  return (
    <Tabs defaultValue="system" className="space-y-3">
      <TabsList label={t("selfTest.tabsLabel")}>
        <TabsTrigger value="system">
          <Server aria-hidden="true" />
          {t("selfTest.systemTab")}
        </TabsTrigger>
        <TabsTrigger value="auth">
          <ShieldCheck aria-hidden="true" />
          {t("selfTest.authTab")}
        </TabsTrigger>
      </TabsList>
      <TabsContent value="system" forceMount className="data-[state=inactive]:hidden">
        <SuiteRunner suite="system" state={states.system} onRun={() => void run("system")} />
      </TabsContent>
      <TabsContent value="auth" forceMount className="data-[state=inactive]:hidden">
        <SuiteRunner suite="auth" state={states.auth} onRun={() => void run("auth")} />
      </TabsContent>
    </Tabs>
  );
}
