/**
 * Replicate (replicate.com), over its HTTP API: create a prediction, follow it until it is final
 * (polling, or woken early by a webhook), download the image. The request's AbortSignal is the
 * only deadline: the worker aborts it, and then the prediction is canceled so it stops costing.
 *
 * Transient trouble when creating is thrown as TransientRenderError for the worker to retry (a new
 * prediction); transient trouble after that is retried here, since the prediction already runs
 * and creating another would pay twice. What retrying cannot fix (a refused token, a failed
 * prediction, an answer that makes no sense) is a PermanentRenderError, whose message users see.
 */
import {
  PermanentRenderError,
  RetryableRenderError,
  throwIfAborted,
  type EngineCapabilities,
  type RenderProvider,
  type RenderRequest,
  type RenderResult,
} from "./provider";
import { buildNegativePrompt, buildPrompt } from "./prompt";
import { isFinalStatus, parsePrediction, type PredictionWaiters, type ReplicatePrediction } from "./replicate-webhook";

export const UNEXPECTED_ANSWER = "The render engine returned an unexpected answer";

/**
 * A RetryableRenderError that may say how long the engine asked us to wait (Retry-After).
 * Shared by the HTTP engines; the worker reads retryAfterMs when choosing its next attempt.
 */
export class TransientRenderError extends RetryableRenderError {
  override name = "TransientRenderError";
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Retry-After as milliseconds: either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, nowMs = Date.now()): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The image type from the first bytes; engines have been known to mislabel their files. */
export function sniffImageMime(bytes: Buffer): RenderResult["mime"] | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "image/webp";
  return null;
}

export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("Render canceled", "AbortError");
}

/** Resolves after ms; rejects as soon as the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * How far the model is, from its logs. adirik/interior-design prints tqdm bars such as
 * " 45%|████▌     | 23/50": the last percentage wins, else the last "k/n".
 */
export function progressFromLogs(logs: string | undefined): number | undefined {
  if (!logs) return undefined;
  const lastPercent = [...logs.matchAll(/(\d{1,3}(?:\.\d+)?)%/g)].at(-1);
  if (lastPercent) {
    const fraction = Number(lastPercent[1]) / 100;
    return fraction <= 1 ? fraction : undefined;
  }
  const lastStep = [...logs.matchAll(/\b(\d+)\/(\d+)\b/g)]
    .map((match) => ({ done: Number(match[1]), total: Number(match[2]) }))
    .filter(({ done, total }) => total > 0 && done <= total)
    .at(-1);
  return lastStep ? lastStep.done / lastStep.total : undefined;
}

