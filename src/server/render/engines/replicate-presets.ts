/**
 * Replicate model presets: for each model this studio runs on Replicate, how the engine contract
 * maps onto the model's inputs, how its output is read back, and what the model can do.
 * REPLICATE_MODEL picks the render preset; a model without a preset is refused at start, because
 * every model names its inputs differently and a guess would fail on the first render (or, worse,
 * silently ignore the photo). The upscaler and the inpainting model are presets too; the Replicate
 * provider uses them whatever the render preset is.
 *
 * Each schema was checked on 2026-11-22 against the model's API page on replicate.com (stored copies,
 * through the docs search), or the model's published Cog source where the page did not show the
 * schema; the source is named on each entry. Prompts always come from prompt.ts.
 *
 * "Official" models (maintained by Replicate, always warm) are run by name:
 * POST /v1/models/{owner}/{name}/predictions. Community models need a version: the provider asks
 * for the latest one when Replicate refuses the name (see createReplicateProvider).
 */
import type { EngineCapabilities } from "../../../shared/render";
import type { InpaintRequest, RenderRequest, UpscaleRequest } from "./provider";
import { buildInpaintPrompt, buildInstructionPrompt, buildNegativePrompt, buildPrompt, type PlanView, type PromptChoices } from "./prompt";

/** How a model answers: one URL; one URL or a list of them (the first is the image); [control map, render]. */
export type ReplicateOutputShape = "url" | "url-or-list" | "control-map-then-render";

/** What a preset sends: the input, and the provenance a result carries (the prompt, the other inputs without image data). */
export interface PresetCall {
  input: Record<string, unknown>;
  /** The positive prompt exactly as sent, when the model takes one. */
  prompt?: string;
  /** The other inputs sent, without the images, the prompt and the seed (which the result carries on its own). */
  parameters: Record<string, unknown>;
}

interface PresetBase {
  /** owner/name on replicate.com. */
  readonly model: string;
  /** Official models run by name, with a stable schema; community models run by version. */
  readonly official: boolean;
  /** What it is good for, in a sentence (docs/rendering-engines.md, the admin's choice). */
  readonly goodFor: string;
  /** Where the schema below was checked. */
  readonly schemaSource: string;
  readonly output: ReplicateOutputShape;
}

/** The picture's own capabilities; masks and upscale depend on the inpainting and upscale presets beside it. */
export type RenderPresetCapabilities = Omit<EngineCapabilities, "masks" | "upscale">;

export interface RenderPreset extends PresetBase {
  readonly role: "render";
  readonly capabilities: RenderPresetCapabilities;
  /**
   * The input for a render; `image` is the prepared photo as a data URI, `reference` a set's
   * reference picture as one (given only to a preset whose capabilities take a reference picture).
   */
  input(request: RenderRequest, image: string, reference?: string): PresetCall;
}

export interface InpaintPreset extends PresetBase {
  readonly role: "inpaint";
  input(request: InpaintRequest, images: { image: string; mask: string }): PresetCall;
}

export interface UpscalePreset extends PresetBase {
  readonly role: "upscale";
  input(request: UpscaleRequest, image: string): PresetCall;
}

export type ReplicatePreset = RenderPreset | InpaintPreset | UpscalePreset;

const choicesOf = (request: RenderRequest, planView: PlanView, reference = false): PromptChoices => ({
  style: request.style,
  customStyle: request.styleSnapshot,
  roomType: request.roomType,
  mode: request.mode,
  renderMode: request.renderMode,
  note: request.prompt,
  planView,
  reference,
});

const withSeed = (seed: number | undefined): { seed?: number } => (seed === undefined ? {} : { seed });

/** The call, with its provenance: everything but the image fields, the prompt and the seed is a parameter. */
function call(input: Record<string, unknown>, imageFields: readonly string[]): PresetCall {
  const parameters = Object.fromEntries(
    Object.entries(input).filter(([key]) => !imageFields.includes(key) && key !== "prompt" && key !== "seed"),
  );
  return { input, ...(typeof input.prompt === "string" ? { prompt: input.prompt } : {}), parameters };
}

