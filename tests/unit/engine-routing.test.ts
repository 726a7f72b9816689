/**
 * Engines per task (decision 088) without a server: ENGINES_* are read as ordered lists of known
 * engines; with none set each task is the studio's engine's, so what the interface is offered is
 * exactly that engine's capabilities (existing installs unchanged); a listed engine not set up is
 * left out at start and refused when a configuration is saved.
 */
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../src/server/env";
import { COMFYUI_CAPABILITIES } from "../../src/server/render/engines/comfyui";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import { OPENAI_CAPABILITIES } from "../../src/server/render/engines/openai";
import { PredictionWaiters } from "../../src/server/render/engines/replicate-webhook";
import { buildEngineSet, EngineRouteError, singleEngineSet } from "../../src/server/render/engines/routing";

describe("engines per task", () => {
  it("reads ENGINES_* as ordered lists of known engines, each at most once", () => {
    expect(parseEnv({ ENGINES_RENDER: "openai, comfyui", ENGINES_EDIT: "comfyui" })).toMatchObject({
      ENGINES_RENDER: ["openai", "comfyui"],
      ENGINES_EDIT: ["comfyui"],
    });
    expect(parseEnv({}).ENGINES_RENDER).toBeUndefined();
    expect(() => parseEnv({ ENGINES_RENDER: "openai,midjourney" })).toThrow(EnvError);
    expect(() => parseEnv({ ENGINES_RENDER: "openai,openai" })).toThrow(/at most once/);
  });

  it("with no list, every task the studio's engine can do is its own, and the interface is offered exactly its capabilities", () => {
    for (const RENDER_PROVIDER of ["local", "openai", "comfyui"] as const) {
      const env = parseEnv({ RENDER_PROVIDER, OPENAI_API_KEY: "sk-x", COMFYUI_URL: "http://127.0.0.1:9" });
      const set = buildEngineSet(env, new PredictionWaiters(), { strict: true });
      // As the engine itself declares them (ComfyUI upscales with its default upscale model).
      expect(set.info().capabilities).toEqual(set.engines.get(RENDER_PROVIDER)!.capabilities);
      expect(set.info().capabilities.modes).toEqual(
        { local: PREVIEW_CAPABILITIES, openai: OPENAI_CAPABILITIES, comfyui: COMFYUI_CAPABILITIES }[RENDER_PROVIDER].modes,
      );
      expect(set.info().id).toBe(RENDER_PROVIDER);
      // Every configured engine is built, whichever renders.
      expect([...set.engines.keys()].sort()).toEqual(["comfyui", "local", "openai"]);
    }
    expect(singleEngineSet(localProvider).info().tasks).toEqual({
      render: ["local"],
      stage: [],
      declutter: [],
      exterior: [],
      edit: ["local"],
      upscale: [],
    });
  });

  it("leaves out at start a listed engine that is not set up (with a warning), and refuses it when a configuration is saved", () => {
    const env = parseEnv({ ENGINES_RENDER: "openai,local" });
    const warnings: unknown[] = [];
    const set = buildEngineSet(env, new PredictionWaiters(), { strict: false, warn: (_message, fields) => warnings.push(fields) });
    expect(set.info().tasks.render).toEqual(["local"]);
    expect(warnings).toEqual([{ engine: "openai", task: "render" }]);
    expect(() => buildEngineSet(env, new PredictionWaiters(), { strict: true })).toThrow(EngineRouteError);
    // The Preview engine cannot stage: listing it there is refused too.
    expect(() => buildEngineSet(parseEnv({ ENGINES_STAGE: "local" }), new PredictionWaiters(), { strict: true })).toThrow(EngineRouteError);
  });
});
