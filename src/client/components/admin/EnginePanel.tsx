/**
 * Admin · Studio · Render engine (issues 16 and 30): the engine new renders use, and every engine's
 * connection (model, server address, key shown by its last four characters, "Test connection"). The
 * main engine's fields come first; the other engines are set up below it, so that the tasks' lists
 * (EngineRoutesPanel) can name them, e.g. OpenAI for renders and ComfyUI for upscaling.
 */
import { CheckCircle2, PlugZap, Trash2, XCircle } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ENGINE_TASKS } from "../../../shared/render";
import { engineInputSchema, ENGINE_IDS, type EngineId, type KeyedEngine } from "../../../shared/studio-settings";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";
import { friendlyError } from "../../lib/friendlyError";
import { checkDetailText } from "../../lib/selfTestText";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { engineName } from "../info/common";
import { buttonClass, selectClass } from "../ui/buttons";
import { Badge, ErrorNote, Field, Panel } from "./common";

type RouterOutput = inferRouterOutputs<AppRouter>;
type Settings = RouterOutput["admin"]["studioSettings"];
type TestResult = RouterOutput["admin"]["testEngineConnection"];
type AiEngine = Exclude<EngineId, "local">;

const AI_ENGINES = ENGINE_IDS.filter((id): id is AiEngine => id !== "local");

interface EngineForm {
  engine: EngineId;
  replicateModel: string;
  openaiModel: string;
  comfyuiUrl: string;
  comfyuiUpscaleModel: string;
  comfyuiUpscaleRefine: boolean;
}
/** Keys typed in (undefined: keep the stored one; "": remove it). */
type TypedKeys = Partial<Record<KeyedEngine, string>>;

/** Whether an engine other than the main one has something stored (key, address) or a task lists it. */
function inUseBesides(settings: Settings, id: AiEngine): boolean {
  const { engine } = settings;
  const stored = id === "comfyui" ? engine.comfyuiUrl !== "" : Boolean(engine.keys[id].last4) || engine.keys[id].setByEnvironment;
  return stored || ENGINE_TASKS.some((task) => engine.routes[task].engines.includes(id));
}

