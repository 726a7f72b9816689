/**
 * Measures made in AR over real HTTP (issue 30, decision 092): a phone sends two points in metres and the
 * server computes and keeps the length with the project; whoever may not work in the project gets "Not
 * found"; lengths outside 1 cm–50 m, points too far, long labels and more than the project's limit are
 * refused with their messages; a team's members share them; the client review page lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEASURE } from "../../src/shared/measures";
import { MESSAGES } from "../../src/shared/messages";
import { refusal } from "../helpers/failure";
import { signedInClient, upload, waitForRenders } from "../helpers/render";
import { sampleRoomPhoto } from "../helpers/room-scene";
import { startTestServer, type TestServer } from "../helpers/server";
import { createHttpClient } from "../helpers/trpc-client";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await server?.stop();
});

/** Two points on the floor of a room 3.20 m long, and a wall's height of 2.45 m (metres, y up). */
const floorFrom = { x: -1.6, y: 0, z: -2 };
const floorTo = { x: 1.6, y: 0, z: -2 };
const wallFoot = { x: 1.6, y: 0, z: -1 };
const wallTop = { x: 1.6, y: 2.45, z: -1 };
const notFound = { code: "NOT_FOUND", message: MESSAGES.notFound };
const invalid = (message: string) => ({ code: "BAD_REQUEST", message });