/**
 * adirik/interior-design (community; the default). Realistic Vision 3.0 (SD 1.5) inpainting with a
 * segmentation and an MLSD ControlNet: windows, doors and columns are kept out of the repainted
 * area. Inputs (Cog source, neuralwork/sd-interior-design predict.py): image, prompt,
 * negative_prompt, num_inference_steps (1–500, default 50), guidance_scale (1–50, default 15),
 * prompt_strength (0–1, default 0.8: how much of the photo is repainted), seed (random when blank;
 * the model does not print the one it picked). Output: one PNG URL, resized back to the input's
 * size after rendering at 768 px on the long edge.
 */
const ADIRIK_INTERIOR_DESIGN: RenderPreset = {
  role: "render",
  model: "adirik/interior-design",
  official: false,
  goodFor: "Restyling and staging a room photo while ControlNets hold windows, doors and straight lines; cheap and fast (SD 1.5).",
  schemaSource:
    "https://github.com/neuralwork/sd-interior-design/blob/main/predict.py (the Cog source behind replicate.com/adirik/interior-design; the API page itself was not in the stored copies)",
  output: "url",
  capabilities: {
    isAi: true,
    // A diffusion repaint, not an instruction follower: "remove the clutter, keep the furniture" repaints everything.
    modes: ["redesign", "stage"],
    maxOutputLongEdge: 768,
    seeds: true,
    // diffusers prints a tqdm bar per step into the logs.
    percentProgress: true,
    structureStrength: true,
    // Its segmentation and MLSD ControlNets hold the input's lines: from a plan, a furnished top view of the drawing.
    floorPlan: "top-down",
  },
  input(request, image) {
    return call(
      {
        image,
        prompt: buildPrompt(choicesOf(request, "top-down")),
        negative_prompt: buildNegativePrompt(request.mode, request.renderMode, "top-down", request.styleSnapshot),
        guidance_scale: 15,
        // Less of the photo repainted holds its lines better: the "strong" re-render after a low structure score.
        prompt_strength: request.structure === "strong" ? 0.6 : 0.8,
        num_inference_steps: 50,
        ...withSeed(request.seed),
      },
      ["image"],
    );
  },
};

/**
 * jagilley/controlnet-hough (community): SD 1.5 with the MLSD (straight line) ControlNet. Inputs
 * (generated client of the model's schema; replicate.com/jagilley/controlnet-hough/api): image,
 * prompt, a_prompt (added prompt, default "best quality, extremely detailed"), n_prompt,
 * ddim_steps (default 20), image_resolution (a string, default "512": the short edge),
 * scale (guidance, default 9), seed, eta, num_samples, value_threshold, distance_threshold,
 * detect_resolution. Output: a list of URLs, [control map, render].
 */
const JAGILLEY_CONTROLNET_HOUGH: RenderPreset = {
  role: "render",
  model: "jagilley/controlnet-hough",
  official: false,
  goodFor: "A strict line-for-line restyle: the render follows the photo's straight lines (walls, windows, cabinets) and little else.",
  schemaSource: "https://replicate.com/jagilley/controlnet-hough/api (inputs as listed by a generated client of its schema)",
  output: "control-map-then-render",
  capabilities: {
    isAi: true,
    modes: ["redesign", "stage"],
    // image_resolution "512" is the short edge: 768 on the long edge of a 3:2 photo.
    maxOutputLongEdge: 768,
    seeds: true,
    // ControlNet's DDIM sampler prints a tqdm bar ("DDIM Sampler: 45%|…") into the logs.
    percentProgress: true,
    // The schema has no ControlNet strength.
    structureStrength: false,
    // The MLSD ControlNet follows the plan's straight lines: a furnished top view, never an eye-level room.
    floorPlan: "top-down",
  },
  input(request, image) {
    // a_prompt is left at the model's default: the quality words are in buildPrompt already.
    return call(
      {
        image,
        prompt: buildPrompt(choicesOf(request, "top-down")),
        n_prompt: buildNegativePrompt(request.mode, request.renderMode, "top-down", request.styleSnapshot),
        ddim_steps: 20,
        image_resolution: "512",
        scale: 9,
        ...withSeed(request.seed),
      },
      ["image"],
    );
  },
};