export interface ReplicateProviderOptions {
  token: string;
  /** "owner/name" (an official model, latest version) or "owner/name:version". */
  model: string;
  /** e.g. https://api.replicate.com */
  baseUrl: string;
  /** Where Replicate should POST the finished prediction (…/webhooks/replicate). */
  webhookUrl?: string;
  /** Where the webhook route hands predictions over; without it a webhook cannot wake a render. */
  waiters?: PredictionWaiters;
  /** Between polls; default 1000, or 5000 when a webhook is configured (the webhook is faster). */
  pollIntervalMs?: number;
  fetch?: typeof fetch;
  /** Must reject when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** adirik/interior-design (Stable Diffusion with ControlNet): every mode through the prompt, seeds, progress from its logs. */
export const REPLICATE_INTERIOR_CAPABILITIES: EngineCapabilities = {
  isAi: true,
  modes: ["redesign", "stage", "declutter"],
  maxOutputLongEdge: 1024,
  seeds: true,
  percentProgress: true,
  masks: false,
  upscale: false,
  structureStrength: false,
};

const MAX_POLL_BACKOFF_MS = 30_000;
/** Canceling happens after the deadline: it gets its own short one. */
const CANCEL_TIMEOUT_MS = 5_000;
const MAX_JSON_BYTES = 20 * 1024 * 1024;
const MAX_OUTPUT_BYTES = 50 * 1024 * 1024;

interface ModelRef {
  owner: string;
  name: string;
  version?: string;
}

function parseModel(model: string): ModelRef {
  const match = /^([\w.-]+)\/([\w.-]+)(?::([\w.-]+))?$/.exec(model);
  if (!match?.[1] || !match[2]) throw new Error(`Expected a Replicate model as owner/name or owner/name:version, got "${model}"`);
  return { owner: match[1], name: match[2], version: match[3] };
}

/** The model's inputs. Each model names them differently; adirik/interior-design is the default. */
function modelInput(ref: ModelRef, request: RenderRequest): Record<string, unknown> {
  const image = `data:${sniffImageMime(request.image) ?? "image/jpeg"};base64,${request.image.toString("base64")}`;
  const prompt = buildPrompt({
    style: request.style,
    roomType: request.roomType,
    mode: request.mode,
    renderMode: request.renderMode,
    note: request.prompt,
  });
  const negativePrompt = buildNegativePrompt(request.mode, request.renderMode);
  if (ref.owner === "jagilley" && ref.name === "controlnet-hough") {
    // Straight-line (MLSD) control keeps walls and windows in place; its output is [control_map, render].
    return {
      image,
      prompt,
      a_prompt: "best quality, extremely detailed, photorealistic interior",
      n_prompt: negativePrompt,
      ddim_steps: 20,
      image_resolution: "512",
      scale: 9,
    };
  }
  return { image, prompt, negative_prompt: negativePrompt, guidance_scale: 15, prompt_strength: 0.8, num_inference_steps: 50 };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function seedOf(prediction: ReplicatePrediction): number | undefined {
  const candidates = [prediction.input?.seed, isRecord(prediction.output) ? prediction.output.seed : undefined];
  const fromData = candidates.find((value): value is number => Number.isSafeInteger(value));
  if (fromData !== undefined) return fromData;
  // Cog models that pick a random seed usually print "Using seed: 1234".
  const fromLogs = prediction.logs?.match(/\bseed\b\W{0,3}(\d{1,15})\b/i)?.[1];
  return fromLogs === undefined ? undefined : Number(fromLogs);
}

/** The image URL in the output: a string, or a list whose last item is the render. */
function outputUrl(output: unknown): string | null {
  const candidate: unknown = Array.isArray(output) ? output.at(-1) : output;
  if (typeof candidate !== "string") return null;
  if (candidate.startsWith("data:")) return candidate;
  try {
    const { protocol } = new URL(candidate);
    return protocol === "https:" || protocol === "http:" ? candidate : null;
  } catch {
    return null;
  }
}

function errorText(error: unknown): string {
  const text = typeof error === "string" ? error : isRecord(error) && typeof error.message === "string" ? error.message : "";
  return text.trim().slice(0, 500) || "no reason given";
}

/** Replicate's error answers are problem details: {title, detail, status}. */
function refusalDetail(status: number, body: Buffer): string {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    if (isRecord(parsed)) {
      const detail = [parsed.detail, parsed.title, parsed.error].find(
        (value): value is string => typeof value === "string" && value.trim() !== "",
      );
      if (detail) return detail.trim().slice(0, 300);
    }
  } catch {
    // Not JSON: fall back to the status.
  }
  return `HTTP ${status}`;
}

export function createReplicateProvider(options: ReplicateProviderOptions): RenderProvider {
  const { token, model, webhookUrl, waiters } = options;
  const ref = parseModel(model);
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const apiOrigin = new URL(baseUrl).origin;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? abortableSleep;
  const pollIntervalMs = options.pollIntervalMs ?? (webhookUrl ? 5_000 : 1_000);
  const auth = { Authorization: `Bearer ${token}` };

  // The token only ever goes to the configured API origin, whatever URL an answer names.
  const isApiUrl = (url: string | undefined): url is string => {
    if (!url) return false;
    try {
      return new URL(url).origin === apiOrigin;
    } catch {
      return false;
    }
  };
  const predictionUrl = (prediction: ReplicatePrediction) =>
    isApiUrl(prediction.urls?.get) ? prediction.urls.get : `${baseUrl}/v1/predictions/${encodeURIComponent(prediction.id)}`;
  const cancelUrl = (prediction: ReplicatePrediction) =>
    isApiUrl(prediction.urls?.cancel) ? prediction.urls.cancel : `${baseUrl}/v1/predictions/${encodeURIComponent(prediction.id)}/cancel`;

  /** One HTTP exchange; network trouble is transient, an abort stays an abort. */
  async function exchange(
    url: string,
    init: RequestInit,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<{ response: Response; body: Buffer }> {
    try {
      const response = await fetchImpl(url, { ...init, signal });
      if (Number(response.headers.get("content-length")) > maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new PermanentRenderError(UNEXPECTED_ANSWER);
      }
      const body = Buffer.from(await response.arrayBuffer());
      if (body.length > maxBytes) throw new PermanentRenderError(UNEXPECTED_ANSWER);
      return { response, body };
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      if (error instanceof PermanentRenderError) throw error;
      throw new TransientRenderError("The render engine could not be reached", { cause: error });
    }
  }

  function httpFailure(response: Response, body: Buffer): Error {
    const { status } = response;
    if (status === 429 || status >= 500) {
      return new TransientRenderError(
        status === 429 ? "The render engine is busy (HTTP 429)" : `The render engine is unavailable (HTTP ${status})`,
        {
          retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
        },
      );
    }
    if (status === 401 || status === 403) return new PermanentRenderError("The render engine refused the API token");
    return new PermanentRenderError(`The render engine refused the request: ${refusalDetail(status, body)}`);
  }

  async function callApi(url: string, init: RequestInit, signal: AbortSignal): Promise<ReplicatePrediction> {
    const { response, body } = await exchange(url, init, signal, MAX_JSON_BYTES);
    if (!response.ok) throw httpFailure(response, body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      throw new PermanentRenderError(UNEXPECTED_ANSWER);
    }
    const prediction = parsePrediction(parsed);
    if (!prediction) throw new PermanentRenderError(UNEXPECTED_ANSWER);
    return prediction;
  }

  function create(request: RenderRequest): Promise<ReplicatePrediction> {
    const url = ref.version
      ? `${baseUrl}/v1/predictions`
      : `${baseUrl}/v1/models/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.name)}/predictions`;
    const body = {
      ...(ref.version ? { version: ref.version } : {}),
      input: modelInput(ref, request),
      ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ["completed"] } : {}),
    };
    // Prefer: wait=5 lets a fast model answer within the create call and saves a poll.
    const headers = { ...auth, "Content-Type": "application/json", Prefer: "wait=5" };
    return callApi(url, { method: "POST", headers, body: JSON.stringify(body) }, request.signal);
  }

