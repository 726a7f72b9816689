/**
 * Admin · Studio · Engines per task (issue 30, decision 088): for each task (renders, staging,
 * decluttering, region edits, upscaling) the engines tried in order, choosing only among those set
 * up here and able to do it; and each engine's state as this server last saw it (up or down, since
 * when, why) with its latest failures. A task the environment lists (ENGINES_*) cannot be changed here.
 */
import { RefreshCw } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ENGINE_TASKS, type EngineTask } from "../../../shared/render";
import { engineRoutesInputSchema, type EngineId } from "../../../shared/studio-settings";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { engineName } from "../info/common";
import { buttonClass, labelClass, selectClass } from "../ui/buttons";
import { Badge, ErrorNote, Panel, useFormatters, type Tone } from "./common";

type Settings = inferRouterOutputs<AppRouter>["admin"]["studioSettings"];
type Routes = Record<EngineTask, EngineId[]>;

const STATE_TONE: Record<"up" | "down" | "unknown", Tone> = { up: "green", down: "red", unknown: "slate" };

export function EngineRoutesPanel({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const save = trpc.admin.updateEngineRoutes.useMutation();
  const routes = settings.engine.routes;
  const [form, setForm] = useState<Routes>(
    () => Object.fromEntries(ENGINE_TASKS.map((task) => [task, [...routes[task].engines]])) as Routes,
  );
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  // The engine chosen above (RENDER_PROVIDER): a task without a list uses it when it can.
  const studioEngine = settings.engine.engine as EngineId;

  /** Puts an engine in slot `index` of a task (taken out of any other slot); "" takes the slot's engine out. */
  const choose = (task: EngineTask, index: number, value: string) => {
    const list = [...form[task]];
    if (value === "") list.splice(index, 1);
    else list[index] = value as EngineId;
    setForm({ ...form, [task]: list.filter((engine, at) => at === index || engine !== value) });
  };

  const submit = async () => {
    const parsed = engineRoutesInputSchema.safeParse(form);
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
      toast.success(t("admin.studio.routes.saved"));
      await Promise.all([
        utils.admin.studioSettings.invalidate(),
        utils.admin.engineStatuses.invalidate(),
        utils.render.allowance.invalidate(),
      ]);
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };

  return (
    <Panel title={t("admin.studio.routes.title")} description={t("admin.studio.routes.description")} testId="admin-studio-routes">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {ENGINE_TASKS.map((task) => {
          const offered = settings.engineOffer[task] as EngineId[];
          const list = form[task];
          const fromEnvironment = routes[task].setByEnvironment;
          // One more slot than chosen, while an offered engine is left to add.
          const slots = Math.min(list.length + 1, Math.max(offered.length, list.length));
          return (
            <fieldset
              key={task}
              className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
              data-testid={`admin-routes-${task}`}
            >
              <legend className={`${labelClass} flex flex-wrap items-center gap-2 px-1`}>
                {t(`admin.studio.routes.tasks.${task}`)}
                {fromEnvironment ? <Badge tone="amber">{t("admin.studio.setByEnvironment")}</Badge> : null}
              </legend>
              {offered.length === 0 && list.length === 0 ? (
                <p className="text-sm text-slate-600 dark:text-slate-300">{t("admin.studio.routes.noneAble")}</p>
              ) : (
                <div className="flex flex-wrap items-end gap-2">
                  {Array.from({ length: slots }, (_, index) => {
                    const id = `${baseId}-${task}-${index}`;
                    const value = list[index] ?? "";
                    const choices = offered.filter((engine) => engine === value || !list.includes(engine));
                    return (
                      <div key={id} className="min-w-40">
                        <label htmlFor={id} className="block text-xs text-slate-600 dark:text-slate-400">
                          {t("admin.studio.routes.slot", { number: index + 1 })}
                        </label>
                        <select
                          id={id}
                          className={selectClass}
                          value={value}
                          disabled={fromEnvironment}
                          onChange={(event) => choose(task, index, event.target.value)}
                        >
                          <option value="">
                            {index === 0 && offered.includes(studioEngine)
                              ? t("admin.studio.routes.studioEngine", { engine: t(`admin.studio.engines.${studioEngine}`) })
                              : t("admin.studio.routes.noEngine")}
                          </option>
                          {choices.map((engine) => (
                            <option key={engine} value={engine}>
                              {t(`admin.studio.engines.${engine}`)}
                            </option>
                          ))}
                        </select>
                      </div>
                    );
                  })}
                </div>
              )}
            </fieldset>
          );
        })}
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("admin.studio.routes.hint")}</p>
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t("admin.studio.routes.save")}
        </button>
      </form>
      <EngineStatuses initial={settings.engineStatuses} />
    </Panel>
  );
}

/** Each engine set up here: the tasks listing it, up or down since when and why, its latest failures. */
function EngineStatuses({ initial }: { initial: Settings["engineStatuses"] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const statuses = trpc.admin.engineStatuses.useQuery(undefined, { initialData: initial, staleTime: 0 });
  const list = statuses.data ?? initial;
  return (
    <section className="mt-6 space-y-3" aria-labelledby="admin-engine-states" data-testid="admin-engine-states">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="admin-engine-states" className="text-base font-semibold">
          {t("admin.studio.states.title")}
        </h3>
        <button type="button" className={buttonClass.ghost} onClick={() => void statuses.refetch()} disabled={statuses.isFetching}>
          <RefreshCw className="size-4" aria-hidden="true" />
          {t("admin.studio.states.refresh")}
        </button>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("admin.studio.states.description")}</p>
      <ul className="space-y-3">
        {list.map((engine) => (
          <li
            key={engine.id}
            className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
            data-testid={`admin-engine-${engine.id}`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{engineName(engine, t)}</span>
              <Badge tone={STATE_TONE[engine.state]}>{t(`admin.studio.states.${engine.state}`)}</Badge>
              {engine.at !== null ? (
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  {t("admin.studio.states.since", { time: format.dateTime(engine.at) })}
                </span>
              ) : null}
            </div>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {engine.tasks.length > 0
                ? t("admin.studio.states.tasks", {
                    tasks: engine.tasks.map((task) => t(`admin.studio.routes.tasks.${task}`)).join(", "),
                  })
                : t("admin.studio.states.noTask")}
            </p>
            {engine.message ? (
              <p className="mt-1 text-sm [overflow-wrap:anywhere] text-red-800 dark:text-red-200">{engine.message}</p>
            ) : null}
            {engine.failures.length > 0 ? (
              <details className="mt-2">
                <summary className="cursor-pointer text-sm">{t("admin.studio.states.failures", { count: engine.failures.length })}</summary>
                <ul className="mt-1 space-y-1 text-xs">
                  {engine.failures.map((failure, index) => (
                    <li key={`${failure.at}-${index}`} className="[overflow-wrap:anywhere]">
                      <time dateTime={new Date(failure.at).toISOString()}>{format.dateTime(failure.at)}</time>
                      {" · "}
                      {failure.task === "check" ? t("admin.studio.states.check") : t(`admin.studio.routes.tasks.${failure.task}`)}
                      {" · "}
                      {failure.message}
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
