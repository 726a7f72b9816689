/**
 * OpenAI image edits (gpt-image-1): one multipart request, the image comes back as base64 in the
 * answer. Nothing pins the room's structure, so the prompt asks for it and input_fidelity is
 * high. OpenAI says nothing about progress or seeds, so neither is reported.
 */
import { PermanentRenderError, throwIfAborted, type EngineCapabilities, type RenderProvider, type RenderRequest } from "./provider";
import sharp from "sharp";
import { buildInpaintPrompt, buildInstructionPrompt } from "./prompt";
// The HTTP engines share one retryable error (with retryAfterMs) and the image sniffing.
import { abortError, parseRetryAfter, TransientRenderError, UNEXPECTED_ANSWER } from "./replicate";
import { sniffImageMime } from "../../images/mime";

export interface OpenAiProviderOptions {
  apiKey: string;
  /** e.g. gpt-image-1 */
  model: string;
  /** e.g. https://api.openai.com */
  baseUrl: string;
  fetch?: typeof fetch;
}

export type OpenAiImageSize = "1024x1024" | "1536x1024" | "1024x1536";

/** The output size closest to the photo's shape; within 10% of square counts as square. */
export function openAiSizeFor(width: number, height: number): OpenAiImageSize {
  const ratio = width / height;
  if (!Number.isFinite(ratio) || ratio <= 0 || Math.abs(ratio - 1) <= 0.1) return "1024x1024";
  return ratio > 1 ? "1536x1024" : "1024x1536";
}

const MAX_ANSWER_BYTES = 60 * 1024 * 1024;

