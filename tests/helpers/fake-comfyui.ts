/**
 * A fake ComfyUI on loopback: node:http and a `ws` WebSocketServer on one port, speaking the
 * server API documented at docs.comfy.org ("Server": routes and messages) and in ComfyUI's
 * server.py: POST /upload/image (multipart field `image`, answers {name, subfolder, type}),
 * POST /prompt (validated; 400 {error, node_errors} as ComfyUI words them), one prompt executed at
 * a time with WebSocket messages to the client that queued it (status on connect, execution_start,
 * execution_cached, executing, progress, executed, execution_success / execution_error /
 * execution_interrupted, then executing with node null), GET /history/{id}, GET /view serving a
 * real JPEG made with sharp, POST /interrupt (targeted by prompt_id, as current ComfyUI does),
 * POST /queue {delete}, GET /system_stats, GET /object_info[/{node class}] (each known node's
 * inputs, its model files as ["COMBO", {options}] choices, as current ComfyUI lists them), and the
 * /api/… aliases. An optional bearer token stands for the authenticating proxy a studio puts in
 * front of the box.
 *
 * Links are checked as ComfyUI checks them: the output index exists and its type (IMAGE, LATENT,
 * UPSCALE_MODEL, …) is the one the input takes. Pictures keep their sizes through the graph: LoadImage
 * reads the uploaded file's size, VAEEncode(Tiled) crops to multiples of 8 as ComfyUI does,
 * ImageUpscaleWithModel multiplies by the model's factor (read from its file name: "x4", "4x"),
 * ImageScale and ImageScaleBy make the size they are given. A picture that went through one of those
 * scaling nodes is saved as a PNG of exactly that size (the source's pixels resized with sharp);
 * any other (a sampler's render) is the fixed JPEG `image`, as a stand-in for what a model paints.
 *
 * Stricter than ComfyUI on one point, on purpose: INT and FLOAT inputs must be JSON numbers
 * (ComfyUI would convert "42"), so a test sees the adapter send numbers.
 *
 * Every HTTP request and WebSocket upgrade is recorded; each test scripts the scenario it needs.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import sharp from "sharp";
import { WebSocket, WebSocketServer } from "ws";

/** An answer given instead of the real one; "hang" never answers (the client must give up). */
export type CannedReply = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface ComfyScenario {
  /** Sampler steps, each reported as a progress message. */
  steps: number;
  /** Pause before each sampler step (0: as fast as the event loop goes). */
  stepDelayMs: number;
  /** How long a queued prompt waits before it runs (another client's prompt ahead of it). */
  queueDelayMs: number;
  /** success; error: execution_error after `errorAfterStep` steps; hang: stops half-way and never ends (a box slower than any deadline). */
  outcome: "success" | "error" | "hang";
  errorAfterStep: number;
  exceptionMessage: string;
  /** After this many sampler steps the fake closes the client's WebSocket; the prompt runs on. */
  dropSocketAfterStep?: number;
  /** WebSocket upgrades are answered 503 (the client must poll /history). */
  refuseSocket: boolean;
  /** Binary preview frames, and another prompt's progress, error and end, sent among ours. */
  noise: boolean;
  /** What the output node leaves: the picture (the fixed JPEG, or a PNG of a scaled picture's size), no image, or a file that is not a picture. */
  output: "jpeg" | "none" | "not-an-image";
  /** Given, in order, to the first requests of each kind instead of the real answer. */
  uploadReplies: CannedReply[];
  promptReplies: CannedReply[];
  historyReplies: CannedReply[];
  viewReplies: CannedReply[];
  objectInfoReplies: CannedReply[];
}

export interface RecordedRequest {
  method: string;
  /** Without the /api prefix. */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, when it was JSON. */
  json?: unknown;
}

export interface RecordedUpload {
  name: string;
  subfolder: string;
  type: string;
  /** The file name the client sent, and its declared type. */
  filename: string;
  mime: string;
  bytes: Buffer;
}

export interface RecordedUpgrade {
  path: string;
  clientId: string | null;
  headers: http.IncomingHttpHeaders;
  accepted: boolean;
}

export interface ApiNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta?: { title?: string };
}

export interface FakePrompt {
  id: string;
  number: number;
  clientId: string | null;
  graph: Record<string, ApiNode>;
  state: "pending" | "running" | "success" | "error" | "interrupted" | "deleted";
}

export interface FakeComfyUi {
  url: string;
  token: string | undefined;
  /** The JPEG the output node "saves". */
  image: Buffer;
  /** Model files the box has; validation refuses others, /object_info lists them. */
  models: { checkpoints: string[]; controlnet: string[]; upscale_models: string[] };
  requests: RecordedRequest[];
  uploadsReceived: RecordedUpload[];
  upgrades: RecordedUpgrade[];
  prompts: Map<string, FakePrompt>;
  /** Every WebSocket message sent (JSON ones), by client id. */
  sent: Array<{ clientId: string; type: string; data: Record<string, unknown> }>;
  uploads(): RecordedRequest[];
  queued(): RecordedRequest[];
  historyReads(): RecordedRequest[];
  views(): RecordedRequest[];
  interrupts(): RecordedRequest[];
  queueDeletes(): RecordedRequest[];
  objectInfoReads(): RecordedRequest[];
  script(scenario: Partial<ComfyScenario>): void;
  /** Forget what was recorded (between bench runs). */
  clearRecords(): void;
  close(): Promise<void>;
}

