/**
 * Client review links (issue 28, decision 073) over real HTTP on a real SQLite file: only who can
 * see the project makes a link; the client opens it without cookies, comments (plain text, at most
 * 2,000 characters, 20 per 10 minutes per address) and approves or asks for changes; each picture's
 * state; expiry on the injected clock and revocation answer 404; chosen versions only; the "Draft"
 * watermark in the pixels until approval; the studio's live stream (server-sent events) receives the
 * comment and the decision; the link's maker gets a mail for each decision.
 */
import { refusal } from "../helpers/failure";
import type { TRPCClientError } from "@trpc/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { REVIEW, type ReviewEvent } from "../../src/shared/review";
import type { AppRouter } from "../../src/server/trpc/root";
import { createStudioClient, PASSWORD, roomPhoto, signedInClient, upload, waitForRenders, type StudioClient } from "../helpers/render";
import { createLogger } from "../../src/server/logger";
import { startTestServer, type TestServer } from "../helpers/server";
import { startSmtpServer } from "../helpers/smtp";
import { DAY, MINUTE, TestClock } from "../helpers/test-clock";
import { createHttpClient } from "../helpers/trpc-client";
import { waitUntil } from "../helpers/wait";

const clock = new TestClock();
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
/** Every log line the server writes (a link's token must never be among them). */
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  const log = createLogger("debug", { destination: { write: (line: string) => void logLines.push(line) } });
  server = await startTestServer({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock, log });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** A project of the user's with `count` finished renders. */
async function projectWithRenders(user: StudioClient, count = 1) {
  const project = await user.client.projects.create.mutate({ name: "Casa Lumen" });
  const jobIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1200, 900), { projectId: project.id });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const { jobs } = await user.client.render.create.mutate({ projectId: project.id, imageId: uploaded.body.imageId, style: "japandi" });
    jobIds.push(jobs[0]!.id);
  }
  await waitForRenders(user, jobIds);
  return { projectId: project.id, jobIds };
}

/** A client's browser: no cookies at all. */
const clientSide = () => createHttpClient(server.url);

async function fetchPicture(path: string) {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, cookie: response.headers.get("set-cookie"), body: Buffer.from(await response.arrayBuffer()) };
}

