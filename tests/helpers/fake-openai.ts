/**
 * A fake OpenAI image-edits API on loopback (node:http): bearer auth, a multipart body parsed as
 * the real one is (fields model, prompt, image, n, size, quality, output_format, input_fidelity),
 * GET /v1/models/{model} (bearer auth, 404 for a model it does not know),
 * OpenAI-shaped errors, and a real JPEG of the requested size as base64. Every request is
 * recorded; each test scripts the answers it needs.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/** The image models GET /v1/models/{model} knows. */
const IMAGE_MODELS = ["gpt-image-1", "gpt-image-1-mini", "dall-e-2"];

/** An answer given instead of the real one; "hang" never answers (the client must give up). */
export type CannedReply = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface FakeOpenAiScenario {
  /** Given, in order, to the first requests; after them the real answer. */
  replies: CannedReply[];
  /** image: a real JPEG; the rest are broken answers with status 200. */
  answer: "image" | "no-data" | "not-base64" | "not-an-image" | "malformed-json";
}

export interface RecordedEdit {
  headers: http.IncomingHttpHeaders;
  /** Every text field of the form. */
  fields: Record<string, string>;
  image?: { name: string; type: string; bytes: Buffer };
  /** Pictures sent as image[] (the documented way to send several): the first is also `image`. */
  images?: Array<{ name: string; type: string; bytes: Buffer }>;
  /** A targeted edit's mask: a PNG of the image's size, fully transparent where to edit. */
  mask?: { name: string; type: string; bytes: Buffer };
}

export interface FakeOpenAi {
  url: string;
  apiKey: string;
  requests: RecordedEdit[];
  /** The edits answered "hang", each with a promise that settles when its client closed the connection (gave up, or died). */
  held: Array<{ edit: RecordedEdit; closed: Promise<void> }>;
  script(scenario: Partial<FakeOpenAiScenario>): void;
  close(): Promise<void>;
}

const SIZES = ["1024x1024", "1536x1024", "1024x1536", "auto"];
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"];

function openAiError(status: number, message: string, param: string | null, code: string | null): { status: number; body: string } {
  return { status, body: JSON.stringify({ error: { message, type: "invalid_request_error", param, code } }) };
}

/**
 * `image`: a picture answered as it is to every edit (answer "image"), instead of one of the requested
 * size made for each: an engine with no latency of its own, for many renders (the scale suite).
 */
