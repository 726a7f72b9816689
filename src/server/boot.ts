import { createApp, type AppOptions } from "./app";
import { openDatabase } from "./db/client";
import { migrateToLatest } from "./db/migrate";
import { systemClock, type AppDeps, type Clock } from "./deps";
import type { Env } from "./env";
import { listen, type RunningServer } from "./http/listen";
import { createLogger, type Logger } from "./logger";
import { APP_VERSION } from "./version";
import { createAuthRateLimits } from "./auth/rate-limit";
import type { AppDatabase } from "./db/client";
import { createMailer } from "./mail/mailer";
import { createSecretBox, loadAppSecret } from "./auth/encryption";
import { createDiskStorage } from "./storage/storage";
import { RenderEventBus } from "./render/events";
import { RenderWorker, type RenderWorkerOptions } from "./render/worker";
import { createRenderProvider } from "./render/providers";
import type { RenderProvider } from "./render/providers/provider";
import { PredictionWaiters } from "./render/providers/replicate-webhook";
import { startHousekeeping } from "./services/housekeeping";
import { applyAdminEmails } from "./services/roles";

export interface StartedApp {
  deps: AppDeps;
  http: RunningServer;
  /** Graceful stop: close HTTP (in-flight requests finish), then the database. */
  stop(): Promise<void>;
}

export interface BootOptions extends AppOptions {
  clock?: Clock;
  log?: Logger;
  /** Replaces the engine RENDER_PROVIDER picks (tests). */
  renderProvider?: RenderProvider;
  /** Worker settings beyond RENDER_CONCURRENCY and RENDER_DEADLINE_MS (tests: short backoff). */
  worker?: Partial<RenderWorkerOptions>;
  /** false: jobs stay queued (tests that look at the queue itself). */
  startWorker?: boolean;
}

/** The app's dependencies around an open, migrated database. */
export function buildDeps(
  env: Env,
  db: AppDatabase,
  log: Logger,
  clock: Clock,
  options: Pick<BootOptions, "renderProvider" | "worker"> = {},
): AppDeps {
  const storage = createDiskStorage(env.DATA_DIR);
  const renderEvents = new RenderEventBus();
  const replicateWaiters = new PredictionWaiters();
  const renderProvider = options.renderProvider ?? createRenderProvider(env, replicateWaiters);
  const renderWorker = new RenderWorker({ db, clock, log, storage, renderEvents }, renderProvider, {
    concurrency: env.RENDER_CONCURRENCY,
    deadlineMs: env.RENDER_DEADLINE_MS,
    ...options.worker,
  });
  return {
    env,
    db,
    log,
    clock,
    version: APP_VERSION,
    startedAt: clock.now(),
    mailer: createMailer(env, db, log, clock),
    secretBox: createSecretBox(loadAppSecret(env)),
    rateLimits: createAuthRateLimits(clock, env.AUTH_RATE_LIMIT_PER_MINUTE),
    storage,
    renderEvents,
    renderWorker,
    replicateWaiters,
  };
}

/** env → database → migrations → HTTP. Used by main.ts and by the integration tests. */
export async function startApp(env: Env, options: BootOptions = {}): Promise<StartedApp> {
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(env.DATABASE_FILE);
  try {
    for (const line of await migrateToLatest(db)) log.info(`database: ${line}`);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const deps = buildDeps(env, db, log, clock, options);
  await applyAdminEmails(deps);
  if (options.startWorker !== false) await deps.renderWorker.start();
  const stopHousekeeping = startHousekeeping(deps);
  const app = createApp(deps, options);
  let http: RunningServer;
  try {
    http = await listen(app, env.PORT, env.HOST);
  } catch (error) {
    stopHousekeeping();
    await deps.renderWorker.stop();
    await db.destroy();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Open event streams end first, so that HTTP can close without waiting on them.
      deps.renderEvents.close();
      await http.close(env.SHUTDOWN_TIMEOUT_MS);
      stopHousekeeping();
      await deps.renderWorker.stop();
      deps.mailer.close();
      await db.destroy();
    })();
    return stopping;
  };
  return { deps, http, stop };
}
