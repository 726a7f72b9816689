/**
 * ComfyUI (a studio's own GPU box), over its server API: upload the photo (POST /upload/image),
 * queue a workflow in API format (POST /prompt), follow it on the WebSocket (/ws?clientId=…),
 * read its outputs from GET /history/{prompt_id} and fetch the image from GET /view. The
 * workflows are templates (comfyui-workflow.ts), read and checked when the engine is created.
 *
 * The request's AbortSignal is the only deadline. When it aborts, or anything else stops us after
 * the prompt was queued, the prompt is taken out of ComfyUI's queue and interrupted, so the GPU
 * does not keep working for nobody. When the WebSocket cannot connect or drops, /history is
 * polled instead. Transient trouble before the prompt is queued (network, 429, 5xx) is thrown as
 * TransientRenderError for the worker to retry; after that it is retried here, since queuing again
 * would render twice. What retrying cannot fix is a PermanentRenderError, whose message users see.
 *
 * Upscaling (decision 087) runs the same way with upscale.json: the upscale model
 * (COMFYUI_UPSCALE_MODEL), then ImageScale to the photo's exact size, optionally followed by a light
 * img2img pass (upscale-refine.json). The model file is looked up in GET /object_info first, so a
 * file the box lacks fails with its name instead of a validation error.
 */
import { randomInt, randomUUID } from "node:crypto";
import WebSocket from "ws";
import { RENDER, type RenderMode, type StructureStrength } from "../../../shared/render";
import { COMFYUI_NO_UPSCALE_MODEL, type Env } from "../../env";
import {
  fillWorkflow,
  loadWorkflows,
  samplerSettings,
  SHIPPED_WORKFLOW_DIR,
  type ApiGraph,
  type PlaceholderValues,
  type TemplateName,
  type TemplatePlaceholders,
  type Workflow,
  type Workflows,
} from "./comfyui-workflow";
import {
  PermanentRenderError,
  throwIfAborted,
  type EngineCapabilities,
  type InpaintRequest,
  type RenderProvider,
  type RenderResult,
  type UpscaleRequest,
} from "./provider";
import { buildInpaintPrompt, buildNegativePrompt, buildPrompt, buildRefinePrompt } from "./prompt";
// The HTTP engines share one retryable error (with retryAfterMs), the image sniffing and the abortable sleep.
import { abortableSleep, abortError, parseRetryAfter, TransientRenderError } from "./replicate";
import { sniffImageMime } from "../../images/mime";

export interface ComfyUiProviderOptions {
  /** e.g. http://gpu-box:8188 (a path prefix behind a proxy is kept). */
  baseUrl: string;
  /** Sent as Authorization: Bearer on every request and on the WebSocket upgrade. */
  token?: string;
  /** The operator's own API-format workflows; the shipped ones fill in any that are missing. */
  workflowDir?: string;
  checkpoint: string;
  controlnetDepth: string;
  controlnetLines: string;
  inpaintCheckpoint: string;
  /** The upscale model file (models/upscale_models) for finished renders; undefined: no AI upscale. */
  upscaleModel?: string;
  /** A light img2img pass after the upscale (upscale-refine.json instead of upscale.json). */
  upscaleRefine?: boolean;
  /** Between /history polls when the WebSocket is gone (default 1000). */
  pollIntervalMs?: number;
  /** How long the WebSocket may take to open before /history is polled instead (default 5000). */
  connectTimeoutMs?: number;
  fetch?: typeof fetch;
  /** Must reject when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The engine's options from the environment (COMFYUI_URL is required with RENDER_PROVIDER=comfyui). */
export function comfyUiOptionsFromEnv(
  env: Pick<
    Env,
    | "COMFYUI_URL"
    | "COMFYUI_TOKEN"
    | "COMFYUI_WORKFLOW_DIR"
    | "COMFYUI_CHECKPOINT"
    | "COMFYUI_CONTROLNET_DEPTH"
    | "COMFYUI_CONTROLNET_LINES"
    | "COMFYUI_INPAINT_CHECKPOINT"
    | "COMFYUI_UPSCALE_MODEL"
    | "COMFYUI_UPSCALE_REFINE"
  >,
): ComfyUiProviderOptions {
  if (!env.COMFYUI_URL) throw new Error("COMFYUI_URL is not set: the comfyui engine needs the address of the ComfyUI server");
  return {
    baseUrl: env.COMFYUI_URL,
    token: env.COMFYUI_TOKEN,
    workflowDir: env.COMFYUI_WORKFLOW_DIR,
    checkpoint: env.COMFYUI_CHECKPOINT,
    controlnetDepth: env.COMFYUI_CONTROLNET_DEPTH,
    controlnetLines: env.COMFYUI_CONTROLNET_LINES,
    inpaintCheckpoint: env.COMFYUI_INPAINT_CHECKPOINT,
    upscaleModel: upscaleModelOf(env.COMFYUI_UPSCALE_MODEL),
    upscaleRefine: env.COMFYUI_UPSCALE_REFINE,
  };
}

/** The upscale model a setting names: "none" (or nothing) is no upscaler. */
export function upscaleModelOf(setting: string | undefined): string | undefined {
  const name = setting?.trim();
  return !name || name.toLowerCase() === COMFYUI_NO_UPSCALE_MODEL ? undefined : name;
}

/**
 * The upscale model files an answer of GET /object_info[/UpscaleModelLoader] lists (its model_name
 * choices: [[names…]] as classic nodes give them, or ["COMBO", {options: [names…]}] as newer ones
 * do); null when the answer does not say.
 */
export function listedUpscaleModels(objectInfo: unknown): string[] | null {
  const node = isRecord(objectInfo) ? objectInfo.UpscaleModelLoader : undefined;
  const input = isRecord(node) && isRecord(node.input) && isRecord(node.input.required) ? node.input.required.model_name : undefined;
  if (!Array.isArray(input)) return null;
  const [first, second] = input as unknown[];
  const names = Array.isArray(first) ? first : first === "COMBO" && isRecord(second) ? second.options : undefined;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === "string") : null;
}

