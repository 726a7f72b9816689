/**
 * Once per test run: build the web client into tests/.artifacts/client (so browser tests run the
 * real production build) and migrate a template SQLite database that tests copy instead of
 * migrating their own.
 */
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildClient } from "../../scripts/client-build";
import { openDatabase } from "../../src/server/db/client";
import { migrateToLatest } from "../../src/server/db/migrate";

const artifacts = path.resolve("tests/.artifacts");

declare module "vitest" {
  export interface ProvidedContext {
    clientDir: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });

  const clientDir = path.join(artifacts, "client");
  await buildClient(clientDir, "warn");

  const templateDatabase = path.join(artifacts, "template.db");
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(templateDatabase + suffix, { force: true });
  const db = openDatabase(templateDatabase);
  await migrateToLatest(db);
  await db.destroy();

  project.provide("clientDir", clientDir);
  project.provide("templateDatabase", templateDatabase);
}
