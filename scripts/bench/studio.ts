/**
 * The benchmark's side of the app: the real server started with startApp on a temporary
 * DATA_DIR, a zero-latency render engine, a signed-in user with enough credits, uploads over
 * HTTP, and a probe on the render event bus that sees every event the moment it is published.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp, type StartedApp } from "../../src/server/boot";
import type { AppDatabase } from "../../src/server/db/client";
import { parseEnv } from "../../src/server/env";
import type { RenderProvider, StoredRenderEvent } from "../../src/server/render";
import { PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import { grantCredits } from "../../src/server/services/credits";
import { RENDER, type UploadResponse } from "../../src/shared/render";
import { DESIGN_STYLES, type DesignStyle } from "../../src/shared/styles";
import { CookieJar, createStudioClient, type StudioClient } from "../lib/studio-client";

export { CookieJar, createStudioClient, type StudioClient };

/** An engine that answers at once with the picture it was given. */
export const zeroLatencyProvider: RenderProvider = {
  id: "zero",
  label: "Zero-latency bench engine",
  // An AI engine's input (1024 px), not the Preview engine's photo-sized one: what the pipeline costs around it.
  capabilities: { ...PREVIEW_CAPABILITIES, photoSize: false },
  render: async (request) => ({ image: request.image, mime: "image/jpeg", model: "zero" }),
};

/** Sees every event published on the app's render event bus, at the moment it is published. */
export class BusProbe {
  /** performance.now() at publish, by event id, while recording. */
  readonly publishedAt = new Map<number, number>();
  recording = false;
  private readonly finished = new Map<string, { status: string; at: number }>();
  private readonly waiters = new Map<string, () => void>();

  constructor(app: StartedApp) {
    app.services.render.observeEvents((events: readonly StoredRenderEvent[]) => {
      const now = performance.now();
      for (const stored of events) {
        if (this.recording) this.publishedAt.set(stored.id, now);
        const { type, jobId } = stored.event;
        if (type === "succeeded" || type === "failed" || type === "canceled") {
          this.finished.set(jobId, { status: type, at: now });
          this.waiters.get(jobId)?.();
        }
      }
    });
  }

  /** Resolves when every job has ended (its final event published), with the latest end time; throws if one did not succeed. */
  async waitForJobs(jobIds: readonly string[], timeoutMs = 60_000): Promise<number> {
    const pending = jobIds.filter((jobId) => !this.finished.has(jobId));
    if (pending.length > 0) {
      await new Promise<void>((resolve, reject) => {
        let left = pending.length;
        const timer = setTimeout(
          () => reject(new Error(`${left} of ${jobIds.length} renders did not finish within ${timeoutMs} ms`)),
          timeoutMs,
        );
        for (const jobId of pending) {
          this.waiters.set(jobId, () => {
            this.waiters.delete(jobId);
            if (--left === 0) {
              clearTimeout(timer);
              resolve();
            }
          });
        }
      });
    }
    let last = 0;
    for (const jobId of jobIds) {
      const end = this.finished.get(jobId)!;
      if (end.status !== "succeeded") throw new Error(`render ${jobId} ended ${end.status}`);
      last = Math.max(last, end.at);
    }
    return last;
  }
}

export interface BenchApp {
  app: StartedApp;
  url: string;
  probe: BusProbe;
  close(): Promise<void>;
}

/**
 * The real app on a loopback port, API only, on a fresh temporary DATA_DIR (`env`: settings on top;
 * `startWorker: false` leaves jobs queued; `renderProvider`: another engine than the zero-latency one).
 */