/** Said when the box lacks the configured upscale model (the upscale's failure, the self-test's finding). */
export function missingUpscaleModelMessage(model: string, installed: readonly string[]): string {
  const has = installed.length === 0 ? "it has none" : `it has ${installed.slice(0, 5).join(", ")}${installed.length > 5 ? ", …" : ""}`;
  return `The upscale model ${model} is not installed on the ComfyUI server (${has}): put the file in ComfyUI's models/upscale_models folder, or choose one it has in COMFYUI_UPSCALE_MODEL or /admin → Studio`;
}

/**
 * The shipped workflows render at the prepared photo's own size (the worker sends 1024 px on the
 * long edge, SDXL's native scale): nothing in them resizes, so 1024 is the largest they make.
 * Masks: the inpaint template repaints the painted region (the modification studio).
 */
export const COMFYUI_CAPABILITIES: EngineCapabilities = {
  isAi: true,
  modes: ["redesign", "stage", "declutter", "sky", "twilight", "garden"],
  maxOutputLongEdge: RENDER.providerInputLongEdge,
  seeds: true,
  percentProgress: true,
  masks: true,
  // True on an engine with an upscale model (COMFYUI_UPSCALE_MODEL, default RealESRGAN_x4plus.pth).
  upscale: false,
  structureStrength: true,
  // The shipped workflows hold the input's depth and lines: from a plan they keep the drawing's
  // viewpoint, so they make a furnished top view of it, never an eye-level room.
  floorPlan: "top-down",
};

export interface ComfyUiRenderSettings {
  template: Extract<TemplateName, "restyle" | "stage">;
  /** How much of the photo is repainted: lower keeps more of it. */
  denoise: number;
  depthStrength: number;
  linesStrength: number;
}

/**
 * Per render mode and structure strength. "strong" (the re-render after a low structure score)
 * repaints less and holds the ControlNets harder. Staging repaints most (an empty room has to be
 * furnished) and leans on the lines more than on the empty room's depth; decluttering repaints
 * little, with the declutter prompt, so only the loose items go.
 */
