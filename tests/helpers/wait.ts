/**
 * The one way tests wait for something that happens on its own time (a job's status, a row, a
 * fake server's request): poll until it holds, and when it never does, fail loudly with what was
 * awaited and the last value seen, instead of carrying on as if it had come.
 */
import { inspect } from "node:util";

export interface WaitOptions<T> {
  /** What is awaited, for the error: "the job to be rendering". */
  message: string;
  /** Whether the value read is the awaited one (default: any truthy value). */
  until?: (value: T) => boolean;
  /** Default 10 s. */
  timeoutMs?: number;
  /** Time between two reads; default 50 ms. */
  intervalMs?: number;
}

export class WaitTimeoutError extends Error {
  override name = "WaitTimeoutError";
  constructor(
    readonly awaited: string,
    readonly timeoutMs: number,
    readonly lastValue: unknown,
  ) {
    super(`Timed out after ${timeoutMs} ms waiting for ${awaited}; last value seen: ${inspect(lastValue, { depth: 4, breakLength: 120 })}`);
  }
}

/**
 * Reads `read()` until `until(value)` holds (by default: until the value is truthy) and returns that
 * value. Throws a WaitTimeoutError naming `message` and the last value read once `timeoutMs` has
 * passed; an error thrown by `read` ends the wait at once.
 */
export async function waitUntil<T>(read: () => T | Promise<T>, options: WaitOptions<T>): Promise<T> {
  const { message, until = (value: T) => Boolean(value), timeoutMs = 10_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() >= deadline) throw new WaitTimeoutError(message, timeoutMs, value);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
