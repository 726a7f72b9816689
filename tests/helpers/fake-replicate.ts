/**
 * A fake Replicate API on loopback (node:http) speaking the documented protocol: bearer auth,
 * create by model path or by version, predictions that go starting → processing (tqdm-style
 * progress in their logs) → a scripted final state, cancel, output files served by the fake
 * itself (a real JPEG), and signed webhooks. Every request is recorded; each test scripts the
 * scenario it needs.
 *
 * Models named in `communityModels` behave as community models do on Replicate: creating one by
 * model path answers 404 (only official models run by name), GET /v1/models/{owner}/{name} names
 * its latest version, and creating by that version works. Any other model is accepted by name,
 * as an official model. The models this studio has presets for are checked against the input
 * schemas on their API pages (MODEL_SCHEMAS): a missing or misnamed field, a wrong type or a value
 * out of range is refused with 422 as Replicate refuses it (the fake is stricter in one way:
 * Replicate may ignore a field it does not know; the fake refuses it, to catch misspellings).
 * Each answers in its own output shape, and nightmareai/real-esrgan really upscales the input.
 * GET /v1/account answers as for a user named "fake".
 */
import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/** An answer given instead of the real one; "hang" never answers (the client must give up). */
export type CannedReply = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface ReplicateScenario {
  /** Polls answered "processing", with progress logs, before the final state is reached. */
  processingPolls: number;
  /** When set, the prediction ends on its own this long after creation, polls or not. */
  completeAfterMs?: number;
  final: "succeeded" | "failed" | "canceled" | "never";
  /** The prediction's error text when final is "failed". */
  error: string;
  /**
   * url: one image URL (a PNG when the input asked for output_format "png"; real-esrgan's upscale of
   * the input); one-item-list: [that URL]; url-list: [control map PNG, render JPEG]; the rest are
   * broken answers.
   */
  output: "url" | "one-item-list" | "url-list" | "not-a-url" | "missing" | "not-an-image";
  /** Printed in the logs as "Using seed: N". */
  seed?: number;
  /** Given, in order, to the first create calls instead of creating. */
  createReplies: CannedReply[];
  /** Given, in order, to the first polls instead of the prediction. */
  pollReplies: CannedReply[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, when it was JSON. */
  json?: unknown;
}

export interface FakeReplicate {
  url: string;
  token: string;
  /** The JPEG served as the render. */
  image: Buffer;
  /** The same picture as a PNG, served when the input asked for output_format "png". */
  imagePng: Buffer;
  /** The PNG served as the control map of [control map, render] answers. */
  controlMap: Buffer;
  requests: RecordedRequest[];
  creates(): RecordedRequest[];
  /** GET /v1/models/{owner}/{name} (the latest-version look-ups). */
  modelLookups(): RecordedRequest[];
  polls(): RecordedRequest[];
  cancels(): RecordedRequest[];
  /** Webhooks the fake sent, with the status each got. */
  webhookDeliveries: Array<{ url: string; status: number | "unreachable" }>;
  script(scenario: Partial<ReplicateScenario>): void;
  close(): Promise<void>;
}

interface FakePrediction {
  id: string;
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  status: string;
  logs: string;
  output: unknown;
  error: string | null;
  created_at: string;
  completed_at: string | null;
  urls: { get: string; cancel: string };
}

/** The Standard Webhooks signature Replicate uses: "v1,<base64 HMAC-SHA256 of id.timestamp.body>". */
export function signReplicateWebhook({
  secret,
  id,
  timestamp,
  body,
}: {
  secret: string;
  id: string;
  timestamp: number | string;
  body: string | Buffer;
}): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]))
    .digest("base64");
  return `v1,${signature}`;
}

/** POSTs a signed webhook; returns the status the receiver answered. */
export async function postSignedWebhook(
  url: string,
  body: string,
  secret: string,
  timestampSeconds = Math.floor(Date.now() / 1000),
  /** The webhook-id: a new one unless a test replays a delivery. */
  id = `msg_${randomUUID()}`,
): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(timestampSeconds),
      "webhook-signature": signReplicateWebhook({ secret, id, timestamp: timestampSeconds, body }),
    },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

type FieldSpec =
  | { type: "uri" }
  | { type: "uri[]"; maxItems?: number }
  | { type: "string"; choices?: readonly string[] }
  | { type: "integer" | "number"; min?: number; max?: number }
  | { type: "boolean" };

