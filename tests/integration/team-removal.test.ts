/**
 * Removing a member takes effect at once on every device (issue 28, decision 070): the removed
 * member's open live-event streams of the team close within a second of the Owner's
 * teams.removeMember, and their next call for the team's render is refused (404).
 *
 * The streams are opened as browsers open them: GET /trpc/render.events?input=... with the session
 * cookie (served by the render module's fan-out), for one team render's job and for the team's
 * space (no jobId, while the member works in the team); the app's own tRPC client
 * (httpSubscriptionLink, as collectEvents uses it); and the procedure itself, called in process
 * (the path tRPC serves when the fan-out passes a request on); and the team project's review events
 * (review.events, the client review links' comments and decisions).
 */
import { inviteToken } from "../helpers/teams";
import { performance } from "node:perf_hooks";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { createContextInner } from "../../src/server/trpc/context";
import { createCaller } from "../../src/server/trpc/root";
import { createStudioClient, PASSWORD, roomPhoto, uniqueEmail, upload, waitForRenders, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { openTrpcStream } from "../helpers/sse";
import { waitUntil } from "../helpers/wait";

/** The bound: a removed member's streams end within a second of the removal. */
const CLOSE_BOUND_MS = 1_000;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await server?.stop();
});

type Person = StudioClient & { email: string; userId: string };

async function person(fullName: string): Promise<Person> {
  const email = uniqueEmail();
  const studio = createStudioClient(server.url);
  await studio.client.auth.signUp.mutate({ email, password: PASSWORD, fullName });
  await studio.client.auth.signIn.mutate({ email, password: PASSWORD });
  const session = await studio.client.auth.session.query();
  return { ...studio, email, userId: session.user!.id };
}