  /** Best effort: the prediction keeps costing until canceled, but failing to cancel changes nothing for the user. */
  async function cancel(prediction: ReplicatePrediction): Promise<void> {
    try {
      const response = await fetchImpl(cancelUrl(prediction), {
        method: "POST",
        headers: auth,
        signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS),
      });
      await response.arrayBuffer();
    } catch {
      // Unreachable or too slow: Replicate ends the prediction at its own timeout.
    }
  }

  /** Sleeps ms, or less when the webhook delivers this prediction first (then returns it). */
  async function pause(ms: number, id: string, signal: AbortSignal): Promise<ReplicatePrediction | null> {
    if (!waiters) {
      await sleep(ms, signal);
      return null;
    }
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    const slept = sleep(ms, stop.signal).then(() => null);
    const delivered = waiters.wait(id, stop.signal);
    // Whichever loses is abandoned when stop aborts; its rejection means nothing.
    slept.catch(() => undefined);
    delivered.catch(() => undefined);
    try {
      return await Promise.race([slept, delivered]);
    } finally {
      signal.removeEventListener("abort", onAbort);
      stop.abort();
    }
  }

  function backoffMs(failures: number, retryAfterMs: number | undefined): number {
    return Math.max(retryAfterMs ?? 0, Math.min(pollIntervalMs * 2 ** failures, MAX_POLL_BACKOFF_MS));
  }

  /** Follows the prediction in job until it is final; job always holds the latest state seen. */
  async function followUntilFinal(
    job: { prediction: ReplicatePrediction },
    request: RenderRequest,
    report: (fraction: number | undefined) => void,
  ): Promise<void> {
    let failures = 0;
    let retryAfterMs: number | undefined;
    while (!isFinalStatus(job.prediction.status)) {
      report(progressFromLogs(job.prediction.logs));
      const delivered = await pause(failures === 0 ? pollIntervalMs : backoffMs(failures, retryAfterMs), job.prediction.id, request.signal);
      if (delivered) {
        job.prediction = { ...delivered, urls: delivered.urls ?? job.prediction.urls };
        continue;
      }
      try {
        job.prediction = await callApi(predictionUrl(job.prediction), { headers: auth }, request.signal);
        failures = 0;
        retryAfterMs = undefined;
      } catch (error) {
        if (!(error instanceof TransientRenderError) || request.signal.aborted) throw error;
        failures += 1;
        retryAfterMs = error.retryAfterMs;
      }
    }
  }

  async function download(url: string, signal: AbortSignal): Promise<{ image: Buffer; mime: RenderResult["mime"] }> {
    if (url.startsWith("data:")) {
      const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
      const image = match?.[2] ? Buffer.from(match[3] ?? "", "base64") : null;
      const mime = image ? sniffImageMime(image) : null;
      if (!image || !mime) throw new PermanentRenderError(UNEXPECTED_ANSWER);
      return { image, mime };
    }
    // The image is finished and paid for: a hiccup while fetching it is retried here, not re-rendered.
    for (let failures = 0; ; failures += 1) {
      try {
        const { response, body } = await exchange(url, { headers: isApiUrl(url) ? auth : {} }, signal, MAX_OUTPUT_BYTES);
        if (!response.ok) {
          const failure = httpFailure(response, body);
          if (failure instanceof TransientRenderError) throw failure;
          throw new PermanentRenderError(UNEXPECTED_ANSWER);
        }
        const declared = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
        const mime = sniffImageMime(body);
        const declaredFits = declared === "" || declared === "application/octet-stream" || declared.startsWith("image/");
        if (!mime || !declaredFits) throw new PermanentRenderError(UNEXPECTED_ANSWER);
        return { image: body, mime };
      } catch (error) {
        if (!(error instanceof TransientRenderError) || signal.aborted) throw error;
        await sleep(backoffMs(failures + 1, error.retryAfterMs), signal);
      }
    }
  }

  async function result(prediction: ReplicatePrediction, request: RenderRequest): Promise<RenderResult> {
    if (prediction.status === "failed") throw new PermanentRenderError(`The render engine failed: ${errorText(prediction.error)}`);
    if (prediction.status === "canceled") throw new PermanentRenderError("The render was canceled by the render engine");
    const url = outputUrl(prediction.output);
    if (!url) throw new PermanentRenderError(UNEXPECTED_ANSWER);
    const { image, mime } = await download(url, request.signal);
    const seed = seedOf(prediction);
    return { image, mime, model, ...(seed === undefined ? {} : { seed }) };
  }

  return {
    id: "replicate",
    label: `Replicate AI (${model})`,
    capabilities: REPLICATE_INTERIOR_CAPABILITIES,
    async render(request) {
      const { signal, onProgress } = request;
      throwIfAborted(signal);
      let reported = -1;
      // Only forward: logs of a second progress bar would otherwise move the bar backwards.
      const report = (fraction: number | undefined) => {
        if (fraction === undefined || fraction <= reported) return;
        reported = fraction;
        onProgress?.(fraction);
      };
      const job = { prediction: await create(request) };
      try {
        await followUntilFinal(job, request, report);
        const rendered = await result(job.prediction, request);
        report(1);
        return rendered;
      } catch (error) {
        // Whatever stopped us, a prediction left running keeps costing money and a GPU.
        if (!isFinalStatus(job.prediction.status)) await cancel(job.prediction);
        if (signal.aborted) throw abortError(signal);
        throw error;
      }
    },
  };
}