export async function startBenchApp(
  options: { env?: Record<string, string>; startWorker?: boolean; renderProvider?: RenderProvider } = {},
): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-bench-"));
  try {
    const env = parseEnv({
      NODE_ENV: "test",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      SHUTDOWN_TIMEOUT_MS: "2000",
      DATA_DIR: dataDir,
      // The event benchmark subscribes hundreds of clients as one user.
      EVENT_STREAMS_PER_OWNER: "2000",
      ...options.env,
    });
    const app = await startApp(env, {
      renderProvider: options.renderProvider ?? zeroLatencyProvider,
      clientDir: path.join(dataDir, "no-client-build"),
      startWorker: options.startWorker,
    });
    return {
      app,
      url: app.http.url,
      probe: new BusProbe(app),
      async close() {
        try {
          await app.stop();
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Signs up and in through tRPC, then tops the balance up in the ledger (kind admin), like an administrator would. */
export async function signedInUser(bench: BenchApp, credits: number): Promise<StudioClient & { userId: string }> {
  return signedInUserAt(bench.url, bench.app.deps.db, credits, bench.app.deps.clock.now());
}

/** The same against any running instance (`url`), the credits written in its database `db` (at `now`). */
export async function signedInUserAt(
  url: string,
  db: AppDatabase,
  credits: number,
  now = Date.now(),
): Promise<StudioClient & { userId: string }> {
  const studio = createStudioClient(url);
  const email = `bench.${Date.now()}@example.com`;
  const password = "Correct-Horse1";
  await studio.client.auth.signUp.mutate({ email, password, fullName: "Bench Runner" });
  await studio.client.auth.signIn.mutate({ email, password });
  const session = await studio.client.auth.session.query();
  if (!session.user) throw new Error("sign-in failed");
  const userId = session.user.id;
  await db.transaction().execute((trx) => grantCredits(trx, userId, credits, "admin", now, { reason: "render benchmark" }));
  return { ...studio, userId };
}

/** POST /api/uploads with the user's cookies, as the browser does (to the app at `server.url`). */
export async function uploadPhoto(server: { url: string }, studio: StudioClient, bytes: Buffer): Promise<UploadResponse> {
  const response = await studio.jar.fetch(`${server.url}/api/uploads`, {
    method: "POST",
    headers: { "content-type": "image/jpeg", origin: server.url },
    body: new Uint8Array(bytes),
  });
  const body = (await response.json()) as UploadResponse & { error?: string };
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${body.error ?? ""}`);
  return body;
}

/** `count` design styles, in the catalogue's order from `offset`, wrapping around. */
export function styles(count: number, offset = 0): DesignStyle[] {
  return Array.from({ length: count }, (_, index) => DESIGN_STYLES[(offset + index) % DESIGN_STYLES.length]!);
}

/** Jobs of several styles, `perCall` styles per render.create call (default: as many as allowed), all sent at once; their ids. */
export async function submit(
  user: StudioClient,
  upload: { projectId: string; imageId: string },
  count: number,
  perCall: number = RENDER.maxStylesPerRequest,
): Promise<string[]> {
  const calls: Array<Promise<{ jobs: Array<{ id: string }> }>> = [];
  for (let done = 0; done < count; done += perCall) {
    const style = styles(Math.min(perCall, count - done), done);
    calls.push(user.client.render.create.mutate({ projectId: upload.projectId, imageId: upload.imageId, style }));
  }
  return (await Promise.all(calls)).flatMap((result) => result.jobs.map((job) => job.id));
}

/** One render of an uploaded photo, the index-th style in turn: its claim-to-done time and the result's size. */
export async function timedRender(bench: BenchApp, user: StudioClient, upload: { projectId: string; imageId: string }, index: number) {
  const { jobs } = await user.client.render.create.mutate({
    projectId: upload.projectId,
    imageId: upload.imageId,
    style: styles(1, index)[0],
  });
  const jobId = jobs[0]!.id;
  await bench.probe.waitForJobs([jobId]);
  const row = await bench.app.deps.db
    .selectFrom("render_jobs")
    .select(["status", "started_at", "finished_at", "result_width", "result_height"])
    .where("id", "=", jobId)
    .executeTakeFirstOrThrow();
  if (row.status !== "succeeded" || row.started_at === null || row.finished_at === null)
    throw new Error(`render ${jobId} ended ${row.status}`);
  return { ms: row.finished_at - row.started_at, width: row.result_width!, height: row.result_height! };
}