/**
 * black-forest-labs/flux-kontext-pro (official): instruction-based editing that keeps the scene.
 * Inputs (replicate.com/black-forest-labs/flux-kontext-pro, version 0a138193 API page): prompt,
 * input_image (jpeg, png, gif or webp), aspect_ratio (default "match_input_image"),
 * prompt_upsampling (default false), seed, output_format (default "png"), safety_tolerance
 * (0–6, default 2; "2 is currently the maximum allowed when input images are used"). No negative
 * prompt field. Output: one URL.
 */
const FLUX_KONTEXT_PRO: RenderPreset = {
  role: "render",
  model: "black-forest-labs/flux-kontext-pro",
  official: true,
  goodFor: "Instruction editing that keeps the room as it is: redesign, staging an empty room and decluttering all follow the prompt.",
  schemaSource:
    "https://replicate.com/black-forest-labs/flux-kontext-pro/versions/0a1381936934845a14efcc9f309ce7d031cb905867878b5c5830280e00e97606/api",
  output: "url",
  capabilities: {
    isAi: true,
    // All three through the prompt: the model follows instructions ("remove the clutter, keep the furniture").
    modes: ["redesign", "stage", "declutter", "sky", "twilight", "garden"],
    // About one megapixel at the input's aspect ratio (1024 square, about 1248 on the long edge at 3:2); Replicate's page names no size.
    maxOutputLongEdge: 1248,
    seeds: true,
    // Run on Black Forest Labs' API: no step-by-step logs to read.
    percentProgress: false,
    structureStrength: false,
    // An instruction editor: it imagines one eye-level view of the plan's room.
    floorPlan: "eye-level",
  },
  input(request, image) {
    return call(
      {
        prompt: buildInstructionPrompt(choicesOf(request, "eye-level")),
        input_image: image,
        aspect_ratio: "match_input_image",
        output_format: "png",
        safety_tolerance: 2,
        // Off: an upsampled prompt is not reproducible with the same seed, and it would no longer be the prompt we record.
        prompt_upsampling: false,
        ...withSeed(request.seed),
      },
      ["input_image"],
    );
  },
};

/**
 * google/nano-banana (official): Gemini 2.5 Flash Image editing. Inputs (replicate.com/google/
 * nano-banana, version f0a9d34b API page): prompt, image_input (an array of images), output_format
 * (default "jpg"). No seed, no negative prompt. Output: one URL (read as one URL or a list, in
 * case a version answers with a list).
 */
const GOOGLE_NANO_BANANA: RenderPreset = {
  role: "render",
  model: "google/nano-banana",
  official: true,
  goodFor: "Gemini image editing: follows plain-language instructions well, including staging and decluttering; no seeds.",
  schemaSource: "https://replicate.com/google/nano-banana/versions/f0a9d34b12ad1c1cd76269a844b218ff4e64e128ddaba93e15891f47368958a0/api",
  output: "url-or-list",
  capabilities: {
    isAi: true,
    modes: ["redesign", "stage", "declutter", "sky", "twilight", "garden"],
    // About one megapixel (1024 × 1024 square); not stated on Replicate's page.
    maxOutputLongEdge: 1024,
    seeds: false,
    percentProgress: false,
    structureStrength: false,
    // An instruction editor: it imagines one eye-level view of the plan's room.
    floorPlan: "eye-level",
    // image_input takes several pictures: a set's reference goes second, as on OpenAI.
    referencePicture: true,
  },
  input(request, image, reference) {
    const prompt = buildInstructionPrompt(choicesOf(request, "eye-level", reference !== undefined));
    return call({ prompt, image_input: reference ? [image, reference] : [image], output_format: "jpg" }, ["image_input"]);
  },
};

/**
 * google/nano-banana-2 (official), nano-banana's successor (Gemini 3.1 Flash Image). Inputs
 * (replicate.com/google/nano-banana-2, versions 4ff88d44 and 71516450 API pages): prompt,
 * image_input (up to 14 images), aspect_ratio (default "match_input_image"), output_format
 * (default "jpg"); the later version adds resolution (default "1K"), google_search and
 * image_search, which are left at their defaults. No seed. Output: one URL.
 * (google/nano-banana-pro's schema could not be confirmed, so it has no preset.)
 */
