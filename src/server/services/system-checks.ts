/**
 * Checks of the machine a self-hosted server runs on, for the self-test's admin checks
 * (selfTest.check; names and limits in src/shared/self-test-checks.ts). Each answers
 * { ok, detail } and never throws: what went wrong is the detail. Details may name paths and
 * hosts (admins only see them), never keys or passwords.
 */
import { promises as fs } from "node:fs";
import { sql } from "kysely";
import type nodemailer from "nodemailer";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { checkDatabase } from "./health";
import {
  DISK_SPACE_LIMITS,
  OUTSIDE_SERVICE_TIMEOUT_MS,
  type ServerCheckName,
  checkText as text,
  failedWith as notOk,
  passedWith as ok,
  warningWith,
  type ServerCheckResult,
} from "../../shared/self-test-checks";
import { generateSecureRandomString } from "../auth/tokens";
import type { BackupModule } from "../backup";
import { dialectOf, type AppDatabase } from "../db/client";
import type { Infra } from "../infra";
import type { SettingsModule } from "../settings";
import { listedUpscaleModels, renderPresetFor, upscaleModelOf, type RenderModule } from "../render";
import type { Env } from "../env";
import type { ObjectStorage } from "../storage/storage";
import { freeBytesAt } from "../storage/disk-floor";

export type SystemCheckDeps = Pick<Infra, "db" | "env" | "storage" | "clock"> & {
  render: Pick<RenderModule, "engine" | "checkQueue" | "engineState">;
  backups: Pick<BackupModule, "status">;
  /** The operator's settings: the studio's name and support address, the engine's configuration in force. */
  studio: Pick<SettingsModule, "brandName" | "supportEmail" | "engineEnv">;
};

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the network's reason: "fetch failed" says nothing without it.
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}

/**
 * What PostgreSQL can say is wrong with a database it keeps consistent itself: indexes left invalid
 * (a failed concurrent build) and constraints added without checking the rows (NOT VALID).
 */
async function postgresProblems(db: AppDatabase): Promise<string[]> {
  const rows = await sql<{ problem: string }>`
    SELECT 'index ' || indexrelid::regclass::text || ' is not valid' AS problem FROM pg_index WHERE NOT indisvalid
    UNION ALL
    SELECT 'constraint ' || conname || ' of ' || conrelid::regclass::text || ' was not checked' FROM pg_constraint WHERE NOT convalidated
  `.execute(db);
  return rows.rows.map((row) => row.problem);
}

/** SQLite's own check of its file, then foreign keys; on PostgreSQL, its indexes and constraints. */
export async function checkDatabaseIntegrity(db: AppDatabase): Promise<ServerCheckResult> {
  if (dialectOf(db) === "postgres") {
    // PostgreSQL checks every foreign key as rows are written: what is left to ask is its own state.
    const problems = await postgresProblems(db);
    if (problems.length === 0) return ok(text("postgresIntegrityOk"));
    const listed = `${problems.slice(0, 3).join("; ")}${problems.length > 3 ? " ..." : ""}`;
    return notOk(text("postgresIntegrityProblems", { count: problems.length, problems: listed }));
  }
  const quick = await sql<{ quick_check: string }>`PRAGMA quick_check`.execute(db);
  const problems = quick.rows.map((row) => row.quick_check).filter((line) => line !== "ok");
  if (problems.length > 0)
    return notOk(
      text("integrityProblems", {
        count: problems.length,
        problems: `${problems.slice(0, 3).join("; ")}${problems.length > 3 ? " ..." : ""}`,
      }),
    );
  const violations = await sql<{ table: string; rowid: number | null; parent: string }>`PRAGMA foreign_key_check`.execute(db);
  if (violations.rows.length > 0) {
    const first = violations.rows.slice(0, 3).map((row) => `${row.table} row ${row.rowid ?? "?"} → ${row.parent}`);
    const count = violations.rows.length;
    const listed = `${first.join("; ")}${count > 3 ? " ..." : ""}`;
    return notOk(
      count === 1 ? text("foreignKeyViolation", { violations: listed }) : text("foreignKeyViolations", { count, violations: listed }),
    );
  }
  return ok(text("integrityOk"));
}

/** Free space (for this unprivileged process) of the file system holding dir. */
export async function checkDiskSpace(
  dir: string,
  limits: { minFreeBytes: number; minFreeFraction: number } = DISK_SPACE_LIMITS,
): Promise<ServerCheckResult> {
  const stats = await fs.statfs(dir);
  const free = stats.bavail * stats.bsize;
  const total = stats.blocks * stats.bsize;
  const fraction = total > 0 ? free / total : 0;
  const summary = { freeBytes: free, totalBytes: total, percent: (fraction * 100).toFixed(1), dir };
  if (free < limits.minFreeBytes || fraction < limits.minFreeFraction) {
    return notOk(
      text("diskSpaceLow", { ...summary, minFreeBytes: limits.minFreeBytes, minPercent: Math.round(limits.minFreeFraction * 100) }),
    );
  }
  return ok(text("diskSpace", summary));
}

