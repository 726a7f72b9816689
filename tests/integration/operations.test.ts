/**
 * The box's health in logs and metrics (issue 16, decision 048): GET /metrics in Prometheus format
 * behind METRICS_TOKEN (HTTP answers, render outcomes, durations, structure scores, credits, queue
 * depth, open streams, the last backup); /readyz; a request id on every request and on every log
 * line written for it, carried into the render job's lines; and no password, token, key or mail
 * text in any line of a whole run's log at debug level.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/server/logger";
import {
  PASSWORD,
  confirmAddress,
  createStudioClient,
  roomPhoto,
  signedInClient,
  upload,
  uniqueEmail,
  waitForRenders,
} from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** A server whose log lines (JSON, debug level) are kept in `lines`. */
async function startLogged(env: Record<string, string> = {}, options: Parameters<typeof startTestServer>[1] = {}) {
  const lines: string[] = [];
  const log = createLogger("debug", { destination: { write: (line: string) => void lines.push(line) } });
  const server = await startTestServer({ METRICS_TOKEN, ...env }, { log, ...options });
  servers.push(server);
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { server, lines, records };
}

const scrape = (url: string, token = METRICS_TOKEN) => fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });

/** The value of one sample line ("name{labels} value"), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("metrics", () => {
  it("answers 404 when METRICS_TOKEN is not set, 401 without the right Bearer token", async () => {
    const off = await startTestServer();
    servers.push(off);
    const closed = await fetch(`${off.url}/metrics`);
    expect(closed.status).toBe(404);
    expect(await closed.json()).toEqual({ error: "Metrics are off on this server: set METRICS_TOKEN to turn them on." });

    const { server } = await startLogged();
    const none = await fetch(`${server.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect((await scrape(server.url, "metrics-token-0123456789abcdeX")).status).toBe(401);
    expect((await scrape(server.url, "short")).status).toBe(401);
    const ok = await scrape(server.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/plain");
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });

  it("counts HTTP answers by route, render outcomes, durations, structure scores and credits, and reads queue, streams and backups", async () => {
    const { server } = await startLogged();
    // Nonsense procedure names do not become labels. (Read to the end: an answer is counted once it is sent.)
    await (await fetch(`${server.url}/trpc/nonsense.${Date.now()}`)).text();
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(640, 480));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(user, [jobs[0]!.id]);

    let text = "";
    await expect
      .poll(async () => {
        text = await (await scrape(server.url)).text();
        return sample(text, "roomcanvas_structure_score_count");
      })
      .toBe(1);
    expect(sample(text, 'roomcanvas_render_jobs_total{engine="local",kind="render",mode="room-photo",outcome="succeeded"}')).toBe(1);
    expect(sample(text, 'roomcanvas_render_duration_seconds_count{engine="local",kind="render"}')).toBe(1);
    expect(sample(text, "roomcanvas_credits_charged_total")).toBe(1);
    expect(sample(text, "roomcanvas_credits_refunded_total")).toBe(0);
    expect(sample(text, 'roomcanvas_http_requests_total{method="POST",route="trpc:render.create",status="200"}')).toBe(1);
    expect(sample(text, 'roomcanvas_http_requests_total{method="POST",route="/api/uploads",status="201"}')).toBe(1);
    expect(sample(text, 'roomcanvas_http_requests_total{method="GET",route="trpc:unknown",status="404"}')).toBe(1);
    expect(text).not.toContain("nonsense");
    expect(sample(text, 'roomcanvas_render_queue_depth{state="queued"}')).toBe(0);
    expect(sample(text, "roomcanvas_event_streams_open")).toBe(0);
    expect(sample(text, "roomcanvas_last_backup_timestamp_seconds")).toBe(0);
    expect(text).toContain("# TYPE roomcanvas_process_cpu_seconds_total counter");
  });

  it("counts a canceled render's credits as refunded", async () => {
    const { server } = await startLogged({}, { startWorker: false });
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(320, 240));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: ["modern", "japandi"],
    });
    await user.client.render.cancel.mutate({ id: jobs[0]!.id });
    await expect.poll(async () => sample(await (await scrape(server.url)).text(), "roomcanvas_credits_refunded_total")).toBe(1);
    const text = await (await scrape(server.url)).text();
    expect(sample(text, "roomcanvas_credits_charged_total")).toBe(2);
    expect(sample(text, 'roomcanvas_render_jobs_total{engine="local",kind="render",mode="room-photo",outcome="canceled"}')).toBe(1);
    expect(sample(text, 'roomcanvas_render_queue_depth{state="queued"}')).toBe(1);
  });
});

describe("/readyz", () => {
  it("is ready with the database, storage, disk and the engine's last render; 503 when the disk is below the floor", async () => {
    const { server } = await startLogged();
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const report = (await ready.json()) as Record<string, unknown>;
    expect(report).toMatchObject({
      ok: true,
      database: { ok: true },
      storage: { ok: true },
      disk: { ok: true, floorBytes: 1024 * 1024 * 1024 },
      engine: { id: "local", lastRender: null },
    });

    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(320, 240));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(user, [jobs[0]!.id]);
    expect(((await (await fetch(`${server.url}/readyz`)).json()) as { engine: unknown }).engine).toMatchObject({
      lastRender: { outcome: "succeeded", error: null },
    });

    const full = await startTestServer({}, { storage: (disk) => ({ ...disk, freeBytes: async () => 10 * 1024 * 1024 }) });
    servers.push(full);
    const notReady = await fetch(`${full.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ ok: false, disk: { ok: false, freeBytes: 10 * 1024 * 1024 } });
    // /healthz stays a liveness check.
    expect((await fetch(`${full.url}/healthz`)).status).toBe(200);
  });
});

describe("request ids and the log", () => {
  it("gives every request an id, puts it on each line written for it, and carries it into the render job's lines", async () => {
    const { server, records } = await startLogged();
    const given = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "proxy-id-12345" } });
    expect(given.headers.get("x-request-id")).toBe("proxy-id-12345");
    const made = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "bad id with spaces" } });
    expect(made.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9_-]{12}$/);

    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(320, 240));
    const response = await user.jar.fetch(`${server.url}/trpc/render.create`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-request-id": "render-request-0001" },
      body: JSON.stringify({ json: { projectId: uploaded.body.projectId, imageId: uploaded.body.imageId, style: "modern" } }),
    });
    expect(response.status).toBe(200);
    const jobId = ((await response.json()) as { result: { data: { json: { jobs: Array<{ id: string }> } } } }).result.data.json.jobs[0]!.id;
    await waitForRenders(user, [jobId]);

    await expect.poll(() => records().some((line) => line.msg === "render succeeded")).toBe(true);
    const lines = records();
    expect(lines.find((line) => line.msg === "render succeeded")).toMatchObject({
      level: "info",
      jobId,
      requestId: "render-request-0001",
      engine: "local",
    });
    expect(lines.find((line) => line.msg === "request" && line.requestId === "render-request-0001")).toMatchObject({
      method: "POST",
      path: "/trpc/render.create",
      route: "trpc:render.create",
      status: 200,
    });
    // Every request line has an id and a time; JSON, one object per line.
    for (const line of lines.filter((record) => record.msg === "request")) {
      expect(line.requestId).toEqual(expect.any(String));
      expect(line.time).toEqual(expect.any(String));
    }
  });

  it("writes no password, token, key, session or mail text in any line of a whole run at debug level", async () => {
    const APP_SECRET = "app-secret-for-the-log-test-0123456789";
    const { server, lines } = await startLogged({ APP_SECRET, REPLICATE_API_TOKEN: "r8_replicate-token-never-logged" });
    const email = uniqueEmail();
    const visitor = createStudioClient(server.url);
    await visitor.client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Log Reader" });
    await confirmAddress(server.url, server.deps.db, email);
    await visitor.client.auth.signIn.mutate({ email, password: PASSWORD });
    const newPassword = "Another-Horse2";
    await visitor.client.auth.requestPasswordReset.mutate({ resetEmail: email });
    const mails = await server.deps.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", email).execute();
    const resetToken = /token=([\w.%-]+)/.exec(
      mails
        .map((mail) => mail.text_body)
        .join("\n")
        .split("reset=true&")[1] ?? "",
    )?.[1];
    expect(resetToken).toBeTruthy();
    await visitor.client.auth.resetPassword.mutate({ token: decodeURIComponent(resetToken!), password: newPassword });
    await visitor.client.auth.signIn.mutate({ email, password: newPassword });
    await scrape(server.url);
    await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer wrong-token-but-logged-maybe" } });
    // A failed sign-in with a password that must not appear either.
    await createStudioClient(server.url)
      .client.auth.signIn.mutate({ email, password: "Wrong-Password9" })
      .catch(() => undefined);

    const log = lines.join("");
    expect(lines.length).toBeGreaterThanOrEqual(10);
    const secrets = [
      PASSWORD,
      newPassword,
      "Wrong-Password9",
      decodeURIComponent(resetToken!),
      METRICS_TOKEN,
      "wrong-token-but-logged-maybe",
      APP_SECRET,
      "r8_replicate-token-never-logged",
      ...visitor.jar
        .header()
        .split("; ")
        .map((pair) => pair.split("=").slice(1).join("=")),
      ...mails.flatMap((mail) =>
        mail.text_body ? [mail.text_body.slice(0, 40), /token=([\w.%-]+)/.exec(mail.text_body)?.[1] ?? "-"] : [],
      ),
    ].filter((secret) => secret && secret.length >= 8);
    expect(secrets.length).toBeGreaterThanOrEqual(9);
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
  });
});
