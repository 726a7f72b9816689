/**
 * The operator's settings (issue 16): brand, free credits and the render engine, set in /admin →
 * Studio and applied without a restart. The module owns the studio_settings table and the stored
 * logo. Where an environment variable is set it wins: the setting then shows "set by the
 * environment" and cannot be changed here. Engine keys are sealed with the app secret (the secret
 * box) and never leave the server; /admin sees their last four characters only.
 *
 * Readers are synchronous (a cache loaded at start and replaced after each change): the HTML of
 * every page, the sign-up grant and the demo rule read it on their hot paths.
 */
import { createHash } from "node:crypto";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { ENGINE_TASKS, type EngineTask } from "../../shared/render";
import type { BrandInput, EngineId, EngineInput, EngineRoutesInput, FreeCreditsInput, KeyedEngine } from "../../shared/studio-settings";
import { DEFAULT_PUBLIC_STUDIO, type PublicStudio } from "../../shared/studio";
import { DEFAULT_PAINT_SETTINGS, type PaintSettings } from "../../shared/paint";
import { COMFYUI_NO_UPSCALE_MODEL, ENGINE_TASK_VARIABLES, type EngineEnv, type Env, type EnvName } from "../env";
import { DomainError } from "../errors";
import { prepareLogo } from "../images/logo";
import type { Infra } from "../infra";

interface StoredLogo {
  key: string;
  width: number;
  height: number;
}
interface StoredKey {
  sealed: string;
  last4: string;
}
interface StoredBrand {
  name?: string;
  supportEmail?: string;
  accentColor?: string;
  termsText?: string;
  privacyText?: string;
  logo?: StoredLogo;
}
interface StoredFreeCredits {
  signUpCredits?: number;
  demoRendersPerAddressPerDay?: number;
}
interface StoredEngine {
  engine?: EngineId;
  replicateModel?: string;
  openaiModel?: string;
  comfyuiUrl?: string;
  /** ComfyUI's upscale model file; "" = no AI upscale (decision 087). */
  comfyuiUpscaleModel?: string;
  comfyuiUpscaleRefine?: boolean;
  keys?: Partial<Record<KeyedEngine, StoredKey>>;
  /** Each task's engines in the order tried (issue 30); a task without a list uses the studio's engine. */
  routes?: Partial<Record<EngineTask, EngineId[]>>;
}
interface Stored {
  brand: StoredBrand;
  "free-credits": StoredFreeCredits;
  engine: StoredEngine;
  /** The studio's Paint tool (issue 33): the palette offered and what a Preview-engine paint costs. */
  paint: Partial<PaintSettings>;
}
type Section = keyof Stored;

/** The variable that wins over each setting. */
const ENV_OF = {
  brand: { name: "STUDIO_NAME", supportEmail: "SUPPORT_EMAIL" },
  "free-credits": { signUpCredits: "SIGNUP_FREE_CREDITS", demoRendersPerAddressPerDay: "DEMO_RENDERS_PER_IP_PER_DAY" },
  engine: {
    engine: "RENDER_PROVIDER",
    replicateModel: "REPLICATE_MODEL",
    openaiModel: "OPENAI_MODEL",
    comfyuiUrl: "COMFYUI_URL",
    comfyuiUpscaleModel: "COMFYUI_UPSCALE_MODEL",
    comfyuiUpscaleRefine: "COMFYUI_UPSCALE_REFINE",
  },
  keys: { replicate: "REPLICATE_API_TOKEN", openai: "OPENAI_API_KEY", comfyui: "COMFYUI_TOKEN" },
} as const satisfies Record<string, Record<string, EnvName>>;

const last4 = (key: string) => key.slice(-4);

/** The upscale model as the form shows it: the file name, or "" for none (COMFYUI_UPSCALE_MODEL=none). */
const shownUpscaleModel = (config: EngineEnv) => {
  const name = config.COMFYUI_UPSCALE_MODEL.trim();
  return name.toLowerCase() === COMFYUI_NO_UPSCALE_MODEL ? "" : name;
};

