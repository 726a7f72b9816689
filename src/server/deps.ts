import type { AppDatabase } from "./db/client";
import type { Env } from "./env";
import type { Logger } from "./logger";
import type { RateLimitedAction, RateLimiter } from "./auth/rate-limit";
import type { Mailer } from "./mail/mailer";
import type { SecretBox } from "./auth/encryption";
import type { ObjectStorage } from "./storage/storage";
import type { RenderEventBus } from "./render/events";
import type { RenderWorker } from "./render/worker";
import type { PredictionWaiters } from "./render/providers/replicate-webhook";

/** Injected time source, so timeouts and expiries are tested without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Everything the app's request handlers need, built once at boot (or by a test). */
export interface AppDeps {
  env: Env;
  db: AppDatabase;
  log: Logger;
  clock: Clock;
  version: string;
  startedAt: number;
  mailer: Mailer;
  secretBox: SecretBox;
  rateLimits: Record<RateLimitedAction, RateLimiter>;
  storage: ObjectStorage;
  renderEvents: RenderEventBus;
  renderWorker: RenderWorker;
  /** Where the Replicate webhook hands finished predictions to the render waiting for them. */
  replicateWaiters: PredictionWaiters;
}
