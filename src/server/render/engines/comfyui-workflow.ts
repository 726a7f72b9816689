/**
 * The ComfyUI workflow templates: graphs in ComfyUI's API format ({<node id>: {class_type, inputs}},
 * links as [node id, output index]) with placeholders where the render's values go. Read and
 * checked once, when the engine is created, so a broken template stops the server at start with
 * the file and the problem named, instead of failing every render later.
 *
 * Placeholder scheme: an input whose whole value is the string "{{name}}" is replaced by the
 * value of that name (numbers as JSON numbers). The node whose `_meta.title` is "{{output}}" is
 * the one whose image is the result; without such a title, the workflow's only SaveImage node.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const TEMPLATE_NAMES = ["restyle", "stage", "inpaint", "upscale", "upscale-refine"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** Every placeholder a template may use, and whether its value is a number. */
export const PLACEHOLDERS = {
  /** The uploaded photo, as LoadImage names it ("subfolder/name"). */
  image: "text",
  /** The uploaded mask (white = change), for LoadImageMask. */
  mask: "text",
  prompt: "text",
  negative_prompt: "text",
  seed: "number",
  denoise: "number",
  /** COMFYUI_CHECKPOINT in restyle, stage and upscale-refine, COMFYUI_INPAINT_CHECKPOINT in inpaint. */
  checkpoint: "text",
  controlnet_depth: "text",
  controlnet_lines: "text",
  depth_strength: "number",
  lines_strength: "number",
  /** COMFYUI_UPSCALE_MODEL: a file under ComfyUI's models/upscale_models, for UpscaleModelLoader. */
  upscale_model: "text",
  /** The size the upscale ends at: the photo's own (ImageScale's width and height). */
  width: "number",
  height: "number",
} as const;
export type PlaceholderName = keyof typeof PLACEHOLDERS;
export type PlaceholderValues<Name extends PlaceholderName = PlaceholderName> = {
  [Key in Name]: (typeof PLACEHOLDERS)[Key] extends "number" ? number : string;
};

const RESTYLE_PLACEHOLDERS = [
  "image",
  "prompt",
  "negative_prompt",
  "seed",
  "denoise",
  "checkpoint",
  "controlnet_depth",
  "controlnet_lines",
  "depth_strength",
  "lines_strength",
] as const satisfies readonly PlaceholderName[];

/** The placeholders each template must contain: all of them are filled at every render, none is optional. */
export const REQUIRED_PLACEHOLDERS = {
  restyle: RESTYLE_PLACEHOLDERS,
  stage: RESTYLE_PLACEHOLDERS,
  inpaint: ["image", "mask", "prompt", "negative_prompt", "seed", "denoise", "checkpoint"],
  upscale: ["image", "upscale_model", "width", "height"],
  // The upscale, then a light img2img pass over it (COMFYUI_UPSCALE_REFINE).
  "upscale-refine": ["image", "upscale_model", "width", "height", "checkpoint", "prompt", "negative_prompt", "seed", "denoise"],
} as const satisfies Record<TemplateName, readonly PlaceholderName[]>;

export type TemplatePlaceholders<Name extends TemplateName> = (typeof REQUIRED_PLACEHOLDERS)[Name][number];

export const OUTPUT_TITLE = "{{output}}";

/** The workflows shipped with the app. */
export const SHIPPED_WORKFLOW_DIR = fileURLToPath(new URL("./comfyui-workflows/", import.meta.url));

export interface ApiNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta?: { title?: string };
}
export type ApiGraph = Record<string, ApiNode>;

export interface Workflow<Name extends TemplateName = TemplateName> {
  name: Name;
  /** The file it was read from. */
  file: string;
  graph: ApiGraph;
  /** Where each placeholder goes: node id and input name. */
  slots: Array<{ node: string; input: string; placeholder: TemplatePlaceholders<Name> }>;
  /** The node whose image is the result. */
  outputNode: string;
  /** The nodes holding {{seed}}: the samplers, whose progress is the render's progress (none in upscale.json: every bar counts). */
  samplerNodes: string[];
}

export type Workflows = { [Name in TemplateName]: Workflow<Name> };

