/**
 * Replicate (replicate.com), over its HTTP API: create a prediction, follow it until it is final
 * (polling, or woken early by a webhook), download the image. The request's AbortSignal is the
 * only deadline: the worker aborts it, and then the prediction is canceled so it stops costing.
 * What each model takes and answers is its preset (replicate-presets.ts): REPLICATE_MODEL picks
 * the render preset, and the same machinery runs the upscaler and the inpainting model.
 *
 * Transient trouble when creating is thrown as TransientRenderError for the worker to retry (a new
 * prediction); transient trouble after that is retried here, since the prediction already runs
 * and creating another would pay twice. What retrying cannot fix (a refused token, a failed
 * prediction, an answer that makes no sense) is a PermanentRenderError, whose message users see.
 */
import { sniffImageMime } from "../../images/mime";
import sharp from "sharp";
import {
  PermanentRenderError,
  RetryableRenderError,
  throwIfAborted,
  type EngineCapabilities,
  type EngineWork,
  type InpaintRequest,
  type RenderProvider,
  type RenderResult,
  type UpscaleRequest,
} from "./provider";
import {
  DEFAULT_REPLICATE_INPAINT_MODEL,
  DEFAULT_REPLICATE_UPSCALE_MODEL,
  inpaintPresetFor,
  outputUrl,
  renderPresetFor,
  upscalePresetFor,
  type PresetCall,
  type ReplicatePreset,
} from "./replicate-presets";
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
  /**
   * The render preset: "owner/name" or "owner/name:version" of a model in replicate-presets.ts.
   * Any other model is refused here, at start (UnknownReplicateModelError, listing the known ones).
   */
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
  /** The upscale preset (default nightmareai/real-esrgan); null: no AI upscale. */
  upscaleModel?: string | null;
  /** The inpainting preset (default black-forest-labs/flux-fill-pro); null: no targeted edits. */
  inpaintModel?: string | null;
}

const MAX_POLL_BACKOFF_MS = 30_000;
/** Canceling happens after the deadline: it gets its own short one. */
const CANCEL_TIMEOUT_MS = 5_000;
const MAX_JSON_BYTES = 20 * 1024 * 1024;
const MAX_OUTPUT_BYTES = 50 * 1024 * 1024;
/** An upscale to a large photo's size, as PNG, is bigger than a render. */
const MAX_UPSCALE_OUTPUT_BYTES = 150 * 1024 * 1024;

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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The picture as the models take it: a data URI (no upload, no URL the model must reach). */
function dataUri(image: Buffer): string {
  return `data:${sniffImageMime(image) ?? "image/jpeg"};base64,${image.toString("base64")}`;
}

