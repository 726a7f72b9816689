/**
 * Findings of the outside security probe (issue 14), each with the test that failed before its fix.
 */
import { databaseLane } from "../helpers/test-env";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetOldMailBodies, OUTBOX_BODY_KEEP_MS } from "../../src/server/mail/mailer";
import { TRPC_MAX_BATCH_CALLS, UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { localProvider } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { confirmAddress, createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { TestClock } from "../helpers/test-clock";
import { startTestServer, type TestServer } from "../helpers/server";
import { pageViewBatch } from "../helpers/analytics";
import { failure } from "../helpers/failure";

describe("auth.recordLoginAttempt (item 5)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "6" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("shares the address's sign-in budget: claimed failures cannot lock an account faster than real sign-ins", async () => {
    const studio = createStudioClient(server.url);
    const email = "victim@example.com";
    // Two real attempts, then claimed failures: together they stop at the sign-in budget of 6 a minute.
    for (let attempt = 0; attempt < 2; attempt++) {
      await studio.client.auth.signIn.mutate({ email, password: "wrong-password-1" }).catch(() => undefined);
    }
    const answers: string[] = [];
    for (let call = 0; call < 10; call++) {
      answers.push(
        await studio.client.auth.recordLoginAttempt
          .mutate({ email, success: false })
          .then(() => "ok")
          .catch((error: unknown) => failure(error).message),
      );
    }
    expect(answers.filter((answer) => answer === "ok")).toHaveLength(4);
    expect(answers.slice(4)).toEqual(Array(6).fill(MESSAGES.tooManyRequests));
  });
});

describe("CSRF with PUBLIC_URL set (item 13)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: "https://studio.example" });
  });
  afterAll(async () => {
    await server.stop();
  });

  const post = (origin: string) =>
    fetch(`${server.url}/trpc/auth.signIn`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ json: { email: "a@example.com", password: "wrong-password" } }),
    });

  it("takes only the exact origin of PUBLIC_URL: scheme, host and port", async () => {
    for (const origin of ["http://studio.example", "https://studio.example:8443", "https://evil.example", server.url]) {
      const answer = await post(origin);
      expect(answer.status, origin).toBe(403);
      expect((await answer.json()) as unknown).toEqual({ error: MESSAGES.crossSiteRequest });
    }
    expect((await post("https://studio.example")).status).toBe(200);
  });
});

describe("amplification caps (item 11)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ EVENT_STREAMS_PER_OWNER: "2" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("refuses a batch of more calls than the client ever sends, at once", async () => {
    const calls = Array.from({ length: 700 }, () => "auth.session").join(",");
    const started = performance.now();
    const answer = await fetch(`${server.url}/trpc/${calls}?batch=1&input=${encodeURIComponent("{}")}`);
    expect(answer.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1_000);
    const within = Array.from({ length: TRPC_MAX_BATCH_CALLS }, () => "auth.session").join(",");
    expect((await fetch(`${server.url}/trpc/${within}?batch=1&input=${encodeURIComponent("{}")}`)).status).toBe(200);
  });

  it("holds each owner to EVENT_STREAMS_PER_OWNER open event streams; a closed one frees its place", async () => {
    const studio = await signedInClient(server.url);
    const open = (onError: (message: string) => void, onStarted: () => void) =>
      studio.client.render.events.subscribe(
        { lastEventId: null },
        { onStarted, onError: (error) => onError(error.message), onData: () => undefined },
      );
    const started: number[] = [];
    const errors: string[] = [];
    const first = open(
      (message) => errors.push(message),
      () => started.push(1),
    );
    const second = open(
      (message) => errors.push(message),
      () => started.push(2),
    );
    await expect.poll(() => started.length).toBe(2);
    await expect.poll(() => server.services.render.eventListenerCount).toBe(2);
    const third = open(
      (message) => errors.push(message),
      () => started.push(3),
    );
    await expect.poll(() => errors).toContain(MESSAGES.tooManyRequests);
    third.unsubscribe();
    first.unsubscribe();
    await expect.poll(() => server.services.render.eventListenerCount).toBe(1);
    const fourth = open(
      (message) => errors.push(message),
      () => started.push(4),
    );
    await expect.poll(() => server.services.render.eventListenerCount).toBe(2);
    second.unsubscribe();
    fourth.unsubscribe();
  });
});