interface ModelSchema {
  required: readonly string[];
  fields: Record<string, FieldSpec>;
  /** A rule across fields, as the model's page states it. */
  check?: (input: Record<string, unknown>) => string | null;
}

const OUTPUT_FORMATS = ["jpg", "png"] as const;

/**
 * The input schemas of the models with presets, as their API pages on replicate.com show them
 * (sources in src/server/render/engines/replicate-presets.ts). Choices of enumerated fields are
 * listed only as far as the pages show them.
 */
export const MODEL_SCHEMAS: Record<string, ModelSchema> = {
  "adirik/interior-design": {
    required: ["image", "prompt"],
    fields: {
      image: { type: "uri" },
      prompt: { type: "string" },
      negative_prompt: { type: "string" },
      num_inference_steps: { type: "integer", min: 1, max: 500 },
      guidance_scale: { type: "number", min: 1, max: 50 },
      prompt_strength: { type: "number", min: 0, max: 1 },
      seed: { type: "integer" },
    },
  },
  "jagilley/controlnet-hough": {
    required: ["image", "prompt"],
    fields: {
      image: { type: "uri" },
      prompt: { type: "string" },
      a_prompt: { type: "string" },
      n_prompt: { type: "string" },
      ddim_steps: { type: "integer" },
      image_resolution: { type: "string" },
      num_samples: { type: "string" },
      scale: { type: "number", min: 0.1, max: 30 },
      seed: { type: "integer" },
      eta: { type: "number" },
      value_threshold: { type: "number" },
      distance_threshold: { type: "number" },
      detect_resolution: { type: "integer", min: 128, max: 1024 },
    },
  },
  "black-forest-labs/flux-kontext-pro": {
    required: ["prompt"],
    fields: {
      prompt: { type: "string" },
      input_image: { type: "uri" },
      aspect_ratio: { type: "string" },
      prompt_upsampling: { type: "boolean" },
      seed: { type: "integer" },
      output_format: { type: "string", choices: OUTPUT_FORMATS },
      safety_tolerance: { type: "integer", min: 0, max: 6 },
    },
    check: (input) =>
      input.input_image !== undefined && typeof input.safety_tolerance === "number" && input.safety_tolerance > 2
        ? "safety_tolerance: 2 is currently the maximum allowed when input images are used"
        : null,
  },
  "google/nano-banana": {
    required: ["prompt"],
    fields: { prompt: { type: "string" }, image_input: { type: "uri[]" }, output_format: { type: "string", choices: OUTPUT_FORMATS } },
  },
  "google/nano-banana-2": {
    required: ["prompt"],
    fields: {
      prompt: { type: "string" },
      image_input: { type: "uri[]", maxItems: 14 },
      aspect_ratio: { type: "string" },
      resolution: { type: "string" },
      google_search: { type: "boolean" },
      image_search: { type: "boolean" },
      output_format: { type: "string", choices: OUTPUT_FORMATS },
    },
  },
  "black-forest-labs/flux-fill-pro": {
    required: ["image"],
    fields: {
      prompt: { type: "string" },
      image: { type: "uri" },
      mask: { type: "uri" },
      outpaint: { type: "string" },
      seed: { type: "integer" },
      steps: { type: "integer", min: 1, max: 50 },
      prompt_upsampling: { type: "boolean" },
      guidance: { type: "number", min: 2, max: 5 },
      safety_tolerance: { type: "integer", min: 1, max: 6 },
      output_format: { type: "string", choices: OUTPUT_FORMATS },
    },
  },
  "nightmareai/real-esrgan": {
    required: ["image"],
    fields: { image: { type: "uri" }, scale: { type: "number", min: 0, max: 10 }, face_enhance: { type: "boolean" } },
  },
};

const DATA_URI = /^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/]+=*$/;
const isUri = (value: unknown) => typeof value === "string" && (DATA_URI.test(value) || /^https?:\/\/\S+$/.test(value));

