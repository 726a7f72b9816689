/**
 * "Apply to the whole project" (issue 30): a project's photos rendered as one set, in one style with
 * one seed, each photo with its room type, charged one credit per picture in one transaction (all
 * or nothing), and, on an engine that takes a reference picture (OpenAI's image[]), a finished
 * render of the project sent as the look to follow.
 */
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/server/render/engines/openai";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider, RenderRequest } from "../../src/server/render/engines/provider";
import { ledgerBalance } from "../../src/server/services/credits";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { LISTING_ROUTES } from "../../src/shared/listing";
import { MESSAGES } from "../../src/shared/messages";
import { RENDER } from "../../src/shared/render";
import { guessRoomType, type RoomType } from "../../src/shared/styles";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { failure } from "../helpers/failure";
import { confirmAddress, createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const ROOMS: RoomType[] = ["living-room", "kitchen", "bedroom", "bathroom", "dining-room", "home-office"];

/** A project of six photos, one per room type of ROOMS. */
async function projectOfSix(server: TestServer, user: Awaited<ReturnType<typeof signedInClient>>) {
  const first = await upload(server.url, user.jar, await roomPhoto(1200, 900), { roomType: ROOMS[0]! });
  const projectId = first.body.projectId;
  const imageIds = [first.body.imageId];
  for (const roomType of ROOMS.slice(1)) {
    const next = await upload(server.url, user.jar, await roomPhoto(1200, 900), { roomType, projectId });
    expect(next.status).toBe(201);
    imageIds.push(next.body.imageId);
  }
  return { projectId, imageIds, photos: imageIds.map((imageId, index) => ({ imageId, roomType: ROOMS[index]! })) };
}

describe("a set on an engine with seeds", () => {
  const requests: RenderRequest[] = [];
  const engine: RenderProvider = {
    id: "replicate",
    label: "Test engine with seeds",
    capabilities: { ...PREVIEW_CAPABILITIES, isAi: true, photoSize: false, seeds: true },
    async render(request) {
      requests.push(request);
      return { ...(await localProvider.render(request)), model: "test/seeded", seed: request.seed ?? 7 };
    },
  };
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { renderProvider: engine });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("renders six photos in one style with one seed and each photo's room type, one credit each", async () => {
    const user = await signedInClient(server.url);
    const { projectId, imageIds, photos } = await projectOfSix(server, user);
    const before = await ledgerBalance(server.deps.db, user.userId);
    // The room type chosen in the dialog wins over the one given at upload.
    const chosen = photos.map((photo, index) => (index === 5 ? { ...photo, roomType: "kids-room" as const } : photo));
    const set = await user.client.render.createSet.mutate({ projectId, style: "coastal", photos: chosen });
    expect(set.jobs.map((job) => job.uploadId)).toEqual(imageIds);
    expect(set.credits).toBe(before - 6);
    await waitForRenders(
      user,
      set.jobs.map((job) => job.id),
    );

    const sent = requests.filter((request) => request.style === "coastal");
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((request) => request.seed)).size).toBe(1);
    expect(sent.map((request) => request.roomType).sort()).toEqual([...ROOMS.slice(0, 5), "kids-room"].sort());
    expect(sent.every((request) => request.reference === undefined)).toBe(true);
    const rows = await server.deps.db
      .selectFrom("render_jobs")
      .select(["id", "requested_seed", "set_id", "status"])
      .where("set_id", "=", set.setId)
      .execute();
    const stored = await server.deps.db.selectFrom("render_sets").selectAll().where("id", "=", set.setId).executeTakeFirstOrThrow();
    expect(stored.seed).toBe(sent[0]!.seed);
    expect(rows.map((row) => [row.requested_seed, row.status])).toEqual(Array.from({ length: 6 }, () => [stored.seed, "succeeded"]));
    // One charge per picture, none refunded.
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before - 6);

    const [shown] = await user.client.render.sets.query({ projectId });
    expect(shown).toMatchObject({ id: set.setId, style: "coastal", renderMode: "redesign", seed: stored.seed, referenceJobId: null });
    expect(shown!.pictures.map((picture) => [picture.uploadId, picture.roomType, picture.status])).toEqual(
      chosen.map((photo) => [photo.imageId, photo.roomType, "succeeded"]),
    );
    for (const picture of shown!.pictures) {
      expect(picture.after).toBe(`/files/renders/${picture.jobId}/medium`);
      expect((await user.jar.fetch(`${server.url}${picture.before}`)).status).toBe(200);
    }

    // The set for the listing in one step, and in one zip: its six pictures and their originals.
    expect(await user.client.listing.createForSet.mutate({ setId: set.setId, language: "en" })).toEqual({ count: 6 });
    const zipUrl = `${server.url}${LISTING_ROUTES.setZip(projectId, set.setId)}`;
    const zip = unzipSync(new Uint8Array(await (await user.jar.fetch(zipUrl)).arrayBuffer()));
    expect(Object.keys(zip).filter((name) => name.endsWith(".jpg") && !name.startsWith("originals/"))).toHaveLength(6);
    expect(Object.keys(zip).filter((name) => name.startsWith("originals/"))).toHaveLength(6);
    const stranger = await signedInClient(server.url);
    expect((await stranger.jar.fetch(zipUrl)).status).toBe(404);
    expect(await stranger.client.listing.createForSet.mutate({ setId: set.setId, language: "en" }).catch(failure)).toMatchObject({
      message: MESSAGES.notFound,
    });
  });

  it("asks for the whole set or nothing: too few credits, another owner's photo, a reference of another project", async () => {
    const user = await signedInClient(server.url);
    const { projectId, photos } = await projectOfSix(server, user);
    await user.client.render.createSet.mutate({ projectId, style: "japandi", photos });
    const left = await ledgerBalance(server.deps.db, user.userId);
    expect(left).toBeLessThan(6);
    const jobsBefore = await user.client.render.list.query({ projectId });

    expect(await user.client.render.createSet.mutate({ projectId, style: "modern", photos }).catch(failure)).toMatchObject({
      message: MESSAGES.notEnoughCredits,
    });
    const stranger = await signedInClient(server.url);
    const theirs = await upload(server.url, stranger.jar, await roomPhoto(800, 600));
    expect(
      await user.client.render.createSet
        .mutate({ projectId, style: "modern", photos: [{ imageId: theirs.body.imageId, roomType: "bedroom" }] })
        .catch(failure),
    ).toMatchObject({ message: MESSAGES.notFound });
    // The stranger cannot render the user's photos into their own project either.
    expect(
      await stranger.client.render.createSet
        .mutate({ projectId: theirs.body.projectId, style: "modern", photos: [photos[0]!] })
        .catch(failure),
    ).toMatchObject({ message: MESSAGES.notFound });
    expect(await user.client.render.list.query({ projectId })).toHaveLength(jobsBefore.length);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(left);
  });

  it("refuses a reference that is not a finished render of the project, more than 50 photos, and visitors", async () => {
    const user = await signedInClient(server.url);
    const first = await projectOfSix(server, user);
    const other = await user.client.projects.create.mutate({ name: "Another home" });
    const elsewhere = await upload(server.url, user.jar, await roomPhoto(800, 600), { projectId: other.id });
    expect(elsewhere.body.projectId).not.toBe(first.projectId);
    const { jobs } = await user.client.render.create.mutate({ projectId: other.id, imageId: elsewhere.body.imageId, style: "modern" });
    await waitForRenders(user, [jobs[0]!.id]);
    expect(
      await user.client.render.createSet
        .mutate({ projectId: first.projectId, style: "modern", photos: first.photos, referenceJobId: jobs[0]!.id })
        .catch(failure),
    ).toMatchObject({ message: MESSAGES.setReferenceNotInProject });
    const tooMany = Array.from({ length: RENDER.maxSetPhotos + 1 }, (_, index) => ({
      imageId: `photo${index}`,
      roomType: "bedroom" as const,
    }));
    const refused = failure(
      await user.client.render.createSet
        .mutate({ projectId: first.projectId, style: "modern", photos: tooMany })
        .catch((caught: unknown) => caught),
    );
    expect(refused.data?.zodError?.fieldErrors.photos).toEqual([MESSAGES.setTooManyPhotos]);
    const visitor = createStudioClient(server.url);
    expect(
      await visitor.client.render.createSet.mutate({ projectId: first.projectId, style: "modern", photos: first.photos }).catch(failure),
    ).toMatchObject({ message: MESSAGES.notAuthenticated });
  });
});