function seedOf(prediction: ReplicatePrediction): number | undefined {
  const candidates = [prediction.input?.seed, isRecord(prediction.output) ? prediction.output.seed : undefined];
  const fromData = candidates.find((value): value is number => Number.isSafeInteger(value));
  if (fromData !== undefined) return fromData;
  // Cog models that pick a random seed usually print "Using seed: 1234".
  const fromLogs = prediction.logs?.match(/\bseed\b\W{0,3}(\d{1,15})\b/i)?.[1];
  return fromLogs === undefined ? undefined : Number(fromLogs);
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

/** The provenance a result carries: the prompt and the other inputs sent, the model and its version. */
function provenance(preset: ReplicatePreset, sent: PresetCall, version: string | undefined, seed: number | undefined) {
  return {
    model: preset.model,
    ...(version ? { modelVersion: version } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(sent.prompt === undefined ? {} : { prompt: sent.prompt }),
    parameters: sent.parameters,
  };
}

/** A mask that is not the picture's size would paint the wrong place; Replicate's models refuse it anyway. */
async function checkMaskFits(image: Buffer, mask: Buffer): Promise<void> {
  const size = async (bytes: Buffer) => {
    try {
      const { width, height } = await sharp(bytes).metadata();
      return width && height ? { width, height } : null;
    } catch {
      return null;
    }
  };
  const [picture, painted] = await Promise.all([size(image), size(mask)]);
  if (!picture || !painted) throw new PermanentRenderError("The picture or its mask is not an image");
  if (picture.width !== painted.width || picture.height !== painted.height) {
    throw new PermanentRenderError(
      `The mask (${painted.width}×${painted.height}) must be the same size as the picture (${picture.width}×${picture.height})`,
    );
  }
}

export function createReplicateProvider(options: ReplicateProviderOptions): RenderProvider {
  const { token, webhookUrl, waiters } = options;
  const ref = parseModel(options.model);
  // Refused here, at start: a model whose inputs are unknown would fail (or ignore the photo) on every render.
  const renderPreset = renderPresetFor(options.model);
  const upscaler = options.upscaleModel === null ? null : upscalePresetFor(options.upscaleModel ?? DEFAULT_REPLICATE_UPSCALE_MODEL);
  const inpainter = options.inpaintModel === null ? null : inpaintPresetFor(options.inpaintModel ?? DEFAULT_REPLICATE_INPAINT_MODEL);
  const capabilities: EngineCapabilities = { ...renderPreset.capabilities, masks: inpainter !== null, upscale: upscaler !== null };

  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const apiOrigin = new URL(baseUrl).origin;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? abortableSleep;
  const pollIntervalMs = options.pollIntervalMs ?? (webhookUrl ? 5_000 : 1_000);
  const auth = { Authorization: `Bearer ${token}` };
  /** The latest versions of community models, looked up once when Replicate refused to run them by name. */
  const latestVersions = new Map<string, string>();

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
  const modelUrl = (model: string) => `${baseUrl}/v1/models/${model.split("/").map(encodeURIComponent).join("/")}`;

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

  /** A JSON answer; null for a 404 when notFoundIsNull (the caller has a next step for it). */
  async function callJson(url: string, init: RequestInit, signal: AbortSignal, notFoundIsNull = false): Promise<unknown> {
    const { response, body } = await exchange(url, init, signal, MAX_JSON_BYTES);
    if (response.status === 404 && notFoundIsNull) return null;
    if (!response.ok) throw httpFailure(response, body);
    try {
      return JSON.parse(body.toString("utf8"));
    } catch {
      throw new PermanentRenderError(UNEXPECTED_ANSWER);
    }
  }

  async function callApi(url: string, init: RequestInit, signal: AbortSignal): Promise<ReplicatePrediction> {
    const prediction = parsePrediction(await callJson(url, init, signal));
    if (!prediction) throw new PermanentRenderError(UNEXPECTED_ANSWER);
    return prediction;
  }

  /** POSTs a new prediction; by model path a 404 gives null (the model is not run by name). */
  async function postPrediction(url: string, body: Record<string, unknown>, signal: AbortSignal): Promise<ReplicatePrediction | null> {
    const payload = { ...body, ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ["completed"] } : {}) };
    // Prefer: wait=5 lets a fast model answer within the create call and saves a poll.
    const headers = { ...auth, "Content-Type": "application/json", Prefer: "wait=5" };
    const byName = !("version" in body);
    const parsed = await callJson(url, { method: "POST", headers, body: JSON.stringify(payload) }, signal, byName);
    if (parsed === null) return null;
    const prediction = parsePrediction(parsed);
    if (!prediction) throw new PermanentRenderError(UNEXPECTED_ANSWER);
    return prediction;
  }

  /** GET /v1/models/{owner}/{name}: its latest_version.id. */
  async function latestVersionOf(model: string, signal: AbortSignal): Promise<string> {
    const answer = await callJson(modelUrl(model), { headers: auth }, signal, true);
    if (answer === null) throw new PermanentRenderError(`The render engine has no model ${model}`);
    const id = isRecord(answer) && isRecord(answer.latest_version) ? answer.latest_version.id : undefined;
    if (typeof id !== "string" || !/^[\w.-]+$/.test(id))
      throw new PermanentRenderError(`The render engine offers no version of ${model} to run`);
    return id;
  }

  /**
   * Creates the prediction. A pinned version runs by version; otherwise by name, which Replicate
   * allows for official models only: for a community model (404) the latest version is looked up
   * once, remembered, and run by version.
   */
  async function create(
    preset: ReplicatePreset,
    pinned: string | undefined,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ prediction: ReplicatePrediction; version?: string }> {
    const byVersion = async (version: string) => {
      const prediction = await postPrediction(`${baseUrl}/v1/predictions`, { version, input }, signal);
      if (!prediction) throw new PermanentRenderError(UNEXPECTED_ANSWER);
      return { prediction, version };
    };
    if (pinned) return byVersion(pinned);
    const remembered = latestVersions.get(preset.model);
    if (remembered) {
      try {
        return await byVersion(remembered);
      } catch (error) {
        // The version may have been withdrawn since: look it up again next time.
        if (error instanceof PermanentRenderError) latestVersions.delete(preset.model);
        throw error;
      }
    }
    const prediction = await postPrediction(`${modelUrl(preset.model)}/predictions`, { input }, signal);
    if (prediction) return { prediction };
    const latest = await latestVersionOf(preset.model, signal);
    latestVersions.set(preset.model, latest);
    return byVersion(latest);
  }

  /** The prediction an earlier worker started, when Replicate still runs it or has finished it; null to start anew. */
  async function resumable(id: string, signal: AbortSignal): Promise<ReplicatePrediction | null> {
    if (!/^[\w-]{1,100}$/.test(id)) return null;
    const answer = await callJson(`${baseUrl}/v1/predictions/${encodeURIComponent(id)}`, { headers: auth }, signal, true);
    const prediction = answer === null ? null : parsePrediction(answer);
    // Gone, failed or canceled (the dying worker may have canceled it): a new prediction is made.
    if (!prediction || prediction.status === "failed" || prediction.status === "canceled") return null;
    return prediction;
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
    signal: AbortSignal,
    report: (fraction: number | undefined) => void,
  ): Promise<void> {
    let failures = 0;
    let retryAfterMs: number | undefined;
    while (!isFinalStatus(job.prediction.status)) {
      report(progressFromLogs(job.prediction.logs));
      const delivered = await pause(failures === 0 ? pollIntervalMs : backoffMs(failures, retryAfterMs), job.prediction.id, signal);
      if (delivered) {
        job.prediction = { ...delivered, urls: delivered.urls ?? job.prediction.urls };
        continue;
      }
      try {
        job.prediction = await callApi(predictionUrl(job.prediction), { headers: auth }, signal);
        failures = 0;
        retryAfterMs = undefined;
      } catch (error) {
        if (!(error instanceof TransientRenderError) || signal.aborted) throw error;
        failures += 1;
        retryAfterMs = error.retryAfterMs;
      }
    }
  }

  async function download(url: string, signal: AbortSignal, maxBytes: number): Promise<{ image: Buffer; mime: RenderResult["mime"] }> {
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
        const { response, body } = await exchange(url, { headers: isApiUrl(url) ? auth : {} }, signal, maxBytes);
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

  /**
   * One prediction of a preset, start to finish: create, follow (progress from the logs where the
   * preset says they carry it), download the image its output names. Whatever stops it, a
   * prediction left running is canceled.
   */
  async function predict(
    preset: ReplicatePreset,
    pinned: string | undefined,
    input: Record<string, unknown>,
    run: {
      signal: AbortSignal;
      onProgress?: (fraction: number) => void;
      logsCarryProgress: boolean;
      maxBytes: number;
      work?: EngineWork;
    },
  ): Promise<{ prediction: ReplicatePrediction; version?: string; image: Buffer; mime: RenderResult["mime"] }> {
    const { signal, onProgress } = run;
    throwIfAborted(signal);
    let reported = -1;
    // Only forward: logs of a second progress bar would otherwise move the bar backwards.
    const report = (fraction: number | undefined) => {
      if (fraction === undefined || fraction <= reported) return;
      reported = fraction;
      onProgress?.(fraction);
    };
    // A worker that died had started this job's prediction: follow it rather than pay for another.
    const earlier = run.work?.resume ? await resumable(run.work.resume, signal) : null;
    const created = earlier ? { prediction: earlier, version: earlier.version } : await create(preset, pinned, input, signal);
    const job = { prediction: created.prediction };
    try {
      if (!earlier) await run.work?.onAccepted?.(created.prediction.id);
      await followUntilFinal(job, signal, run.logsCarryProgress ? report : () => undefined);
      const { prediction } = job;
      if (prediction.status === "failed") throw new PermanentRenderError(`The render engine failed: ${errorText(prediction.error)}`);
      if (prediction.status === "canceled") throw new PermanentRenderError("The render was canceled by the render engine");
      const url = outputUrl(preset.output, prediction.output);
      if (!url) throw new PermanentRenderError(UNEXPECTED_ANSWER);
      const { image, mime } = await download(url, signal, run.maxBytes);
      report(1);
      return { prediction, version: prediction.version ?? created.version, image, mime };
    } catch (error) {
      // Whatever stopped us, a prediction left running keeps costing money and a GPU.
      if (!isFinalStatus(job.prediction.status)) await cancel(job.prediction);
      if (signal.aborted) throw abortError(signal);
      throw error;
    }
  }

  const provider: RenderProvider = {
    id: "replicate",
    label: `Replicate AI (${renderPreset.model})`,
    billedPerRender: true,
    capabilities,
    async render(request) {
      throwIfAborted(request.signal);
      const { modes } = renderPreset.capabilities;
      if (request.renderMode && !modes.includes(request.renderMode)) {
        // The interface offers only the preset's modes; a render asked otherwise would come back as something else.
        throw new PermanentRenderError(
          `This render engine cannot ${request.renderMode} a room (${renderPreset.model}: ${modes.join(", ")})`,
        );
      }
      const reference = request.reference && renderPreset.capabilities.referencePicture ? dataUri(request.reference) : undefined;
      const sent = renderPreset.input(request, dataUri(request.image), reference);
      const done = await predict(renderPreset, ref.version, sent.input, {
        signal: request.signal,
        onProgress: request.onProgress,
        work: request.work,
        logsCarryProgress: renderPreset.capabilities.percentProgress,
        maxBytes: MAX_OUTPUT_BYTES,
      });
      const seed = renderPreset.capabilities.seeds ? (request.seed ?? seedOf(done.prediction)) : undefined;
      return { image: done.image, mime: done.mime, ...provenance(renderPreset, sent, done.version, seed) };
    },
  };
  if (upscaler) {
    provider.upscale = async (request: UpscaleRequest) => {
      throwIfAborted(request.signal);
      const sent = upscaler.input(request, dataUri(request.image));
      const done = await predict(upscaler, undefined, sent.input, {
        signal: request.signal,
        logsCarryProgress: false,
        maxBytes: MAX_UPSCALE_OUTPUT_BYTES,
      });
      return { image: done.image, mime: done.mime, ...provenance(upscaler, sent, done.version, undefined) };
    };
  }
  if (inpainter) {
    provider.inpaint = async (request: InpaintRequest) => {
      throwIfAborted(request.signal);
      await checkMaskFits(request.image, request.mask);
      const sent = inpainter.input(request, { image: dataUri(request.image), mask: dataUri(request.mask) });
      const done = await predict(inpainter, undefined, sent.input, {
        signal: request.signal,
        onProgress: request.onProgress,
        work: request.work,
        logsCarryProgress: false,
        maxBytes: MAX_OUTPUT_BYTES,
      });
      return { image: done.image, mime: done.mime, ...provenance(inpainter, sent, done.version, request.seed ?? seedOf(done.prediction)) };
    };
  }
  return provider;
}