export async function startFakeOpenAi(options: { apiKey?: string; image?: Buffer } = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? "sk-fake-key";
  let scenario: FakeOpenAiScenario = { replies: [], answer: "image" };
  const requests: RecordedEdit[] = [];
  const held: FakeOpenAi["held"] = [];

  const send = (res: http.ServerResponse, reply: { status: number; body: string; headers?: Record<string, string> }) => {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body);
  };

  async function answer(size: string): Promise<{ status: number; body: string }> {
    const [width = 1024, height = 1024] = (size === "auto" ? "1024x1024" : size).split("x").map(Number);
    const jpeg =
      options.image ??
      (await sharp({ create: { width, height, channels: 3, background: "#d8cbb5" } })
        .jpeg({ quality: 70 })
        .toBuffer());
    const data = {
      image: [{ b64_json: jpeg.toString("base64") }],
      "no-data": [],
      "not-base64": [{ b64_json: "this is not base64!" }],
      "not-an-image": [{ b64_json: Buffer.from("<html>an error page</html>").toString("base64") }],
      "malformed-json": [],
    }[scenario.answer];
    if (scenario.answer === "malformed-json") return { status: 200, body: '{"created": 1700000000, "data": [{"b64_json": "/9j/' };
    const usage = {
      total_tokens: 4660,
      input_tokens: 388,
      output_tokens: 4272,
      input_tokens_details: { text_tokens: 65, image_tokens: 323 },
    };
    return { status: 200, body: JSON.stringify({ created: Math.floor(Date.now() / 1000), data, usage }) };
  }

  async function edit(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    let form: FormData;
    try {
      form = await new Request("http://fake/v1/images/edits", {
        method: "POST",
        headers: { "content-type": req.headers["content-type"] ?? "" },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      return send(res, openAiError(400, "Could not parse multipart form", null, null));
    }
    const recorded: RecordedEdit = { headers: req.headers, fields: {} };
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") recorded.fields[name] = value;
      else if (name === "image" || name === "mask") {
        recorded[name] = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      } else if (name === "image[]") {
        const file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
        recorded.images = [...(recorded.images ?? []), file];
        recorded.image ??= file;
      }
    }
    requests.push(recorded);

    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return send(
        res,
        openAiError(
          401,
          "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
          null,
          "invalid_api_key",
        ),
      );
    }
    const reply = scenario.replies.shift();
    // The connection stays open until the client gives up or close().
    if (reply === "hang") return void held.push({ edit: recorded, closed: new Promise((resolve) => res.once("close", resolve)) });
    if (reply)
      return send(res, {
        status: reply.status,
        body: reply.body ?? JSON.stringify({ error: { message: `HTTP ${reply.status}`, type: "server_error", param: null, code: null } }),
        headers: reply.headers,
      });

    const { fields, image } = recorded;
    if (!fields.prompt) return send(res, openAiError(400, "Missing required parameter: 'prompt'.", "prompt", "missing_required_parameter"));
    if (!image) return send(res, openAiError(400, "Missing required parameter: 'image'.", "image", "missing_required_parameter"));
    if (!IMAGE_TYPES.includes(image.type)) {
      return send(
        res,
        openAiError(
          400,
          `Invalid file 'image': unsupported mimetype ('${image.type}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
          "image",
          "unsupported_file_mimetype",
        ),
      );
    }
    if (recorded.mask) {
      // The documented rules: a PNG with an alpha channel, the same size as the image.
      const [maskInfo, imageInfo] = await Promise.all([
        sharp(recorded.mask.bytes)
          .metadata()
          .catch(() => null),
        sharp(image.bytes)
          .metadata()
          .catch(() => null),
      ]);
      if (
        recorded.mask.type !== "image/png" ||
        maskInfo?.format !== "png" ||
        !maskInfo.hasAlpha ||
        maskInfo.width !== imageInfo?.width ||
        maskInfo.height !== imageInfo?.height
      ) {
        return send(
          res,
          openAiError(
            400,
            "Invalid mask image: it must be a PNG with an alpha channel and the same dimensions as the image.",
            "mask",
            "invalid_image",
          ),
        );
      }
    }
    const size = fields.size ?? "auto";
    if (!SIZES.includes(size)) {
      return send(
        res,
        openAiError(
          400,
          `Invalid value: '${size}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`,
          "size",
          "invalid_value",
        ),
      );
    }
    send(res, await answer(size));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://fake").pathname;
      // GET /v1/models/{model}: the cheapest authenticated call (the self-test and /admin's "Test connection").
      const model = /^\/v1\/models\/([^/]+)$/.exec(path);
      if (req.method === "GET" && model) {
        requests.push({ headers: req.headers, fields: { model: decodeURIComponent(model[1]!) } });
        if (req.headers.authorization !== `Bearer ${apiKey}`) {
          return send(res, openAiError(401, "Incorrect API key provided.", null, "invalid_api_key"));
        }
        const id = decodeURIComponent(model[1]!);
        if (!IMAGE_MODELS.includes(id)) {
          return send(res, openAiError(404, `The model '${id}' does not exist or you do not have access to it.`, null, "model_not_found"));
        }
        return send(res, { status: 200, body: JSON.stringify({ id, object: "model", created: 1_745_000_000, owned_by: "system" }) });
      }
      if (req.method !== "POST" || path !== "/v1/images/edits") {
        return send(res, openAiError(404, `Invalid URL (${req.method} ${path})`, null, null));
      }
      edit(req, Buffer.concat(chunks), res).catch((error: unknown) => send(res, openAiError(500, String(error), null, null)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    requests,
    held,
    script(changes) {
      scenario = { replies: [], answer: "image", ...changes };
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
