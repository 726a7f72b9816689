/**
 * The render engines: one adapter per engine (the offline Preview engine, ComfyUI, Replicate,
 * OpenAI) behind the RenderProvider interface, their prompts and workflows, the engines of each
 * task with fallback (routing.ts) and their states, and the structure check that compares a result with its photo.
 * Engines know nothing of jobs, credits or owners: the jobs part calls them.
 *
 * The rest of the render module imports this file only (lint: render-engines-behind-its-index).
 */
export { createRenderProvider, replicateWebhookUrl } from "./choose";
export {
  ableFor,
  buildEngineSet,
  configuredEngineIds,
  describeSkips,
  EngineRouteError,
  EngineSet,
  errorDetail,
  isDownFailure,
  NoEngineLeft,
  runWithFallback,
  singleEngineSet,
  type EngineSkip,
  type FallbackDeps,
} from "./routing";
export { EngineStates, type EngineState } from "./states";
export { listedUpscaleModels, upscaleModelOf } from "./comfyui";
export { localProvider } from "./local";
export {
  PermanentRenderError,
  RetryableRenderError,
  type EngineCapabilities,
  type EngineWork,
  type InpaintRequest,
  type RenderProvider,
  type RenderRequest,
  type RenderResult,
  type UpscaleRequest,
} from "./provider";
export { PredictionWaiters, replicateWebhookHandler } from "./replicate-webhook";
export { renderPresetFor, REPLICATE_RENDER_MODELS } from "./replicate-presets";
export { structureScore, type StructureScore } from "./structure";