/** A template that cannot be used; the message names the file. */
export class WorkflowError extends Error {
  override name = "WorkflowError";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isLink = (value: unknown): value is [string, number] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && Number.isInteger(value[1]);
const PLACEHOLDER = /^\{\{(\w+)\}\}$/;

/** Checks a parsed graph against its template's placeholder list; throws a WorkflowError naming the file. */
export function validateWorkflow<Name extends TemplateName>(name: Name, file: string, parsed: unknown): Workflow<Name> {
  const fail = (problem: string) => new WorkflowError(`ComfyUI workflow ${file}: ${problem}`);
  if (!isRecord(parsed)) throw fail("expected a JSON object of nodes (a workflow exported with Export (API))");
  if (Array.isArray(parsed.nodes) && Array.isArray(parsed.links)) {
    throw fail("this is the editor's format; export the workflow with Export (API) instead");
  }
  const required: readonly PlaceholderName[] = REQUIRED_PLACEHOLDERS[name];
  const graph: ApiGraph = {};
  const slots: Workflow<Name>["slots"] = [];
  for (const [id, node] of Object.entries(parsed)) {
    if (!isRecord(node) || typeof node.class_type !== "string" || !isRecord(node.inputs)) {
      throw fail(`node ${id} is not {class_type, inputs}`);
    }
    graph[id] = node as unknown as ApiNode;
    for (const [input, value] of Object.entries(node.inputs)) {
      if (typeof value !== "string" || !value.includes("{{")) continue;
      const placeholder = PLACEHOLDER.exec(value)?.[1];
      if (!placeholder) throw fail(`node ${id} input ${input}: a placeholder must be the whole value, got "${value}"`);
      if (!(placeholder in PLACEHOLDERS)) throw fail(`node ${id} input ${input}: unknown placeholder {{${placeholder}}}`);
      if (!required.includes(placeholder as PlaceholderName)) {
        throw fail(`node ${id} input ${input}: {{${placeholder}}} is not given to the ${name} workflow`);
      }
      slots.push({ node: id, input, placeholder: placeholder as TemplatePlaceholders<Name> });
    }
  }
  if (Object.keys(graph).length === 0) throw fail("the workflow has no nodes");

  const missing = required.filter((placeholder) => !slots.some((slot) => slot.placeholder === placeholder));
  if (missing.length > 0) {
    const list = missing.map((placeholder) => `{{${placeholder}}}`).join(", ");
    throw fail(
      `lacks the placeholder${missing.length === 1 ? "" : "s"} ${list} (the ${name} workflow needs ${required.length}: see docs/rendering-engines.md)`,
    );
  }

  for (const [id, node] of Object.entries(graph)) {
    for (const [input, value] of Object.entries(node.inputs)) {
      if (isLink(value) && !(value[0] in graph))
        throw fail(`node ${id} input ${input} links to node ${value[0]}, which is not in the workflow`);
    }
  }

  const titled = Object.keys(graph).filter((id) => graph[id]?._meta?.title === OUTPUT_TITLE);
  const saves = Object.keys(graph).filter((id) => graph[id]?.class_type === "SaveImage");
  if (titled.length > 1) throw fail(`several nodes are titled ${OUTPUT_TITLE} (${titled.join(", ")}); the result comes from one`);
  const outputNode = titled[0] ?? (saves.length === 1 ? saves[0] : undefined);
  if (!outputNode) {
    throw fail(
      saves.length === 0
        ? `no output node: give the node that saves the result the title ${OUTPUT_TITLE}, or use a SaveImage node`
        : `${saves.length} SaveImage nodes (${saves.join(", ")}): title the one with the result ${OUTPUT_TITLE}`,
    );
  }

  const samplerNodes = [...new Set(slots.filter((slot) => slot.placeholder === "seed").map((slot) => slot.node))];
  return { name, file, graph, slots, outputNode, samplerNodes };
}

function readWorkflow<Name extends TemplateName>(name: Name, file: string): Workflow<Name> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new WorkflowError(`ComfyUI workflow ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WorkflowError(`ComfyUI workflow ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return validateWorkflow(name, file, parsed);
}

/**
 * The templates: each from `dir` when it has the file, else the shipped one, so an operator
 * can replace only the workflow they care about. A `dir` that holds none of them is a mistake.
 */
export function loadWorkflows(dir?: string): Workflows {
  let fromDir: ReadonlySet<string> = new Set();
  if (dir !== undefined) {
    let entries: string[];
    try {
      entries = fs.readdirSync(dir);
    } catch (error) {
      throw new WorkflowError(`COMFYUI_WORKFLOW_DIR ${dir} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    fromDir = new Set(entries);
    if (!TEMPLATE_NAMES.some((name) => fromDir.has(`${name}.json`))) {
      throw new WorkflowError(`COMFYUI_WORKFLOW_DIR ${dir} holds none of ${TEMPLATE_NAMES.map((name) => `${name}.json`).join(", ")}`);
    }
  }
  const file = (name: TemplateName) =>
    path.join(dir !== undefined && fromDir.has(`${name}.json`) ? dir : SHIPPED_WORKFLOW_DIR, `${name}.json`);
  return {
    restyle: readWorkflow("restyle", file("restyle")),
    stage: readWorkflow("stage", file("stage")),
    inpaint: readWorkflow("inpaint", file("inpaint")),
    upscale: readWorkflow("upscale", file("upscale")),
    "upscale-refine": readWorkflow("upscale-refine", file("upscale-refine")),
  };
}

/** The graph to queue: a copy of the template with every placeholder replaced by its value. */
export function fillWorkflow<Name extends TemplateName>(
  workflow: Workflow<Name>,
  values: PlaceholderValues<TemplatePlaceholders<Name>>,
): ApiGraph {
  const graph = structuredClone(workflow.graph);
  for (const slot of workflow.slots) {
    const node = graph[slot.node];
    if (node) node.inputs[slot.input] = (values as Record<string, string | number>)[slot.placeholder];
  }
  return graph;
}

/** The sampler settings a filled graph uses (steps, cfg, sampler, scheduler), for the render's details. */
export function samplerSettings(workflow: Workflow, graph: ApiGraph): Record<string, unknown> {
  const sampler = workflow.samplerNodes[0] === undefined ? undefined : graph[workflow.samplerNodes[0]];
  if (!sampler) return {};
  const settings: Record<string, unknown> = {};
  for (const [key, input] of [
    ["steps", "steps"],
    ["cfg", "cfg"],
    ["sampler", "sampler_name"],
    ["scheduler", "scheduler"],
  ] as const) {
    const value = sampler.inputs[input];
    if (typeof value === "number" || typeof value === "string") settings[key] = value;
  }
  return settings;
}
