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

export interface StartedApp {
  deps: AppDeps;
  http: RunningServer;
  /** Graceful stop: close HTTP (in-flight requests finish), then the database. */
  stop(): Promise<void>;
}

export interface BootOptions extends AppOptions {
  clock?: Clock;
  log?: Logger;
}

/** The app's dependencies around an open, migrated database. */
export function buildDeps(env: Env, db: AppDatabase, log: Logger, clock: Clock): AppDeps {
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
  const deps = buildDeps(env, db, log, clock);
  const app = createApp(deps, options);
  let http: RunningServer;
  try {
    http = await listen(app, env.PORT, env.HOST);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await http.close(env.SHUTDOWN_TIMEOUT_MS);
      deps.mailer.close();
      await db.destroy();
    })();
    return stopping;
  };
  return { deps, http, stop };
}