/** Mean absolute difference of the two pictures' grey levels over a horizontal band (shares of the height). */
async function bandDifference(a: Buffer, b: Buffer, top: number, height: number) {
  const grey = async (picture: Buffer) => {
    const { data, info } = await sharp(picture).greyscale().raw().toBuffer({ resolveWithObject: true });
    const from = Math.round(info.height * top) * info.width;
    const to = Math.round(info.height * (top + height)) * info.width;
    return data.subarray(from, to);
  };
  const [x, y] = await Promise.all([grey(a), grey(b)]);
  expect(x.length).toBe(y.length);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

async function storedMedium(jobId: string) {
  const job = await server.deps.db.selectFrom("render_jobs").select("medium_key").where("id", "=", jobId).executeTakeFirstOrThrow();
  return (await server.deps.storage.get(UPLOAD_BUCKET, job.medium_key!))!.data;
}

describe("review links", () => {
  it("are made only by who can see the project, for its finished pictures", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana);
    expect(await refusal(bruno.client.review.create.mutate({ projectId }))).toEqual({ code: "NOT_FOUND", message: MESSAGES.notFound });
    expect(await refusal(bruno.client.review.list.query({ projectId }))).toEqual({ code: "NOT_FOUND", message: MESSAGES.notFound });
    expect(await refusal(createStudioClient(server.url).client.review.create.mutate({ projectId }))).toMatchObject({
      code: "UNAUTHORIZED",
    });
    // Another project's picture is not this project's to show.
    const other = await projectWithRenders(bruno);
    expect(await refusal(ana.client.review.create.mutate({ projectId, jobIds: other.jobIds }))).toEqual({
      code: "BAD_REQUEST",
      message: MESSAGES.reviewPicturesNotInProject,
    });

    const made = await ana.client.review.create.mutate({ projectId, label: "For Marta" });
    expect(made.path).toMatch(/^\/review\/[a-z2-7]{24}$/);
    expect(made.link).toMatchObject({ label: "For Marta", active: true, watermark: false, jobIds: null });
    expect(made.link.expiresAt).toBe(clock.now() + REVIEW.defaultExpiryDays * DAY);
    expect(made.link.pictures).toEqual([{ jobId: jobIds[0], state: "awaiting", comments: [], decisions: [] }]);
    // Only a hash of the token is kept.
    const row = await server.deps.db.selectFrom("review_links").selectAll().where("id", "=", made.link.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(made.path.slice("/review/".length));
    expect(await bruno.client.review.list.query({ projectId: other.projectId })).toEqual([]);
    expect((await ana.client.review.list.query({ projectId })).map((link) => link.id)).toEqual([made.link.id]);
  });

  it("opens without an account or cookies: the page, its pictures, comments as plain text and decisions", async () => {
    const ana = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana);
    const { path } = await ana.client.review.create.mutate({ projectId, expiresInDays: 7 });
    const token = path.slice("/review/".length);

    const html = await fetch(`${server.url}${path}`);
    expect(html.status).toBe(200);
    expect(html.headers.get("set-cookie")).toBeNull();
    expect(html.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await html.text()).toContain('<div id="root">');

    const client = clientSide();
    const page = await client.review.page.query({ token });
    expect(page).toMatchObject({ title: "Casa Lumen", watermark: false, expiresAt: clock.now() + 7 * DAY });
    expect(page.pictures).toHaveLength(1);
    const [picture] = page.pictures;
    expect(picture).toMatchObject({ jobId: jobIds[0], state: "awaiting", comments: [], decisions: [] });
    for (const address of [picture!.before, picture!.after]) {
      const file = await fetchPicture(address);
      expect(file.status).toBe(200);
      expect(file.cookie).toBeNull();
      expect((await sharp(file.body).metadata()).format).toBe("jpeg");
    }

    const text = '<img src=x onerror="alert(1)"> Can the sofa be green? & the rug';
    const comment = await client.review.comment.mutate({ token, jobId: jobIds[0]!, author: "  Marta  ", text });
    expect(comment).toMatchObject({ author: "Marta", text });
    const stored = await server.deps.db.selectFrom("review_comments").selectAll().executeTakeFirstOrThrow();
    expect(stored.text).toBe(text);

    await client.review.decide.mutate({ token, jobId: jobIds[0]!, author: "Marta", state: "changes-requested" });
    expect((await client.review.page.query({ token })).pictures[0]).toMatchObject({
      state: "changes-requested",
      comments: [{ author: "Marta", text }],
    });
    await client.review.decide.mutate({ token, jobId: jobIds[0]!, author: "Marta", state: "approved" });
    const [link] = await ana.client.review.list.query({ projectId });
    expect(link!.pictures[0]).toMatchObject({
      state: "approved",
      decisions: [
        { state: "changes-requested", author: "Marta" },
        { state: "approved", author: "Marta" },
      ],
    });
  });

  it("limits a comment to 2,000 characters and a link's comments to 20 per address every 10 minutes", async () => {
    const ana = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana);
    const token = (await ana.client.review.create.mutate({ projectId })).path.slice("/review/".length);
    const other = (await ana.client.review.create.mutate({ projectId })).path.slice("/review/".length);
    const client = clientSide();
    const jobId = jobIds[0]!;
    expect(await refusal(client.review.comment.mutate({ token, jobId, author: "Marta", text: "x".repeat(2001) }))).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(MESSAGES.reviewCommentTooLong),
    });
    expect(await refusal(client.review.comment.mutate({ token, jobId, author: " ", text: "Fine" }))).toMatchObject({
      message: expect.stringContaining(MESSAGES.reviewNameMissing),
    });
    await client.review.comment.mutate({ token, jobId, author: "Marta", text: "x".repeat(2000) });
    for (let index = 1; index < REVIEW.commentsPerWindow; index++) {
      await client.review.comment.mutate({ token, jobId, author: "Marta", text: `Note ${index}` });
    }
    const refused = await refusal(client.review.comment.mutate({ token, jobId, author: "Marta", text: "One more" }));
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(JSON.parse(refused.message)).toEqual({ key: "reviewTooManyComments", params: { count: 20, minutes: 10 } });
    // Another link keeps its own count; and ten minutes later this one takes comments again.
    await client.review.comment.mutate({ token: other, jobId, author: "Marta", text: "Elsewhere" });
    clock.advance(10 * MINUTE);
    await client.review.comment.mutate({ token, jobId, author: "Marta", text: "Later" });
    expect((await client.review.page.query({ token })).pictures[0]!.comments).toHaveLength(21);
  });

  it("answers 404 once expired (the injected clock) or revoked: the page, its data and its pictures", async () => {
    const ana = await signedInClient(server.url);
    const { projectId } = await projectWithRenders(ana);
    const client = clientSide();
    const expectGone = async (path: string) => {
      const token = path.slice("/review/".length);
      expect((await fetch(`${server.url}${path}`)).status).toBe(404);
      expect(await refusal(client.review.page.query({ token }))).toEqual({ code: "NOT_FOUND", message: MESSAGES.notFound });
    };

    const soon = await ana.client.review.create.mutate({ projectId, expiresInDays: 1 });
    const picture = (await client.review.page.query({ token: soon.path.slice(8) })).pictures[0]!;
    clock.advance(DAY - 1);
    expect((await fetch(`${server.url}${soon.path}`)).status).toBe(200);
    clock.advance(1);
    await expectGone(soon.path);
    expect((await fetchPicture(picture.after)).status).toBe(404);
    // A day on the clock ended the session too: sign in again.
    await ana.client.auth.signIn.mutate({ email: ana.email, password: PASSWORD });
    expect((await ana.client.review.list.query({ projectId }))[0]).toMatchObject({ id: soon.link.id, active: false });

    const revoked = await ana.client.review.create.mutate({ projectId });
    const bruno = await signedInClient(server.url);
    expect(await refusal(bruno.client.review.revoke.mutate({ linkId: revoked.link.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect((await fetch(`${server.url}${revoked.path}`)).status).toBe(200);
    await ana.client.review.revoke.mutate({ linkId: revoked.link.id });
    await expectGone(revoked.path);
    expect(
      await refusal(client.review.comment.mutate({ token: revoked.path.slice(8), jobId: picture.jobId, author: "Marta", text: "Hi" })),
    ).toMatchObject({ code: "NOT_FOUND" });
  });

  it("go with their project when it is deleted", async () => {
    const ana = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana);
    const { path } = await ana.client.review.create.mutate({ projectId });
    await clientSide().review.comment.mutate({ token: path.slice(8), jobId: jobIds[0]!, author: "Marta", text: "Hi" });
    await ana.client.projects.delete.mutate({ id: projectId });
    expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    const left = await server.deps.db.selectFrom("review_links").select("id").where("project_id", "=", projectId).execute();
    expect(left).toEqual([]);
  });

  it("shows only the chosen versions", async () => {
    const ana = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana, 2);
    const [shown, hidden] = jobIds as [string, string];
    const { path, link } = await ana.client.review.create.mutate({ projectId, jobIds: [shown] });
    expect(link.jobIds).toEqual([shown]);
    const token = path.slice(8);
    const client = clientSide();
    expect((await client.review.page.query({ token })).pictures.map((picture) => picture.jobId)).toEqual([shown]);
    expect((await fetchPicture(`/files/review/${token}/${hidden}/after`)).status).toBe(404);
    expect((await fetchPicture(`/files/review/${token}/${shown}/after`)).status).toBe(200);
    const page = await fetch(`${server.url}/review/${token}`);
    expect(page.status).toBe(200);
    await page.text();
    // The page's and the pictures' paths carry the link's secret: the access log keeps them without it
    // (each line is written when its response finishes, which may follow the client's read).
    await waitUntil(
      () =>
        logLines.some((line) => line.includes('"path":"/files/review/[token]/')) &&
        logLines.some((line) => line.includes('"path":"/review/[token]"')),
      { message: "the access log lines of the review link" },
    );
    expect(logLines.join("\n")).not.toContain(token);
    expect(await refusal(client.review.comment.mutate({ token, jobId: hidden, author: "Marta", text: "Hm" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await refusal(client.review.decide.mutate({ token, jobId: hidden, author: "Marta", state: "approved" }))).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("draws a Draft watermark on an unapproved picture when the link asks, and none once approved", async () => {
    const ana = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana);
    const jobId = jobIds[0]!;
    const medium = await storedMedium(jobId);
    const client = clientSide();

    const plain = (await ana.client.review.create.mutate({ projectId })).path.slice(8);
    const unmarked = await fetchPicture((await client.review.page.query({ token: plain })).pictures[0]!.after);
    expect(await bandDifference(unmarked.body, medium, 0.4, 0.2)).toBeLessThan(1);

    const token = (await ana.client.review.create.mutate({ projectId, watermark: true })).path.slice(8);
    const draft = (await client.review.page.query({ token })).pictures[0]!;
    const marked = await fetchPicture(draft.after);
    expect(marked.status).toBe(200);
    // The band across the middle is dark and lettered; the top of the picture is untouched.
    expect(await bandDifference(marked.body, medium, 0.4, 0.2)).toBeGreaterThan(20);
    expect(await bandDifference(marked.body, medium, 0, 0.3)).toBeLessThan(3);
    // The before picture never carries it.
    expect((await fetchPicture(draft.before)).body.equals((await fetchPicture(`/files/review/${plain}/${jobId}/before`)).body)).toBe(true);

    await client.review.decide.mutate({ token, jobId, author: "Marta", state: "changes-requested" });
    const stillDraft = await fetchPicture((await client.review.page.query({ token })).pictures[0]!.after);
    expect(await bandDifference(stillDraft.body, medium, 0.4, 0.2)).toBeGreaterThan(20);

    await client.review.decide.mutate({ token, jobId, author: "Marta", state: "approved" });
    const approved = (await client.review.page.query({ token })).pictures[0]!;
    // A new address for the new state, so a browser does not show the cached draft.
    expect(approved.after).not.toBe(draft.after);
    expect(await bandDifference((await fetchPicture(approved.after)).body, medium, 0.4, 0.2)).toBeLessThan(1);
  });

  it("streams the comment and the decision to the studio live, and mails the link's maker", async () => {
    const ana = await signedInClient(server.url);
    const { projectId, jobIds } = await projectWithRenders(ana);
    const jobId = jobIds[0]!;
    const { path, link } = await ana.client.review.create.mutate({ projectId });
    const token = path.slice(8);

    // A stranger's stream is refused.
    const bruno = await signedInClient(server.url);
    const strangerError = await new Promise<TRPCClientError<AppRouter>>((resolve) => {
      const subscription = bruno.client.review.events.subscribe(
        { projectId },
        {
          onError: (error) => {
            subscription.unsubscribe();
            resolve(error);
          },
        },
      );
    });
    expect(strangerError.message).toBe(MESSAGES.notFound);

    const received: ReviewEvent[] = [];
    let started!: () => void;
    const startedPromise = new Promise<void>((resolve) => (started = resolve));
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(received)}`)), 15_000);
      const subscription = ana.client.review.events.subscribe(
        { projectId },
        {
          onStarted: () => started(),
          onData: (event) => {
            received.push(event);
            if (received.length === 2) {
              clearTimeout(timer);
              subscription.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    await startedPromise;
    // The stream is open on the server before the client acts (real streaming, not a poll).
    await waitForStreams(projectId);
    const client = clientSide();
    await client.review.comment.mutate({ token, jobId, author: "Marta", text: "Lovely light" });
    await client.review.decide.mutate({ token, jobId, author: "Marta", state: "approved" });
    await done;
    expect(received).toEqual([
      {
        type: "comment",
        linkId: link.id,
        jobId,
        comment: { id: expect.any(Number), author: "Marta", text: "Lovely light", at: clock.now() },
      },
      {
        type: "decision",
        linkId: link.id,
        jobId,
        decision: { id: expect.any(Number), state: "approved", author: "Marta", at: clock.now() },
      },
    ]);

    const mail = await waitUntil(() => smtp.mails.find((sent) => sent.to.includes(ana.email) && sent.subject.startsWith("Marta")), {
      message: "the decision's mail",
      until: (found) => found !== undefined,
    });
    expect(mail!.subject).toBe("Marta approved a picture of Casa Lumen");
    expect(mail!.text).toContain(`${server.url}/dashboard?project=${projectId}`);
  });
});

describe("review links of a team project", () => {
  it("record each decision in the team's log, with the client's name", async () => {
    const ana = await signedInClient(server.url);
    const team = await ana.client.teams.create.mutate({ name: "Atelier Lumen" });
    // Ana works in the team now: its project, renders paid with credits she moved in.
    await ana.client.teams.moveCredits.mutate({ teamId: team.id, amount: 2 });
    const { projectId, jobIds } = await projectWithRenders(ana);
    const { path } = await ana.client.review.create.mutate({ projectId, expiresInDays: 30, watermark: false });
    const link = createHttpClient(server.url);
    await link.review.decide.mutate({ token: path.slice(8), jobId: jobIds[0]!, author: "Marta", state: "changes-requested" });
    const [entry] = await ana.client.teams.activity.query({ teamId: team.id });
    expect(entry).toMatchObject({
      action: "reviewDecision",
      actorId: null,
      details: { client: "Marta", state: "changes-requested", project: "Casa Lumen", jobId: jobIds[0] },
      at: clock.now(),
    });
  });
});

async function waitForStreams(projectId: string) {
  for (let attempt = 0; attempt < 200 && server.services.review.openStreams(projectId) === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(server.services.review.openStreams(projectId)).toBe(1);
}

describe("review streams at shutdown", () => {
  it("end when the server stops, so that it does not wait for them", async () => {
    const own = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", SHUTDOWN_TIMEOUT_MS: "20000" });
    const ana = await signedInClient(own.url);
    const project = await ana.client.projects.create.mutate({ name: "Casa Lumen" });
    let started!: () => void;
    const startedPromise = new Promise<void>((resolve) => (started = resolve));
    const completed = new Promise<string>((resolve) => {
      const subscription = ana.client.review.events.subscribe(
        { projectId: project.id },
        {
          onStarted: () => started(),
          onComplete: () => resolve("complete"),
          onError: (error) => {
            subscription.unsubscribe();
            resolve(`error: ${error.message}`);
          },
        },
      );
    });
    await startedPromise;
    for (let attempt = 0; attempt < 200 && own.services.review.openStreams(project.id) === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const startedAt = performance.now();
    await own.stop();
    expect(performance.now() - startedAt).toBeLessThan(5000);
    expect(await completed).toBe("complete");
    expect(own.services.review.openStreams(project.id)).toBe(0);
  });
});