export const COMFYUI_RENDER_SETTINGS: Record<RenderMode, Record<StructureStrength, ComfyUiRenderSettings>> = {
  redesign: {
    normal: { template: "restyle", denoise: 0.6, depthStrength: 0.6, linesStrength: 0.5 },
    strong: { template: "restyle", denoise: 0.45, depthStrength: 0.85, linesStrength: 0.75 },
  },
  stage: {
    normal: { template: "stage", denoise: 0.85, depthStrength: 0.4, linesStrength: 0.65 },
    strong: { template: "stage", denoise: 0.75, depthStrength: 0.55, linesStrength: 0.85 },
  },
  declutter: {
    normal: { template: "restyle", denoise: 0.35, depthStrength: 0.75, linesStrength: 0.6 },
    strong: { template: "restyle", denoise: 0.3, depthStrength: 0.9, linesStrength: 0.8 },
  },
  // Exteriors (issue 33): the house held hard by its lines and depth; the sky and light repainted
  // enough to change (twilight most), the garden a little less.
  sky: {
    normal: { template: "restyle", denoise: 0.5, depthStrength: 0.8, linesStrength: 0.8 },
    strong: { template: "restyle", denoise: 0.4, depthStrength: 0.9, linesStrength: 0.9 },
  },
  twilight: {
    normal: { template: "restyle", denoise: 0.6, depthStrength: 0.8, linesStrength: 0.8 },
    strong: { template: "restyle", denoise: 0.5, depthStrength: 0.9, linesStrength: 0.9 },
  },
  garden: {
    normal: { template: "restyle", denoise: 0.45, depthStrength: 0.8, linesStrength: 0.75 },
    strong: { template: "restyle", denoise: 0.35, depthStrength: 0.9, linesStrength: 0.85 },
  },
};

/** An inpainting checkpoint repaints the masked area from scratch (VAEEncodeForInpaint wants 1.0). */
export const COMFYUI_INPAINT_DENOISE = 1;

/** The refine pass after an upscale only sharpens: at 0.2 the sampler keeps the picture and redraws its fine detail. */
export const COMFYUI_REFINE_DENOISE = 0.2;

/** A targeted edit: the photo, a mask (white = change, same size), and what to put there (the user's note). */
export interface ComfyUiProvider extends RenderProvider {
  /** The templates in use, as read at creation. */
  readonly workflows: Workflows;
  /** Repaints the masked area with the inpaint template (for the modification studio). */
  inpaint(request: InpaintRequest): Promise<RenderResult>;
  /** Present when an upscale model is configured (capabilities.upscale). */
  upscale?(request: UpscaleRequest): Promise<RenderResult>;
}

/** Where uploads go inside ComfyUI's input directory, so an operator can find and clean them. */
const UPLOAD_SUBFOLDER = "roomcanvas";
/** Canceling happens after the deadline: it gets its own short one. */
const CANCEL_TIMEOUT_MS = 5_000;
/** After the WebSocket said "done", history is normally there at once; first re-reads are quick. */
const FIRST_HISTORY_RETRY_MS = 25;
const MAX_BACKOFF_MS = 30_000;
const MAX_JSON_BYTES = 20 * 1024 * 1024;
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
/** An upscale to a large photo's size comes as a PNG (SaveImage's format): up to 24 MP, bigger than a render. */
const MAX_UPSCALE_IMAGE_BYTES = 150 * 1024 * 1024;
const MAX_BUFFERED_MESSAGES = 1_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 300): string | undefined =>
  typeof value === "string" && value.trim() ? value.trim().replace(/\s+/g, " ").slice(0, max) : undefined;

/** Where the prompt ended, as the WebSocket tells it ("lost": the socket closed first). */
type Outcome = { kind: "success" } | { kind: "error"; message: string } | { kind: "interrupted" } | { kind: "lost" };

/** execution_error's data, in one line for the user: where it failed and ComfyUI's exception message. */
function executionErrorMessage(data: Record<string, unknown>): string {
  const where = [text(data.node_id, 40) && `node ${text(data.node_id, 40)}`, text(data.node_type, 80)].filter(Boolean);
  const place = where.length === 0 ? "" : where.length === 1 ? ` in ${where[0]}` : ` in ${where[0]} (${where[1]})`;
  return `ComfyUI failed${place}: ${text(data.exception_message, 500) ?? "no reason given"}`;
}

/** A 400 from POST /prompt: {error, node_errors}, told as the refused node and its error. */
function validationMessage(workflow: Workflow, body: Buffer): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const parts: string[] = [];
  if (isRecord(parsed)) {
    const error = parsed.error;
    const summary = isRecord(error) ? [text(error.message), text(error.details)].filter(Boolean).join(": ") : text(error);
    if (summary) parts.push(summary);
    if (isRecord(parsed.node_errors)) {
      for (const [id, nodeError] of Object.entries(parsed.node_errors).slice(0, 3)) {
        if (!isRecord(nodeError)) continue;
        const errors = Array.isArray(nodeError.errors) ? nodeError.errors.filter(isRecord) : [];
        const reasons = errors.map((entry) => [text(entry.message), text(entry.details)].filter(Boolean).join(": ")).filter(Boolean);
        const classType = text(nodeError.class_type, 80) ?? workflow.graph[id]?.class_type;
        parts.push(`node ${id}${classType ? ` (${classType})` : ""}: ${reasons.join("; ") || "refused"}`);
      }
    }
  }
  const detail = parts.join(" — ").slice(0, 600) || "HTTP 400";
  return `ComfyUI refused the ${workflow.name} workflow: ${detail}`;
}