const GOOGLE_NANO_BANANA_2: RenderPreset = {
  role: "render",
  model: "google/nano-banana-2",
  official: true,
  goodFor: "The newer Gemini image editor: like nano-banana, with the output kept at the photo's aspect ratio; no seeds.",
  schemaSource: "https://replicate.com/google/nano-banana-2/versions/71516450bdbeafc41df33ad538bc8cc6a90f80038a563b1260531c02d694f4fd/api",
  output: "url-or-list",
  capabilities: {
    isAi: true,
    modes: ["redesign", "stage", "declutter", "sky", "twilight", "garden"],
    // resolution "1K" (the default).
    maxOutputLongEdge: 1024,
    seeds: false,
    percentProgress: false,
    structureStrength: false,
    // An instruction editor: it imagines one eye-level view of the plan's room.
    floorPlan: "eye-level",
    // image_input takes up to 14 pictures: a set's reference goes second, as on OpenAI.
    referencePicture: true,
  },
  input(request, image, reference) {
    return call(
      {
        prompt: buildInstructionPrompt(choicesOf(request, "eye-level", reference !== undefined)),
        image_input: reference ? [image, reference] : [image],
        aspect_ratio: "match_input_image",
        output_format: "jpg",
      },
      ["image_input"],
    );
  },
};

/**
 * black-forest-labs/flux-fill-pro (official): inpainting. Inputs (replicate.com/black-forest-labs/
 * flux-fill-pro, versions 9609ba73 and f92def75 API pages): prompt, image, mask ("Black areas will
 * be preserved while white areas will be inpainted. Must have the same size as image."), outpaint,
 * seed, steps (1–50, default 50), prompt_upsampling (default false), guidance (2–5, default 3),
 * safety_tolerance (1–6, default 2), output_format (default "jpg"). Output: one URL.
 */
const FLUX_FILL_PRO: InpaintPreset = {
  role: "inpaint",
  model: "black-forest-labs/flux-fill-pro",
  official: true,
  goodFor: "Targeted edits of a painted region (the modification studio): replace or remove one object, repaint one wall.",
  schemaSource:
    "https://replicate.com/black-forest-labs/flux-fill-pro/versions/f92def7593b3817df07edf97445f72775053797eba0ab20ae51d2703cba81c6c/api",
  output: "url",
  input(request, { image, mask }) {
    return call(
      {
        image,
        mask,
        prompt: buildInpaintPrompt(request.prompt, request.paint),
        steps: 50,
        guidance: 3,
        safety_tolerance: 2,
        prompt_upsampling: false,
        output_format: "jpg",
        ...withSeed(request.seed),
      },
      ["image", "mask"],
    );
  },
};

/**
 * nightmareai/real-esrgan (community): Real-ESRGAN upscaling. Inputs (replicate.com/nightmareai/
 * real-esrgan versions a462d24b and 350d3204): image, scale (a number, 0–10, default 4),
 * face_enhance (GFPGAN; default true in older versions, false in newer ones, so always sent).
 * Output: one URL.
 */
const REAL_ESRGAN: UpscalePreset = {
  role: "upscale",
  model: "nightmareai/real-esrgan",
  official: false,
  goodFor: "An AI upscale of a finished render to the photo's size (2–10×).",
  schemaSource: "https://replicate.com/nightmareai/real-esrgan/versions/a462d24b148ac8503a4519090095bd5d3e519eb49d9ab65f389ff2f025bb9700",
  output: "url",
  input(request, image) {
    // Faces are rare in interiors, and GFPGAN would invent them in pictures and reflections.
    return call({ image, scale: upscaleFactor(request), face_enhance: false }, ["image"]);
  },
};

/** Real-ESRGAN's range here: at least 2 (less is not worth a GPU), at most 10 (the model's maximum). */
export const UPSCALE_FACTOR_RANGE = { min: 2, max: 10 } as const;

