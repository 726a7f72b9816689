/**
 * Measures on a room's photo over real HTTP (issue 30, decision 089): a drawn room whose dimensions the
 * test knows is uploaded; its owner marks the rug as the reference and measures a floor line and the
 * door's height, which the server computes from the points; another user gets "Not found" for every
 * procedure; limits are refused with their message; a client review link shows the measures.
 */
import { refusal } from "../helpers/failure";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEASURE } from "../../src/shared/measures";
import { MESSAGES } from "../../src/shared/messages";
import { signedInClient, upload, waitForRenders, type StudioClient } from "../helpers/render";
import { sampleLevelMarks, sampleMarks, sampleRoomPhoto } from "../helpers/room-scene";
import { startTestServer, type TestServer } from "../helpers/server";
import { createHttpClient } from "../helpers/trpc-client";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await server?.stop();
});

async function photoOf(user: StudioClient) {
  const sent = await upload(server.url, user.jar, await sampleRoomPhoto());
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body;
}

const marks = sampleMarks();
const rug = { kind: "floor" as const, corners: marks.rug, widthCm: 200, depthCm: 140 };

describe("measures on a photo", () => {
  it("are set, computed by the server from the points, listed and deleted by the photo's owner", async () => {
    const ana = await signedInClient(server.url);
    const { imageId: uploadId } = await photoOf(ana);
    expect(await ana.client.measures.ofPhoto.query({ uploadId })).toMatchObject({
      uploadId,
      width: 1024,
      height: 768,
      reference: null,
      measures: [],
    });
    expect(await refusal(ana.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo }))).toEqual({
      code: "BAD_REQUEST",
      message: MESSAGES.measureNeedsReference,
    });

    await ana.client.measures.setReference.mutate({ uploadId, reference: rug });
    await ana.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo, label: "Back wall" });
    const saved = await ana.client.measures.add.mutate({ uploadId, kind: "height", a: marks.doorFoot, b: marks.doorTop, label: "Door" });
    expect(saved.measures.map((m) => [m.label, m.source, m.kind, m.lengthCm, m.withinPercent])).toEqual([
      ["Back wall", "photo", "floor", 300, 8],
      ["Door", "photo", "height", 205, 6],
    ]);

    // A door as the reference (marked on the room seen by a level camera): heights only, here the room's corner.
    const level = sampleLevelMarks();
    const byDoor = await ana.client.measures.setReference.mutate({
      uploadId,
      reference: { kind: "height", foot: level.doorFoot, top: level.doorTop, heightCm: 205 },
    });
    // The floor line cannot be measured from a height: shown without a length.
    expect(byDoor.measures[0]).toMatchObject({ label: "Back wall", lengthCm: null, withinPercent: null });
    const corner = await ana.client.measures.add.mutate({
      uploadId,
      kind: "height",
      a: level.cornerFoot,
      b: level.cornerTop,
      label: "Corner",
    });
    expect(corner.measures.at(-1)).toMatchObject({ label: "Corner", lengthCm: 260, withinPercent: 7 });
    expect(await refusal(ana.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo }))).toEqual({
      code: "BAD_REQUEST",
      message: MESSAGES.measureUnsupported,
    });

    await ana.client.measures.setReference.mutate({ uploadId, reference: rug });
    const left = await ana.client.measures.delete.mutate({ uploadId, measureId: saved.measures[0]!.id });
    expect(left.measures.map((m) => m.label)).toEqual(["Door", "Corner"]);
    expect(await refusal(ana.client.measures.delete.mutate({ uploadId, measureId: saved.measures[0]!.id }))).toEqual({
      code: "NOT_FOUND",
      message: MESSAGES.notFound,
    });
  });

  it("answer Not found to anyone but the photo's owner, and to nobody signed out", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const { imageId: uploadId } = await photoOf(ana);
    const saved = await ana.client.measures.setReference.mutate({ uploadId, reference: rug });
    const { measures } = await ana.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo });
    const notFound = { code: "NOT_FOUND", message: MESSAGES.notFound };
    expect(saved.reference).toEqual(rug);
    expect(await refusal(bruno.client.measures.ofPhoto.query({ uploadId }))).toEqual(notFound);
    expect(await refusal(bruno.client.measures.setReference.mutate({ uploadId, reference: null }))).toEqual(notFound);
    expect(await refusal(bruno.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo }))).toEqual(
      notFound,
    );
    expect(await refusal(bruno.client.measures.delete.mutate({ uploadId, measureId: measures[0]!.id }))).toEqual(notFound);
    expect(await refusal(createHttpClient(server.url).measures.ofPhoto.query({ uploadId }))).toMatchObject({ code: "UNAUTHORIZED" });
    // Nothing of Ana's changed.
    expect((await ana.client.measures.ofPhoto.query({ uploadId })).measures).toHaveLength(1);
  });

  it("refuse points outside the picture, long labels, bad references and more than the limit, with their messages", async () => {
    const ana = await signedInClient(server.url);
    const { imageId: uploadId } = await photoOf(ana);
    await ana.client.measures.setReference.mutate({ uploadId, reference: rug });
    const invalid = (message: string) => ({ code: "BAD_REQUEST", message });
    const outside = await refusal(ana.client.measures.add.mutate({ uploadId, kind: "floor", a: { x: 1.2, y: 0.5 }, b: marks.floorTo }));
    expect(outside.code).toBe("BAD_REQUEST");
    expect(outside.message).toContain(MESSAGES.measurePointOutside);
    const long = await refusal(
      ana.client.measures.add.mutate({
        uploadId,
        kind: "floor",
        a: marks.floorFrom,
        b: marks.floorTo,
        label: "x".repeat(MEASURE.labelMax + 1),
      }),
    );
    expect(long.message).toContain(MESSAGES.measureLabelTooLong);
    const tiny = await refusal(ana.client.measures.setReference.mutate({ uploadId, reference: { ...rug, widthCm: 5 } }));
    expect(tiny.message).toContain(MESSAGES.measureSizeOutOfRange);
    const crossed = [marks.rug[0], marks.rug[2], marks.rug[1], marks.rug[3]] as typeof marks.rug;
    expect(await refusal(ana.client.measures.setReference.mutate({ uploadId, reference: { ...rug, corners: crossed } }))).toEqual(
      invalid(MESSAGES.measureReferenceUnusable),
    );
    // Above the horizon is not the floor.
    expect(await refusal(ana.client.measures.add.mutate({ uploadId, kind: "floor", a: { x: 0.5, y: 0.02 }, b: marks.floorTo }))).toEqual(
      invalid(MESSAGES.measureOffTheFloor),
    );

    for (let n = 0; n < MEASURE.perPhotoMax; n++) {
      await ana.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo, label: `${n}` });
    }
    expect(await refusal(ana.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo }))).toEqual(
      invalid(MESSAGES.tooManyMeasures),
    );
    expect((await ana.client.measures.ofPhoto.query({ uploadId })).measures).toHaveLength(MEASURE.perPhotoMax);
  });

  it("are shown on the client review page of a picture made from the photo", async () => {
    const ana = await signedInClient(server.url);
    const sent = await photoOf(ana);
    await ana.client.measures.setReference.mutate({ uploadId: sent.imageId, reference: rug });
    await ana.client.measures.add.mutate({ uploadId: sent.imageId, kind: "height", a: marks.doorFoot, b: marks.doorTop, label: "Door" });
    const { jobs } = await ana.client.render.create.mutate({ projectId: sent.projectId, imageId: sent.imageId, style: "japandi" });
    await waitForRenders(ana, [jobs[0]!.id]);
    const { path } = await ana.client.review.create.mutate({ projectId: sent.projectId });
    const token = path.split("/").pop()!;
    const page = await createHttpClient(server.url).review.page.query({ token });
    expect(page.pictures[0]!.measures).toMatchObject({ uploadId: sent.imageId, measures: [{ label: "Door", lengthCm: 205 }] });
  });
});