/**
 * One WebSocket per render, with its own clientId: ComfyUI sends a prompt's messages to the
 * client that queued it. Messages that arrive before the prompt id is known are kept, since the
 * box may start (or even finish) before POST /prompt has answered.
 */
class PromptSocket {
  readonly outcome: Promise<Outcome>;
  /** The prompt was seen running: interrupting cannot stop another client's prompt instead. */
  started = false;
  open = false;
  private promptId: string | undefined;
  private buffered: Array<{ type: string; data: Record<string, unknown> }> = [];
  private settle!: (outcome: Outcome) => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly onProgress: (value: number, max: number, node: string | undefined) => void,
  ) {
    let settled = false;
    const outcome = new Promise<Outcome>((resolve) => {
      this.settle = (result) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
    });
    this.outcome = outcome;
    socket.on("open", () => (this.open = true));
    socket.on("message", (data, isBinary) => {
      // Binary frames are previews of the picture being made.
      if (isBinary) return;
      let message: unknown;
      try {
        const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
        message = JSON.parse(bytes.toString("utf8"));
      } catch {
        return;
      }
      if (isRecord(message) && typeof message.type === "string" && isRecord(message.data)) this.receive(message.type, message.data);
    });
    // An error is followed by close; either way the prompt is followed through /history from now on.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.open = false;
      this.settle({ kind: "lost" });
    });
  }

  /** Resolves when the socket is open; false when it could not connect (or the signal aborted). */
  whenOpen(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (open: boolean) => {
        signal.removeEventListener("abort", onAbort);
        this.socket.off("open", onOpen);
        this.socket.off("close", onClose);
        resolve(open);
      };
      const onOpen = () => done(true);
      const onClose = () => done(false);
      const onAbort = () => {
        this.close();
        done(false);
      };
      if (this.open) return resolve(true);
      if (this.socket.readyState === WebSocket.CLOSED || this.socket.readyState === WebSocket.CLOSING) return resolve(false);
      if (signal.aborted) return onAbort();
      this.socket.on("open", onOpen);
      this.socket.on("close", onClose);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  follow(promptId: string): Promise<Outcome> {
    this.promptId = promptId;
    const waiting = this.buffered;
    this.buffered = [];
    for (const message of waiting) this.receive(message.type, message.data);
    return this.outcome;
  }

  close(): void {
    this.socket.terminate();
  }

  private receive(type: string, data: Record<string, unknown>): void {
    if (this.promptId === undefined) {
      if (this.buffered.length < MAX_BUFFERED_MESSAGES) this.buffered.push({ type, data });
      return;
    }
    // Status messages, and other clients' prompts, are none of this render's business.
    if (data.prompt_id !== this.promptId) return;
    switch (type) {
      case "execution_start":
      case "execution_cached":
      case "executed":
        this.started = true;
        return;
      case "executing":
        if (data.node === null) this.settle({ kind: "success" });
        else this.started = true;
        return;
      case "progress":
        this.started = true;
        if (typeof data.value === "number" && typeof data.max === "number" && data.max > 0) {
          this.onProgress(data.value, data.max, typeof data.node === "string" ? data.node : undefined);
        }
        return;
      case "execution_success":
        this.settle({ kind: "success" });
        return;
      case "execution_error":
        this.settle({ kind: "error", message: executionErrorMessage(data) });
        return;
      case "execution_interrupted":
        this.settle({ kind: "interrupted" });
        return;
    }
  }
}

/** Rejects as soon as the signal aborts; otherwise settles as the promise does. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface ImageRef {
  filename: string;
  subfolder: string;
  type: string;
}

/** One workflow run: the files to upload (placeholder → bytes) and the other placeholders' values. */
interface Job<Name extends TemplateName> {
  workflow: Workflow<Name>;
  uploads: Array<{ placeholder: "image" | "mask"; bytes: Buffer }>;
  values: Omit<PlaceholderValues<TemplatePlaceholders<Name>>, "image" | "mask">;
  signal: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** The largest result accepted (default MAX_IMAGE_BYTES). */
  maxBytes?: number;
}

