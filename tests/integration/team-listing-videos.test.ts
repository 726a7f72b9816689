/**
 * Listing videos of a team's project (issue 33, decision 112) on the real server: a Member's video
 * is the team's. Every member sees it, follows it to its end and plays it; a Member who did not
 * order it may not cancel it or choose the listing pages' video (told so), its author and the
 * team's Owner may; the public page of any member's export of the project shows the chosen video.
 * A member removed loses it at once; a stranger never had it. A personal project moved into the
 * team brings its videos; a deleted member's videos stay the team's, passed to its Owner.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { failure } from "../helpers/failure";
import { PASSWORD, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { addMember } from "../helpers/teams";

const poll = <T>(check: () => Promise<T>) => expect.poll(check, { timeout: 60_000, interval: 100 });
type Client = Awaited<ReturnType<typeof signedInClient>>;

describe("a team's listing videos", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Ana (Owner, with credits moved in), Bruno and Carla (Members), all working in the team. */
  async function studio() {
    const [ana, bruno, carla] = await Promise.all([signedInClient(server.url), signedInClient(server.url), signedInClient(server.url)]);
    const team = await ana.client.teams.create.mutate({ name: "Casa Nova" });
    await ana.client.teams.moveCredits.mutate({ teamId: team.id, amount: 5 });
    for (const member of [bruno, carla]) {
      await addMember(server, team.id, member);
      await member.client.teams.switchSpace.mutate({ teamId: team.id });
    }
    return { ana, bruno, carla, teamId: team.id };
  }

  /** Two finished renders of one photo the member uploads in their current space. */
  async function rendersOf(member: Client) {
    const sent = await upload(server.url, member.jar, await roomPhoto(800, 600));
    const { jobs } = await member.client.render.create.mutate({
      projectId: sent.body.projectId,
      imageId: sent.body.imageId,
      style: ["coastal", "japandi"] as never,
    });
    const jobIds = jobs.map((job) => job.id);
    await waitForRenders(member, jobIds);
    return { projectId: sent.body.projectId, jobIds };
  }

  const refusal = async (call: Promise<unknown>) => failure(await call.catch((error: unknown) => error));

  it("is every member's to see, follow and play; its author and the Owner manage it; a removed member loses it", async () => {
    const { ana, bruno, carla, teamId } = await studio();
    const { projectId, jobIds } = await rendersOf(bruno);
    const ordered = await bruno.client.listing.createVideo.mutate({ projectId, jobIds, format: "landscape", seconds: 3, language: "en" });
    expect(ordered.mayManage).toBe(true);

    // Carla follows Bruno's video over server-sent events to its end.
    const ends = await new Promise<string>((resolve, reject) => {
      const subscription = carla.client.listing.videoEvents.subscribe(
        { id: ordered.id },
        {
          onData(view) {
            if (view.status === "succeeded" || view.status === "failed" || view.status === "canceled") {
              subscription.unsubscribe();
              resolve(view.status);
            }
          },
          onError: reject,
        },
      );
    });
    expect(ends).toBe("succeeded");
    const seenByCarla = await carla.client.listing.video.query({ id: ordered.id });
    expect(seenByCarla).toMatchObject({ status: "succeeded", mayManage: false, width: 1920, height: 1080 });
    expect(await carla.client.listing.videos.query({ projectId })).toEqual([seenByCarla]);
    expect((await carla.jar.fetch(`${server.url}${seenByCarla.url}`)).status).toBe(200);

    // Carla may not choose it for the listing pages, nor cancel it: her role says so.
    const notHers = await refusal(carla.client.listing.setVideoOnListingPages.mutate({ id: ordered.id, on: true }));
    expect(notHers.data?.code).toBe("FORBIDDEN");
    expect(notHers.message).toBe(MESSAGES.teamRightMissing);
    expect((await refusal(carla.client.listing.cancelVideo.mutate({ id: ordered.id }))).message).toBe(MESSAGES.teamRightMissing);

    // The Owner may; the public page of Carla's export of the project then shows the team's video.
    expect((await ana.client.listing.video.query({ id: ordered.id })).mayManage).toBe(true);
    await ana.client.listing.setVideoOnListingPages.mutate({ id: ordered.id, on: true });
    const exported = await carla.client.listing.create.mutate({ jobId: jobIds[1]!, language: "en" });
    const code = new URL(exported.publicUrl).pathname.slice("/l/".length);
    expect(await (await fetch(`${server.url}/l/${code}`)).text()).toContain(`src="/l/${code}/video.mp4"`);
    expect((await fetch(`${server.url}/l/${code}/video.mp4`)).status).toBe(200);
    // Bruno, its author, takes it off the pages.
    await bruno.client.listing.setVideoOnListingPages.mutate({ id: ordered.id, on: false });
    expect((await fetch(`${server.url}/l/${code}/video.mp4`)).status).toBe(404);

    // A stranger never sees it; Carla, removed, no longer does.
    const stranger = await signedInClient(server.url);
    expect((await refusal(stranger.client.listing.video.query({ id: ordered.id }))).data?.code).toBe("NOT_FOUND");
    expect(await stranger.client.listing.videos.query({ projectId })).toEqual([]);
    expect((await stranger.jar.fetch(`${server.url}${seenByCarla.url}`)).status).toBe(404);
    // Carla follows the made video (its stream waits for changes); removed, her stream ends at once.
    const streamEnded = new Promise<void>((resolve, reject) => {
      let first = true;
      carla.client.listing.videoEvents.subscribe(
        { id: ordered.id },
        {
          onData() {
            if (!first) return;
            first = false;
            void ana.client.teams.removeMember.mutate({ teamId, userId: carla.userId }).catch(reject);
          },
          onComplete: () => resolve(),
          onError: reject,
        },
      );
    });
    await streamEnded;
    expect((await refusal(carla.client.listing.video.query({ id: ordered.id }))).data?.code).toBe("NOT_FOUND");
    expect(await carla.client.listing.videos.query({ projectId })).toEqual([]);
    expect((await carla.jar.fetch(`${server.url}${seenByCarla.url}`)).status).toBe(404);
  });

  it("comes with a personal project moved into the team, and stays the team's when its author deletes their account", async () => {
    const { ana, bruno, teamId } = await studio();
    // Bruno's personal project, with a video, moved into the team: Ana then sees the video.
    await bruno.client.teams.switchSpace.mutate({ teamId: null });
    const personal = await rendersOf(bruno);
    const video = await bruno.client.listing.createVideo.mutate({ ...personal, format: "portrait", seconds: 3, language: "en" });
    await poll(async () => (await bruno.client.listing.video.query({ id: video.id })).status).toBe("succeeded");
    expect((await refusal(ana.client.listing.video.query({ id: video.id }))).data?.code).toBe("NOT_FOUND");
    await bruno.client.projects.moveToTeam.mutate({ id: personal.projectId, teamId });
    expect(await ana.client.listing.videos.query({ projectId: personal.projectId })).toEqual([
      expect.objectContaining({ id: video.id, status: "succeeded", mayManage: true }),
    ]);

    // Bruno deletes his account: the video is still the team's, now Ana's.
    await bruno.client.account.deleteAccount.mutate({ confirmEmail: bruno.email, password: PASSWORD });
    const kept = await ana.client.listing.video.query({ id: video.id });
    expect(kept).toMatchObject({ status: "succeeded", mayManage: true });
    expect((await ana.jar.fetch(`${server.url}${kept.url}`)).status).toBe(200);
    const row = await server.deps.db
      .selectFrom("listing_videos")
      .select(["user_id", "team_id"])
      .where("id", "=", video.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: ana.userId, team_id: teamId });
  });
});