/** Why the input does not fit the schema, in Replicate's words ("input.x: ..."), or null. */
function schemaProblem(schema: ModelSchema, input: Record<string, unknown>): string | null {
  for (const name of schema.required) if (input[name] === undefined) return `input: ${name} is required`;
  for (const [name, value] of Object.entries(input)) {
    const spec = schema.fields[name];
    if (!spec) return `input.${name}: not a field of this model`;
    switch (spec.type) {
      case "uri":
        if (!isUri(value)) return `input.${name}: expected a URI`;
        break;
      case "uri[]":
        if (!Array.isArray(value) || !value.every(isUri)) return `input.${name}: expected an array of URIs`;
        if (spec.maxItems !== undefined && value.length > spec.maxItems) return `input.${name}: at most ${spec.maxItems} items`;
        break;
      case "string":
        if (typeof value !== "string") return `input.${name}: expected a string`;
        if (spec.choices && !spec.choices.includes(value)) return `input.${name}: must be one of ${spec.choices.join(", ")}`;
        break;
      case "integer":
      case "number":
        if (typeof value !== "number" || (spec.type === "integer" && !Number.isInteger(value)))
          return `input.${name}: expected ${spec.type === "integer" ? "an integer" : "a number"}`;
        if (spec.min !== undefined && value < spec.min) return `input.${name}: must be greater than or equal to ${spec.min}`;
        if (spec.max !== undefined && value > spec.max) return `input.${name}: must be less than or equal to ${spec.max}`;
        break;
      case "boolean":
        if (typeof value !== "boolean") return `input.${name}: expected a boolean`;
        break;
    }
  }
  return schema.check?.(input) ?? null;
}

const DEFAULT_SCENARIO: ReplicateScenario = {
  processingPolls: 3,
  final: "succeeded",
  error: "CUDA out of memory",
  output: "url",
  createReplies: [],
  pollReplies: [],
};

/** A tqdm line as adirik/interior-design prints it, e.g. " 25%|██▌       | 13/50 [00:01<00:05,  9.80it/s]". */
function progressLine(percent: number, elapsed: number): string {
  const bar = "█".repeat(Math.round(percent / 10)).padEnd(10, " ");
  return `${String(percent).padStart(3)}%|${bar}| ${Math.round(percent / 2)}/50 [00:0${elapsed}<00:05,  9.80it/s]\n`;
}

