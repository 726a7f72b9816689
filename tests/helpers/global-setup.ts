/**
 * Once per test run: build the web client into tests/.artifacts/client (so browser tests and the
 * server's static-file tests run the real production build) and migrate a template SQLite
 * database that tests copy instead of migrating their own. The client is built again only when
 * its sources, package.json or the installed packages are newer than the last build: a run that
 * changed no client code, such as most `npm run test:fast` runs, skips Vite.
 */
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildClient, clientBuildIsStale } from "../../scripts/build.mjs";
import { openDatabase } from "../../src/server/db/client";
import { migrateToLatest } from "../../src/server/db/migrate";

const artifacts = path.resolve("tests/.artifacts");

declare module "vitest" {
  export interface ProvidedContext {
    clientDir: string;
    templateDatabase: string;
  }
}

/** True when the file changed after the client in outDir was built (installed packages change the bundle too). */
function newerThanBuild(file: string, outDir: string): boolean {
  return fs.existsSync(file) && fs.statSync(file).mtimeMs > fs.statSync(path.join(outDir, "index.html")).mtimeMs;
}

export default async function setup(project: TestProject): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });

  const clientDir = path.join(artifacts, "client");
  const stale =
    clientBuildIsStale(clientDir) ||
    ["package-lock.json", "node_modules/.package-lock.json"].some((file) => newerThanBuild(file, clientDir));
  if (stale) await buildClient(clientDir, "warn");

  // Migrated under a name of its own, then renamed into place: each lane's setup runs this, and a
  // lane's tests may be copying the template while the other lane's setup makes it again.
  const templateDatabase = path.join(artifacts, "template.db");
  const building = `${templateDatabase}.${process.pid}.${Date.now()}`;
  const db = openDatabase(building);
  await migrateToLatest(db);
  await db.destroy();
  fs.renameSync(building, templateDatabase);
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(building + suffix, { force: true });

  project.provide("clientDir", clientDir);
  project.provide("templateDatabase", templateDatabase);
}