/** SMTP_URL's server answers and accepts us (nodemailer verify); the built-in outbox always works. */
export async function checkMailTransport(env: Pick<Env, "SMTP_URL">, timeoutMs = OUTSIDE_SERVICE_TIMEOUT_MS): Promise<ServerCheckResult> {
  if (!env.SMTP_URL) return ok(text("mailOutbox"));
  const url = new URL(env.SMTP_URL);
  const where = `${url.protocol.replace(/:$/, "")}://${url.hostname}:${url.port || (url.protocol === "smtps:" ? "465" : "587")}`;
  const { default: mailer } = await import("nodemailer");
  const transport = mailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    await transport.verify();
    return ok(text("mailAccepted", { server: where }));
  } catch (error) {
    return notOk(text("mailFailed", { server: where, error: errorText(error) }));
  } finally {
    transport.close();
  }
}

async function getJson(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  fetchImpl: typeof fetch,
): Promise<{ status: number; body: unknown }> {
  const response = await fetchImpl(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** The error text an API put in its answer (OpenAI: error.message; Replicate: detail/title). */
function apiMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as { error?: { message?: unknown }; detail?: unknown; title?: unknown };
  const message = record.error?.message ?? record.detail ?? record.title;
  return typeof message === "string" ? message.slice(0, 200) : undefined;
}

/** "<service> answered HTTP <status>", with the API's own message when it gave one. */
function answered(service: string, status: number, body: unknown): ServerCheckResult {
  const message = apiMessage(body);
  return notOk(message ? text("serviceAnsweredWith", { service, status, message }) : text("serviceAnswered", { service, status }));
}

function reachFailure(service: string, error: unknown, timeoutMs: number): ServerCheckResult {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return notOk(text("noAnswer", { service, waitMs: timeoutMs }));
  return notOk(text("unreachable", { service, error: errorText(error) }));
}

/**
 * The render engine answers with its key: Replicate GET /v1/account, OpenAI GET /v1/models/<model>
 * (both free), ComfyUI GET /system_stats (its GPU and free VRAM) and, with an upscale model set,
 * GET /object_info/UpscaleModelLoader: a model file the box lacks is a warning (renders work, upscales
 * would fail). The offline Preview engine needs nothing.
 */
export async function checkRenderProvider(
  env: Pick<
    Env,
    | "RENDER_PROVIDER"
    | "REPLICATE_API_TOKEN"
    | "REPLICATE_API_URL"
    | "REPLICATE_MODEL"
    | "OPENAI_API_KEY"
    | "OPENAI_API_URL"
    | "OPENAI_MODEL"
    | "COMFYUI_URL"
    | "COMFYUI_TOKEN"
  > &
    Partial<Pick<Env, "COMFYUI_UPSCALE_MODEL">>,
  options: { providerId?: string; timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<ServerCheckResult> {
  const timeoutMs = options.timeoutMs ?? OUTSIDE_SERVICE_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const provider = options.providerId ?? env.RENDER_PROVIDER;
  if (provider === "local") return ok(text("previewEngine"));
  if (provider === "replicate") {
    if (!env.REPLICATE_API_TOKEN) return notOk(text("settingMissing", { setting: "REPLICATE_API_TOKEN" }));
    // The preset whose model is checked; a model without one is refused with the list of those there are.
    let presetModel: string;
    try {
      presetModel = renderPresetFor(env.REPLICATE_MODEL).model;
    } catch (error) {
      return notOk(text("engineSettingRefused", { error: errorText(error) }));
    }
    const version = env.REPLICATE_MODEL.split(":")[1];
    try {
      const { status, body } = await getJson(
        `${env.REPLICATE_API_URL.replace(/\/+$/, "")}/v1/account`,
        { Authorization: `Bearer ${env.REPLICATE_API_TOKEN}` },
        timeoutMs,
        fetchImpl,
      );
      if (status === 401 || status === 403) return notOk(text("apiTokenRefused", { service: "Replicate", status }));
      if (status !== 200) return answered("Replicate", status, body);
      const username = (body as { username?: unknown } | null)?.username;
      const found = { service: "Replicate", model: presetModel, ...(typeof username === "string" ? { account: username } : {}) };
      if (version) {
        const withVersion = { ...found, version: version.slice(0, 12) };
        return ok(text(typeof username === "string" ? "engineReachableAccountVersion" : "engineReachableVersion", withVersion));
      }
      return ok(text(typeof username === "string" ? "engineReachableAccount" : "engineReachable", found));
    } catch (error) {
      return reachFailure("Replicate", error, timeoutMs);
    }
  }
  if (provider === "openai") {
    if (!env.OPENAI_API_KEY) return notOk(text("settingMissing", { setting: "OPENAI_API_KEY" }));
    try {
      const url = `${env.OPENAI_API_URL.replace(/\/+$/, "")}/v1/models/${encodeURIComponent(env.OPENAI_MODEL)}`;
      const { status, body } = await getJson(url, { Authorization: `Bearer ${env.OPENAI_API_KEY}` }, timeoutMs, fetchImpl);
      if (status === 401 || status === 403) return notOk(text("apiKeyRefused", { service: "OpenAI", status }));
      if (status === 404) return notOk(text("modelNotOffered", { service: "OpenAI", model: env.OPENAI_MODEL, status }));
      if (status !== 200) return answered("OpenAI", status, body);
      return ok(text("modelAvailable", { service: "OpenAI", model: env.OPENAI_MODEL }));
    } catch (error) {
      return reachFailure("OpenAI", error, timeoutMs);
    }
  }
  if (provider === "comfyui") {
    if (!env.COMFYUI_URL) return notOk(text("settingMissing", { setting: "COMFYUI_URL" }));
    try {
      const { status, body } = await getJson(
        `${env.COMFYUI_URL.replace(/\/+$/, "")}/system_stats`,
        env.COMFYUI_TOKEN ? { Authorization: `Bearer ${env.COMFYUI_TOKEN}` } : {},
        timeoutMs,
        fetchImpl,
      );
      if (status === 401 || status === 403) {
        return notOk(
          env.COMFYUI_TOKEN
            ? text("tokenRefused", { service: "ComfyUI", status })
            : text("tokenNeeded", { service: "ComfyUI", status, setting: "COMFYUI_TOKEN" }),
        );
      }
      if (status !== 200) return notOk(text("serviceAnswered", { service: "ComfyUI", status }));
      const devices = (body as { devices?: unknown } | null)?.devices;
      const device: unknown = Array.isArray(devices) ? devices[0] : undefined;
      if (typeof device !== "object" || device === null) return notOk(text("noDevice", { service: "ComfyUI" }));
      const { name, vram_free: vramFree } = device as { name?: unknown; vram_free?: unknown };
      const deviceName = typeof name === "string" && name.trim() ? name.trim() : "—";
      const gpu =
        typeof vramFree === "number" && Number.isFinite(vramFree)
          ? text("gpuReachable", { service: "ComfyUI", device: deviceName, vramBytes: vramFree })
          : text("gpuReachableNoVram", { service: "ComfyUI", device: deviceName });
      const upscaleModel = upscaleModelOf(env.COMFYUI_UPSCALE_MODEL);
      if (!upscaleModel) return ok(gpu);
      const info = await getJson(
        `${env.COMFYUI_URL.replace(/\/+$/, "")}/object_info/UpscaleModelLoader`,
        env.COMFYUI_TOKEN ? { Authorization: `Bearer ${env.COMFYUI_TOKEN}` } : {},
        timeoutMs,
        fetchImpl,
      );
      // A box that does not list its models (an older version, a proxy) is not judged on them.
      const installed = info.status === 200 ? listedUpscaleModels(info.body) : null;
      if (!installed) return ok(gpu);
      return installed.includes(upscaleModel)
        ? ok(gpu, text("upscaleModelInstalled", { model: upscaleModel }))
        : warningWith(gpu, text("upscaleModelMissing", { model: upscaleModel }));
    } catch (error) {
      return reachFailure("ComfyUI", error, timeoutMs);
    }
  }
  return ok(text("engineNotChecked", { engine: provider }));
}

/**
 * The last backup against the schedule: a warning when no backup was ever taken (nothing to restore
 * from is worth an admin's look, scheduled or not), when it is over twice the schedule old, or when
 * the last attempt failed. An instance without BACKUP_DIR whose last backup was a scheduled one
 * says another instance schedules them (and warns when that one is over twice BACKUP_EVERY old).
 */
export async function checkBackups(backups: SystemCheckDeps["backups"], now: number): Promise<ServerCheckResult> {
  const status = await backups.status();
  const last = status.lastSuccess;
  const lastText = last ? text("lastBackup", { ageMs: now - last.startedAt, sizeBytes: last.bytes ?? 0 }) : text("noBackupYet");
  // With the files in a bucket, backups hold the database only: said with every finding (decision 085).
  const where = status.filesElsewhere ? [text("backupsDatabaseOnly", { location: status.filesElsewhere })] : [];
  if (!status.dir && last?.trigger === "schedule") {
    // Instances sharing the database: another one (with BACKUP_DIR) takes the scheduled backups.
    const stale = now - last.startedAt > 2 * status.everyMs;
    return (stale ? warningWith : ok)(text("backupsScheduledElsewhere"), lastText, ...where);
  }
  if (!status.dir)
    return last ? ok(text("backupsUnscheduled"), lastText, ...where) : warningWith(lastText, text("backupsUnscheduled"), ...where);
  const schedule = text("backupSchedule", { everyMs: status.everyMs, dir: status.dir, keep: status.keep });
  if (status.lastFailure)
    return warningWith(text("backupFailed", { error: status.lastFailure.error ?? "?" }), lastText, schedule, ...where);
  if (status.overdue)
    return warningWith(lastText, text("backupOverdue", { everyMs: status.everyMs, dir: status.dir, keep: status.keep }), ...where);
  if (!last) return warningWith(lastText, schedule, ...where);
  return ok(lastText, schedule, ...where);
}

/** Writes, reads back and removes a small file in the uploads bucket. */
export async function checkStorageWrite(storage: ObjectStorage): Promise<ServerCheckResult> {
  const key = `self-test/probe-${generateSecureRandomString()}.png`;
  const data = Buffer.from("roomcanvas self-test probe");
  try {
    await storage.put(UPLOAD_BUCKET, key, data, "image/png");
    const back = await storage.get(UPLOAD_BUCKET, key);
    if (!back || !back.data.equals(data)) return notOk(text("storageMismatch"));
    await storage.remove(UPLOAD_BUCKET, key);
    return ok(text("storageWritable", { bucket: UPLOAD_BUCKET }));
  } catch (error) {
    await storage.remove(UPLOAD_BUCKET, key).catch(() => undefined);
    return notOk(text("checkError", { error: errorText(error) }));
  }
}

/** Runs one named check; an unexpected error is its failure. */
export async function runSystemCheck(deps: SystemCheckDeps, name: ServerCheckName): Promise<ServerCheckResult> {
  try {
    switch (name) {
      case "backups":
        return await checkBackups(deps.backups, deps.clock.now());
      case "database-integrity":
        return await checkDatabaseIntegrity(deps.db);
      case "disk-space":
        return await checkDiskSpace(deps.env.DATA_DIR);
      case "mail-transport":
        return await checkMailTransport(deps.env);
      case "render-provider":
        return await checkRenderProvider({ ...deps.env, ...deps.studio.engineEnv() }, { providerId: deps.render.engine.id });
      case "render-queue":
        return await deps.render.checkQueue();
      case "storage-write":
        return await checkStorageWrite(deps.storage);
    }
  } catch (error) {
    return notOk(text("checkError", { error: errorText(error) }));
  }
}

export function createSystemService(deps: SystemCheckDeps & Pick<Infra, "clock" | "version" | "startedAt">) {
  return {
    runCheck: (name: ServerCheckName) => runSystemCheck(deps, name),
    /** What any visitor may know about this installation. */
    async info() {
      const database = await checkDatabase(deps.db);
      return {
        productName: deps.studio.brandName(),
        version: deps.version,
        uptimeSeconds: Math.floor((deps.clock.now() - deps.startedAt) / 1000),
        databaseOk: database.ok,
        supportEmail: deps.studio.supportEmail(),
      };
    },
    /** GET /healthz: a real database query. */
    health: () => checkDatabase(deps.db),
    /**
     * GET /readyz: ready to serve when the database answers, the storage folder takes a file and
     * the disk has more free than DISK_FREE_FLOOR_MB; with the engine's last known state.
     */
    async readiness() {
      const database = await checkDatabase(deps.db);
      const storage = await checkStorageWrite(deps.storage);
      const floorBytes = deps.env.DISK_FREE_FLOOR_MB * 1024 * 1024;
      let disk: { ok: boolean; freeBytes: number | null; floorBytes: number; error?: string };
      try {
        // A store without a disk of its own (S3): DATA_DIR's disk, where the database is (decision 076).
        const freeBytes = deps.storage.freeBytes ? await deps.storage.freeBytes() : await freeBytesAt(deps.env.DATA_DIR);
        disk = { ok: freeBytes > floorBytes, freeBytes, floorBytes };
      } catch (error) {
        disk = { ok: false, freeBytes: null, floorBytes, error: errorText(error) };
      }
      const engine = await deps.render.engineState().catch(() => null);
      return {
        ok: database.ok && storage.ok && disk.ok,
        version: deps.version,
        database: { ok: database.ok, ...(database.error ? { error: database.error } : {}) },
        storage: { ok: storage.ok, detail: storage.detail },
        disk,
        engine,
      };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
