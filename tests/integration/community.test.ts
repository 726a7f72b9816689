/**
 * The community hub (issue 32, decision 102) through the real server: publishing one's render (a
 * team's with the right publishWork) as copies without metadata (read back with a real EXIF reader),
 * unpublishing and hiding making every one of its URLs answer 404, the feed's order, filters and
 * pages, likes, saves and follows, reports, and an account stopped from publishing.
 */
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMUNITY } from "../../src/shared/community";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

type Client = Awaited<ReturnType<typeof signedInClient>>;

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
});
afterAll(async () => {
  await server?.stop();
});

/** A room photo carrying a GPS position and a camera, as a phone writes them. */
function photoWithLocation(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: "#b8a98f" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "Phonemaker", Model: "Pocket 12" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 26/1 4632/100", GPSLongitudeRef: "W", GPSLongitude: "3/1 42/1 1/1" },
    })
    .toBuffer();
}

/** Finished renders of the caller's current space, one per style. */
async function rendersOf(user: Client, styles: string[], photo?: Buffer): Promise<string[]> {
  const uploaded = await upload(server.url, user.jar, photo ?? (await roomPhoto(400, 300)));
  expect(uploaded.status).toBe(201);
  const { jobs } = await user.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: styles as never,
  });
  const ids = jobs.map((job) => job.id);
  await waitForRenders(user, ids);
  return ids;
}

const fetchStatus = async (path: string) => (await fetch(`${server.url}${path}`)).status;