const DEFAULT_SCENARIO: ComfyScenario = {
  steps: 4,
  stepDelayMs: 2,
  queueDelayMs: 0,
  outcome: "success",
  errorAfterStep: 1,
  exceptionMessage: "CUDA out of memory. Tried to allocate 2.50 GiB",
  refuseSocket: false,
  noise: true,
  output: "jpeg",
  uploadReplies: [],
  promptReplies: [],
  historyReplies: [],
  viewReplies: [],
  objectInfoReplies: [],
};

/** Widget values (lowercase) or the type a link must carry (uppercase, as ComfyUI names them). */
type InputKind =
  | "int"
  | "float"
  | "string"
  | "bool"
  | "checkpoint"
  | "controlnet"
  | "upscale_model"
  | "upload"
  | "upscale_method"
  | "crop"
  | "MODEL"
  | "CLIP"
  | "VAE"
  | "CONDITIONING"
  | "CONTROL_NET"
  | "IMAGE"
  | "MASK"
  | "LATENT"
  | "UPSCALE_MODEL";
const isLinkKind = (kind: InputKind) => kind === kind.toUpperCase();
/** ImageScale's and ImageScaleBy's choices, as ComfyUI lists them. */
const UPSCALE_METHODS = ["nearest-exact", "bilinear", "area", "bicubic", "lanczos"];
const CROPS = ["disabled", "center"];
/** ComfyUI's MAX_RESOLUTION, the largest width or height ImageScale takes. */
const MAX_RESOLUTION = 16384;
const TILED_VAE = { tile_size: "int", overlap: "int", temporal_size: "int", temporal_overlap: "int" } as const;

/** The node types the fake knows: their required inputs and the types of their outputs. */
const NODE_TYPES: Record<
  string,
  { returns: InputKind[]; inputs: Record<string, InputKind>; optional?: Record<string, InputKind>; output?: true; category: string }
> = {
  CheckpointLoaderSimple: { returns: ["MODEL", "CLIP", "VAE"], inputs: { ckpt_name: "checkpoint" }, category: "loaders" },
  LoadImage: { returns: ["IMAGE", "MASK"], inputs: { image: "upload" }, category: "image" },
  LoadImageMask: { returns: ["MASK"], inputs: { image: "upload", channel: "string" }, category: "mask" },
  CLIPTextEncode: { returns: ["CONDITIONING"], inputs: { text: "string", clip: "CLIP" }, category: "conditioning" },
  ControlNetLoader: { returns: ["CONTROL_NET"], inputs: { control_net_name: "controlnet" }, category: "loaders" },
  ControlNetApplyAdvanced: {
    returns: ["CONDITIONING", "CONDITIONING"],
    inputs: {
      positive: "CONDITIONING",
      negative: "CONDITIONING",
      control_net: "CONTROL_NET",
      image: "IMAGE",
      strength: "float",
      start_percent: "float",
      end_percent: "float",
    },
    optional: { vae: "VAE" },
    category: "conditioning/controlnet",
  },
  DepthAnythingPreprocessor: {
    returns: ["IMAGE"],
    inputs: { image: "IMAGE" },
    optional: { ckpt_name: "string", resolution: "int" },
    category: "ControlNet Preprocessors",
  },
  "MiDaS-DepthMapPreprocessor": {
    returns: ["IMAGE"],
    inputs: { image: "IMAGE" },
    optional: { a: "float", bg_threshold: "float", resolution: "int" },
    category: "ControlNet Preprocessors",
  },
  "M-LSDPreprocessor": {
    returns: ["IMAGE"],
    inputs: { image: "IMAGE" },
    optional: { score_threshold: "float", dist_threshold: "float", resolution: "int" },
    category: "ControlNet Preprocessors",
  },
  VAEEncode: { returns: ["LATENT"], inputs: { pixels: "IMAGE", vae: "VAE" }, category: "latent" },
  VAEEncodeTiled: { returns: ["LATENT"], inputs: { pixels: "IMAGE", vae: "VAE", ...TILED_VAE }, category: "_for_testing" },
  VAEEncodeForInpaint: {
    returns: ["LATENT"],
    inputs: { pixels: "IMAGE", vae: "VAE", mask: "MASK", grow_mask_by: "int" },
    category: "latent/inpaint",
  },
  InpaintModelConditioning: {
    returns: ["CONDITIONING", "CONDITIONING", "LATENT"],
    inputs: { positive: "CONDITIONING", negative: "CONDITIONING", vae: "VAE", pixels: "IMAGE", mask: "MASK" },
    category: "conditioning/inpaint",
  },
  KSampler: {
    returns: ["LATENT"],
    inputs: {
      model: "MODEL",
      seed: "int",
      steps: "int",
      cfg: "float",
      sampler_name: "string",
      scheduler: "string",
      positive: "CONDITIONING",
      negative: "CONDITIONING",
      latent_image: "LATENT",
      denoise: "float",
    },
    category: "sampling",
  },
  VAEDecode: { returns: ["IMAGE"], inputs: { samples: "LATENT", vae: "VAE" }, category: "latent" },
  VAEDecodeTiled: { returns: ["IMAGE"], inputs: { samples: "LATENT", vae: "VAE", ...TILED_VAE }, category: "_for_testing" },
  ImageCompositeMasked: {
    returns: ["IMAGE"],
    inputs: { destination: "IMAGE", source: "IMAGE", x: "int", y: "int", resize_source: "bool" },
    optional: { mask: "MASK" },
    category: "image",
  },
  UpscaleModelLoader: { returns: ["UPSCALE_MODEL"], inputs: { model_name: "upscale_model" }, category: "loaders" },
  ImageUpscaleWithModel: { returns: ["IMAGE"], inputs: { upscale_model: "UPSCALE_MODEL", image: "IMAGE" }, category: "image/upscaling" },
  ImageScale: {
    returns: ["IMAGE"],
    inputs: { image: "IMAGE", upscale_method: "upscale_method", width: "int", height: "int", crop: "crop" },
    category: "image/upscaling",
  },
  ImageScaleBy: {
    returns: ["IMAGE"],
    inputs: { image: "IMAGE", upscale_method: "upscale_method", scale_by: "float" },
    category: "image/upscaling",
  },
  SaveImage: { returns: [], inputs: { images: "IMAGE", filename_prefix: "string" }, output: true, category: "image" },
};

