/**
 * The log: structured JSON lines through pino (one object per event: time, level, msg, fields),
 * or coloured lines for a terminal with LOG_FORMAT=pretty. Every line written while a request or a
 * render job is handled carries its requestId (and jobId) from the log context, without passing a
 * logger around (decision 048). Secrets never belong in fields; as a second line of defence, the
 * usual names of secrets are redacted wherever they appear.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import pino, { type DestinationStream } from "pino";

const require = createRequire(import.meta.url);

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFormat = "json" | "pretty";

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** What the lines written now belong to: the request (its id) and, in the worker, the render job. */
export interface LogContext {
  requestId?: string;
  jobId?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `work` with these fields on every log line it writes (nested contexts add to the outer one). */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  const outer = context.getStore();
  return context.run(outer === undefined ? { ...fields } : { ...outer, ...fields }, work);
}

/**
 * Runs `work(a, b)` with this request id on every log line it writes: withLogContext for the edge, which
 * starts every request (a function and its arguments rather than a closure made per request: decision 055).
 */
export function withRequestId<A, B, T>(requestId: string, work: (a: A, b: B) => T, a: A, b: B): T {
  const outer = context.getStore();
  return context.run(outer === undefined ? { requestId } : { ...outer, requestId }, work, a, b);
}

/** The request id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => context.getStore()?.requestId;

/** Field names whose values are secrets, at any depth a log call might put them. */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "apiKey",
  "authorization",
  "cookie",
  "backupCode",
  "text",
  "html",
  "text_body",
  "html_body",
];
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

export interface LoggerOptions {
  format?: LogFormat;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: DestinationStream;
}

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const destination =
    options.destination ??
    (options.format === "pretty"
      ? // pino-pretty (CommonJS) is loaded only for a terminal.
        (require("pino-pretty") as (options: object) => DestinationStream)({ sync: true, translateTime: "SYS:HH:MM:ss.l" })
      : pino.destination({ dest: 1, sync: true }));
  const base = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { error: pino.stdSerializers.err, err: pino.stdSerializers.err },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      mixin: () => context.getStore() ?? {},
    },
    destination,
  );
  const at = (method: "debug" | "info" | "warn" | "error") => (message: string, fields?: Record<string, unknown>) => {
    if (fields) base[method](fields, message);
    else base[method](message);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