export async function startFakeReplicate(
  options: {
    token?: string;
    webhookSecret?: string;
    /** Community models ("owner/name" → latest version id): refused by model path, run by version. */
    communityModels?: Record<string, string>;
  } = {},
): Promise<FakeReplicate> {
  const token = options.token ?? "r8_fake_token";
  const communityModels = options.communityModels ?? {};
  const modelOfVersion = new Map(Object.entries(communityModels).map(([model, version]) => [version, model]));
  const image = await sharp({
    create: { width: 96, height: 64, channels: 3, background: "#c9b79c", noise: { type: "gaussian", mean: 128, sigma: 20 } },
  })
    .jpeg()
    .toBuffer();
  const imagePng = await sharp(image).png().toBuffer();
  const controlMap = await sharp({ create: { width: 96, height: 64, channels: 3, background: "#000" } })
    .png()
    .toBuffer();

  let scenario: ReplicateScenario = { ...DEFAULT_SCENARIO, createReplies: [], pollReplies: [] };
  const requests: RecordedRequest[] = [];
  const webhookDeliveries: FakeReplicate["webhookDeliveries"] = [];
  const predictions = new Map<string, { prediction: FakePrediction; polls: number; webhook?: string }>();
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = "";

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const problem = (res: http.ServerResponse, status: number, title: string, detail: string) =>
    send(res, status, { title, detail, status }, { "content-type": "application/problem+json" });
  const canned = (res: http.ServerResponse, reply: CannedReply) => {
    if (reply === "hang") return; // The connection stays open until the client gives up or close().
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body ?? JSON.stringify({ title: "Canned", detail: `HTTP ${reply.status}`, status: reply.status }));
  };

  async function deliverWebhook(entry: { prediction: FakePrediction; webhook?: string }) {
    if (!entry.webhook || !options.webhookSecret) return;
    try {
      const status = await postSignedWebhook(entry.webhook, JSON.stringify(entry.prediction), options.webhookSecret);
      webhookDeliveries.push({ url: entry.webhook, status });
    } catch {
      webhookDeliveries.push({ url: entry.webhook, status: "unreachable" });
    }
  }

  function finish(entry: { prediction: FakePrediction; webhook?: string }) {
    const { prediction } = entry;
    if (scenario.final === "never") return;
    prediction.completed_at = new Date().toISOString();
    if (scenario.final === "failed") {
      prediction.status = "failed";
      prediction.error = scenario.error;
    } else if (scenario.final === "canceled") {
      prediction.status = "canceled";
    } else {
      prediction.status = "succeeded";
      prediction.logs += progressLine(100, 5);
      const files = `${baseUrl}/files/${prediction.id}`;
      const render =
        prediction.model === "nightmareai/real-esrgan"
          ? `${files}/upscaled.png`
          : `${files}/output.${prediction.input.output_format === "png" ? "png" : "jpg"}`;
      prediction.output = {
        url: render,
        "one-item-list": [render],
        "url-list": [`${files}/control.png`, `${files}/output.jpg`],
        "not-a-url": "a lovely living room",
        missing: null,
        "not-an-image": `${files}/page.html`,
      }[scenario.output];
    }
    void deliverWebhook(entry);
  }

  function create(req: RecordedRequest, res: http.ServerResponse, model: string | null) {
    const body = req.json;
    if (typeof body !== "object" || body === null) return problem(res, 400, "Bad request", "The body must be a JSON object");
    const { version, input, webhook } = body as { version?: unknown; input?: unknown; webhook?: unknown };
    if (model === null && typeof version !== "string") return problem(res, 422, "Invalid input", "version is required");
    if (model !== null && version !== undefined) return problem(res, 422, "Invalid input", "version is not allowed when creating by model");
    if (typeof input !== "object" || input === null) return problem(res, 422, "Invalid input", "input is required");
    const inputs = input as Record<string, unknown>;
    const ran = model ?? (typeof version === "string" ? modelOfVersion.get(version) : undefined);
    if (model !== null && model in communityModels) {
      // Only official models run by name; Replicate answers a community model's path with 404.
      return problem(res, 404, "Not found", "The requested resource could not be found");
    }
    const schema = ran === undefined ? undefined : MODEL_SCHEMAS[ran];
    if (schema) {
      const wrong = schemaProblem(schema, inputs);
      if (wrong) return problem(res, 422, "Input validation failed", wrong);
    } else if (typeof inputs.image !== "string" || !DATA_URI.test(inputs.image)) {
      return problem(res, 422, "Invalid input", "input.image: expected a URI");
    }
    const id = randomUUID().replace(/-/g, "").slice(0, 26);
    const prediction: FakePrediction = {
      id,
      model: ran ?? "owner/versioned",
      version: typeof version === "string" ? version : null,
      input: inputs,
      status: "starting",
      logs: scenario.seed === undefined ? "" : `Using seed: ${scenario.seed}\n`,
      output: null,
      error: null,
      created_at: new Date().toISOString(),
      completed_at: null,
      urls: { get: `${baseUrl}/v1/predictions/${id}`, cancel: `${baseUrl}/v1/predictions/${id}/cancel` },
    };
    const entry = { prediction, polls: 0, webhook: typeof webhook === "string" ? webhook : undefined };
    predictions.set(id, entry);
    if (scenario.completeAfterMs !== undefined) {
      prediction.status = "processing";
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (prediction.status === "processing") finish(entry);
      }, scenario.completeAfterMs);
      timers.add(timer);
    }
    send(res, 201, prediction);
  }

  function poll(res: http.ServerResponse, id: string) {
    const entry = predictions.get(id);
    if (!entry) return problem(res, 404, "Not found", "The requested resource could not be found");
    const { prediction } = entry;
    if (scenario.completeAfterMs === undefined && (prediction.status === "starting" || prediction.status === "processing")) {
      entry.polls += 1;
      if (entry.polls <= scenario.processingPolls) {
        prediction.status = "processing";
        prediction.logs += progressLine(Math.round((100 * entry.polls) / (scenario.processingPolls + 1)), entry.polls);
      } else if (scenario.final === "never") {
        prediction.status = "processing";
      } else {
        finish(entry);
      }
    }
    send(res, 200, prediction);
  }

  /** real-esrgan's answer: the input image resized by input.scale. */
  async function upscaled(id: string): Promise<Buffer | null> {
    const input = predictions.get(id)?.prediction.input;
    const uri = input?.image;
    if (typeof uri !== "string" || !DATA_URI.test(uri) || typeof input?.scale !== "number") return null;
    const source = sharp(Buffer.from(uri.slice(uri.indexOf(",") + 1), "base64"));
    const { width = 0, height = 0 } = await source.metadata();
    return source
      .resize(Math.round(width * input.scale), Math.round(height * input.scale))
      .png()
      .toBuffer();
  }

  function files(res: http.ServerResponse, id: string, name: string) {
    if (name === "output.jpg") {
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(image.length) });
      return res.end(image);
    }
    if (name === "output.png") {
      res.writeHead(200, { "content-type": "image/png", "content-length": String(imagePng.length) });
      return res.end(imagePng);
    }
    if (name === "control.png") {
      res.writeHead(200, { "content-type": "image/png" });
      return res.end(controlMap);
    }
    if (name === "upscaled.png") {
      void upscaled(id).then(
        (bytes) => {
          if (!bytes) return problem(res, 404, "Not found", "Nothing was upscaled");
          res.writeHead(200, { "content-type": "image/png", "content-length": String(bytes.length) });
          res.end(bytes);
        },
        () => problem(res, 500, "Internal error", "The upscale failed"),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Nothing to see</body></html>");
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? "/", "http://fake").pathname;
      let json: unknown;
      try {
        json = body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? "", path, headers: req.headers, body, json };
      requests.push(recorded);

      const file = /^\/files\/([\w-]+)\/([\w.]+)$/.exec(path);
      if (req.method === "GET" && file?.[1] && file[2]) return files(res, file[1], file[2]);
      if (req.headers.authorization !== `Bearer ${token}`) {
        return problem(res, 401, "Unauthenticated", "You did not pass a valid authentication token");
      }
      if (req.method === "GET" && path === "/v1/account") return send(res, 200, { type: "user", username: "fake", name: "Fake Studio" });
      const modelInfo = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)$/.exec(path);
      if (req.method === "GET" && modelInfo) {
        const name = `${modelInfo[1]}/${modelInfo[2]}`;
        const latest = communityModels[name];
        if (latest === undefined) return problem(res, 404, "Not found", "The requested resource could not be found");
        return send(res, 200, { owner: modelInfo[1], name: modelInfo[2], visibility: "public", latest_version: { id: latest } });
      }
      const byModel = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)\/predictions$/.exec(path);
      const byId = /^\/v1\/predictions\/([\w-]+)$/.exec(path);
      const cancel = /^\/v1\/predictions\/([\w-]+)\/cancel$/.exec(path);
      if (req.method === "POST" && (byModel || path === "/v1/predictions")) {
        const reply = scenario.createReplies.shift();
        if (reply) return canned(res, reply);
        return create(recorded, res, byModel ? `${byModel[1]}/${byModel[2]}` : null);
      }
      if (req.method === "GET" && byId?.[1]) {
        const reply = scenario.pollReplies.shift();
        if (reply) return canned(res, reply);
        return poll(res, byId[1]);
      }
      if (req.method === "POST" && cancel?.[1]) {
        const entry = predictions.get(cancel[1]);
        if (!entry) return problem(res, 404, "Not found", "The requested resource could not be found");
        if (entry.prediction.status === "starting" || entry.prediction.status === "processing") {
          entry.prediction.status = "canceled";
          entry.prediction.completed_at = new Date().toISOString();
        }
        return send(res, 200, entry.prediction);
      }
      problem(res, 404, "Not found", "The requested resource could not be found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const isPoll = (request: RecordedRequest) => request.method === "GET" && /^\/v1\/predictions\/[\w-]+$/.test(request.path);
  return {
    url: baseUrl,
    token,
    image,
    imagePng,
    controlMap,
    requests,
    creates: () =>
      requests.filter(
        (request) =>
          request.method === "POST" && (request.path === "/v1/predictions" || /^\/v1\/models\/.+\/predictions$/.test(request.path)),
      ),
    modelLookups: () => requests.filter((request) => request.method === "GET" && /^\/v1\/models\/[\w.-]+\/[\w.-]+$/.test(request.path)),
    polls: () => requests.filter(isPoll),
    cancels: () => requests.filter((request) => request.method === "POST" && request.path.endsWith("/cancel")),
    webhookDeliveries,
    script(changes) {
      scenario = { ...DEFAULT_SCENARIO, createReplies: [], pollReplies: [], ...changes };
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
