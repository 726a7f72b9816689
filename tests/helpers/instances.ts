/**
 * Several app instances in this test process on one database, each in a role (ROLE, decision 077).
 * On PostgreSQL each has its own pool, as separate processes would. On SQLite they share one
 * connection: in one process, a second connection waiting for the write lock blocks the thread the
 * holder needs to finish (separate processes on one file simply take turns, as the shared connection does).
 * A test file calls `afterEach(stopInstances)`.
 */
import { inject } from "vitest";
import { startApp, type BootOptions, type StartedApp } from "../../src/server/boot";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import type { Env } from "../../src/server/env";

const apps: StartedApp[] = [];
const sqliteHandles = new Map<string, AppDatabase>();

/** One more instance on the environment's database, in the given role. */
export async function startInstance(env: Env, role: Env["ROLE"], options: BootOptions = {}): Promise<StartedApp> {
  let database: AppDatabase | undefined;
  if (!env.DATABASE_URL) {
    database = sqliteHandles.get(env.DATABASE) ?? openDatabase(env.DATABASE);
    sqliteHandles.set(env.DATABASE, database);
  }
  const app = await startApp({ ...env, ROLE: role }, { clientDir: inject("clientDir"), database, ...options });
  apps.push(app);
  return app;
}

/** Stops every instance started (the last first), then closes the shared SQLite connections. */
export async function stopInstances(): Promise<void> {
  for (const app of apps.splice(0).reverse()) await app.stop();
  for (const db of sqliteHandles.values()) await db.destroy();
  sqliteHandles.clear();
}