/** What a stream the server refuses writes: tRPC's error frame (read up to it, then closed). */
async function refusedStream(member: Person, input: Record<string, string>, path = "render.events"): Promise<string> {
  const controller = new AbortController();
  const response = await member.jar.fetch(
    `${server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`,
    { headers: { accept: "text/event-stream" }, signal: controller.signal },
  );
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (!text.includes("event: serialized-error") || !text.endsWith("\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    controller.abort();
  }
  return text;
}

/** Resolves with the time `promise` settled, or rejects once `ms` passed (a bound for the failure message only). */
function settledWithin(promise: Promise<number>, ms: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} was still open after ${ms} ms`)), ms);
    void promise.then((at) => {
      clearTimeout(timer);
      resolve(at);
    });
  });
}

/** A team of two, Olga (Owner) and Rita (Member, by a mailed invitation), and a finished render of Rita's in the team's project. */
async function teamWithRender() {
  const owner = await person("Olga Owner");
  const member = await person("Rita Member");
  const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
  await owner.client.teams.moveCredits.mutate({ teamId: team.id, amount: 5 });
  await owner.client.teams.invite.mutate({ teamId: team.id, email: member.email, role: "member" });
  await member.client.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, member.email) });
  // Accepting puts her to work in the team: her upload is the team's, and so is her render.
  expect((await member.client.teams.mine.query()).current).toBe(team.id);
  const photo = await upload(server.url, member.jar, await roomPhoto(400, 300));
  expect(photo.status).toBe(201);
  const { jobs } = await member.client.render.create.mutate({
    projectId: photo.body.projectId,
    imageId: photo.body.imageId,
    style: "modern",
  });
  const jobId = jobs[0]!.id;
  await waitForRenders(member, [jobId]);
  return { owner, member, teamId: team.id, jobId, projectId: photo.body.projectId };
}

describe("a removed member", () => {
  it("loses their open streams of the team within a second, and their next call for its render is refused", async () => {
    const { owner, member, teamId, jobId, projectId } = await teamWithRender();

    // Open as the member: the job's stream and the team space's stream (browser way), the app client's
    // subscription, and the procedure in process.
    const jobStream = await openTrpcStream(server.url, member, "render.events", { jobId });
    const spaceStream = await openTrpcStream(server.url, member, "render.events", {});
    // The project's review events (comments and decisions of its client review links), served by tRPC.
    const reviewStream = await openTrpcStream(server.url, member, "review.events", { projectId });
    await waitUntil(() => server.services.review.openStreams(projectId), {
      message: "the review stream to subscribe",
      until: (n) => n === 1,
    });

    // The app's client: the link's connection goes from "pending" (open) to "connecting" when the server
    // cuts it; its reconnect is then refused, which the subscription reports as its error.
    let clientCut!: (at: number) => void;
    const clientStreamCut = new Promise<number>((resolve) => (clientCut = resolve));
    let clientRefused!: (message: string) => void;
    const clientStreamRefused = new Promise<string>((resolve) => (clientRefused = resolve));
    let clientStarted!: () => void;
    const clientStreamStarted = new Promise<void>((resolve) => (clientStarted = resolve));
    let wasOpen = false;
    const subscription = member.client.render.events.subscribe(
      { jobId },
      {
        onData: () => {},
        onConnectionStateChange: (state) => {
          if (state.state === "pending") {
            wasOpen = true;
            clientStarted();
          } else if (state.state === "connecting" && wasOpen) clientCut(performance.now());
        },
        onError: (error) => clientRefused(error.message),
      },
    );
    await clientStreamStarted;

    const caller = createCaller(
      createContextInner(server.services, server.deps.env, { user: { id: member.userId, email: member.email, spaceTeamId: teamId } }),
    );
    const procedureStream = await caller.render.events({ jobId });
    const procedureEnded = (async () => {
      for await (const _event of procedureStream) {
        // the job's stored events: it keeps listening after them
      }
      return performance.now();
    })();
    // The in-process stream has subscribed once the stored events are read: give it that turn.
    await new Promise((resolve) => setImmediate(resolve));

    const removedAt = performance.now();
    await owner.client.teams.removeMember.mutate({ teamId, userId: member.userId });
    const ends = await Promise.all([
      settledWithin(jobStream.ended, 5_000, "the job's stream"),
      settledWithin(spaceStream.ended, 5_000, "the team space's stream"),
      settledWithin(reviewStream.ended, 5_000, "the project's review stream"),
      settledWithin(procedureEnded, 5_000, "the procedure's stream"),
      settledWithin(clientStreamCut, 5_000, "the app client's subscription"),
    ]);
    const names = [
      "the job's stream",
      "the team space's stream",
      "the project's review stream",
      "the procedure's stream",
      "the app client's subscription",
    ];
    ends.forEach((at, index) => {
      const ms = Math.round(at - removedAt);
      expect(ms, `${names[index]} closed ${ms} ms after the removal`).toBeLessThanOrEqual(CLOSE_BOUND_MS);
    });
    // The streams were cut, not ended as at a shutdown (which sends tRPC's "return" frame).
    expect(jobStream.text()).not.toContain("event: return");
    expect(spaceStream.text()).not.toContain("event: return");

    // The next call is refused: the render is the team's, and she is no longer in it.
    await expect(member.client.render.job.query({ id: jobId })).rejects.toMatchObject({
      message: MESSAGES.notFound,
      data: { code: "NOT_FOUND", httpStatus: 404 },
    });
    // Her reconnect (as the browser's EventSource does) is refused too, and the space stream is now her own.
    const body = await refusedStream(member, { jobId });
    expect(body).toContain("event: serialized-error");
    expect(body).toContain(MESSAGES.notFound);
    expect(await refusedStream(member, { projectId }, "review.events")).toContain(MESSAGES.notFound);
    // The app's client tried again (after its retry delay) and was refused for good.
    expect(await clientStreamRefused).toBe(MESSAGES.notFound);
    expect((await member.client.teams.mine.query()).current).toBeNull();
    subscription.unsubscribe();
    // The Owner's streams of the team are untouched.
    const ownerStream = await openTrpcStream(server.url, owner, "render.events", { jobId });
    ownerStream.close();
  }, 60_000);
});