describe("measures made in AR", () => {
  it("are computed by the server from the two points, listed with the project and deleted by its owner", async () => {
    const ana = await signedInClient(server.url);
    const project = await ana.client.projects.create.mutate({ name: "Flat on Rua Augusta" });
    expect(await ana.client.measures.ofProject.query({ projectId: project.id })).toEqual([]);
    await ana.client.measures.addAr.mutate({ projectId: project.id, a: floorFrom, b: floorTo, label: "  Window wall " });
    // A length sent along is not read: the server measures between the points.
    const saved = await ana.client.measures.addAr.mutate({
      projectId: project.id,
      a: wallFoot,
      b: wallTop,
      label: "Ceiling height",
      ...{ lengthCm: 999 },
    });
    expect(saved.map((m) => [m.label, m.lengthCm])).toEqual([
      ["Window wall", 320],
      ["Ceiling height", 245],
    ]);
    expect(await ana.client.measures.ofProject.query({ projectId: project.id })).toEqual(saved);
    const row = await server.deps.db.selectFrom("room_measures").selectAll().where("id", "=", saved[0]!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: "ar", upload_id: null, project_id: project.id, length_cm: 320, created_by: ana.userId });
    expect(JSON.parse(row.points)).toEqual({ a: floorFrom, b: floorTo });

    const left = await ana.client.measures.deleteAr.mutate({ projectId: project.id, measureId: saved[0]!.id });
    expect(left.map((m) => m.label)).toEqual(["Ceiling height"]);
    expect(await refusal(ana.client.measures.deleteAr.mutate({ projectId: project.id, measureId: saved[0]!.id }))).toEqual(notFound);

    // Deleting the project takes its measures with it.
    await ana.client.projects.delete.mutate({ id: project.id });
    expect(await server.deps.db.selectFrom("room_measures").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
  });

  it("answer Not found to anyone who may not work in the project, and to nobody signed out", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const project = await ana.client.projects.create.mutate({ name: "Casa" });
    const [measure] = await ana.client.measures.addAr.mutate({ projectId: project.id, a: floorFrom, b: floorTo });
    expect(await refusal(bruno.client.measures.ofProject.query({ projectId: project.id }))).toEqual(notFound);
    expect(await refusal(bruno.client.measures.addAr.mutate({ projectId: project.id, a: floorFrom, b: floorTo }))).toEqual(notFound);
    expect(await refusal(bruno.client.measures.deleteAr.mutate({ projectId: project.id, measureId: measure!.id }))).toEqual(notFound);
    // A measure id of Ana's project, asked through Bruno's own project, is not found either.
    const own = await bruno.client.projects.create.mutate({ name: "Mine" });
    expect(await refusal(bruno.client.measures.deleteAr.mutate({ projectId: own.id, measureId: measure!.id }))).toEqual(notFound);
    expect(await refusal(createHttpClient(server.url).measures.ofProject.query({ projectId: project.id }))).toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await ana.client.measures.ofProject.query({ projectId: project.id })).toHaveLength(1);
  });

  it("refuse lengths outside 1 cm–50 m, points too far, long labels and more than the project's limit, with their messages", async () => {
    const ana = await signedInClient(server.url);
    const { id: projectId } = await ana.client.projects.create.mutate({ name: "Limits" });
    const origin = { x: 0, y: 0, z: 0 };
    // The bounds themselves are measures.
    const bounds = await ana.client.measures.addAr.mutate({ projectId, a: origin, b: { x: 0.01, y: 0, z: 0 }, label: "1 cm" });
    await ana.client.measures.addAr.mutate({ projectId, a: { x: -25, y: 0, z: 0 }, b: { x: 25, y: 0, z: 0 }, label: "50 m" });
    expect((await ana.client.measures.ofProject.query({ projectId })).map((m) => m.lengthCm)).toEqual([1, 5000]);
    expect(await refusal(ana.client.measures.addAr.mutate({ projectId, a: origin, b: { x: 0.009, y: 0, z: 0 } }))).toEqual(
      invalid(MESSAGES.arMeasureOutOfRange),
    );
    expect(await refusal(ana.client.measures.addAr.mutate({ projectId, a: { x: -25, y: 0, z: 0 }, b: { x: 25.01, y: 0, z: 0 } }))).toEqual(
      invalid(MESSAGES.arMeasureOutOfRange),
    );
    const far = await refusal(ana.client.measures.addAr.mutate({ projectId, a: origin, b: { x: 0, y: 0, z: -(MEASURE.arPointMaxM + 1) } }));
    expect(far.code).toBe("BAD_REQUEST");
    expect(far.message).toContain(MESSAGES.arMeasurePointInvalid);
    const long = await refusal(
      ana.client.measures.addAr.mutate({ projectId, a: floorFrom, b: floorTo, label: "x".repeat(MEASURE.labelMax + 1) }),
    );
    expect(long.message).toContain(MESSAGES.measureLabelTooLong);

    for (let n = bounds.length + 1; n < MEASURE.perProjectArMax; n++) {
      await ana.client.measures.addAr.mutate({ projectId, a: floorFrom, b: floorTo, label: `${n}` });
    }
    expect(await refusal(ana.client.measures.addAr.mutate({ projectId, a: floorFrom, b: floorTo }))).toEqual(
      invalid(MESSAGES.tooManyArMeasures),
    );
    expect(await ana.client.measures.ofProject.query({ projectId })).toHaveLength(MEASURE.perProjectArMax);
  });

  it("of a team's project are every current member's, and nobody's once removed", async () => {
    const owner = await signedInClient(server.url);
    const member = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", monthly_cap: null, joined_at: Date.now() })
      .execute();
    await owner.client.teams.switchSpace.mutate({ teamId: team.id });
    const project = await owner.client.projects.create.mutate({ name: "Team flat" });
    const added = await member.client.measures.addAr.mutate({ projectId: project.id, a: wallFoot, b: wallTop, label: "Wall" });
    expect((await owner.client.measures.ofProject.query({ projectId: project.id })).map((m) => [m.label, m.lengthCm])).toEqual([
      ["Wall", 245],
    ]);
    await owner.client.teams.removeMember.mutate({ teamId: team.id, userId: member.userId });
    expect(await refusal(member.client.measures.ofProject.query({ projectId: project.id }))).toEqual(notFound);
    expect(await refusal(member.client.measures.deleteAr.mutate({ projectId: project.id, measureId: added[0]!.id }))).toEqual(notFound);
  });

  it("are listed on the project's client review page, and not among a photo's measures", async () => {
    const ana = await signedInClient(server.url);
    const sent = await upload(server.url, ana.jar, await sampleRoomPhoto());
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const { projectId, imageId } = sent.body;
    await ana.client.measures.addAr.mutate({ projectId, a: floorFrom, b: floorTo, label: "Window wall" });
    expect((await ana.client.measures.ofPhoto.query({ uploadId: imageId })).measures).toEqual([]);
    const { jobs } = await ana.client.render.create.mutate({ projectId, imageId, style: "japandi" });
    await waitForRenders(ana, [jobs[0]!.id]);
    const { path } = await ana.client.review.create.mutate({ projectId });
    const page = await createHttpClient(server.url).review.page.query({ token: path.split("/").pop()! });
    expect(page.roomMeasures.map((m) => [m.label, m.lengthCm])).toEqual([["Window wall", 320]]);
    expect(page.pictures[0]!.measures).toBeNull();
  });
});
