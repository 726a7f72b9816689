/**
 * The pictures of a team's work over HTTP (issue 28, decision 070): a render and its photo in a team
 * project are served to every current member of the team (its author and the others), and to nobody
 * else: not to a stranger, not to a member once removed. The file routes ask the one check of the
 * render module (mayUse), as its procedures do.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await server?.stop();
});

type Client = Awaited<ReturnType<typeof signedInClient>>;

it("serves a team render's pictures to every current member, and to nobody else", async () => {
  const [owner, member, stranger] = await Promise.all([signedInClient(server.url), signedInClient(server.url), signedInClient(server.url)]);
  const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
  await owner.client.teams.moveCredits.mutate({ teamId: team.id, amount: 2 });
  await server.deps.db
    .insertInto("team_members")
    .values({ team_id: team.id, user_id: member.userId, role: "member", monthly_cap: null, joined_at: Date.now() })
    .execute();
  await member.client.teams.switchSpace.mutate({ teamId: team.id });
  const sent = await upload(server.url, member.jar, await roomPhoto(400, 300));
  expect(sent.status).toBe(201);
  const { jobs } = await member.client.render.create.mutate({
    imageId: sent.body.imageId,
    projectId: sent.body.projectId,
    style: "modern",
  });
  const jobId = jobs[0]!.id;
  await waitForRenders(member, [jobId]);

  const files = [
    `/files/renders/${jobId}/thumb`,
    `/files/renders/${jobId}/before`,
    `/files/renders/${jobId}/full`,
    `/files/renders/${jobId}/download/rendered`,
    `/files/uploads/${sent.body.imageId}/thumb`,
    `/files/uploads/${sent.body.imageId}/original`,
  ];
  const statuses = (who: Client) => Promise.all(files.map(async (file) => (await who.jar.fetch(`${server.url}${file}`)).status));

  expect(await statuses(member)).toEqual(files.map(() => 200));
  expect(await statuses(owner)).toEqual(files.map(() => 200));
  // The Owner sees them from their personal space too: the row's team decides, not the space worked in.
  await owner.client.teams.switchSpace.mutate({ teamId: null });
  expect(await statuses(owner)).toEqual(files.map(() => 200));
  expect(await statuses(stranger)).toEqual(files.map(() => 404));

  await owner.client.teams.removeMember.mutate({ teamId: team.id, userId: member.userId });
  expect(await statuses(member)).toEqual(files.map(() => 404));
});