/** The PostgreSQL channel telling the other instances that a setting changed. */
export const SETTINGS_CHANNEL = "studio_settings";

export function createSettingsModule(
  infra: Pick<Infra, "db" | "clock" | "env" | "secretBox" | "storage" | "diskFloor" | "log" | "crossInstance">,
) {
  const { db, clock, env, secretBox, storage } = infra;
  const fromEnv = (name: EnvName) => env.SET_IN_ENVIRONMENT.has(name);
  let stored: Stored = { brand: {}, "free-credits": {}, engine: {}, paint: {} };
  /** Grows with every change: the pages' HTML is made again when it moves. */
  let revision = 0;
  const engineListeners = new Set<() => void>();

  /** Each section's stored text as last read or written (what a refresh compares with). */
  let texts: Partial<Record<Section, string>> = {};

  /** Reads the saved settings; returns the sections whose stored text changed since the last read or write. */
  async function load(): Promise<Section[]> {
    const rows = await db.selectFrom("studio_settings").select(["section", "value"]).execute();
    const next: Stored = { brand: {}, "free-credits": {}, engine: {}, paint: {} };
    const nextTexts: Partial<Record<Section, string>> = {};
    for (const row of rows) {
      nextTexts[row.section] = row.value;
      try {
        next[row.section] = JSON.parse(row.value) as never;
      } catch (error) {
        infra.log.error("unreadable studio setting; using the defaults for it", { section: row.section, error });
      }
    }
    const changed = (["brand", "free-credits", "engine", "paint"] as const).filter((section) => nextTexts[section] !== texts[section]);
    stored = next;
    texts = nextTexts;
    if (changed.length > 0) revision++;
    return changed;
  }
  // A database that cannot be read at start leaves the defaults in force (and says so).
  const ready = load().catch((error: unknown) => infra.log.error("could not read the studio settings; using the defaults", { error }));

  /**
   * Several instances on one database (decision 083): a change saved through another is read again
   * here (a renamed studio, a swapped engine) without a restart. On PostgreSQL the other instance's
   * NOTIFY says when (and a reconnection reads everything again); on SQLite, where processes on one
   * box have no such channel, startApp calls this every few seconds. One read at a time.
   */
  let refreshing: Promise<void> = Promise.resolve();
  function refresh(): Promise<void> {
    refreshing = refreshing
      .then(async () => {
        if (!(await load()).includes("engine")) return;
        for (const listener of engineListeners) {
          try {
            listener();
          } catch (error) {
            infra.log.error("the engine another instance saved cannot be built here; rendering with the previous one", { error });
          }
        }
      })
      .catch((error: unknown) => infra.log.error("could not read the studio settings another instance changed", { error }));
    return refreshing;
  }
  const others = infra.crossInstance;
  others?.subscribe(SETTINGS_CHANNEL, (from) => {
    if (from !== others.instance) void refresh();
  });
  others?.onConnected((reconnected) => {
    if (reconnected) void refresh();
  });

  async function save<S extends Section>(section: S, value: Stored[S]): Promise<void> {
    const text = JSON.stringify(value);
    await db
      .insertInto("studio_settings")
      .values({ section, value: text, updated_at: clock.now() })
      .onConflict((oc) => oc.column("section").doUpdateSet({ value: text, updated_at: clock.now() }))
      .execute();
    stored = { ...stored, [section]: value };
    texts = { ...texts, [section]: text };
    revision++;
    // notify() logs a failure itself (the others then read the change at their next start).
    if (others) await others.notify(SETTINGS_CHANNEL, others.instance);
  }

  /** The upscale settings to store: the form's, else those stored before; none the environment holds. */
  function upscaleFields(input: EngineInput): Pick<StoredEngine, "comfyuiUpscaleModel" | "comfyuiUpscaleRefine"> {
    const model = fromEnv("COMFYUI_UPSCALE_MODEL") ? undefined : (input.comfyuiUpscaleModel ?? stored.engine.comfyuiUpscaleModel);
    const refine = fromEnv("COMFYUI_UPSCALE_REFINE") ? undefined : (input.comfyuiUpscaleRefine ?? stored.engine.comfyuiUpscaleRefine);
    return {
      ...(model === undefined ? {} : { comfyuiUpscaleModel: model }),
      ...(refine === undefined ? {} : { comfyuiUpscaleRefine: refine }),
    };
  }

  /** A setting the environment holds may only be sent back unchanged. */
  function refuseEnvironmentChange(name: EnvName, current: unknown, wanted: unknown): void {
    if (fromEnv(name) && current !== wanted) throw new DomainError("invalid", "setByEnvironment");
  }

  // ---- What is in force ----

  const brand = () => {
    const saved = stored.brand;
    return {
      name: fromEnv("STUDIO_NAME") ? env.STUDIO_NAME! : (saved.name ?? DEFAULT_PUBLIC_STUDIO.name),
      supportEmail: fromEnv("SUPPORT_EMAIL") ? env.SUPPORT_EMAIL : (saved.supportEmail ?? env.SUPPORT_EMAIL),
      accentColor: saved.accentColor ?? DEFAULT_PUBLIC_STUDIO.accentColor,
      termsText: saved.termsText ?? "",
      privacyText: saved.privacyText ?? "",
      logo: saved.logo ?? null,
    };
  };

  const freeCredits = () => {
    const saved = stored["free-credits"];
    return {
      signUpCredits: fromEnv("SIGNUP_FREE_CREDITS")
        ? env.SIGNUP_FREE_CREDITS!
        : (saved.signUpCredits ?? DEFAULT_PUBLIC_STUDIO.signUpCredits),
      demoRendersPerAddressPerDay: fromEnv("DEMO_RENDERS_PER_IP_PER_DAY")
        ? env.DEMO_RENDERS_PER_IP_PER_DAY
        : (saved.demoRendersPerAddressPerDay ?? env.DEMO_RENDERS_PER_IP_PER_DAY),
    };
  };

  const storedKey = (engine: KeyedEngine): string | undefined => {
    const sealed = stored.engine.keys?.[engine]?.sealed;
    if (!sealed) return undefined;
    try {
      return Buffer.from(secretBox.decrypt(sealed)).toString("utf8");
    } catch (error) {
      // Another app secret (a restore without its secret): the key must be entered again.
      infra.log.warn("a stored engine key cannot be read with this app secret", { engine, error });
      return undefined;
    }
  };

  /** The engine configuration in force: the environment's variables, else the saved settings, else the defaults. */
  function engineEnv(): EngineEnv {
    const saved = stored.engine;
    const pick = <K extends keyof typeof ENV_OF.engine>(field: K, fallback: Env[(typeof ENV_OF.engine)[K]]) =>
      fromEnv(ENV_OF.engine[field]) ? env[ENV_OF.engine[field]] : (saved[field] ?? fallback);
    const key = (engine: KeyedEngine) => (fromEnv(ENV_OF.keys[engine]) ? env[ENV_OF.keys[engine]] : storedKey(engine));
    return {
      RENDER_PROVIDER: pick("engine", env.RENDER_PROVIDER) as EngineId,
      REPLICATE_MODEL: pick("replicateModel", env.REPLICATE_MODEL) as string,
      OPENAI_MODEL: pick("openaiModel", env.OPENAI_MODEL) as string,
      COMFYUI_URL: (pick("comfyuiUrl", env.COMFYUI_URL) as string | undefined) || undefined,
      COMFYUI_UPSCALE_MODEL: pick("comfyuiUpscaleModel", env.COMFYUI_UPSCALE_MODEL) as string,
      COMFYUI_UPSCALE_REFINE: pick("comfyuiUpscaleRefine", env.COMFYUI_UPSCALE_REFINE) as boolean,
      REPLICATE_API_TOKEN: key("replicate"),
      OPENAI_API_KEY: key("openai"),
      COMFYUI_TOKEN: key("comfyui"),
      REPLICATE_API_URL: env.REPLICATE_API_URL,
      OPENAI_API_URL: env.OPENAI_API_URL,
      ...engineRoutesEnv(),
    };
  }

  /** Each task's engines: the environment's list, else the saved one; unset, the task uses RENDER_PROVIDER. */
  function engineRoutesEnv(): Pick<EngineEnv, (typeof ENGINE_TASK_VARIABLES)[EngineTask]> {
    const routes: Partial<Record<(typeof ENGINE_TASK_VARIABLES)[EngineTask], EngineId[]>> = {};
    for (const task of ENGINE_TASKS) {
      const name = ENGINE_TASK_VARIABLES[task];
      const list = fromEnv(name) ? env[name] : stored.engine.routes?.[task];
      if (list && list.length > 0) routes[name] = [...list];
    }
    return routes;
  }

  /**
   * The engine configuration a form describes, over what is in force: keys left empty keep the
   * stored ones. For "Test connection" (before saving) and for saving.
   */
  function engineEnvFor(input: EngineInput): EngineEnv {
    const current = engineEnv();
    const key = (engine: KeyedEngine, currentKey: string | undefined) => {
      if (fromEnv(ENV_OF.keys[engine])) return currentKey;
      const typed = input.keys[engine];
      return typed === undefined ? currentKey : typed === "" ? undefined : typed;
    };
    return {
      ...current,
      RENDER_PROVIDER: fromEnv("RENDER_PROVIDER") ? current.RENDER_PROVIDER : input.engine,
      REPLICATE_MODEL: fromEnv("REPLICATE_MODEL") ? current.REPLICATE_MODEL : input.replicateModel,
      OPENAI_MODEL: fromEnv("OPENAI_MODEL") ? current.OPENAI_MODEL : input.openaiModel,
      COMFYUI_URL: fromEnv("COMFYUI_URL") ? current.COMFYUI_URL : input.comfyuiUrl || undefined,
      // Left out of the form (an older client): the value in force stays.
      COMFYUI_UPSCALE_MODEL:
        fromEnv("COMFYUI_UPSCALE_MODEL") || input.comfyuiUpscaleModel === undefined
          ? current.COMFYUI_UPSCALE_MODEL
          : input.comfyuiUpscaleModel,
      COMFYUI_UPSCALE_REFINE:
        fromEnv("COMFYUI_UPSCALE_REFINE") || input.comfyuiUpscaleRefine === undefined
          ? current.COMFYUI_UPSCALE_REFINE
          : input.comfyuiUpscaleRefine,
      REPLICATE_API_TOKEN: key("replicate", current.REPLICATE_API_TOKEN),
      OPENAI_API_KEY: key("openai", current.OPENAI_API_KEY),
      COMFYUI_TOKEN: key("comfyui", current.COMFYUI_TOKEN),
    };
  }

  /** The Paint tool's settings in force: the saved ones, else the defaults (issue 33). */
  const paint = (): PaintSettings => ({
    palette: stored.paint.palette ?? DEFAULT_PAINT_SETTINGS.palette,
    previewCredits: stored.paint.previewCredits ?? DEFAULT_PAINT_SETTINGS.previewCredits,
  });

  let publicCache: { revision: number; studio: PublicStudio } | undefined;
  function publicStudio(): PublicStudio {
    if (publicCache?.revision === revision) return publicCache.studio;
    const current = brand();
    const studio: PublicStudio = {
      name: current.name,
      supportEmail: current.supportEmail,
      accentColor: current.accentColor,
      logo: current.logo && {
        url: `/studio/logo?v=${current.logo.key.slice(12, 24)}`,
        width: current.logo.width,
        height: current.logo.height,
      },
      signUpCredits: freeCredits().signUpCredits,
      hasTerms: current.termsText !== "",
      hasPrivacy: current.privacyText !== "",
    };
    publicCache = { revision, studio };
    return studio;
  }

  return {
    /** Resolves once the saved settings are read (startApp waits for it before serving). */
    ready,
    /** Grows with every change (pages made from the settings are made again when it moves). */
    get revision() {
      return revision;
    },
    publicStudio,
    brandName: () => brand().name,
    supportEmail: () => brand().supportEmail,
    legalText: (page: "terms" | "privacy") => (page === "terms" ? brand().termsText : brand().privacyText),
    signUpCredits: () => freeCredits().signUpCredits,
    demoRendersPerAddressPerDay: () => freeCredits().demoRendersPerAddressPerDay,
    engineEnv,
    engineEnvFor,
    paint,
    /** Saves the Paint tool's palette and price (checked by paintSettingsInputSchema at the edge); returns what changed, for the audit. */
    async updatePaint(input: PaintSettings) {
      const before = paint();
      await save("paint", { palette: input.palette, previewCredits: input.previewCredits });
      return changes(
        { palette: before.palette.map((colour) => `${colour.name} ${colour.hex}`), previewCredits: before.previewCredits },
        { palette: input.palette.map((colour) => `${colour.name} ${colour.hex}`), previewCredits: input.previewCredits },
      );
    },
    /** True when /admin → Studio saved an engine (start-up then builds it instead of the environment's). */
    engineConfigured: () => Object.keys(stored.engine).length > 0,

    /** The logo's file, for GET /studio/logo. */
    async logo() {
      const current = brand().logo;
      return current ? storage.get(UPLOAD_BUCKET, current.key) : null;
    },

    /** Reads the saved settings again and applies what another instance changed (see refresh above). */
    refresh,
    /** Called after the engine settings change (the render module swaps its engine). */
    onEngineChange(listener: () => void): () => void {
      engineListeners.add(listener);
      return () => engineListeners.delete(listener);
    },

    /** Everything /admin → Studio shows: the values in force, which the environment sets, keys as their last 4 characters. */
    adminView() {
      const engine = engineEnv();
      const keyView = (name: KeyedEngine, value: string | undefined) => ({
        last4: value ? last4(value) : null,
        setByEnvironment: fromEnv(ENV_OF.keys[name]),
        /** A key is stored here but this app secret cannot open it (a restore without its secret). */
        unreadable: !fromEnv(ENV_OF.keys[name]) && stored.engine.keys?.[name] !== undefined && value === undefined,
      });
      const { logo, ...brandValues } = brand();
      return {
        brand: {
          ...brandValues,
          logo: publicStudio().logo,
          hasStoredLogo: logo !== null,
          setByEnvironment: { name: fromEnv("STUDIO_NAME"), supportEmail: fromEnv("SUPPORT_EMAIL") },
        },
        freeCredits: {
          ...freeCredits(),
          setByEnvironment: {
            signUpCredits: fromEnv("SIGNUP_FREE_CREDITS"),
            demoRendersPerAddressPerDay: fromEnv("DEMO_RENDERS_PER_IP_PER_DAY"),
          },
        },
        engine: {
          engine: engine.RENDER_PROVIDER,
          replicateModel: engine.REPLICATE_MODEL,
          openaiModel: engine.OPENAI_MODEL,
          comfyuiUrl: engine.COMFYUI_URL ?? "",
          comfyuiUpscaleModel: shownUpscaleModel(engine),
          comfyuiUpscaleRefine: engine.COMFYUI_UPSCALE_REFINE,
          keys: {
            replicate: keyView("replicate", engine.REPLICATE_API_TOKEN),
            openai: keyView("openai", engine.OPENAI_API_KEY),
            comfyui: keyView("comfyui", engine.COMFYUI_TOKEN),
          },
          routes: Object.fromEntries(
            ENGINE_TASKS.map((task) => [
              task,
              { engines: engine[ENGINE_TASK_VARIABLES[task]] ?? [], setByEnvironment: fromEnv(ENGINE_TASK_VARIABLES[task]) },
            ]),
          ) as Record<EngineTask, { engines: EngineId[]; setByEnvironment: boolean }>,
          setByEnvironment: {
            engine: fromEnv("RENDER_PROVIDER"),
            replicateModel: fromEnv("REPLICATE_MODEL"),
            openaiModel: fromEnv("OPENAI_MODEL"),
            comfyuiUrl: fromEnv("COMFYUI_URL"),
            comfyuiUpscaleModel: fromEnv("COMFYUI_UPSCALE_MODEL"),
            comfyuiUpscaleRefine: fromEnv("COMFYUI_UPSCALE_REFINE"),
          },
        },
      };
    },

    /** Saves the brand; returns what changed, for the audit (the texts by length only). */
    async updateBrand(input: BrandInput) {
      const before = brand();
      refuseEnvironmentChange("STUDIO_NAME", before.name, input.name);
      refuseEnvironmentChange("SUPPORT_EMAIL", before.supportEmail, input.supportEmail);
      const next: StoredBrand = {
        ...stored.brand,
        ...(fromEnv("STUDIO_NAME") ? {} : { name: input.name }),
        ...(fromEnv("SUPPORT_EMAIL") ? {} : { supportEmail: input.supportEmail }),
        accentColor: input.accentColor,
        termsText: input.termsText,
        privacyText: input.privacyText,
      };
      await save("brand", next);
      return changes(
        { ...before, termsText: before.termsText.length, privacyText: before.privacyText.length, logo: undefined },
        { ...brand(), termsText: input.termsText.length, privacyText: input.privacyText.length, logo: undefined },
      );
    },

    /** Checks the picture like an upload, keeps a PNG copy and drops the previous one. */
    async setLogo(bytes: Buffer) {
      const prepared = await prepareLogo(bytes);
      if (!prepared.ok) throw new DomainError("invalid", "logoInvalid");
      await infra.diskFloor.ensureRoom();
      const key = `studio/logo-${createHash("sha256").update(prepared.data).digest("hex").slice(0, 32)}.png`;
      await storage.put(UPLOAD_BUCKET, key, prepared.data, "image/png");
      const previous = stored.brand.logo?.key;
      await save("brand", { ...stored.brand, logo: { key, width: prepared.width, height: prepared.height } });
      if (previous && previous !== key) await storage.remove(UPLOAD_BUCKET, previous);
      return { width: prepared.width, height: prepared.height, bytes: prepared.data.length };
    },

    async removeLogo() {
      const previous = stored.brand.logo?.key;
      if (!previous) return false;
      const { logo: _removed, ...rest } = stored.brand;
      await save("brand", rest);
      await storage.remove(UPLOAD_BUCKET, previous);
      return true;
    },

    async updateFreeCredits(input: FreeCreditsInput) {
      const before = freeCredits();
      refuseEnvironmentChange("SIGNUP_FREE_CREDITS", before.signUpCredits, input.signUpCredits);
      refuseEnvironmentChange("DEMO_RENDERS_PER_IP_PER_DAY", before.demoRendersPerAddressPerDay, input.demoRendersPerAddressPerDay);
      await save("free-credits", {
        ...(fromEnv("SIGNUP_FREE_CREDITS") ? {} : { signUpCredits: input.signUpCredits }),
        ...(fromEnv("DEMO_RENDERS_PER_IP_PER_DAY") ? {} : { demoRendersPerAddressPerDay: input.demoRendersPerAddressPerDay }),
      });
      return changes(before, freeCredits());
    },

    /**
     * Saves the engine settings once `check` (the render module building the engine) accepts the
     * configuration they make; then the engine listeners swap it in. Keys typed in are sealed;
     * what the audit gets names which keys changed, never their values.
     */
    async updateEngine(input: EngineInput, check: (config: EngineEnv) => void) {
      const before = engineEnv();
      refuseEnvironmentChange("RENDER_PROVIDER", before.RENDER_PROVIDER, input.engine);
      refuseEnvironmentChange("REPLICATE_MODEL", before.REPLICATE_MODEL, input.replicateModel);
      refuseEnvironmentChange("OPENAI_MODEL", before.OPENAI_MODEL, input.openaiModel);
      refuseEnvironmentChange("COMFYUI_URL", before.COMFYUI_URL ?? "", input.comfyuiUrl);
      refuseEnvironmentChange("COMFYUI_UPSCALE_MODEL", shownUpscaleModel(before), input.comfyuiUpscaleModel ?? shownUpscaleModel(before));
      refuseEnvironmentChange(
        "COMFYUI_UPSCALE_REFINE",
        before.COMFYUI_UPSCALE_REFINE,
        input.comfyuiUpscaleRefine ?? before.COMFYUI_UPSCALE_REFINE,
      );
      const next = engineEnvFor(input);
      if (next.RENDER_PROVIDER === "replicate" && !next.REPLICATE_API_TOKEN) throw new DomainError("invalid", "engineKeyMissing");
      if (next.RENDER_PROVIDER === "openai" && !next.OPENAI_API_KEY) throw new DomainError("invalid", "engineKeyMissing");
      if (next.RENDER_PROVIDER === "comfyui" && !next.COMFYUI_URL) throw new DomainError("invalid", "engineUrlMissing");
      check(next);
      const keys: Partial<Record<KeyedEngine, StoredKey>> = { ...stored.engine.keys };
      const keysChanged: KeyedEngine[] = [];
      for (const engine of ["replicate", "openai", "comfyui"] as const) {
        const typed = input.keys[engine];
        if (typed === undefined || fromEnv(ENV_OF.keys[engine])) continue;
        keysChanged.push(engine);
        if (typed === "") delete keys[engine];
        else keys[engine] = { sealed: secretBox.encrypt(new TextEncoder().encode(typed)), last4: last4(typed) };
      }
      await save("engine", {
        ...(fromEnv("RENDER_PROVIDER") ? {} : { engine: input.engine }),
        ...(fromEnv("REPLICATE_MODEL") ? {} : { replicateModel: input.replicateModel }),
        ...(fromEnv("OPENAI_MODEL") ? {} : { openaiModel: input.openaiModel }),
        ...(fromEnv("COMFYUI_URL") ? {} : { comfyuiUrl: input.comfyuiUrl }),
        ...upscaleFields(input),
        keys,
        // The engines per task are saved by their own form (updateEngineRoutes) and kept here.
        ...(stored.engine.routes ? { routes: stored.engine.routes } : {}),
      });
      for (const listener of engineListeners) listener();
      const after = engineEnv();
      const visible = (config: EngineEnv) => ({
        engine: config.RENDER_PROVIDER,
        replicateModel: config.REPLICATE_MODEL,
        openaiModel: config.OPENAI_MODEL,
        comfyuiUrl: config.COMFYUI_URL ?? "",
        comfyuiUpscaleModel: shownUpscaleModel(config),
        comfyuiUpscaleRefine: config.COMFYUI_UPSCALE_REFINE,
      });
      return { ...changes(visible(before), visible(after)), keysChanged };
    },

    /**
     * Saves each task's engines in the order tried (an empty list: the studio's engine) once `check`
     * (the render module) accepts the configuration they make; then the engine listeners swap them in.
     * A task the environment lists may only be sent back unchanged.
     */
    async updateEngineRoutes(input: EngineRoutesInput, check: (config: EngineEnv) => void) {
      const before = engineEnv();
      const routes: Partial<Record<EngineTask, EngineId[]>> = {};
      for (const task of ENGINE_TASKS) {
        const name = ENGINE_TASK_VARIABLES[task];
        if (fromEnv(name)) {
          if (JSON.stringify(before[name]) !== JSON.stringify(input[task])) throw new DomainError("invalid", "setByEnvironment");
          continue;
        }
        if (input[task].length > 0) routes[task] = [...input[task]];
      }
      const next: EngineEnv = { ...before };
      for (const task of ENGINE_TASKS) {
        const name = ENGINE_TASK_VARIABLES[task];
        if (!fromEnv(name)) next[name] = routes[task];
      }
      check(next);
      await save("engine", { ...stored.engine, routes });
      for (const listener of engineListeners) listener();
      const visible = (config: EngineEnv) =>
        Object.fromEntries(ENGINE_TASKS.map((task) => [task, config[ENGINE_TASK_VARIABLES[task]] ?? []]));
      return changes(visible(before), visible(engineEnv()));
    },
  };
}

/** The fields whose value changed, as { field: { from, to } }. */
function changes<T extends Record<string, unknown>>(before: T, after: T): { changed: Record<string, { from: unknown; to: unknown }> } {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(after)) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changed[field] = { from: before[field], to: after[field] };
  }
  return { changed };
}

export type SettingsModule = ReturnType<typeof createSettingsModule>;
