/**
 * A fake Replicate API on loopback (node:http) speaking the documented protocol: bearer auth,
 * create by model path or by version, predictions that go starting → processing (tqdm-style
 * progress in their logs) → a scripted final state, cancel, output files served by the fake
 * itself (a real JPEG), and signed webhooks. Every request is recorded; each test scripts the
 * scenario it needs.
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
  /** url: one image URL; url-list: [control map PNG, render JPEG]; the rest are broken answers. */
  output: "url" | "url-list" | "not-a-url" | "missing" | "not-an-image";
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
  requests: RecordedRequest[];
  creates(): RecordedRequest[];
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
): Promise<number> {
  const id = `msg_${randomUUID()}`;
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

export async function startFakeReplicate(options: { token?: string; webhookSecret?: string } = {}): Promise<FakeReplicate> {
  const token = options.token ?? "r8_fake_token";
  const image = await sharp({
    create: { width: 96, height: 64, channels: 3, background: "#c9b79c", noise: { type: "gaussian", mean: 128, sigma: 20 } },
  })
    .jpeg()
    .toBuffer();
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
      prediction.output = {
        url: `${files}/output.jpg`,
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
    if (typeof inputs.image !== "string" || !/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/]+=*$/.test(inputs.image)) {
      return problem(res, 422, "Invalid input", "input.image: expected a URI");
    }
    const id = randomUUID().replace(/-/g, "").slice(0, 26);
    const prediction: FakePrediction = {
      id,
      model: model ?? "owner/versioned",
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

  function files(res: http.ServerResponse, name: string) {
    if (name === "output.jpg") {
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(image.length) });
      return res.end(image);
    }
    if (name === "control.png") {
      res.writeHead(200, { "content-type": "image/png" });
      return res.end(controlMap);
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

      const file = /^\/files\/[\w-]+\/([\w.]+)$/.exec(path);
      if (req.method === "GET" && file?.[1]) return files(res, file[1]);
      if (req.headers.authorization !== `Bearer ${token}`) {
        return problem(res, 401, "Unauthenticated", "You did not pass a valid authentication token");
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
    requests,
    creates: () =>
      requests.filter(
        (request) =>
          request.method === "POST" && (request.path === "/v1/predictions" || /^\/v1\/models\/.+\/predictions$/.test(request.path)),
      ),
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