/** gpt-image-1 edits: every mode through the prompt, masks for targeted edits, 1536 px at most, no seeds, no progress. */
export const OPENAI_CAPABILITIES: EngineCapabilities = {
  isAi: true,
  modes: ["redesign", "stage", "declutter", "sky", "twilight", "garden"],
  maxOutputLongEdge: 1536,
  seeds: false,
  percentProgress: false,
  masks: true,
  upscale: false,
  structureStrength: false,
  // gpt-image-1 takes several input pictures (image[]): a set's reference goes second.
  referencePicture: true,
  // An instruction editor: it imagines one eye-level view of the plan's room (nothing pins the layout to the drawing).
  floorPlan: "eye-level",
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function errorMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const message = isRecord(parsed) && isRecord(parsed.error) ? parsed.error.message : undefined;
    return typeof message === "string" && message.trim() ? message.trim().slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

function prompt(request: RenderRequest): string {
  // The edits endpoint has no negative prompt field: the things to avoid go into the text.
  return buildInstructionPrompt({
    style: request.style,
    customStyle: request.styleSnapshot,
    roomType: request.roomType,
    mode: request.mode,
    renderMode: request.renderMode,
    note: request.prompt,
    planView: "eye-level",
    reference: request.reference !== undefined,
  });
}

export function createOpenAiProvider(options: OpenAiProviderOptions): RenderProvider {
  const { apiKey, model } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;

  /** One call of the edits endpoint: the picture it answers, or the error to raise (transient ones are retried). */
  async function sendEdit(
    form: FormData,
    signal: AbortSignal,
  ): Promise<{ image: Buffer; mime: NonNullable<ReturnType<typeof sniffImageMime>> }> {
    let response: Response;
    let body: string;
    try {
      response = await fetchImpl(`${baseUrl}/v1/images/edits`, {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}` },
        body: form,
        signal,
      });
      if (Number(response.headers.get("content-length")) > MAX_ANSWER_BYTES) throw new PermanentRenderError(UNEXPECTED_ANSWER);
      body = await response.text();
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      if (error instanceof PermanentRenderError) throw error;
      throw new TransientRenderError("The render engine could not be reached", { cause: error });
    }

    const { status } = response;
    if (status === 429 || status >= 500) {
      throw new TransientRenderError(
        status === 429 ? "The render engine is busy (HTTP 429)" : `The render engine is unavailable (HTTP ${status})`,
        {
          retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
        },
      );
    }
    if (status === 401 || status === 403) throw new PermanentRenderError("The render engine refused the API key");
    if (!response.ok) throw new PermanentRenderError(`The render engine refused the request: ${errorMessage(body) ?? `HTTP ${status}`}`);

    let encoded: unknown;
    try {
      const parsed: unknown = JSON.parse(body);
      const first: unknown = isRecord(parsed) && Array.isArray(parsed.data) ? parsed.data[0] : undefined;
      encoded = isRecord(first) ? first.b64_json : undefined;
    } catch {
      encoded = undefined;
    }
    if (typeof encoded !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new PermanentRenderError(UNEXPECTED_ANSWER);
    const image = Buffer.from(encoded, "base64");
    const mime = sniffImageMime(image);
    if (!mime) throw new PermanentRenderError(UNEXPECTED_ANSWER);
    return { image, mime };
  }

  return {
    id: "openai",
    label: `OpenAI (${model})`,
    billedPerRender: true,
    capabilities: OPENAI_CAPABILITIES,
    async render(request) {
      const { signal } = request;
      throwIfAborted(signal);
      const sentPrompt = prompt(request);
      // The choices that shape the picture, recorded with it (the render's details).
      const parameters = { size: openAiSizeFor(request.width, request.height), quality: "medium", input_fidelity: "high" } as const;
      const form = new FormData();
      form.append("model", model);
      form.append("prompt", sentPrompt);
      // A copy: Blob takes ArrayBuffer-backed views only, and a Buffer may sit on a shared pool.
      const picture = (bytes: Buffer, name: string) => {
        const mime = sniffImageMime(bytes) ?? "image/jpeg";
        return [
          new Blob([new Uint8Array(bytes)], { type: mime }),
          `${name}.${mime.slice("image/".length).replace("jpeg", "jpg")}`,
        ] as const;
      };
      if (request.reference) {
        // Several pictures go as image[]: the room first (the one edited), then the look to follow.
        form.append("image[]", ...picture(request.image, "image"));
        form.append("image[]", ...picture(request.reference, "reference"));
      } else form.append("image", ...picture(request.image, "image"));
      form.append("n", "1");
      form.append("size", parameters.size);
      form.append("quality", parameters.quality);
      form.append("output_format", "jpeg");
      form.append("input_fidelity", parameters.input_fidelity);
      request.onProgress?.(0);
      const { image, mime } = await sendEdit(form, signal);
      request.onProgress?.(1);
      return { image, mime, model, prompt: sentPrompt, parameters: { ...parameters } };
    },

    /**
     * A targeted edit: the same endpoint with a `mask`, a PNG of the image's size whose fully
     * transparent pixels mark what to change (ours: white = change, so alpha = 255 − mask).
     */
    async inpaint(request) {
      const { signal } = request;
      throwIfAborted(signal);
      const inputMime = sniffImageMime(request.image) ?? "image/jpeg";
      const { width = 0, height = 0 } = await sharp(request.image).metadata();
      const alphaMask = await sharp(request.mask).resize(width, height, { fit: "fill" }).greyscale().negate().raw().toBuffer();
      const maskPng = await sharp({ create: { width, height, channels: 3, background: "#000000" } })
        .joinChannel(alphaMask, { raw: { width, height, channels: 1 } })
        .png()
        .toBuffer();
      const sentPrompt = buildInpaintPrompt(request.prompt, request.paint);
      const parameters = { size: openAiSizeFor(width, height), quality: "medium", input_fidelity: "high", mask: true } as const;
      const form = new FormData();
      form.append("model", model);
      form.append("prompt", sentPrompt);
      form.append(
        "image",
        new Blob([new Uint8Array(request.image)], { type: inputMime }),
        `image.${inputMime.slice("image/".length).replace("jpeg", "jpg")}`,
      );
      form.append("mask", new Blob([new Uint8Array(maskPng)], { type: "image/png" }), "mask.png");
      form.append("n", "1");
      form.append("size", parameters.size);
      form.append("quality", parameters.quality);
      form.append("output_format", "jpeg");
      form.append("input_fidelity", parameters.input_fidelity);
      request.onProgress?.(0);
      const { image, mime } = await sendEdit(form, signal);
      request.onProgress?.(1);
      return { image, mime, model, prompt: sentPrompt, parameters: { ...parameters } };
    },
  };
}