describe("projects per user (item 11)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PROJECTS_PER_USER_MAX: "3" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("refuses a project past PROJECTS_PER_USER_MAX with a message, and a deleted one makes room", async () => {
    const user = await signedInClient(server.url);
    const existing = (await user.client.projects.list.query()).total;
    const made: string[] = [];
    for (let index = existing; index < 3; index++) made.push((await user.client.projects.create.mutate({ name: `Flat ${index}` })).id);
    const refused = failure(await user.client.projects.create.mutate({ name: "One too many" }).catch((error: unknown) => error));
    expect(refused.message).toBe(MESSAGES.tooManyProjects);
    expect(refused.data?.code).toBe("FORBIDDEN");
    await user.client.projects.delete.mutate({ id: made.at(-1)! });
    await expect(user.client.projects.create.mutate({ name: "Room again" })).resolves.toMatchObject({ name: "Room again" });
  });
});

/** A tRPC mutation sent with a Host header of our choosing (fetch cannot set one). */
function postWithHost(server: TestServer, host: string, procedure: string, input: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ json: input });
    const request = http.request(new URL(`/trpc/${procedure}`, server.url), {
      method: "POST",
      headers: { host, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("mailed links and the Host header (item 4)", () => {
  const mailsTo = (server: TestServer, email: string) =>
    server.deps.db.selectFrom("mail_outbox").select(["text_body"]).where("to_address", "=", email).execute();

  it("without PUBLIC_URL, mails no link for an unknown host, and links to the address the server was started for", async () => {
    const server = await startTestServer();
    try {
      const studio = createStudioClient(server.url);
      const email = `hosted.${Date.now()}@example.com`;
      await studio.client.auth.signUp.mutate({ email, password: "Correct-Horse1", fullName: "Ana" });
      const before = (await mailsTo(server, email)).length;
      expect(await postWithHost(server, "evil.example", "auth.requestPasswordReset", { resetEmail: email })).toBe(200);
      // A loopback name at another port than the one the request came to is not this server either.
      expect(await postWithHost(server, "localhost:1", "auth.requestPasswordReset", { resetEmail: email })).toBe(200);
      expect(await mailsTo(server, email)).toHaveLength(before);
      // The address the server was started for (loopback, its own port): the link points there.
      await postWithHost(server, new URL(server.url).host, "auth.requestPasswordReset", { resetEmail: email });
      const mails = await mailsTo(server, email);
      expect(mails).toHaveLength(before + 1);
      expect(mails.at(-1)!.text_body).toContain(`${server.url}/auth?reset=true&token=`);
      expect(mails.map((mail) => mail.text_body).join("\n")).not.toContain("evil.example");
    } finally {
      await server.stop();
    }
  });

  it("follows ALLOWED_HOSTS when it is set", async () => {
    const server = await startTestServer({ ALLOWED_HOSTS: "studio.lan, photos.example:8080" });
    try {
      const email = `allowed.${Date.now()}@example.com`;
      await createStudioClient(server.url).client.auth.signUp.mutate({ email, password: "Correct-Horse1", fullName: "Ana" });
      const before = (await mailsTo(server, email)).length;
      await postWithHost(server, "studio.lan", "auth.requestPasswordReset", { resetEmail: email });
      await postWithHost(server, "evil.example", "auth.requestPasswordReset", { resetEmail: email });
      const mails = await mailsTo(server, email);
      expect(mails).toHaveLength(before + 1);
      expect(mails.at(-1)!.text_body).toContain("http://studio.lan/auth?reset=true&token=");
    } finally {
      await server.stop();
    }
  });
});

describe("behind a reverse proxy (item 2)", () => {
  for (const setting of ["1", "true", "loopback"]) {
    it(`TRUST_PROXY=${setting}: a made-up X-Forwarded-For does not escape the per-address limits`, async () => {
      const server = await startTestServer({ TRUST_PROXY: setting, AUTH_RATE_LIMIT_PER_MINUTE: "3" });
      try {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 5; attempt++) {
          // The client makes up the first entry; the proxy (here: this loopback hop) appends the address it saw.
          const response = await fetch(`${server.url}/trpc/auth.signIn`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${attempt}, 203.0.113.7` },
            body: JSON.stringify({ json: { email: "someone@example.com", password: "wrong-password" } }),
          });
          statuses.push(response.status);
        }
        expect(statuses).toEqual([200, 200, 200, 429, 429]);
      } finally {
        await server.stop();
      }
    });
  }
});

describe("what the server keeps on disk (item 8)", () => {
  it("creates the database and stored pictures owner-only, and keeps outbox mail bodies only for two days", async () => {
    const clock = new TestClock();
    const server = await startTestServer({}, { clock, fresh: true });
    try {
      const mode = (file: string) => fs.statSync(file).mode & 0o777;
      if (databaseLane() === "sqlite") expect(mode(server.deps.env.DATABASE_FILE)).toBe(0o600);
      const user = await signedInClient(server.url);
      const uploaded = await upload(server.url, user.jar, await roomPhoto());
      const row = await server.deps.db
        .selectFrom("uploads")
        .select("original_key")
        .where("id", "=", uploaded.body.imageId)
        .executeTakeFirstOrThrow();
      const stored = path.join(server.deps.env.DATA_DIR, "storage", UPLOAD_BUCKET, row.original_key);
      expect([mode(stored), mode(path.dirname(stored))]).toEqual([0o600, 0o700]);

      // Without SMTP the admin reads mails in the outbox, with their links, for two days.
      const bodies = () => server.deps.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", user.email).execute();
      expect((await bodies()).some((mail) => mail.text_body.includes("/auth/confirm?token="))).toBe(true);
      clock.advance(OUTBOX_BODY_KEEP_MS + 60_000);
      await forgetOldMailBodies(server.deps.db, clock.now());
      expect((await bodies()).map((mail) => mail.text_body)).toEqual((await bodies()).map(() => ""));
    } finally {
      await server.stop();
    }
  });
});

describe("analytics amplification (item 11)", () => {
  it("stores at most ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY events per address, and forgets events past ANALYTICS_RETENTION_DAYS", async () => {
    const clock = new TestClock();
    const server = await startTestServer(
      { ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY: "30", ANALYTICS_RETENTION_DAYS: "2" },
      { clock, fresh: true },
    );
    try {
      const studio = createStudioClient(server.url);
      const batch = (count: number) => pageViewBatch(count, clock.now());
      const accepted: number[] = [];
      for (let call = 0; call < 4; call++) accepted.push((await studio.client.analytics.track.mutate(batch(10))).accepted);
      expect(accepted).toEqual([10, 10, 10, 0]);
      const stored = () =>
        server.deps.db
          .selectFrom("analytics_events")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.count));
      expect(await stored()).toBe(30);
      // A new day, a new budget; two days on, the old events are pruned.
      clock.advance(86_400_000);
      expect((await studio.client.analytics.track.mutate(batch(5))).accepted).toBe(5);
      clock.advance(2 * 86_400_000 - 60_000);
      await server.services.analytics.prune();
      expect(await stored()).toBe(5);
    } finally {
      await server.stop();
    }
  });
});

describe("new accounts per address (item 7)", () => {
  it("refuses more than NEW_ACCOUNTS_PER_ADDRESS_PER_DAY sign-ups from one address, in the user's words, until the next day", async () => {
    const clock = new TestClock();
    const server = await startTestServer({ NEW_ACCOUNTS_PER_ADDRESS_PER_DAY: "3" }, { clock });
    try {
      const studio = createStudioClient(server.url);
      const signUp = (index: number) =>
        studio.client.auth.signUp
          .mutate({ email: `farm${index}.${Date.now()}@example.com`, password: "Correct-Horse1", fullName: "Ana" })
          .then(() => "ok")
          .catch((error: unknown) => failure(error).message);
      const answers = [await signUp(1), await signUp(2), await signUp(3), await signUp(4)];
      expect(answers).toEqual(["ok", "ok", "ok", MESSAGES.tooManyAccountsToday]);
      clock.advance(86_400_000);
      expect(await signUp(5)).toBe("ok");
    } finally {
      await server.stop();
    }
  });
});

describe("free credits on an engine that bills each render (item 7)", () => {
  /** The Preview engine's work, declared as billed per render like the hosted APIs. */
  const billedEngine: RenderProvider = { ...localProvider, id: "billed-test", label: "Billed test engine", billedPerRender: true };

  it("keeps an unconfirmed account's free credits until its address is confirmed; bought or given credits stay usable", async () => {
    const server = await startTestServer({}, { renderProvider: billedEngine });
    try {
      const user = await signedInClient(server.url);
      const picture = await upload(server.url, user.jar, await roomPhoto());
      const render = () =>
        user.client.render.create
          .mutate({ projectId: picture.body.projectId, imageId: picture.body.imageId, style: "modern" })
          .then((result) => result.jobs[0]!.id)
          .catch((error: unknown) => failure(error).message);

      // The page learns it (and says so); the server refuses without taking anything.
      expect(await user.client.render.allowance.query()).toMatchObject({
        credits: 10,
        freeCreditsLocked: 10,
        engine: { billedPerRender: true },
      });
      expect(await render()).toBe(MESSAGES.freeCreditsNeedConfirmation);
      expect(await user.client.render.allowance.query()).toMatchObject({ credits: 10 });
      expect(await server.deps.db.selectFrom("render_jobs").select("id").execute()).toEqual([]);

      // Credits an admin gives are usable at once; the free ones still wait.
      const admin = await signedInClient(server.url);
      await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
      await admin.client.admin.adjustCredits.mutate({ userId: user.userId, amount: 1, reason: "Trial for a client" });
      const paid = await render();
      expect(paid).not.toBe(MESSAGES.freeCreditsNeedConfirmation);
      await waitForRenders(user, [paid]);
      expect(await render()).toBe(MESSAGES.freeCreditsNeedConfirmation);

      // The link of the confirmation mail unlocks them.
      await confirmAddress(server.url, server.deps.db, user.email);
      expect(await user.client.render.allowance.query()).toMatchObject({ credits: 10, freeCreditsLocked: 0 });
      const free = await render();
      expect(free).not.toBe(MESSAGES.freeCreditsNeedConfirmation);
      await waitForRenders(user, [free]);
      expect(await user.client.render.allowance.query()).toMatchObject({ credits: 9 });
    } finally {
      await server.stop();
    }
  });

  it("lets unconfirmed accounts use their free credits where renders cost nothing per call (Preview, a studio's own ComfyUI)", async () => {
    const server = await startTestServer();
    try {
      const user = await signedInClient(server.url);
      const picture = await upload(server.url, user.jar, await roomPhoto());
      expect(await user.client.render.allowance.query()).toMatchObject({ freeCreditsLocked: 0, engine: { billedPerRender: false } });
      const { jobs } = await user.client.render.create.mutate({
        projectId: picture.body.projectId,
        imageId: picture.body.imageId,
        style: "modern",
      });
      await waitForRenders(user, [jobs[0]!.id]);
    } finally {
      await server.stop();
    }
  });
});