describe("a set on OpenAI, with a reference picture", () => {
  let fake: FakeOpenAi;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    server = await startTestServer(
      { AUTH_RATE_LIMIT_PER_MINUTE: "1000" },
      { renderProvider: createOpenAiProvider({ apiKey: "sk-fake-key", model: "gpt-image-1", baseUrl: fake.url }) },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("sends the approved render as the second picture of every other photo, and records it", async () => {
    const user = await signedInClient(server.url);
    await confirmAddress(server.url, server.deps.db, user.email);
    const { projectId, imageIds, photos } = await projectOfSix(server, user);
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId: imageIds[0]!, style: "farmhouse" });
    await waitForRenders(user, [jobs[0]!.id]);
    const reference = jobs[0]!.id;
    const referenceRow = await server.deps.db
      .selectFrom("render_jobs")
      .select("medium_key")
      .where("id", "=", reference)
      .executeTakeFirstOrThrow();
    const referencePicture = (await server.deps.storage.get(UPLOAD_BUCKET, referenceRow.medium_key!))!.data;
    const sentBefore = fake.requests.length;

    const set = await user.client.render.createSet.mutate({
      projectId,
      style: "farmhouse",
      photos: photos.slice(1),
      referenceJobId: reference,
    });
    await waitForRenders(
      user,
      set.jobs.map((job) => job.id),
    );
    const sent = fake.requests.slice(sentBefore);
    expect(sent).toHaveLength(5);
    for (const request of sent) {
      expect(request.images?.map((image) => image.name)).toEqual(["image.jpg", "reference.jpg"]);
      expect(request.images![1]!.bytes.equals(referencePicture)).toBe(true);
      expect(request.fields.prompt).toContain("The second picture shows another room of the same home");
    }
    // Each photo as its own room, the reference as the look to follow.
    const rooms = sent.map((request) => /photo of this ([a-z ]+?),/.exec(request.fields.prompt!)?.[1]);
    expect(rooms.sort()).toEqual(["bathroom", "bedroom", "dining room", "home office", "kitchen"]);
    const view = await user.client.render.job.query({ id: set.jobs[0]!.id });
    expect(view.parameters).toMatchObject({ referenceRender: reference });
    const [shown] = await user.client.render.sets.query({ projectId });
    expect(shown).toMatchObject({ referenceJobId: reference, seed: null });
    expect((await sharp(referencePicture).metadata()).width).toBeLessThanOrEqual(RENDER.mediumLongEdge);
  });
});

describe("guessing a photo's room from its file name", () => {
  it("reads English, Spanish and French names, and leaves the rest to the user", () => {
    expect(guessRoomType("IMG_2041-Kitchen.JPG")).toBe("kitchen");
    expect(guessRoomType("salle-de-bain_2.jpg")).toBe("bathroom");
    expect(guessRoomType("dormitorio principal.jpeg")).toBe("bedroom");
    expect(guessRoomType("Salle à manger.png")).toBe("dining-room");
    expect(guessRoomType("kids_bedroom.jpg")).toBe("kids-room");
    expect(guessRoomType("Séjour.jpg")).toBe("living-room");
    expect(guessRoomType("terrasse.jpg")).toBe("outdoor-patio");
    expect(guessRoomType("IMG_0001.jpg")).toBeNull();
    expect(guessRoomType("embedded.jpg")).toBeNull();
  });
});
