import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { parseEnv, type Env } from "../../src/server/env";

/** A fresh temporary DATA_DIR. */
export function makeTempDir(prefix = "roomcanvas-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * An environment for one test: its own DATA_DIR holding a copy of the migrated template database
 * (unless fresh: true), a random loopback port, and silent logs.
 */
export function makeTestEnv(overrides: Record<string, string> = {}, options: { fresh?: boolean } = {}): Env {
  const dataDir = overrides.DATA_DIR ?? makeTempDir();
  if (!options.fresh) fs.copyFileSync(inject("templateDatabase"), path.join(dataDir, "app.db"));
  return parseEnv({
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    SHUTDOWN_TIMEOUT_MS: "2000",
    // Every test signs up from 127.0.0.1; the daily cap has its own test.
    NEW_ACCOUNTS_PER_ADDRESS_PER_DAY: "100000",
    ...overrides,
    DATA_DIR: dataDir,
  });
}