export function EnginePanel({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const save = trpc.admin.updateEngine.useMutation();
  const test = trpc.admin.testEngineConnection.useMutation();
  const { engine } = settings;
  const [form, setForm] = useState<EngineForm>({
    engine: engine.engine as EngineId,
    replicateModel: engine.replicateModel,
    openaiModel: engine.openaiModel,
    comfyuiUrl: engine.comfyuiUrl,
    comfyuiUpscaleModel: engine.comfyuiUpscaleModel,
    comfyuiUpscaleRefine: engine.comfyuiUpscaleRefine,
  });
  const [keys, setKeys] = useState<TypedKeys>({});
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<Partial<Record<AiEngine, TestResult>>>({});
  const [testing, setTesting] = useState<AiEngine | null>(null);
  const selectId = useId();
  useEffect(() => setResults({}), [form.engine]);

  const input = () =>
    engineInputSchema.safeParse({
      ...form,
      keys: Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined)),
    });
  const submit = async () => {
    const parsed = input();
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(null);
    try {
      const saved = await save.mutateAsync(parsed.data);
      setKeys({});
      toast.success(t("admin.studio.engineSaved", { engine: engineName(saved.engineInUse, t) }));
      await Promise.all([
        utils.admin.studioSettings.invalidate(),
        utils.admin.engineStatuses.invalidate(),
        utils.render.allowance.invalidate(),
      ]);
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };
  /** Tests one engine with what the form holds now (saved or not). */
  const testConnection = async (id: AiEngine) => {
    const parsed = input();
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(null);
    setResults({ ...results, [id]: undefined });
    setTesting(id);
    try {
      const result = await test.mutateAsync({ ...parsed.data, engine: id });
      setResults((current) => ({ ...current, [id]: result }));
    } catch (failure) {
      setError(friendlyError(failure, t));
    } finally {
      setTesting(null);
    }
  };

  const main = form.engine === "local" ? null : form.engine;
  const others = AI_ENGINES.filter((id) => id !== main);
  const fields = (id: AiEngine) => (
    <EngineFields
      id={id}
      settings={settings}
      form={form}
      setForm={setForm}
      keys={keys}
      setKeys={setKeys}
      result={results[id]}
      testing={testing === id}
      onTest={() => void testConnection(id)}
    />
  );

  return (
    <Panel
      title={t("admin.studio.engineTitle")}
      description={t("admin.studio.engineDescription", { engine: engineName(settings.engineInUse, t) })}
      testId="admin-studio-engine"
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={selectId} label={t("admin.studio.engine")} fromEnvironment={engine.setByEnvironment.engine}>
            <select
              id={selectId}
              className={selectClass}
              value={form.engine}
              disabled={engine.setByEnvironment.engine}
              onChange={(event) => setForm({ ...form, engine: event.target.value as EngineId })}
            >
              {ENGINE_IDS.map((id) => (
                <option key={id} value={id}>
                  {t(`admin.studio.engines.${id}`)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div data-testid="admin-studio-main-engine">
          {main ? fields(main) : <p className="text-sm text-slate-600 dark:text-slate-300">{t("admin.studio.localNote")}</p>}
        </div>

        <details
          className="rounded-lg border border-slate-200 dark:border-slate-700"
          open={others.some((id) => inUseBesides(settings, id))}
          data-testid="admin-studio-other-engines"
        >
          <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-slate-100">
            {t("admin.studio.otherEngines")}
          </summary>
          <div className="space-y-5 border-t border-slate-200 px-3 pb-3 pt-3 dark:border-slate-700">
            <p className="text-sm text-slate-600 dark:text-slate-300">{t("admin.studio.otherEnginesHint")}</p>
            {others.map((id) => (
              <fieldset key={id} className="space-y-3" data-testid={`admin-studio-engine-${id}`}>
                <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">{t(`admin.studio.engines.${id}`)}</legend>
                {fields(id)}
              </fieldset>
            ))}
          </div>
        </details>

        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t("admin.studio.saveEngine")}
        </button>
      </form>
    </Panel>
  );
}

/** One engine's connection: its model or address, its key, and "Test connection" with the answer. */
function EngineFields({
  id,
  settings,
  form,
  setForm,
  keys,
  setKeys,
  result,
  testing,
  onTest,
}: {
  id: AiEngine;
  settings: Settings;
  form: EngineForm;
  setForm: (form: EngineForm) => void;
  keys: TypedKeys;
  setKeys: (keys: TypedKeys) => void;
  result: TestResult | undefined;
  testing: boolean;
  onTest: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { engine } = settings;
  const ids = { model: useId(), url: useId(), key: useId(), upscaleModel: useId() };
  const keyState = engine.keys[id];
  const typedKey = keys[id];
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {id === "replicate" ? (
          <Field id={ids.model} label={t("admin.studio.model")} fromEnvironment={engine.setByEnvironment.replicateModel}>
            <select
              id={ids.model}
              className={selectClass}
              value={form.replicateModel.split(":")[0]}
              disabled={engine.setByEnvironment.replicateModel}
              onChange={(event) => setForm({ ...form, replicateModel: event.target.value })}
            >
              {[...new Set([...settings.replicateModels, form.replicateModel.split(":")[0]!])].map((model) => (
                <option key={model} value={model}>
                  {model}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {id === "openai" ? (
          <Field id={ids.model} label={t("admin.studio.model")} fromEnvironment={engine.setByEnvironment.openaiModel}>
            <input
              id={ids.model}
              className={inputClass}
              value={form.openaiModel}
              disabled={engine.setByEnvironment.openaiModel}
              onChange={(event) => setForm({ ...form, openaiModel: event.target.value })}
              autoComplete="off"
            />
          </Field>
        ) : null}
        {id === "comfyui" ? (
          <>
            <Field id={ids.url} label={t("admin.studio.comfyuiUrl")} fromEnvironment={engine.setByEnvironment.comfyuiUrl}>
              <input
                id={ids.url}
                className={inputClass}
                value={form.comfyuiUrl}
                placeholder="http://gpu-box:8188"
                disabled={engine.setByEnvironment.comfyuiUrl}
                onChange={(event) => setForm({ ...form, comfyuiUrl: event.target.value })}
                autoComplete="off"
              />
            </Field>
            <Field
              id={ids.upscaleModel}
              label={t("admin.studio.comfyuiUpscaleModel")}
              fromEnvironment={engine.setByEnvironment.comfyuiUpscaleModel}
              hint={t("admin.studio.comfyuiUpscaleModelHint")}
            >
              <input
                id={ids.upscaleModel}
                className={inputClass}
                value={form.comfyuiUpscaleModel}
                placeholder="RealESRGAN_x4plus.pth"
                disabled={engine.setByEnvironment.comfyuiUpscaleModel}
                onChange={(event) => setForm({ ...form, comfyuiUpscaleModel: event.target.value })}
                autoComplete="off"
                spellCheck={false}
                data-testid="admin-studio-upscale-model"
              />
            </Field>
          </>
        ) : null}
      </div>
      {id === "comfyui" ? (
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600 dark:border-slate-600"
            checked={form.comfyuiUpscaleRefine}
            disabled={engine.setByEnvironment.comfyuiUpscaleRefine || form.comfyuiUpscaleModel.trim() === ""}
            onChange={(event) => setForm({ ...form, comfyuiUpscaleRefine: event.target.checked })}
            data-testid="admin-studio-upscale-refine"
          />
          <span>
            {t("admin.studio.comfyuiUpscaleRefine")}
            {engine.setByEnvironment.comfyuiUpscaleRefine ? (
              <>
                {" "}
                <Badge tone="amber">{t("admin.studio.setByEnvironment")}</Badge>
              </>
            ) : null}
          </span>
        </label>
      ) : null}

      <Field
        id={ids.key}
        label={t(`admin.studio.keyLabel.${id}`)}
        fromEnvironment={keyState.setByEnvironment}
        hint={
          typedKey === ""
            ? t("admin.studio.keyWillBeRemoved")
            : keyState.last4
              ? t("admin.studio.keyStored", { last4: keyState.last4 })
              : keyState.unreadable
                ? t("admin.studio.keyUnreadable")
                : t("admin.studio.keyNone")
        }
      >
        <div className="flex flex-wrap gap-2">
          <input
            id={ids.key}
            type="password"
            className={`${inputClass} min-w-0 flex-1`}
            value={typedKey ?? ""}
            placeholder={keyState.last4 ? `•••• ${keyState.last4}` : ""}
            disabled={keyState.setByEnvironment}
            onChange={(event) => setKeys({ ...keys, [id]: event.target.value === "" ? undefined : event.target.value })}
            autoComplete="off"
            spellCheck={false}
            data-testid={`admin-studio-key-${id}`}
          />
          {keyState.last4 && !keyState.setByEnvironment ? (
            <button type="button" className={buttonClass.ghost} onClick={() => setKeys({ ...keys, [id]: "" })}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t("admin.studio.removeKey")}
            </button>
          ) : null}
        </div>
      </Field>

      {result ? (
        <p
          role="status"
          data-testid={`admin-studio-test-result-${id}`}
          className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm ${
            result.ok
              ? "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-100"
              : "border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
          }`}
        >
          {result.ok ? (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          ) : (
            <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          )}
          <span className="[overflow-wrap:anywhere]">
            {result.ok ? t("admin.studio.testOk") : t("admin.studio.testFailed")}
            {/* The finding in the admin's language when the check gives it as texts; an engine's own words stay verbatim inside. */}
            {result.texts ? ` ${checkDetailText(result.texts, t, i18n.language)}` : result.detail ? ` ${result.detail}` : ""}
          </span>
        </p>
      ) : null}
      <button type="button" className={buttonClass.secondary} onClick={onTest} disabled={testing}>
        <PlugZap className="size-4" aria-hidden="true" />
        {testing ? t("admin.studio.testing") : t("admin.studio.testConnection")}
      </button>
    </div>
  );
}