/** The whole factor that makes the picture reach the target on both edges, within 2–10 (at 10 it may fall short). */
export function upscaleFactor({
  width,
  height,
  targetWidth,
  targetHeight,
}: Pick<UpscaleRequest, "width" | "height" | "targetWidth" | "targetHeight">): number {
  if (!(width > 0 && height > 0 && targetWidth > 0 && targetHeight > 0)) throw new RangeError("An upscale needs positive sizes");
  // The small tolerance keeps 1024 → 2048 at 2, not 3, when the division is a hair over 2.
  const needed = Math.ceil(Math.max(targetWidth / width, targetHeight / height) - 1e-9);
  return Math.min(UPSCALE_FACTOR_RANGE.max, Math.max(UPSCALE_FACTOR_RANGE.min, needed));
}

/** Every preset, render ones first. */
export const REPLICATE_PRESETS: readonly ReplicatePreset[] = [
  ADIRIK_INTERIOR_DESIGN,
  FLUX_KONTEXT_PRO,
  GOOGLE_NANO_BANANA,
  GOOGLE_NANO_BANANA_2,
  JAGILLEY_CONTROLNET_HOUGH,
  FLUX_FILL_PRO,
  REAL_ESRGAN,
];

export const DEFAULT_REPLICATE_MODEL = ADIRIK_INTERIOR_DESIGN.model;
export const DEFAULT_REPLICATE_UPSCALE_MODEL = REAL_ESRGAN.model;
export const DEFAULT_REPLICATE_INPAINT_MODEL = FLUX_FILL_PRO.model;

/** The models REPLICATE_MODEL may name. */
export const REPLICATE_RENDER_MODELS: readonly string[] = REPLICATE_PRESETS.filter((preset) => preset.role === "render").map(
  (preset) => preset.model,
);

/** The preset of owner/name (a version after ":" is ignored), or undefined. */
export function findReplicatePreset(model: string): ReplicatePreset | undefined {
  const name = model.split(":", 1)[0];
  return REPLICATE_PRESETS.find((preset) => preset.model === name);
}

/** The refusal at start: names the variable and lists what it may be. */
export class UnknownReplicateModelError extends Error {
  override name = "UnknownReplicateModelError";
}

function presetOfRole<Role extends ReplicatePreset["role"]>(
  model: string,
  role: Role,
  setting: string,
): Extract<ReplicatePreset, { role: Role }> {
  const preset = findReplicatePreset(model);
  if (preset?.role === role) return preset as Extract<ReplicatePreset, { role: Role }>;
  const known = REPLICATE_PRESETS.filter((candidate) => candidate.role === role).map((candidate) => candidate.model);
  const why = preset ? `is the ${preset.role} preset, not a ${role} one` : "has no preset (its inputs and outputs are not known here)";
  throw new UnknownReplicateModelError(`${setting}=${model} ${why}. Known ${role} presets: ${known.join(", ")}.`);
}

/** The render preset REPLICATE_MODEL names; throws UnknownReplicateModelError listing the known ones. */
export function renderPresetFor(model: string): RenderPreset {
  return presetOfRole(model, "render", "REPLICATE_MODEL");
}

export function upscalePresetFor(model: string): UpscalePreset {
  return presetOfRole(model, "upscale", "The Replicate upscale model");
}

export function inpaintPresetFor(model: string): InpaintPreset {
  return presetOfRole(model, "inpaint", "The Replicate inpainting model");
}

const isHttpUrlOrDataUri = (value: unknown): value is string => {
  if (typeof value !== "string") return false;
  if (value.startsWith("data:")) return true;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
};

/** The image URL in a model's output, read as the preset says it comes; null when the answer is not that shape. */
export function outputUrl(shape: ReplicateOutputShape, output: unknown): string | null {
  let candidate: unknown;
  switch (shape) {
    case "url":
      // A one-item list is the same answer: some versions of a model wrap it.
      candidate = Array.isArray(output) && output.length === 1 ? output[0] : output;
      break;
    case "url-or-list":
      candidate = Array.isArray(output) ? output[0] : output;
      break;
    case "control-map-then-render":
      // [control map, render, render…]: the first is the line drawing, never the picture.
      candidate = Array.isArray(output) && output.length >= 2 ? output.at(-1) : undefined;
      break;
  }
  return isHttpUrlOrDataUri(candidate) ? candidate : null;
}