export function createComfyUiProvider(options: ComfyUiProviderOptions): ComfyUiProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  // Read and checked now: a template that cannot work stops the server at start, with its file named.
  const workflows = loadWorkflows(options.workflowDir);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? abortableSleep;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const auth: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  const workflowSource = (workflow: Workflow) => (workflow.file.startsWith(SHIPPED_WORKFLOW_DIR) ? "shipped" : "COMFYUI_WORKFLOW_DIR");

  /** One HTTP exchange; network trouble is transient, an abort stays an abort. */
  async function exchange(
    route: string,
    init: RequestInit,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<{ response: Response; body: Buffer }> {
    try {
      const response = await fetchImpl(`${baseUrl}${route}`, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
        signal,
      });
      if (Number(response.headers.get("content-length")) > maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new PermanentRenderError(`ComfyUI answered ${route.split("?")[0]} with more than ${maxBytes} bytes`);
      }
      const body = Buffer.from(await response.arrayBuffer());
      if (body.length > maxBytes)
        throw new PermanentRenderError(`ComfyUI answered ${route.split("?")[0]} with more than ${maxBytes} bytes`);
      return { response, body };
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      if (error instanceof PermanentRenderError) throw error;
      throw new TransientRenderError("ComfyUI could not be reached", { cause: error });
    }
  }

  function httpFailure(response: Response, what: string): Error {
    const { status } = response;
    if (status === 429 || status >= 500) {
      return new TransientRenderError(status === 429 ? "ComfyUI is busy (HTTP 429)" : `ComfyUI is unavailable (HTTP ${status})`, {
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
      });
    }
    if (status === 401 || status === 403) {
      return new PermanentRenderError(
        options.token
          ? `ComfyUI refused the token (HTTP ${status}): check COMFYUI_TOKEN`
          : `ComfyUI asked for a token (HTTP ${status}): set COMFYUI_TOKEN`,
      );
    }
    return new PermanentRenderError(`ComfyUI refused ${what} (HTTP ${status})`);
  }

  function json(body: Buffer, what: string): Record<string, unknown> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      parsed = undefined;
    }
    if (!isRecord(parsed)) throw new PermanentRenderError(`ComfyUI returned an unexpected answer to ${what}`);
    return parsed;
  }

  function backoffMs(failures: number, retryAfterMs: number | undefined): number {
    return Math.max(retryAfterMs ?? 0, Math.min(pollIntervalMs * 2 ** failures, MAX_BACKOFF_MS));
  }

  /** POST /upload/image; answers the name a LoadImage node takes ("subfolder/name"). */
  async function upload(bytes: Buffer, placeholder: "image" | "mask", signal: AbortSignal): Promise<string> {
    const mime = sniffImageMime(bytes);
    if (!mime) throw new PermanentRenderError(placeholder === "mask" ? "The mask is not a picture" : "The photo is not a picture");
    const form = new FormData();
    // A copy: Blob takes ArrayBuffer-backed views only, and a Buffer may sit on a shared pool.
    form.append(
      "image",
      new Blob([new Uint8Array(bytes)], { type: mime }),
      `${randomUUID()}-${placeholder}.${mime.slice(6).replace("jpeg", "jpg")}`,
    );
    form.append("type", "input");
    form.append("subfolder", UPLOAD_SUBFOLDER);
    form.append("overwrite", "true");
    const { response, body } = await exchange("/upload/image", { method: "POST", body: form }, signal, MAX_JSON_BYTES);
    if (!response.ok) throw httpFailure(response, "the upload");
    const answer = json(body, "the upload");
    // Taken as given (not trimmed): it names a file in ComfyUI's input directory.
    const name = typeof answer.name === "string" && answer.name.trim() !== "" ? answer.name : undefined;
    if (!name) throw new PermanentRenderError("ComfyUI returned an unexpected answer to the upload");
    const subfolder = typeof answer.subfolder === "string" ? answer.subfolder.replace(/^\/+|\/+$/g, "") : "";
    return subfolder ? `${subfolder}/${name}` : name;
  }

  /** POST /prompt; answers the prompt id. */
  async function queue(workflow: Workflow, graph: ApiGraph, clientId: string, signal: AbortSignal): Promise<string> {
    const { response, body } = await exchange(
      "/prompt",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ prompt: graph, client_id: clientId }) },
      signal,
      MAX_JSON_BYTES,
    );
    if (response.status === 400) throw new PermanentRenderError(validationMessage(workflow, body));
    if (!response.ok) throw httpFailure(response, "the workflow");
    const { prompt_id: promptId } = json(body, "the workflow");
    if (typeof promptId !== "string" || promptId === "")
      throw new PermanentRenderError("ComfyUI returned an unexpected answer to the workflow");
    return promptId;
  }

  /** Best effort: out of the queue if it still waits, interrupted if it runs. Failing to cancel changes nothing for the user. */
  async function cancel(promptId: string, interrupt: boolean): Promise<void> {
    const post = async (route: string, payload: unknown) => {
      try {
        const response = await fetchImpl(`${baseUrl}${route}`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS),
        });
        await response.arrayBuffer();
      } catch {
        // Unreachable or too slow: the prompt finishes on its own and nobody collects it.
      }
    };
    await Promise.all([
      post("/queue", { delete: [promptId] }),
      // With prompt_id, ComfyUI stops only this prompt (older versions stop whatever runs, hence `interrupt`).
      interrupt ? post("/interrupt", { prompt_id: promptId }) : undefined,
    ]);
  }

  /** GET /history/{id}: null while the prompt has not ended, its entry once it has; errors as ComfyUI recorded them. */
  async function readHistory(promptId: string, signal: AbortSignal): Promise<Record<string, unknown> | null> {
    const { response, body } = await exchange(`/history/${encodeURIComponent(promptId)}`, {}, signal, MAX_JSON_BYTES);
    if (!response.ok) throw httpFailure(response, "the history request");
    const entry = json(body, "the history request")[promptId];
    if (entry === undefined) return null;
    if (!isRecord(entry)) throw new PermanentRenderError("ComfyUI returned an unexpected answer to the history request");
    const status = isRecord(entry.status) ? entry.status : undefined;
    if (status?.status_str === "error") {
      const messages = (Array.isArray(status.messages) ? status.messages : []).filter(
        (message): message is [string, unknown] => Array.isArray(message) && typeof message[0] === "string",
      );
      if (messages.some(([type]) => type === "execution_interrupted")) throw interrupted(signal);
      const failure = messages.find(([type]) => type === "execution_error")?.[1];
      throw new PermanentRenderError(isRecord(failure) ? executionErrorMessage(failure) : "ComfyUI failed without saying why");
    }
    return entry;
  }

  function interrupted(signal: AbortSignal): Error {
    return signal.aborted ? abortError(signal) : new PermanentRenderError("The render was canceled on the ComfyUI server");
  }

  /** Reads /history until the prompt has an entry: every pollIntervalMs, or quicker at first when it is known to be done. */
  async function waitForHistory(promptId: string, signal: AbortSignal, firstRetryMs: number): Promise<Record<string, unknown>> {
    let failures = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        const entry = await readHistory(promptId, signal);
        if (entry) return entry;
        failures = 0;
        await sleep(Math.min(pollIntervalMs, firstRetryMs * 2 ** attempt), signal);
      } catch (error) {
        if (!(error instanceof TransientRenderError) || signal.aborted) throw error;
        failures += 1;
        await sleep(backoffMs(failures, error.retryAfterMs), signal);
      }
    }
  }

  /** GET /view of the output node's first image; a finished image is fetched again on a hiccup, not rendered again. */
  async function download(image: ImageRef, signal: AbortSignal, maxBytes: number): Promise<{ image: Buffer; mime: RenderResult["mime"] }> {
    const query = new URLSearchParams({ filename: image.filename, subfolder: image.subfolder, type: image.type });
    for (let failures = 0; ; failures += 1) {
      try {
        const { response, body } = await exchange(`/view?${query.toString()}`, {}, signal, maxBytes);
        if (!response.ok) throw httpFailure(response, "the image request");
        const mime = sniffImageMime(body);
        if (!mime) throw new PermanentRenderError("ComfyUI's output is not a picture");
        return { image: body, mime };
      } catch (error) {
        if (!(error instanceof TransientRenderError) || signal.aborted) throw error;
        await sleep(backoffMs(failures + 1, error.retryAfterMs), signal);
      }
    }
  }

  function outputImage(workflow: Workflow, entry: Record<string, unknown>): ImageRef {
    const outputs = isRecord(entry.outputs) ? entry.outputs : {};
    const node = outputs[workflow.outputNode];
    const first: unknown = isRecord(node) && Array.isArray(node.images) ? node.images[0] : undefined;
    if (!isRecord(first) || typeof first.filename !== "string" || first.filename === "") {
      const classType = workflow.graph[workflow.outputNode]?.class_type ?? "?";
      throw new PermanentRenderError(`ComfyUI finished without an image from the output node ${workflow.outputNode} (${classType})`);
    }
    return {
      filename: first.filename,
      subfolder: typeof first.subfolder === "string" ? first.subfolder : "",
      type: typeof first.type === "string" ? first.type : "output",
    };
  }

  function openSocket(clientId: string, onProgress: (value: number, max: number, node: string | undefined) => void): PromptSocket {
    const url = new URL(`${baseUrl}/ws`);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("clientId", clientId);
    const socket = new WebSocket(url, { headers: auth, handshakeTimeout: connectTimeoutMs, perMessageDeflate: false });
    return new PromptSocket(socket, onProgress);
  }

  /** Uploads, queues, follows and collects one workflow run. */
  async function run<Name extends TemplateName>(job: Job<Name>): Promise<{ image: Buffer; mime: RenderResult["mime"]; graph: ApiGraph }> {
    const { workflow, signal } = job;
    throwIfAborted(signal);
    let reported = -1;
    // Only the sampler's progress, only forward: preprocessors report their own bars from 0 again.
    const report = (fraction: number) => {
      if (!(fraction > reported)) return;
      reported = fraction;
      job.onProgress?.(fraction);
    };
    const clientId = randomUUID();
    // Open before queuing: ComfyUI sends a prompt's messages only to a client connected at the time.
    const socket = openSocket(clientId, (value, max, node) => {
      const fromSampler = node === undefined || workflow.samplerNodes.length === 0 || workflow.samplerNodes.includes(node);
      if (fromSampler) report(Math.min(1, value / max));
    });
    try {
      const [names, connected] = await Promise.all([
        Promise.all(job.uploads.map(async ({ placeholder, bytes }) => [placeholder, await upload(bytes, placeholder, signal)] as const)),
        socket.whenOpen(signal),
      ]);
      throwIfAborted(signal);
      const values = { ...job.values, ...Object.fromEntries(names) } as PlaceholderValues<TemplatePlaceholders<Name>>;
      const graph = fillWorkflow(workflow, values);
      const promptId = await queue(workflow, graph, clientId, signal);

      let ended = false;
      try {
        const outcome: Outcome = connected ? await untilAborted(socket.follow(promptId), signal) : { kind: "lost" };
        if (outcome.kind === "error") {
          ended = true;
          throw new PermanentRenderError(outcome.message);
        }
        if (outcome.kind === "interrupted") {
          ended = true;
          throw interrupted(signal);
        }
        // "lost": the socket is gone (or never came), so /history is the only news, at the poll interval.
        const entry = await waitForHistory(promptId, signal, outcome.kind === "success" ? FIRST_HISTORY_RETRY_MS : pollIntervalMs);
        ended = true;
        const result = await download(outputImage(workflow, entry), signal, job.maxBytes ?? MAX_IMAGE_BYTES);
        report(1);
        return { ...result, graph };
      } catch (error) {
        if (!ended) {
          // Known to be still waiting in the queue (the open socket never saw it start): only take it out.
          await cancel(promptId, !(socket.open && !socket.started));
        }
        throw error;
      }
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      throw error;
    } finally {
      socket.close();
    }
  }

  /** The upscale model files the box has (GET /object_info/UpscaleModelLoader); null when it does not say. */
  async function installedUpscaleModels(signal: AbortSignal): Promise<string[] | null> {
    const { response, body } = await exchange("/object_info/UpscaleModelLoader", {}, signal, MAX_JSON_BYTES);
    if (response.status === 401 || response.status === 403) throw httpFailure(response, "the model list");
    // An older box or a proxy that does not pass the route: the workflow's validation will name a missing file.
    if (!response.ok) return null;
    try {
      return listedUpscaleModels(JSON.parse(body.toString("utf8")));
    } catch {
      return null;
    }
  }

  const upscaleModel = options.upscaleModel;
  const provider: ComfyUiProvider = {
    id: "comfyui",
    label: `ComfyUI (${options.checkpoint})`,
    capabilities: { ...COMFYUI_CAPABILITIES, upscale: upscaleModel !== undefined },
    workflows,
    async render(request) {
      const renderMode = request.renderMode ?? "redesign";
      const structure = request.structure ?? "normal";
      const settings = COMFYUI_RENDER_SETTINGS[renderMode][structure];
      const workflow = workflows[settings.template];
      const seed = request.seed ?? randomInt(0, RENDER.maxSeed + 1);
      const prompt = buildPrompt({
        style: request.style,
        customStyle: request.styleSnapshot,
        roomType: request.roomType,
        mode: request.mode,
        renderMode,
        note: request.prompt,
        planView: "top-down",
      });
      const negativePrompt = buildNegativePrompt(request.mode, renderMode, "top-down", request.styleSnapshot);
      const { image, mime, graph } = await run({
        workflow,
        uploads: [{ placeholder: "image", bytes: request.image }],
        values: {
          prompt,
          negative_prompt: negativePrompt,
          seed,
          denoise: settings.denoise,
          checkpoint: options.checkpoint,
          controlnet_depth: options.controlnetDepth,
          controlnet_lines: options.controlnetLines,
          depth_strength: settings.depthStrength,
          lines_strength: settings.linesStrength,
        },
        signal: request.signal,
        onProgress: request.onProgress,
      });
      return {
        image,
        mime,
        model: options.checkpoint,
        seed,
        prompt,
        parameters: {
          template: settings.template,
          workflow: workflowSource(workflow),
          renderMode,
          structure,
          denoise: settings.denoise,
          controlnetDepth: options.controlnetDepth,
          controlnetDepthStrength: settings.depthStrength,
          controlnetLines: options.controlnetLines,
          controlnetLinesStrength: settings.linesStrength,
          ...samplerSettings(workflow, graph),
          negativePrompt,
        },
      };
    },
    async inpaint(request) {
      const workflow = workflows.inpaint;
      const seed = request.seed ?? randomInt(0, RENDER.maxSeed + 1);
      // The wish for the painted region, in the one prompt builder; empty = fill the region in naturally.
      const prompt = buildInpaintPrompt(request.prompt, request.paint);
      const negativePrompt = buildNegativePrompt("room-photo");
      const { image, mime, graph } = await run({
        workflow,
        uploads: [
          { placeholder: "image", bytes: request.image },
          { placeholder: "mask", bytes: request.mask },
        ],
        values: { prompt, negative_prompt: negativePrompt, seed, denoise: COMFYUI_INPAINT_DENOISE, checkpoint: options.inpaintCheckpoint },
        signal: request.signal,
        onProgress: request.onProgress,
      });
      return {
        image,
        mime,
        model: options.inpaintCheckpoint,
        seed,
        prompt,
        parameters: {
          template: "inpaint",
          workflow: workflowSource(workflow),
          denoise: COMFYUI_INPAINT_DENOISE,
          ...samplerSettings(workflow, graph),
          negativePrompt,
        },
      };
    },
  };
  if (upscaleModel !== undefined) {
    provider.upscale = async (request: UpscaleRequest) => {
      const { signal } = request;
      throwIfAborted(signal);
      const installed = await installedUpscaleModels(signal);
      if (installed && !installed.includes(upscaleModel))
        throw new PermanentRenderError(missingUpscaleModelMessage(upscaleModel, installed));
      const size = { upscale_model: upscaleModel, width: request.targetWidth, height: request.targetHeight };
      const uploads = [{ placeholder: "image" as const, bytes: request.image }];
      const common = {
        from: { width: request.width, height: request.height },
        width: request.targetWidth,
        height: request.targetHeight,
        scale: Math.round(Math.max(request.targetWidth / request.width, request.targetHeight / request.height) * 100) / 100,
      };
      if (!options.upscaleRefine) {
        const workflow = workflows.upscale;
        const { image, mime } = await run({
          workflow,
          uploads,
          values: size,
          signal,
          onProgress: request.onProgress,
          maxBytes: MAX_UPSCALE_IMAGE_BYTES,
        });
        return {
          image,
          mime,
          model: upscaleModel,
          parameters: { template: "upscale", workflow: workflowSource(workflow), ...common, refine: false },
        };
      }
      const workflow = workflows["upscale-refine"];
      const seed = randomInt(0, RENDER.maxSeed + 1);
      const prompt = buildRefinePrompt();
      const negativePrompt = buildNegativePrompt("room-photo");
      const { image, mime, graph } = await run({
        workflow,
        uploads,
        values: { ...size, checkpoint: options.checkpoint, prompt, negative_prompt: negativePrompt, seed, denoise: COMFYUI_REFINE_DENOISE },
        signal,
        onProgress: request.onProgress,
        maxBytes: MAX_UPSCALE_IMAGE_BYTES,
      });
      return {
        image,
        mime,
        model: upscaleModel,
        seed,
        prompt,
        parameters: {
          template: "upscale-refine",
          workflow: workflowSource(workflow),
          ...common,
          refine: true,
          refineCheckpoint: options.checkpoint,
          denoise: COMFYUI_REFINE_DENOISE,
          ...samplerSettings(workflow, graph),
          negativePrompt,
        },
      };
    };
  }
  return provider;
}
