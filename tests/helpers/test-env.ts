import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { parseEnv, type Env } from "../../src/server/env";
import { createEmptyDatabase, createTestDatabase } from "./postgres";

/** A fresh temporary DATA_DIR. */
export function makeTempDir(prefix = "roomcanvas-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The database lane this test runs in: SQLite files (the default), or PostgreSQL (decision 079). */
export function databaseLane(): "sqlite" | "postgres" {
  return inject("databaseLane") ?? "sqlite";
}

/**
 * In the PostgreSQL lane, a new database for one test (a copy of the migrated template, or empty when
 * fresh) and the APP_SECRET that DATABASE_URL requires; nothing in the SQLite lane.
 */
export function testDatabaseVariables(options: { fresh?: boolean } = {}): Record<string, string> {
  if (databaseLane() !== "postgres") return {};
  const [server, run] = [inject("postgresServer"), inject("postgresRun")];
  return {
    DATABASE_URL: options.fresh ? createEmptyDatabase(server, run) : createTestDatabase(server, run),
    APP_SECRET: "test-secret-for-the-postgresql-lane-0123456789",
  };
}

/**
 * An environment for one test: its own DATA_DIR holding a copy of the migrated template database
 * (unless fresh: true), a random loopback port, and silent logs. In the PostgreSQL lane, the
 * database is a new one on the lane's server instead (DATABASE_URL).
 */
export function makeTestEnv(overrides: Record<string, string> = {}, options: { fresh?: boolean } = {}): Env {
  const dataDir = overrides.DATA_DIR ?? makeTempDir();
  const database = overrides.DATABASE_URL ? {} : testDatabaseVariables(options);
  if (!options.fresh && !database.DATABASE_URL && !overrides.DATABASE_URL)
    fs.copyFileSync(inject("templateDatabase"), path.join(dataDir, "app.db"));
  return parseEnv({
    ...database,
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    // TEST_LOG_LEVEL=error shows what the servers log, for debugging a failing test.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    SHUTDOWN_TIMEOUT_MS: "2000",
    // Every test signs up from 127.0.0.1; the daily cap has its own test.
    NEW_ACCOUNTS_PER_ADDRESS_PER_DAY: "100000",
    ...overrides,
    DATA_DIR: dataDir,
  });
}

/**
 * Where a server keeps its data, as environment variables: DATA_DIR, and in the PostgreSQL lane its
 * DATABASE_URL and APP_SECRET. For a second server or a command-line script on the same data.
 */
export function placeOf(env: Env): Record<string, string> {
  return {
    DATA_DIR: env.DATA_DIR,
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
    ...(env.DATABASE_URL && env.APP_SECRET ? { APP_SECRET: env.APP_SECRET } : {}),
  };
}