describe("a picture downloaded with its measures", () => {
  it("has the lines drawn in, for the photo's owner only", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const { imageId: uploadId } = await photoOf(ana);
    await ana.client.measures.setReference.mutate({ uploadId, reference: rug });
    await ana.client.measures.add.mutate({ uploadId, kind: "height", a: marks.doorFoot, b: marks.doorTop, label: "Door" });
    const response = await ana.jar.fetch(`${server.url}/files/measured/${uploadId}?lang=fr`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("content-disposition")).toContain("measured.jpg");
    const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1024, 768]);
    // A quarter of the way up the door's line: the measure's colour (#22d3ee), where the photo has the wall's.
    const x = Math.round(((marks.doorFoot.x * 3 + marks.doorTop.x) / 4) * info.width);
    const y = Math.round(((marks.doorFoot.y * 3 + marks.doorTop.y) / 4) * info.height);
    const fromColour = (pixels: Buffer, channels: number) => {
      const at = (y * info.width + x) * channels;
      return Math.abs(pixels[at]! - 0x22) + Math.abs(pixels[at + 1]! - 0xd3) + Math.abs(pixels[at + 2]! - 0xee);
    };
    const photo = await sharp(await sampleRoomPhoto())
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(fromColour(photo.data, photo.info.channels)).toBeGreaterThan(150);
    expect(fromColour(data, info.channels)).toBeLessThan(90);

    expect((await bruno.jar.fetch(`${server.url}/files/measured/${uploadId}`)).status).toBe(404);
    expect((await fetch(`${server.url}/files/measured/${uploadId}`)).status).toBe(404);
  });
});

describe("measures on a team's photo", () => {
  it("are every current member's to see and change, and nobody's once removed", async () => {
    const owner = await signedInClient(server.url);
    const member = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", monthly_cap: null, joined_at: Date.now() })
      .execute();
    await owner.client.teams.switchSpace.mutate({ teamId: team.id });
    const { imageId: uploadId } = await photoOf(owner);
    await owner.client.measures.setReference.mutate({ uploadId, reference: rug });
    // A Member measures on the Owner's photo of the team, from their personal space too (the photo's team decides).
    const added = await member.client.measures.add.mutate({ uploadId, kind: "floor", a: marks.floorFrom, b: marks.floorTo, label: "Wall" });
    expect(added.measures.map((m) => [m.label, m.lengthCm])).toEqual([["Wall", 300]]);
    expect((await owner.client.measures.ofPhoto.query({ uploadId })).measures).toHaveLength(1);

    await owner.client.teams.removeMember.mutate({ teamId: team.id, userId: member.userId });
    expect(await refusal(member.client.measures.ofPhoto.query({ uploadId }))).toEqual({ code: "NOT_FOUND", message: MESSAGES.notFound });
    expect(await refusal(member.client.measures.delete.mutate({ uploadId, measureId: added.measures[0]!.id }))).toEqual({
      code: "NOT_FOUND",
      message: MESSAGES.notFound,
    });
  });
});
