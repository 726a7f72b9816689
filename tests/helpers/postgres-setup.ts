/**
 * Global setup of the PostgreSQL lane (decision 079): a server (TEST_DATABASE_URL, or a throw-away
 * cluster) holding a migrated template database that each test copies.
 */
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/server/db/client";
import { migrateToLatest } from "../../src/server/db/migrate";
import { randomBytes } from "node:crypto";
import { dropTestDatabases, psql, runDatabaseNames, startThrowawayCluster, type ThrowawayCluster } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** "postgres" in the PostgreSQL lane; "sqlite" (the default) elsewhere. */
    databaseLane: "sqlite" | "postgres";
    /** The PostgreSQL server's URL ending with '/', in the PostgreSQL lane. */
    postgresServer: string;
    /** This run's id in its databases' names (runDatabaseNames). */
    postgresRun: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const requested = process.env.TEST_DATABASE_URL ?? "throwaway";
  const runId = randomBytes(4).toString("hex");
  const { template } = runDatabaseNames(runId);
  let cluster: ThrowawayCluster | null = null;
  let serverUrl: string;
  if (requested === "throwaway") {
    cluster = await startThrowawayCluster();
    serverUrl = cluster.serverUrl;
  } else {
    const url = new URL(requested);
    url.pathname = "/";
    serverUrl = url.toString();
  }
  psql(serverUrl, `CREATE DATABASE ${template}`);
  const db = openDatabase(serverUrl + template);
  await migrateToLatest(db);
  await db.destroy();
  project.provide("postgresServer", serverUrl);
  project.provide("postgresRun", runId);
  return () => {
    if (cluster) cluster.stop();
    else dropTestDatabases(serverUrl, runId);
  };
}