/** Every way a visitor or a signed-in user could reach the publication: all must say it is not there. */
async function expectGoneEverywhere(id: string, jobId: string, viewer: Client) {
  const visitor = createStudioClient(server.url);
  expect((await visitor.client.community.gallery.query()).map((item) => item.id)).not.toContain(id);
  await expect(visitor.client.community.get.query({ id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  await expect(viewer.client.community.get.query({ id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  expect((await viewer.client.community.feed.query({})).items.map((item) => item.id)).not.toContain(id);
  expect((await viewer.client.community.feed.query({ sort: "liked" })).items.map((item) => item.id)).not.toContain(id);
  expect((await viewer.client.community.feed.query({ view: "saved" })).items.map((item) => item.id)).not.toContain(id);
  for (const path of [
    `/files/published/${id}/before`,
    `/files/published/${id}/after`,
    // Share card, page and embed (decision 106; tests/integration/share-links.test.ts).
    `/files/published/${id}/card`,
    `/embed/${id}`,
    `/s/${id}`,
    // The gallery's route before decision 102 (it served the render's own files).
    `/files/gallery/${jobId}/before`,
    `/files/gallery/${jobId}/after`,
  ]) {
    expect(await fetchStatus(path), path).toBe(404);
  }
  await expect(viewer.client.community.like.mutate({ id, on: true })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  await expect(viewer.client.community.report.mutate({ id, reason: "spam" })).rejects.toMatchObject({ data: { httpStatus: 404 } });
}

describe("publishing", () => {
  it("publishes copies with no location or camera data, shows them signed out and signed in, without the name by default", async () => {
    const ana = await signedInClient(server.url);
    const source = await photoWithLocation();
    // The reader finds what it must not find later.
    expect(await exifr.gps(source)).toMatchObject({ latitude: expect.closeTo(40.446, 2) });
    const [jobId] = await rendersOf(ana, ["scandinavian"], source);
    // The upload path already drops metadata from the engine's input; the render's own files are made to
    // carry a position and a camera here, so that only the publishing copy can leave them behind.
    const keys = await server.deps.db
      .selectFrom("render_jobs")
      .select(["input_key", "medium_key"])
      .where("id", "=", jobId!)
      .executeTakeFirstOrThrow();
    for (const key of [keys.input_key!, keys.medium_key!]) await server.deps.storage.put(UPLOAD_BUCKET, key, source, "image/jpeg");
    expect(await exifr.gps((await server.deps.storage.get(UPLOAD_BUCKET, keys.medium_key!))!.data)).toBeDefined();

    const { id } = await ana.client.community.publish.mutate({ jobId: jobId!, title: "  Quiet reading corner ", layout: "before-after" });
    const visitor = createStudioClient(server.url);
    const listed = (await visitor.client.community.gallery.query()).find((item) => item.id === id);
    expect(listed).toMatchObject({
      title: "Quiet reading corner",
      style: "scandinavian",
      styleName: null,
      builtInStyle: true,
      roomType: "living-room",
      layout: "before-after",
      author: null,
      before: `/files/published/${id}/before`,
      after: `/files/published/${id}/after`,
    });
    for (const variant of ["before", "after"]) {
      const response = await fetch(`${server.url}/files/published/${id}/${variant}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      const copy = Buffer.from(await response.arrayBuffer());
      expect(await exifr.gps(copy)).toBeUndefined();
      expect(await exifr.parse(copy, true)).toBeUndefined();
      expect((await sharp(copy).metadata()).exif).toBeUndefined();
    }
    const feed = await ana.client.community.feed.query({});
    expect(feed.items.find((item) => item.id === id)).toMatchObject({ mine: true, liked: false, saved: false, author: null });
    expect(await ana.client.community.ofRender.query({ jobId: jobId! })).toMatchObject({
      mayPublish: true,
      blocked: false,
      publication: { id, title: "Quiet reading corner", layout: "before-after", showName: false, hidden: false },
    });
    // Once per render.
    await expect(ana.client.community.publish.mutate({ jobId: jobId!, title: "Again", layout: "after-only" })).rejects.toMatchObject({
      message: MESSAGES.alreadyPublished,
      data: { httpStatus: 409 },
    });
  });

  it("after only: no before picture anywhere; a custom style keeps its name and offers no 'use this style'", async () => {
    const ana = await signedInClient(server.url);
    const style = await ana.client.styles.create.mutate({
      teamId: null,
      name: "Casa Azul",
      description: "cobalt blue tiled walls and whitewashed plaster",
      avoid: "",
      palette: ["#1f4e9c"],
      tone: "bold",
    });
    const [jobId] = await rendersOf(ana, [style.id]);
    const { id } = await ana.client.community.publish.mutate({ jobId: jobId!, title: "Blue", layout: "after-only", showName: true });
    const view = await createStudioClient(server.url).client.community.get.query({ id });
    expect(view).toMatchObject({
      style: style.id,
      styleName: "Casa Azul",
      builtInStyle: false,
      before: null,
      author: { kind: "user", id: ana.userId, name: "Ana Lima", portfolio: null },
    });
    expect(await fetchStatus(`/files/published/${id}/before`)).toBe(404);
    expect(await fetchStatus(`/files/published/${id}/after`)).toBe(200);
    // The feed filters by a custom style's name as by a built-in style's id.
    const filtered = await ana.client.community.feed.query({ style: "Casa Azul" });
    expect(filtered.items.map((item) => item.id)).toEqual([id]);
  });

  it("refuses another user's render, checks the title, and within a team lets only Owner and Admin publish", async () => {
    const [ana, bruno] = [await signedInClient(server.url), await signedInClient(server.url)];
    const [jobId] = await rendersOf(ana, ["modern"]);
    await expect(bruno.client.community.publish.mutate({ jobId: jobId!, title: "Mine now", layout: "after-only" })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });
    await expect(bruno.client.community.ofRender.query({ jobId: jobId! })).rejects.toMatchObject({ data: { httpStatus: 404 } });
    await expect(ana.client.community.publish.mutate({ jobId: jobId!, title: "   ", layout: "after-only" })).rejects.toMatchObject({
      data: { httpStatus: 400, zodError: { fieldErrors: { title: [MESSAGES.publicationTitleRequired] } } },
    });
    await expect(ana.client.community.publish.mutate({ jobId: jobId!, title: "x".repeat(81), layout: "after-only" })).rejects.toMatchObject(
      {
        data: { zodError: { fieldErrors: { title: [MESSAGES.publicationTitleTooLong] } } },
      },
    );

    // A studio: Ana owns it, Bruno is a Member; the render is the team's.
    const team = await ana.client.teams.create.mutate({ name: "Casa Nova" });
    await ana.client.teams.moveCredits.mutate({ teamId: team.id, amount: 2 });
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: bruno.userId, role: "member", joined_at: Date.now() })
      .execute();
    await bruno.client.teams.switchSpace.mutate({ teamId: team.id });
    const [teamJob] = await rendersOf(bruno, ["industrial"]);
    expect(await bruno.client.community.ofRender.query({ jobId: teamJob! })).toMatchObject({ mayPublish: false, publication: null });
    await expect(bruno.client.community.publish.mutate({ jobId: teamJob!, title: "Loft", layout: "after-only" })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    const { id } = await ana.client.community.publish.mutate({ jobId: teamJob!, title: "Loft", layout: "before-after", showName: true });
    expect(await createStudioClient(server.url).client.community.get.query({ id })).toMatchObject({
      author: { kind: "team", id: team.id, name: "Casa Nova" },
    });
    // A Member may not unpublish the studio's work either; a stranger learns nothing of it.
    await expect(bruno.client.community.unpublish.mutate({ id })).rejects.toMatchObject({ data: { httpStatus: 403 } });
    await expect(admin.client.community.unpublish.mutate({ id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  });

  it("unpublishing removes it from every page and route at once, and deletes the copies", async () => {
    const [ana, carla] = [await signedInClient(server.url), await signedInClient(server.url)];
    const [jobId] = await rendersOf(ana, ["coastal"]);
    const { id } = await ana.client.community.publish.mutate({ jobId: jobId!, title: "Sea view", layout: "before-after" });
    await carla.client.community.save.mutate({ id, on: true });
    expect((await carla.client.community.feed.query({ view: "saved" })).items.map((item) => item.id)).toEqual([id]);
    const row = await server.deps.db
      .selectFrom("publications")
      .select(["before_key", "after_key"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.after_key!)).not.toBeNull();

    await ana.client.community.unpublish.mutate({ id });
    await expectGoneEverywhere(id, jobId!, carla);
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.before_key!)).toBeNull();
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.after_key!)).toBeNull();
    // The render itself stays its owner's, and may be published again.
    expect(await fetchStatus(`/files/renders/${jobId}/medium`)).toBe(404);
    expect((await ana.jar.fetch(`${server.url}/files/renders/${jobId}/medium`)).status).toBe(200);
    expect(await ana.client.community.ofRender.query({ jobId: jobId! })).toMatchObject({ publication: null, mayPublish: true });
  });
});

describe("the gallery's renders from before publishing (migration 0044)", () => {
  it("lists them on /gallery and makes their copies, without metadata, on the first request", async () => {
    const ana = await signedInClient(server.url);
    const [jobId] = await rendersOf(ana, ["art-deco"]);
    const keys = await server.deps.db
      .selectFrom("render_jobs")
      .select(["input_key", "medium_key"])
      .where("id", "=", jobId!)
      .executeTakeFirstOrThrow();
    const source = await photoWithLocation();
    for (const key of [keys.input_key!, keys.medium_key!]) await server.deps.storage.put(UPLOAD_BUCKET, key, source, "image/jpeg");
    // What migration 0044 writes for a render that was in the gallery.
    const id = `pub_${"0123456789abcdef".repeat(2).slice(0, 30)}`;
    await server.deps.db
      .insertInto("publications")
      .values({
        id,
        job_id: jobId!,
        user_id: ana.userId,
        team_id: null,
        title: "",
        layout: "before-after",
        style: "art-deco",
        style_name: null,
        room_type: "living-room",
        before_key: null,
        after_key: null,
        published_at: Date.now(),
        hidden_at: null,
        hidden_by: null,
      })
      .execute();
    expect((await createStudioClient(server.url).client.community.gallery.query()).find((item) => item.id === id)).toMatchObject({
      title: "",
      style: "art-deco",
    });
    for (const variant of ["after", "before"]) {
      const response = await fetch(`${server.url}/files/published/${id}/${variant}`);
      expect(response.status).toBe(200);
      expect(await exifr.parse(Buffer.from(await response.arrayBuffer()), true)).toBeUndefined();
    }
    const row = await server.deps.db
      .selectFrom("publications")
      .select(["before_key", "after_key"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ before_key: `community/${id}/before.jpg`, after_key: `community/${id}/after.jpg` });
    // Unpublished, the copies go too (not the render's own files).
    await ana.client.community.unpublish.mutate({ id });
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.after_key!)).toBeNull();
    expect(await server.deps.storage.get(UPLOAD_BUCKET, keys.medium_key!)).not.toBeNull();
  });
});

describe("a published render deleted by its owner", () => {
  it("leaves every public page at once with its publication; housekeeping removes the copies a day later", async () => {
    const ana = await signedInClient(server.url);
    const [gone, kept] = await rendersOf(ana, ["luxury", "modern"]);
    const { id } = await ana.client.community.publish.mutate({ jobId: gone!, title: "Going", layout: "before-after" });
    const other = await ana.client.community.publish.mutate({ jobId: kept!, title: "Staying", layout: "before-after" });
    const keys = await server.deps.db
      .selectFrom("publications")
      .select(["id", "before_key", "after_key"])
      .where("id", "in", [id, other.id])
      .execute();
    // The share card (decision 106) is kept with the copies, and goes with them.
    expect(await fetchStatus(`/files/published/${id}/card`)).toBe(200);
    await ana.client.render.delete.mutate({ id: gone! });
    await expectGoneEverywhere(id, gone!, ana);
    const later = { now: () => Date.now() + 2 * 86_400_000 };
    expect((await server.services.community.removeOrphanCopies(later)).orphanPublishedCopies).toBeGreaterThanOrEqual(3);
    expect(await server.deps.storage.get(UPLOAD_BUCKET, `community/${id}/card.jpg`)).toBeNull();
    for (const row of keys) {
      for (const key of [row.before_key!, row.after_key!]) {
        expect(await server.deps.storage.get(UPLOAD_BUCKET, key), key).toEqual(row.id === id ? null : expect.anything());
      }
    }
    expect(await fetchStatus(`/files/published/${other.id}/after`)).toBe(200);
  });
});

describe("the feed", () => {
  it("orders newest or most liked, filters by style and room type, pages by keyset, and counts likes once per user", async () => {
    const [ana, bruno, carla] = [await signedInClient(server.url), await signedInClient(server.url), await signedInClient(server.url)];
    const jobIds = [...(await rendersOf(ana, ["bohemian", "japandi"])), ...(await rendersOf(ana, ["bohemian"]))];
    const ids: string[] = [];
    for (const [index, jobId] of jobIds.entries()) {
      ids.push((await ana.client.community.publish.mutate({ jobId, title: `Room ${index}`, layout: "after-only", showName: true })).id);
    }
    // Likes: the first twice by Bruno (once counted), and by Carla; the third by Carla.
    expect(await bruno.client.community.like.mutate({ id: ids[0]!, on: true })).toEqual({ on: true, likes: 1 });
    expect(await bruno.client.community.like.mutate({ id: ids[0]!, on: true })).toEqual({ on: true, likes: 1 });
    expect(await carla.client.community.like.mutate({ id: ids[0]!, on: true })).toEqual({ on: true, likes: 2 });
    expect(await carla.client.community.like.mutate({ id: ids[2]!, on: true })).toEqual({ on: true, likes: 1 });

    const bohemian = await bruno.client.community.feed.query({ style: "bohemian", roomType: "living-room" });
    expect(bohemian.items.map((item) => item.id)).toEqual([ids[2], ids[0]]);
    expect(bohemian.items.map((item) => item.liked)).toEqual([false, true]);
    expect((await bruno.client.community.feed.query({ style: "bohemian", roomType: "kitchen" })).items).toEqual([]);

    const liked = await bruno.client.community.feed.query({ style: "bohemian", sort: "liked", limit: 1 });
    expect(liked.items.map((item) => item.id)).toEqual([ids[0]]);
    expect(liked.next).not.toBeNull();
    const second = await bruno.client.community.feed.query({ style: "bohemian", sort: "liked", limit: 1, cursor: liked.next! });
    expect(second).toMatchObject({ items: [{ id: ids[2] }], next: null });

    expect(await bruno.client.community.like.mutate({ id: ids[0]!, on: false })).toEqual({ on: false, likes: 1 });
    expect(await bruno.client.community.like.mutate({ id: ids[0]!, on: false })).toEqual({ on: false, likes: 1 });

    // Following a designer: the "following" view shows their work.
    expect((await carla.client.community.feed.query({ view: "following" })).items).toEqual([]);
    await carla.client.community.follow.mutate({ kind: "user", targetId: ana.userId, on: true });
    const followed = await carla.client.community.feed.query({ view: "following" });
    expect(followed.items.map((item) => item.id)).toEqual([...ids].reverse());
    expect(followed.items.every((item) => item.followingAuthor)).toBe(true);
    expect(await carla.client.community.following.query()).toEqual([{ kind: "user", id: ana.userId, name: "Ana Lima", portfolio: null }]);
    await carla.client.community.follow.mutate({ kind: "user", targetId: ana.userId, on: false });
    expect(await carla.client.community.following.query()).toEqual([]);
    // Only an author the community shows can be followed.
    await expect(carla.client.community.follow.mutate({ kind: "user", targetId: bruno.userId, on: true })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });
    // Signed out: no feed.
    await expect(createStudioClient(server.url).client.community.feed.query({})).rejects.toMatchObject({ data: { httpStatus: 401 } });
  });
});

describe("reports and moderation", () => {
  it("takes one open report per user, lets admins hide (404 everywhere), show again and dismiss; others may not", async () => {
    const [ana, bruno] = [await signedInClient(server.url), await signedInClient(server.url)];
    const [jobId] = await rendersOf(ana, ["farmhouse"]);
    const { id } = await ana.client.community.publish.mutate({ jobId: jobId!, title: "Barn", layout: "before-after" });
    await bruno.client.community.report.mutate({ id, reason: "not-mine", note: "This is my photo" });
    await expect(bruno.client.community.report.mutate({ id, reason: "spam" })).rejects.toMatchObject({
      message: MESSAGES.alreadyReported,
      data: { httpStatus: 409 },
    });
    for (const refused of [
      () => bruno.client.admin.communityReports.query(),
      () => bruno.client.admin.setPublicationHidden.mutate({ id, hidden: true }),
      () => ana.client.admin.setPublishingBlocked.mutate({ userId: bruno.userId, blocked: true }),
    ]) {
      await expect(refused()).rejects.toMatchObject({ message: MESSAGES.adminRequired, data: { httpStatus: 403 } });
    }
    const reports = (await admin.client.admin.communityReports.query()).reports.filter((entry) => entry.publication.id === id);
    expect(reports).toMatchObject([
      {
        reason: "not-mine",
        note: "This is my photo",
        reporter: { id: bruno.userId, email: bruno.email },
        publication: {
          id,
          title: "Barn",
          hidden: false,
          after: `/files/published/${id}/after`,
          publisher: { id: ana.userId, blocked: false },
        },
      },
    ]);

    await admin.client.admin.setPublicationHidden.mutate({ id, hidden: true });
    await expectGoneEverywhere(id, jobId!, bruno);
    // Hidden from its publisher's public view too; the dialog says so.
    await expect(ana.client.community.get.query({ id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
    expect(await ana.client.community.ofRender.query({ jobId: jobId! })).toMatchObject({ publication: { id, hidden: true } });
    const state = await admin.client.admin.communityReports.query();
    expect(state.reports.some((entry) => entry.publication.id === id)).toBe(false);
    expect(state.hidden.find((entry) => entry.id === id)).toMatchObject({ title: "Barn", publisherEmail: ana.email });

    await admin.client.admin.setPublicationHidden.mutate({ id, hidden: false });
    expect(await fetchStatus(`/files/published/${id}/after`)).toBe(200);
    // Reported again (the first report was settled), then dismissed.
    await bruno.client.community.report.mutate({ id, reason: "spam" });
    const open = (await admin.client.admin.communityReports.query()).reports.find((entry) => entry.publication.id === id)!;
    await admin.client.admin.dismissReport.mutate({ reportId: open.id });
    expect((await admin.client.admin.communityReports.query()).reports.some((entry) => entry.publication.id === id)).toBe(false);
    await expect(admin.client.admin.dismissReport.mutate({ reportId: open.id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
    expect(await fetchStatus(`/files/published/${id}/after`)).toBe(200);
  });

  it("stops an account from publishing with a clear message, and allows it again", async () => {
    const ana = await signedInClient(server.url);
    const [first, second] = await rendersOf(ana, ["minimalist", "traditional"]);
    await ana.client.community.publish.mutate({ jobId: first!, title: "Before the stop", layout: "after-only" });
    await admin.client.admin.setPublishingBlocked.mutate({ userId: ana.userId, blocked: true });
    expect((await admin.client.admin.communityReports.query()).blocked.map((entry) => entry.userId)).toContain(ana.userId);
    await expect(ana.client.community.publish.mutate({ jobId: second!, title: "After", layout: "after-only" })).rejects.toMatchObject({
      message: MESSAGES.publishingBlocked,
      data: { httpStatus: 403 },
    });
    expect(await ana.client.community.ofRender.query({ jobId: second! })).toMatchObject({ blocked: true });
    await admin.client.admin.setPublishingBlocked.mutate({ userId: ana.userId, blocked: false });
    await ana.client.community.publish.mutate({ jobId: second!, title: "After", layout: "after-only" });
  });
});

describe("an account an admin disables", () => {
  it("shows nothing it published, nor its portfolio, while it is disabled; enabled again, all is back as it was", async () => {
    const dora = await signedInClient(server.url);
    const [jobId] = await rendersOf(dora, ["scandinavian"]);
    const { id } = await dora.client.community.publish.mutate({
      jobId: jobId!,
      title: "Dora's loft",
      layout: "before-after",
      showName: true,
    });
    await dora.client.community.savePortfolio.mutate({
      handle: `dora-${id.slice(-6)}`,
      displayName: "Dora",
      headline: "",
      links: [],
      contactEmail: "",
      contactPhone: "",
      brandTeamId: null,
      visible: true,
    });
    const portfolio = `/p/dora-${id.slice(-6)}`;
    const viewer = await signedInClient(server.url);
    expect(await fetchStatus(portfolio)).toBe(200);
    expect((await viewer.client.community.get.query({ id })).id).toBe(id);

    await admin.client.admin.setDisabled.mutate({ userId: dora.userId, disabled: true });
    await expectGoneEverywhere(id, jobId!, viewer);
    expect(await fetchStatus(portfolio)).toBe(404);
    await expect(viewer.client.community.follow.mutate({ kind: "user", targetId: dora.userId, on: true })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });

    await admin.client.admin.setDisabled.mutate({ userId: dora.userId, disabled: false });
    expect((await viewer.client.community.get.query({ id })).id).toBe(id);
    expect((await createStudioClient(server.url).client.community.gallery.query()).map((item) => item.id)).toContain(id);
    expect(await fetchStatus(`/files/published/${id}/after`)).toBe(200);
    expect(await fetchStatus(portfolio)).toBe(200);
  });
});

// Last in the file: it spends what is left of this address's report budget for the minute (the tests
// above sent a few reports from the same address).
describe("reports a minute", () => {
  it("refuses reports past COMMUNITY.reportsPerMinute from one address (429), before looking at the picture", async () => {
    const bruno = await signedInClient(server.url);
    const statuses: number[] = [];
    for (let index = 0; index <= COMMUNITY.reportsPerMinute; index++) {
      const id = `pub_${String(index).padStart(2, "0")}${"z".repeat(22)}`;
      statuses.push(
        await bruno.client.community.report.mutate({ id, reason: "spam" }).then(
          () => 200,
          (error: { data?: { httpStatus?: number } }) => error.data?.httpStatus ?? 0,
        ),
      );
    }
    // Not found while the budget lasts, then refused, every time after.
    const firstRefused = statuses.indexOf(429);
    expect(firstRefused).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(0, firstRefused).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(firstRefused).every((status) => status === 429)).toBe(true);
  });
});