/** An upscale model's factor, as its file names say it ("RealESRGAN_x4plus.pth", "4x-UltraSharp.pth"); 4 when they do not. */
export function upscaleFactorOf(model: string): number {
  const match = /(?:^|[^a-z0-9])x(\d)|(\d)x(?:[^a-z0-9]|$)/i.exec(model);
  return Number(match?.[1] ?? match?.[2] ?? 4);
}

/** Nodes whose work ComfyUI reports with a progress bar of their own (controlnet_aux preprocessors: 1/1). */
const PREPROCESSORS = new Set(["DepthAnythingPreprocessor", "MiDaS-DepthMapPreprocessor", "M-LSDPreprocessor"]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

interface NodeError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

export async function startFakeComfyUi(options: { token?: string; device?: string; vramFree?: number } = {}): Promise<FakeComfyUi> {
  const token = options.token;
  const image = await sharp({
    create: { width: 128, height: 96, channels: 3, background: "#b7a58c", noise: { type: "gaussian", mean: 128, sigma: 18 } },
  })
    .jpeg()
    .toBuffer();
  const preview = await sharp({ create: { width: 16, height: 12, channels: 3, background: "#808080" } })
    .jpeg()
    .toBuffer();

  let scenario: ComfyScenario = {
    ...DEFAULT_SCENARIO,
    uploadReplies: [],
    promptReplies: [],
    historyReplies: [],
    viewReplies: [],
    objectInfoReplies: [],
  };
  const models = {
    checkpoints: ["sd_xl_base_1.0.safetensors", "sd_xl_base_1.0_inpainting_0.1.safetensors"],
    controlnet: ["controlnet-depth-sdxl-1.0.safetensors", "controlnet-mlsd-sdxl-1.0.safetensors"],
    upscale_models: ["RealESRGAN_x4plus.pth", "4x-UltraSharp.pth", "RealESRGAN_x2plus.pth"],
  };
  const requests: RecordedRequest[] = [];
  const uploadsReceived: RecordedUpload[] = [];
  const upgrades: RecordedUpgrade[] = [];
  const sent: FakeComfyUi["sent"] = [];
  const prompts = new Map<string, FakePrompt>();
  const files = new Map<string, Buffer | string>();
  const history: Record<string, Record<string, unknown>> = {};
  const sockets = new Map<string, WebSocket>();
  const timers = new Set<NodeJS.Timeout>();
  const pending: Array<{ prompt: FakePrompt; readyAt: number }> = [];
  let running: { prompt: FakePrompt; stop: () => void; stopped: Promise<void>; interrupted: boolean } | null = null;
  let number = 0;
  let savedFiles = 0;
  let closed = false;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  const pause = (ms: number) => new Promise<void>((resolve) => later(ms, resolve));

  const sendTo = (clientId: string | null, type: string, data: Record<string, unknown>) => {
    if (clientId === null) return;
    sent.push({ clientId, type, data });
    const socket = sockets.get(clientId);
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type, data }));
  };
  const sendBinary = (clientId: string | null) => {
    const socket = clientId === null ? undefined : sockets.get(clientId);
    // A preview: event type 1 (PREVIEW_IMAGE), format 1 (JPEG), then the bytes.
    const header = Buffer.alloc(8);
    header.writeUInt32BE(1, 0);
    header.writeUInt32BE(1, 4);
    if (socket?.readyState === WebSocket.OPEN) socket.send(Buffer.concat([header, preview]), { binary: true });
  };
  const queueInfo = () => ({ exec_info: { queue_remaining: pending.length + (running ? 1 : 0) } });
  const broadcastStatus = () => {
    for (const clientId of sockets.keys()) sendTo(clientId, "status", { status: queueInfo() });
  };

  // ---- validation, worded as ComfyUI's execution.validate_prompt words it ----

  function validate(prompt: unknown): { error: NodeError; nodeErrors: Record<string, unknown> } | { outputs: string[] } {
    const invalid = (message: string, details = ""): { error: NodeError; nodeErrors: Record<string, unknown> } => ({
      error: { type: "invalid_prompt", message, details, extra_info: {} },
      nodeErrors: {},
    });
    if (!isRecord(prompt)) return invalid("Cannot execute because the prompt is not a dictionary of nodes.");
    for (const [id, node] of Object.entries(prompt)) {
      if (!isRecord(node) || typeof node.class_type !== "string") {
        return invalid("Cannot execute because a node is missing the class_type property.", `Node ID '#${id}'`);
      }
      if (!(node.class_type in NODE_TYPES))
        return invalid(`Cannot execute because node ${node.class_type} does not exist.`, `Node ID '#${id}'`);
    }
    const graph = prompt as Record<string, ApiNode>;
    const outputs = Object.keys(graph).filter((id) => NODE_TYPES[graph[id]!.class_type]!.output);
    if (outputs.length === 0) {
      return { error: { type: "prompt_no_outputs", message: "Prompt has no outputs", details: "", extra_info: {} }, nodeErrors: {} };
    }
    const nodeErrors: Record<string, unknown> = {};
    const uploaded = new Set(uploadsReceived.map((upload) => (upload.subfolder ? `${upload.subfolder}/${upload.name}` : upload.name)));
    for (const [id, node] of Object.entries(graph)) {
      const type = NODE_TYPES[node.class_type]!;
      const errors: NodeError[] = [];
      const error = (kind: string, message: string, details: string) => errors.push({ type: kind, message, details, extra_info: {} });
      const inputs = isRecord(node.inputs) ? node.inputs : {};
      const expected = { ...type.inputs, ...(type.optional ?? {}) };
      for (const [name, kind] of Object.entries(expected)) {
        const value = inputs[name];
        if (value === undefined) {
          if (name in type.inputs) error("required_input_missing", "Required input is missing", name);
          continue;
        }
        const notInList = (choices: readonly string[]) =>
          error("value_not_in_list", "Value not in list", `${name}: '${String(value)}' not in ${JSON.stringify(choices)}`);
        if (isLinkKind(kind)) {
          const linked = Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && Number.isInteger(value[1]);
          const target = linked ? graph[value[0] as string] : undefined;
          const received = target ? NODE_TYPES[target.class_type]!.returns[(value as [string, number])[1]] : undefined;
          if (!linked || !target || received === undefined) {
            error("bad_linked_input", "Bad linked input, must be a length-2 list of [string, int]", `${name}, ${JSON.stringify(value)}`);
          } else if (received !== kind) {
            error(
              "return_type_mismatch",
              "Return type mismatch between linked nodes",
              `${name}, received_type(${received}) mismatch input_type(${kind})`,
            );
          }
        } else if (kind === "int" && !Number.isInteger(value)) {
          error("invalid_input_type", "Failed to convert an input value to a INT value", `${name}, ${JSON.stringify(value)}`);
        } else if (kind === "float" && typeof value !== "number") {
          error("invalid_input_type", "Failed to convert an input value to a FLOAT value", `${name}, ${JSON.stringify(value)}`);
        } else if (kind === "bool" && typeof value !== "boolean") {
          error("invalid_input_type", "Failed to convert an input value to a BOOLEAN value", `${name}, ${JSON.stringify(value)}`);
        } else if (kind === "string" && typeof value !== "string") {
          error("invalid_input_type", "Failed to convert an input value to a STRING value", `${name}, ${JSON.stringify(value)}`);
        } else if (kind === "checkpoint" && !models.checkpoints.includes(String(value))) {
          error("value_not_in_list", "Value not in list", `${name}: '${String(value)}' not in ${JSON.stringify(models.checkpoints)}`);
        } else if (kind === "controlnet" && !models.controlnet.includes(String(value))) {
          error("value_not_in_list", "Value not in list", `${name}: '${String(value)}' not in ${JSON.stringify(models.controlnet)}`);
        } else if (kind === "upscale_model" && !models.upscale_models.includes(String(value))) {
          notInList(models.upscale_models);
        } else if (kind === "upscale_method" && !UPSCALE_METHODS.includes(String(value))) {
          notInList(UPSCALE_METHODS);
        } else if (kind === "crop" && !CROPS.includes(String(value))) {
          notInList(CROPS);
        } else if (kind === "upload" && !uploaded.has(String(value))) {
          error("custom_validation_failed", "Custom validation failed for node", `${name} - Invalid image file: ${String(value)}`);
        }
      }
      if (node.class_type === "ImageScale") {
        for (const side of ["width", "height"] as const) {
          const size = inputs[side];
          if (typeof size === "number" && size > MAX_RESOLUTION)
            error("value_bigger_than_max", "Value bigger than max", `${side}: ${size}`);
          if (typeof size === "number" && size < 0) error("value_smaller_than_min", "Value smaller than min", `${side}: ${size}`);
        }
      }
      if (node.class_type === "KSampler") {
        const denoise = inputs.denoise;
        if (typeof denoise === "number" && (denoise < 0 || denoise > 1))
          error("value_bigger_than_max", "Value out of range", `denoise: ${denoise}`);
        if (typeof inputs.seed === "number" && inputs.seed < 0)
          error("value_smaller_than_min", "Value smaller than min", `seed: ${inputs.seed}`);
      }
      if (errors.length > 0) nodeErrors[id] = { errors, dependent_outputs: outputs, class_type: node.class_type };
    }
    if (Object.keys(nodeErrors).length > 0) {
      return {
        error: { type: "prompt_outputs_failed_validation", message: "Prompt outputs failed validation", details: "", extra_info: {} },
        nodeErrors,
      };
    }
    return { outputs };
  }

  // ---- what the nodes make: pictures and latents with their sizes ----

  interface Picture {
    width: number;
    height: number;
    /** The pixels it stands for (resized to the size when saved). */
    source: Buffer;
    /** It went through ImageUpscaleWithModel, ImageScale or ImageScaleBy. */
    scaled: boolean;
  }
  /** A latent's size is in units of 8 pixels, as the VAE makes it. */
  type Latent = Picture;
  type Values = Map<string, Promise<unknown[]>>;

  function valueOf(graph: Record<string, ApiNode>, link: unknown, values: Values): Promise<unknown> {
    const [id, index] = link as [string, number];
    let outputs = values.get(id);
    if (!outputs) {
      outputs = evaluate(graph, id, values);
      values.set(id, outputs);
    }
    return outputs.then((made) => made[index]);
  }

  async function evaluate(graph: Record<string, ApiNode>, id: string, values: Values): Promise<unknown[]> {
    const node = graph[id]!;
    const input = <T>(name: string) => valueOf(graph, node.inputs[name], values) as Promise<T>;
    const number = (name: string) => Number(node.inputs[name]);
    switch (node.class_type) {
      case "LoadImage": {
        const name = String(node.inputs.image);
        const slash = name.lastIndexOf("/");
        const bytes = files.get(`input/${slash === -1 ? "" : name.slice(0, slash)}/${name.slice(slash + 1)}`);
        if (!Buffer.isBuffer(bytes)) throw new Error(`Invalid image file: ${name}`);
        const { width, height } = await sharp(bytes).metadata();
        if (!width || !height) throw new Error(`cannot identify image file ${name}`);
        return [{ width, height, source: bytes, scaled: false } satisfies Picture, null];
      }
      case "DepthAnythingPreprocessor":
      case "MiDaS-DepthMapPreprocessor":
      case "M-LSDPreprocessor":
        return [await input<Picture>("image")];
      case "VAEEncode":
      case "VAEEncodeTiled":
      case "VAEEncodeForInpaint":
      case "InpaintModelConditioning": {
        // ComfyUI crops the pixels to multiples of 8 (vae_encode_crop_pixels) before encoding.
        const pixels = await input<Picture>("pixels");
        const latent: Latent = { ...pixels, width: Math.floor(pixels.width / 8), height: Math.floor(pixels.height / 8) };
        return node.class_type === "InpaintModelConditioning" ? [null, null, latent] : [latent];
      }
      case "KSampler":
        // The sampler paints: the fake's fixed picture stands for what a model makes, at the latent's size.
        return [{ ...(await input<Latent>("latent_image")), source: image }];
      case "VAEDecode":
      case "VAEDecodeTiled": {
        const latent = await input<Latent>("samples");
        return [{ ...latent, width: latent.width * 8, height: latent.height * 8 } satisfies Picture];
      }
      case "ImageCompositeMasked":
        return [await input<Picture>("destination")];
      case "UpscaleModelLoader":
        return [{ factor: upscaleFactorOf(String(node.inputs.model_name)) }];
      case "ImageUpscaleWithModel": {
        const [{ factor }, picture] = await Promise.all([input<{ factor: number }>("upscale_model"), input<Picture>("image")]);
        return [{ ...picture, width: picture.width * factor, height: picture.height * factor, scaled: true } satisfies Picture];
      }
      case "ImageScale": {
        // As ComfyUI: a side of 0 follows the other one, keeping the picture's proportions.
        const picture = await input<Picture>("image");
        let width = number("width");
        let height = number("height");
        if (width === 0 && height === 0) ({ width, height } = picture);
        else if (width === 0) width = Math.max(1, Math.round((picture.width * height) / picture.height));
        else if (height === 0) height = Math.max(1, Math.round((picture.height * width) / picture.width));
        return [{ ...picture, width, height, scaled: true } satisfies Picture];
      }
      case "ImageScaleBy": {
        const picture = await input<Picture>("image");
        const by = number("scale_by");
        return [{ ...picture, width: Math.round(picture.width * by), height: Math.round(picture.height * by), scaled: true }];
      }
      default:
        // Loaders, text encoders, ControlNets: nothing with a size.
        return NODE_TYPES[node.class_type]!.returns.map(() => null);
    }
  }

  /** What SaveImage writes: the fixed JPEG for a painted picture, a PNG of exactly its size for a scaled one. */
  async function saved(picture: Picture): Promise<{ bytes: Buffer; extension: "jpg" | "png" }> {
    if (!picture.scaled) return { bytes: image, extension: "jpg" };
    const bytes = await sharp(picture.source)
      .resize(picture.width, picture.height, { fit: "fill" })
      .png({ compressionLevel: 1 })
      .toBuffer();
    return { bytes, extension: "png" };
  }

  /** GET /object_info's entry for a node type: its inputs (model files as choices), outputs and category. */
  function nodeInfo(name: string) {
    const type = NODE_TYPES[name]!;
    const uploaded = uploadsReceived.map((upload) => (upload.subfolder ? `${upload.subfolder}/${upload.name}` : upload.name));
    const spec = (kind: InputKind): unknown[] => {
      const choices: Partial<Record<InputKind, string[]>> = {
        checkpoint: models.checkpoints,
        controlnet: models.controlnet,
        upscale_model: models.upscale_models,
        upload: uploaded,
        upscale_method: UPSCALE_METHODS,
        crop: CROPS,
      };
      const options = choices[kind];
      if (options) return ["COMBO", kind === "upload" ? { options, image_upload: true } : { options }];
      const widget = { int: "INT", float: "FLOAT", string: "STRING", bool: "BOOLEAN" } as Partial<Record<InputKind, string>>;
      return widget[kind] ? [widget[kind], {}] : [kind];
    };
    const specs = (inputs: Record<string, InputKind>) =>
      Object.fromEntries(Object.entries(inputs).map(([input, kind]) => [input, spec(kind)]));
    return {
      input: { required: specs(type.inputs), ...(type.optional ? { optional: specs(type.optional) } : {}) },
      input_order: { required: Object.keys(type.inputs), ...(type.optional ? { optional: Object.keys(type.optional) } : {}) },
      output: type.returns,
      output_is_list: type.returns.map(() => false),
      output_name: type.returns,
      name,
      display_name: name,
      description: "",
      python_module: "nodes",
      category: type.category,
      output_node: type.output === true,
    };
  }

  // ---- execution: one prompt at a time, as ComfyUI's prompt worker runs them ----

  function pump() {
    if (closed || running || pending.length === 0) return;
    const next = pending[0]!;
    const wait = next.readyAt - Date.now();
    if (wait > 0) return later(wait, pump);
    pending.shift();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    running = { prompt: next.prompt, stop, stopped, interrupted: false };
    void execute(running).finally(() => {
      running = null;
      broadcastStatus();
      pump();
    });
  }

  function record(prompt: FakePrompt, statusStr: "success" | "error", messages: unknown[][], outputs: Record<string, unknown>) {
    history[prompt.id] = {
      prompt: [prompt.number, prompt.id, prompt.graph, { client_id: prompt.clientId }, Object.keys(outputs)],
      outputs,
      status: { status_str: statusStr, completed: statusStr === "success", messages },
      meta: {},
    };
  }

  async function execute(run: NonNullable<typeof running>): Promise<void> {
    const { prompt } = run;
    prompt.state = "running";
    const { clientId, id } = prompt;
    const now = () => Date.now();
    const messages: unknown[][] = [];
    const note = (type: string, data: Record<string, unknown>) => {
      messages.push([type, data]);
      sendTo(clientId, type, data);
    };
    const executed: string[] = [];
    const interruptedHere = (node: string) => {
      prompt.state = "interrupted";
      note("execution_interrupted", {
        prompt_id: id,
        node_id: node,
        node_type: prompt.graph[node]?.class_type,
        executed,
        timestamp: now(),
      });
      record(prompt, "error", messages, {});
      sendTo(clientId, "executing", { node: null, prompt_id: id });
    };
    const step = async (ms: number) => {
      await Promise.race([pause(ms), run.stopped]);
      return !closed && !run.interrupted;
    };

    note("execution_start", { prompt_id: id, timestamp: now() });
    note("execution_cached", { nodes: [], prompt_id: id, timestamp: now() });
    const order = Object.keys(prompt.graph).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
    const outputs: Record<string, unknown> = {};
    const values: Values = new Map();
    const failed = (node: string, message: string) => {
      prompt.state = "error";
      note("execution_error", {
        prompt_id: id,
        node_id: node,
        node_type: prompt.graph[node]?.class_type,
        executed,
        exception_message: message,
        exception_type: "Exception",
        traceback: [],
        current_inputs: {},
        current_outputs: {},
        timestamp: now(),
      });
      record(prompt, "error", messages, {});
      sendTo(clientId, "executing", { node: null, prompt_id: id });
    };
    for (const node of order) {
      const classType = prompt.graph[node]!.class_type;
      sendTo(clientId, "executing", { node, display_node: node, prompt_id: id });
      if (PREPROCESSORS.has(classType)) sendTo(clientId, "progress", { value: 1, max: 1, prompt_id: id, node });
      if (classType === "KSampler") {
        const steps = scenario.steps;
        for (let done = 1; done <= steps; done++) {
          if (!(await step(scenario.stepDelayMs))) return closed ? undefined : interruptedHere(node);
          sendTo(clientId, "progress", { value: done, max: steps, prompt_id: id, node });
          if (scenario.noise) {
            sendBinary(clientId);
            sendTo(clientId, "progress", { value: 99, max: 100, prompt_id: "another-clients-prompt", node: "3" });
            sendTo(clientId, "execution_error", {
              prompt_id: "another-clients-prompt",
              node_id: "3",
              node_type: "KSampler",
              exception_message: "not yours",
            });
            sendTo(clientId, "executing", { node: null, prompt_id: "another-clients-prompt" });
          }
          if (scenario.dropSocketAfterStep === done && clientId !== null) sockets.get(clientId)?.terminate();
          if (scenario.outcome === "error" && done === scenario.errorAfterStep) {
            prompt.state = "error";
            note("execution_error", {
              prompt_id: id,
              node_id: node,
              node_type: classType,
              executed,
              exception_message: scenario.exceptionMessage,
              exception_type: "torch.OutOfMemoryError",
              traceback: ["Traceback (most recent call last):", "  ..."],
              current_inputs: {},
              current_outputs: {},
              timestamp: now(),
            });
            record(prompt, "error", messages, {});
            sendTo(clientId, "executing", { node: null, prompt_id: id });
            return;
          }
          if (scenario.outcome === "hang" && done === Math.ceil(steps / 2)) {
            await run.stopped;
            return closed ? undefined : interruptedHere(node);
          }
        }
      }
      if (classType === "ImageUpscaleWithModel") {
        // ComfyUI upscales in 512 px tiles overlapping by 32, with a progress bar counting them.
        let tiles: number;
        try {
          const picture = (await valueOf(prompt.graph, prompt.graph[node]!.inputs.image, values)) as Picture;
          tiles = Math.ceil(picture.width / 480) * Math.ceil(picture.height / 480);
        } catch (error) {
          return failed(node, (error as Error).message);
        }
        for (let done = 1; done <= tiles; done++) {
          if (!(await step(scenario.stepDelayMs))) return closed ? undefined : interruptedHere(node);
          sendTo(clientId, "progress", { value: done, max: tiles, prompt_id: id, node });
        }
      }
      if (classType === "SaveImage") {
        let picture: { bytes: Buffer; extension: "jpg" | "png" };
        try {
          picture = await saved((await valueOf(prompt.graph, prompt.graph[node]!.inputs.images, values)) as Picture);
        } catch (error) {
          return failed(node, (error as Error).message);
        }
        if (closed) return;
        const prefix = String(prompt.graph[node]!.inputs.filename_prefix ?? "ComfyUI");
        const slash = prefix.lastIndexOf("/");
        const subfolder = slash === -1 ? "" : prefix.slice(0, slash);
        const filename = `${prefix.slice(slash + 1)}_${String(++savedFiles).padStart(5, "0")}_.${picture.extension}`;
        if (scenario.output !== "none") {
          files.set(
            `output/${subfolder}/${filename}`,
            scenario.output === "jpeg" ? picture.bytes : "<html><body>not a picture</body></html>",
          );
          outputs[node] = { images: [{ filename, subfolder, type: "output" }] };
          sendTo(clientId, "executed", { node, display_node: node, output: outputs[node], prompt_id: id });
        }
      }
      executed.push(node);
    }
    prompt.state = "success";
    note("execution_success", { prompt_id: id, timestamp: now() });
    // As ComfyUI's prompt worker: history is stored after execution_success, then "executing" with node null.
    await new Promise((resolve) => setImmediate(resolve));
    if (closed) return;
    record(prompt, "success", messages, outputs);
    sendTo(clientId, "executing", { node: null, prompt_id: id });
  }

  // ---- HTTP ----

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
  const canned = (res: http.ServerResponse, reply: CannedReply) => {
    if (reply === "hang") return; // The connection stays open until the client gives up or close().
    res.writeHead(reply.status, { "content-type": "text/plain; charset=utf-8", ...reply.headers });
    res.end(reply.body ?? `${reply.status}: canned`);
  };
  const authorized = (headers: http.IncomingHttpHeaders) => token === undefined || headers.authorization === `Bearer ${token}`;
  const stripApi = (path: string) => (path.startsWith("/api/") ? path.slice(4) : path);

  async function upload(req: http.IncomingMessage, recorded: RecordedRequest, res: http.ServerResponse) {
    let form: FormData;
    try {
      form = await new Request("http://fake/upload/image", {
        method: "POST",
        headers: { "content-type": String(req.headers["content-type"] ?? "") },
        body: new Uint8Array(recorded.body),
      }).formData();
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = form.get("image");
    if (!(file instanceof File) || !file.name) {
      res.writeHead(400).end();
      return;
    }
    const type = String(form.get("type") ?? "input") || "input";
    const subfolder = String(form.get("subfolder") ?? "");
    const overwrite = ["true", "1"].includes(String(form.get("overwrite") ?? ""));
    let name = file.name;
    const dot = name.lastIndexOf(".");
    for (let i = 1; !overwrite && files.has(`${type}/${subfolder}/${name}`); i++) {
      name = `${file.name.slice(0, dot)} (${i})${file.name.slice(dot)}`;
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    files.set(`${type}/${subfolder}/${name}`, bytes);
    uploadsReceived.push({ name, subfolder, type, filename: file.name, mime: file.type, bytes });
    send(res, 200, { name, subfolder, type });
  }

  function queuePrompt(recorded: RecordedRequest, res: http.ServerResponse) {
    const body = recorded.json;
    if (!isRecord(body) || !("prompt" in body)) return send(res, 400, { error: "no prompt", node_errors: [] });
    const result = validate(body.prompt);
    if ("error" in result) return send(res, 400, { error: result.error, node_errors: result.nodeErrors });
    const prompt: FakePrompt = {
      id: randomUUID(),
      number: number++,
      clientId: typeof body.client_id === "string" ? body.client_id : null,
      graph: body.prompt as Record<string, ApiNode>,
      state: "pending",
    };
    prompts.set(prompt.id, prompt);
    pending.push({ prompt, readyAt: Date.now() + scenario.queueDelayMs });
    send(res, 200, { prompt_id: prompt.id, number: prompt.number, node_errors: {} });
    broadcastStatus();
    pump();
  }

  function view(recorded: RecordedRequest, res: http.ServerResponse) {
    const { filename = "", subfolder = "", type = "output" } = recorded.query;
    if (!filename || filename.startsWith("/") || filename.includes("..")) return res.writeHead(400).end();
    const file = files.get(`${type}/${subfolder}/${filename}`);
    if (file === undefined) return res.writeHead(404).end();
    const isImage = Buffer.isBuffer(file);
    const isPng = isImage && file.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    res.writeHead(200, {
      "content-type": isImage ? (isPng ? "image/png" : "image/jpeg") : "text/html",
      "content-disposition": `filename="${filename}"`,
    });
    res.end(file);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", "http://fake");
      const path = stripApi(url.pathname);
      let json: unknown;
      try {
        json =
          body.length > 0 && !String(req.headers["content-type"]).startsWith("multipart/") ? JSON.parse(body.toString("utf8")) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        json,
      };
      requests.push(recorded);
      if (!authorized(req.headers)) {
        res.writeHead(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": "Bearer" });
        return res.end("401: Unauthorized");
      }
      const historyOf = /^\/history\/([^/]+)$/.exec(path)?.[1];
      if (req.method === "POST" && path === "/upload/image") {
        const reply = scenario.uploadReplies.shift();
        if (reply) return canned(res, reply);
        return void upload(req, recorded, res);
      }
      if (req.method === "POST" && path === "/prompt") {
        const reply = scenario.promptReplies.shift();
        if (reply) return canned(res, reply);
        return queuePrompt(recorded, res);
      }
      if (req.method === "GET" && path === "/prompt") return send(res, 200, queueInfo());
      if (req.method === "GET" && historyOf) {
        const reply = scenario.historyReplies.shift();
        if (reply) return canned(res, reply);
        const id = decodeURIComponent(historyOf);
        return send(res, 200, history[id] ? { [id]: history[id] } : {});
      }
      if (req.method === "GET" && path === "/view") {
        const reply = scenario.viewReplies.shift();
        if (reply) return canned(res, reply);
        return view(recorded, res);
      }
      if (req.method === "POST" && path === "/interrupt") {
        const target = isRecord(json) && typeof json.prompt_id === "string" ? json.prompt_id : undefined;
        if (running && (target === undefined || target === running.prompt.id)) {
          running.interrupted = true;
          running.stop();
        }
        return res.writeHead(200).end();
      }
      if (req.method === "POST" && path === "/queue") {
        const remove = isRecord(json) && Array.isArray(json.delete) ? json.delete : [];
        const clear = isRecord(json) && json.clear === true;
        for (let i = pending.length - 1; i >= 0; i--) {
          const entry = pending[i]!;
          if (clear || remove.includes(entry.prompt.id)) {
            entry.prompt.state = "deleted";
            pending.splice(i, 1);
          }
        }
        broadcastStatus();
        return res.writeHead(200).end();
      }
      if (req.method === "GET" && path === "/queue") {
        const item = (prompt: FakePrompt) => [prompt.number, prompt.id, prompt.graph, { client_id: prompt.clientId }, []];
        return send(res, 200, {
          queue_running: running ? [item(running.prompt)] : [],
          queue_pending: pending.map((entry) => item(entry.prompt)),
        });
      }
      const objectInfoOf = /^\/object_info(?:\/([^/]+))?$/.exec(path);
      if (req.method === "GET" && objectInfoOf) {
        const reply = scenario.objectInfoReplies.shift();
        if (reply) return canned(res, reply);
        const wanted = objectInfoOf[1] === undefined ? Object.keys(NODE_TYPES) : [decodeURIComponent(objectInfoOf[1])];
        return send(res, 200, Object.fromEntries(wanted.filter((name) => name in NODE_TYPES).map((name) => [name, nodeInfo(name)])));
      }
      if (req.method === "GET" && path === "/system_stats") {
        return send(res, 200, {
          system: {
            os: "posix",
            ram_total: 67_430_559_744,
            ram_free: 51_002_417_152,
            comfyui_version: "0.3.66",
            python_version: "3.12.3",
            pytorch_version: "2.8.0+cu128",
            embedded_python: false,
            argv: ["main.py", "--listen"],
          },
          devices: [
            {
              name: options.device ?? "cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync",
              type: "cuda",
              index: 0,
              vram_total: 25_386_352_640,
              vram_free: options.vramFree ?? 23_622_320_128,
              torch_vram_total: 0,
              torch_vram_free: 0,
            },
          ],
        });
      }
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404: Not Found");
    });
  });

  // ---- WebSocket: /ws?clientId=… on the same port ----

  const wss = new WebSocketServer({ noServer: true });
  const refuse = (socket: Duplex, status: string) => {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = stripApi(url.pathname);
    const upgrade: RecordedUpgrade = { path, clientId: url.searchParams.get("clientId"), headers: req.headers, accepted: false };
    upgrades.push(upgrade);
    if (path !== "/ws") return refuse(socket, "404 Not Found");
    if (!authorized(req.headers)) return refuse(socket, "401 Unauthorized");
    if (scenario.refuseSocket) return refuse(socket, "503 Service Unavailable");
    upgrade.accepted = true;
    wss.handleUpgrade(req, socket, head, (ws) => {
      // As ComfyUI: a client id reused replaces the older socket; without one the server makes one up.
      const sid = upgrade.clientId || randomUUID().replace(/-/g, "");
      sockets.set(sid, ws);
      ws.on("close", () => {
        if (sockets.get(sid) === ws) sockets.delete(sid);
      });
      sendTo(sid, "status", { status: queueInfo(), sid });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const byRoute = (method: string, route: string | RegExp) => () =>
    requests.filter(
      (request) => request.method === method && (typeof route === "string" ? request.path === route : route.test(request.path)),
    );

  return {
    url,
    token,
    image,
    models,
    requests,
    uploadsReceived,
    upgrades,
    prompts,
    sent,
    uploads: byRoute("POST", "/upload/image"),
    queued: byRoute("POST", "/prompt"),
    historyReads: byRoute("GET", /^\/history\/[^/]+$/),
    views: byRoute("GET", "/view"),
    interrupts: byRoute("POST", "/interrupt"),
    queueDeletes: byRoute("POST", "/queue"),
    objectInfoReads: byRoute("GET", /^\/object_info(\/|$)/),
    script(changes) {
      scenario = {
        ...DEFAULT_SCENARIO,
        uploadReplies: [],
        promptReplies: [],
        historyReplies: [],
        viewReplies: [],
        objectInfoReplies: [],
        ...changes,
      };
    },
    clearRecords() {
      requests.length = 0;
      upgrades.length = 0;
      sent.length = 0;
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      running?.stop();
      for (const socket of wss.clients) socket.terminate();
      wss.close();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
