/**
 * The marketplace of styles (issue 32, decision 104) on a real server, through tRPC and the pictures'
 * route: a style's owner publishes one style or a pack with a cover and examples copied from their
 * own finished renders (clean JPEGs that outlive the renders and the styles); others browse by room and
 * tone, newest or most installed, a keyset page at a time; install a copy into their personal space or
 * a team's (Owner and Admins), once per space, counted once per space; a new version is offered as an
 * update, accepted (the copy overwritten) or kept; unpublishing takes the listing away and leaves the
 * installed copies. Another space's styles and renders are refused; a Member publishes nothing.
 */
import { TRPCClientError } from "@trpc/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { customStyleReferencePath } from "../../src/shared/custom-styles";
import { MARKETPLACE, marketplacePicturePath } from "../../src/shared/marketplace";
import { MESSAGES, keyedMessage } from "../../src/shared/messages";
import type { RoomType } from "../../src/shared/styles";
import type { AppRouter } from "../../src/server/trpc/root";
import { PASSWORD, roomPhoto, signedInClient, upload, waitForRenders, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";

const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

type Person = StudioClient & { email: string; userId: string };
const person = (): Promise<Person> => signedInClient(server.url);

const STYLE = {
  name: "Warm loft",
  description: "Exposed brick, oak floors and warm brass lights",
  avoid: "chrome, glass tables",
  palette: ["#a0522d", "#f5f5dc"],
  tone: "warm" as const,
};

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<AppRouter>;
  return { message: e.message, code: (e.data as { code: string }).code };
}

/** A finished render of the person's personal space, of a photo of this room. */
async function finishedRender(who: Person, roomType: RoomType): Promise<string> {
  const uploaded = await upload(server.url, who.jar, await roomPhoto(800, 600), { roomType });
  const { jobs } = await who.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: "modern",
  });
  await waitForRenders(who, [jobs[0]!.id]);
  return jobs[0]!.id;
}

async function picture(who: Person, path: string) {
  const response = await who.jar.fetch(`${server.url}${path}`);
  return { status: response.status, data: Buffer.from(await response.arrayBuffer()) };
}

describe("the marketplace", () => {
  let ana: Person;
  let bruno: Person;
  let carla: Person;
  let warm: { id: string };
  let dark: { id: string };
  let livingRoom: string;
  let bedroom: string;
  let listingId: string;

  beforeAll(async () => {
    [ana, bruno, carla] = await Promise.all([person(), person(), person()]);
    warm = await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
    dark = await ana.client.styles.create.mutate({ ...STYLE, name: "Night library", tone: "dark", palette: ["#111111"], teamId: null });
    const put = await ana.jar.fetch(`${server.url}${customStyleReferencePath(warm.id)}`, {
      method: "PUT",
      headers: { "content-type": "image/jpeg", origin: server.url },
      body: new Uint8Array(await roomPhoto(640, 480)),
    });
    expect(put.status).toBe(200);
    livingRoom = await finishedRender(ana, "living-room");
    bedroom = await finishedRender(ana, "bedroom");
    // The living room's result as a camera would have written it: a location and a camera in its EXIF.
    const { result_key } = await server.deps.db
      .selectFrom("render_jobs")
      .select("result_key")
      .where("id", "=", livingRoom)
      .executeTakeFirstOrThrow();
    const tagged = await sharp(await roomPhoto(1600, 1200))
      .withExifMerge({ IFD0: { Make: "PhoneCam", Artist: "Ana Lima" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 0/1" } })
      .jpeg()
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    await server.deps.storage.put(UPLOAD_BUCKET, result_key!, tagged, "image/jpeg");
  });

  it("publishes a pack of the author's styles with a cover and examples copied clean from their renders", async () => {
    clock.advance(1000);
    const listing = await ana.client.marketplace.publish.mutate({
      teamId: null,
      title: "  Loft and library  ",
      styleIds: [warm.id, dark.id],
      coverJobId: livingRoom,
      exampleJobIds: [livingRoom, bedroom],
    });
    listingId = listing.id;
    expect(listing).toMatchObject({
      title: "Loft and library",
      version: 1,
      installCount: 0,
      mine: true,
      teamId: null,
      tones: ["warm", "dark"],
      roomTypes: ["living-room", "bedroom"],
      publishedAt: clock.now(),
      installed: null,
      styles: [
        { ...STYLE, hasReference: true },
        { ...STYLE, name: "Night library", tone: "dark", palette: ["#111111"], hasReference: false },
      ],
    });
    expect(listing.examples.map((example) => [example.number, example.roomType])).toEqual([
      [1, "living-room"],
      [2, "bedroom"],
    ]);
    expect(listing.id).toMatch(/^ml_[a-z0-9]{24}$/);

    // The pictures are JPEGs without metadata (no location, no camera), for any signed-in user only.
    for (const path of [
      marketplacePicturePath(listing.id, "cover"),
      marketplacePicturePath(listing.id, 1),
      marketplacePicturePath(listing.id, 2),
    ]) {
      const got = await picture(bruno, path);
      expect(got.status, path).toBe(200);
      const meta = await sharp(got.data).metadata();
      expect(meta.format).toBe("jpeg");
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(MARKETPLACE.pictureLongEdge);
    }
    // The cover came from the 1600 px result with EXIF: scaled to 1280, and its EXIF gone.
    expect(await sharp((await picture(bruno, marketplacePicturePath(listing.id, "cover"))).data).metadata()).toMatchObject({
      width: 1280,
      height: 960,
    });
    expect((await picture(bruno, marketplacePicturePath(listing.id, 3))).status).toBe(404);
    expect((await picture(bruno, `/api/marketplace/${listing.id}/examples/7`)).status).toBe(404);
    expect((await fetch(`${server.url}${marketplacePicturePath(listing.id, "cover")}`)).status).toBe(401);

    // Deleting the render and changing the style later leaves the listing as published.
    const coverBefore = (await picture(bruno, marketplacePicturePath(listing.id, "cover"))).data;
    await ana.client.render.delete.mutate({ id: bedroom });
    await ana.client.styles.update.mutate({ id: dark.id, ...STYLE, name: "Renamed privately", tone: "dark", palette: ["#111111"] });
    expect((await picture(bruno, marketplacePicturePath(listing.id, 2))).status).toBe(200);
    expect((await picture(bruno, marketplacePicturePath(listing.id, "cover"))).data.equals(coverBefore)).toBe(true);
    const seen = await bruno.client.marketplace.get.query({ listingId: listing.id, teamId: null });
    expect(seen.styles.map((style) => style.name)).toEqual(["Warm loft", "Night library"]);
    expect(seen.mine).toBe(false);
    expect(await ana.client.marketplace.mine.query({ teamId: null })).toMatchObject([{ id: listing.id }]);
    expect(await bruno.client.marketplace.mine.query({ teamId: null })).toEqual([]);
  });

  it("refuses another space's styles and renders, a Member's publishing, and broken rules with their messages", async () => {
    const brunoRender = await finishedRender(bruno, "kitchen");
    const notUsable = { message: MESSAGES.marketplaceRenderNotUsable, code: "BAD_REQUEST" };
    const base = { teamId: null, title: "Mine", styleIds: [warm.id], coverJobId: livingRoom, exampleJobIds: [] as string[] };
    expect(await refusal(ana.client.marketplace.publish.mutate({ ...base, coverJobId: brunoRender }))).toEqual(notUsable);
    expect(await refusal(ana.client.marketplace.publish.mutate({ ...base, exampleJobIds: [brunoRender] }))).toEqual(notUsable);
    // A deleted render, and an upload's id (a photo, not a render), are not finished renders either.
    expect(await refusal(ana.client.marketplace.publish.mutate({ ...base, coverJobId: bedroom }))).toEqual(notUsable);
    expect(await refusal(bruno.client.marketplace.publish.mutate({ ...base, coverJobId: brunoRender }))).toEqual({
      message: MESSAGES.customStyleNotFound,
      code: "NOT_FOUND",
    });
    expect(await refusal(ana.client.marketplace.publish.mutate({ ...base, title: " " }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await refusal(ana.client.marketplace.publish.mutate({ ...base, styleIds: [] }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(
      await refusal(ana.client.marketplace.publish.mutate({ ...base, exampleJobIds: Array.from({ length: 7 }, (_, n) => `job${n}`) })),
    ).toMatchObject({ code: "BAD_REQUEST" });

    // A team's Member publishes nothing for the team, and changes none of its listings.
    const team = await carla.client.teams.create.mutate({ name: `Studio ${Math.random().toString(36).slice(2, 8)}` });
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: bruno.userId, role: "member", monthly_cap: null, joined_at: clock.now() })
      .execute();
    expect(await refusal(bruno.client.marketplace.publish.mutate({ ...base, teamId: team.id }))).toEqual({
      message: MESSAGES.teamRightMissing,
      code: "FORBIDDEN",
    });
    expect(await refusal(bruno.client.marketplace.unpublish.mutate({ listingId }))).toEqual({
      message: MESSAGES.marketplaceListingNotFound,
      code: "NOT_FOUND",
    });
    expect(await refusal(bruno.client.marketplace.install.mutate({ listingId, teamId: team.id }))).toEqual({
      message: MESSAGES.teamRightMissing,
      code: "FORBIDDEN",
    });
    await server.deps.db.deleteFrom("team_members").where("team_id", "=", team.id).where("user_id", "=", bruno.userId).execute();
  });

  it("installs a copy into a space once, counts each space once, and offers a new version as an update to accept or decline", async () => {
    const installed = await bruno.client.marketplace.install.mutate({ listingId, teamId: null });
    expect(installed).toMatchObject({ teamId: null, version: 1, updateAvailable: false });
    expect(installed.styleIds).toHaveLength(2);
    const mine = await bruno.client.styles.list.query({ teamId: null });
    expect(mine.styles.map((style) => style.id).sort()).toEqual([...installed.styleIds].sort());
    const copy = await bruno.client.styles.get.query({ id: installed.styleIds[0]! });
    expect(copy).toMatchObject({ ...STYLE, hasReference: true, teamId: null });
    expect((await bruno.jar.fetch(`${server.url}${customStyleReferencePath(copy.id)}`)).status).toBe(200);
    expect(await refusal(bruno.client.marketplace.install.mutate({ listingId, teamId: null }))).toEqual({
      message: MESSAGES.marketplaceAlreadyInstalled,
      code: "CONFLICT",
    });

    // Carla's team (she is its Owner) and Carla herself: two more spaces; the count is of spaces.
    const team = await carla.client.teams.create.mutate({ name: `Studio ${Math.random().toString(36).slice(2, 8)}` });
    const inTeam = await carla.client.marketplace.install.mutate({ listingId, teamId: team.id });
    expect(inTeam.teamId).toBe(team.id);
    expect((await carla.client.styles.list.query({ teamId: team.id })).styles).toHaveLength(2);
    await carla.client.marketplace.install.mutate({ listingId, teamId: null });
    expect((await ana.client.marketplace.get.query({ listingId, teamId: null })).installCount).toBe(3);

    // Bruno changes his copy; Ana publishes a new version (the renamed style, a new cover).
    await bruno.client.styles.update.mutate({ id: installed.styleIds[1]!, ...STYLE, name: "Bruno's own", tone: "cool" });
    clock.advance(1000);
    const second = await ana.client.marketplace.republish.mutate({
      listingId,
      title: "Loft and library, revised",
      styleIds: [warm.id, dark.id],
      coverJobId: livingRoom,
      exampleJobIds: [livingRoom],
    });
    expect(second).toMatchObject({ version: 2, updatedAt: clock.now(), roomTypes: ["living-room"], installCount: 3 });
    expect(second.styles[1]).toMatchObject({ name: "Renamed privately" });
    expect((await picture(bruno, marketplacePicturePath(listingId, 2))).status).toBe(404);

    const offered = await bruno.client.marketplace.get.query({ listingId, teamId: null });
    expect(offered.installed).toMatchObject({ version: 1, updateAvailable: true });
    expect(await bruno.client.marketplace.installs.query({ teamId: null })).toMatchObject([
      { listingId, title: "Loft and library, revised", version: 1, listingVersion: 2, updateAvailable: true },
    ]);

    // Bruno accepts: his copies take the new version's content (his own change overwritten).
    const accepted = await bruno.client.marketplace.acceptUpdate.mutate({ listingId, teamId: null });
    expect(accepted).toMatchObject({ version: 2, updateAvailable: false, styleIds: installed.styleIds });
    expect(await bruno.client.styles.get.query({ id: installed.styleIds[1]! })).toMatchObject({
      name: "Renamed privately",
      tone: "dark",
      palette: ["#111111"],
    });
    expect(await refusal(bruno.client.marketplace.acceptUpdate.mutate({ listingId, teamId: null }))).toEqual({
      message: MESSAGES.marketplaceNoUpdate,
      code: "CONFLICT",
    });

    // Carla's team keeps its own: nothing changes, and version 2 is offered no more.
    const teamCopy = inTeam.styleIds[1]!;
    const before = await carla.client.styles.get.query({ id: teamCopy });
    const kept = await carla.client.marketplace.keepOwn.mutate({ listingId, teamId: team.id });
    expect(kept).toMatchObject({ version: 1, updateAvailable: false });
    expect(await carla.client.styles.get.query({ id: teamCopy })).toEqual(before);
    expect(before.name).toBe("Night library");
    // Her personal install still has the update waiting.
    expect((await carla.client.marketplace.get.query({ listingId, teamId: null })).installed).toMatchObject({ updateAvailable: true });

    // A copy deleted before accepting is made again.
    await carla.client.styles.delete.mutate({
      id: (await carla.client.marketplace.get.query({ listingId, teamId: null })).installed!.styleIds[0]!,
    });
    const remade = await carla.client.marketplace.acceptUpdate.mutate({ listingId, teamId: null });
    expect(remade.styleIds).toHaveLength(2);
    expect((await carla.client.styles.list.query({ teamId: null })).styles).toHaveLength(2);
  });

  it("browses by room and tone, newest or most installed, a keyset page at a time", async () => {
    const found = await bruno.client.marketplace.browse.query({ tone: "dark" });
    expect(found.listings.map((listing) => listing.id)).toContain(listingId);
    expect((await bruno.client.marketplace.browse.query({ tone: "bold" })).listings.map((l) => l.id)).not.toContain(listingId);
    expect((await bruno.client.marketplace.browse.query({ roomType: "living-room", tone: "warm" })).listings.map((l) => l.id)).toContain(
      listingId,
    );
    // The bedroom example went with version 2.
    expect((await bruno.client.marketplace.browse.query({ roomType: "bedroom" })).listings.map((l) => l.id)).not.toContain(listingId);

    // Thirty more listings, with install counts and times of their own (written as the module would).
    const cover = (await picture(bruno, marketplacePicturePath(listingId, "cover"))).data;
    for (let n = 0; n < 30; n++) {
      const id = `ml_${String(n).padStart(2, "0")}${"x".repeat(22)}`;
      await server.deps.db
        .insertInto("marketplace_listings")
        .values({
          id,
          team_id: null,
          user_id: ana.userId,
          created_by: ana.userId,
          title: `Listing ${n}`,
          version: 1,
          install_count: n % 7,
          cover,
          cover_width: 10,
          cover_height: 10,
          published_at: clock.now() + n,
          updated_at: clock.now() + (n % 5) * 1000,
        })
        .execute();
      await server.deps.db.insertInto("marketplace_listing_facets").values({ listing_id: id, facet: "tone:bold" }).execute();
    }
    for (const sort of ["newest", "installs"] as const) {
      const seen: Array<{ id: string; key: number }> = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await bruno.client.marketplace.browse.query({ sort, cursor });
        expect(page.listings.length).toBeLessThanOrEqual(MARKETPLACE.pageSize);
        seen.push(...page.listings.map((l) => ({ id: l.id, key: sort === "newest" ? l.updatedAt : l.installCount })));
        cursor = page.next;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(2);
      const all = await server.deps.db.selectFrom("marketplace_listings").select("id").execute();
      expect(seen.map((s) => s.id).sort()).toEqual(all.map((row) => row.id).sort());
      // In order: the key never rises, and ties are broken by id, newest id first.
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1]!, seen[i]!];
        expect(a.key > b.key || (a.key === b.key && a.id > b.id), `${sort} ${i}`).toBe(true);
      }
    }
    const bold = await bruno.client.marketplace.browse.query({ tone: "bold", sort: "installs" });
    expect(bold.listings).toHaveLength(MARKETPLACE.pageSize);
    expect(bold.listings[0]!.installCount).toBe(6);
    expect(await refusal(bruno.client.marketplace.browse.query({ tone: "pastel" as "bold" }))).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("does not offer a disabled account's listing while an admin has it disabled; enabled, it is back", async () => {
    const admin = await person();
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();
    /** Every listing Carla can browse, page after page. */
    const browsed = async () => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await carla.client.marketplace.browse.query({ sort: "newest", cursor });
        ids.push(...page.listings.map((listing) => listing.id));
        cursor = page.next;
      } while (cursor !== null);
      return ids;
    };
    expect(await browsed()).toContain(listingId);
    await admin.client.admin.setDisabled.mutate({ userId: ana.userId, disabled: true });
    expect(await browsed()).not.toContain(listingId);
    expect(await refusal(carla.client.marketplace.get.query({ listingId, teamId: null }))).toEqual({
      message: MESSAGES.marketplaceListingNotFound,
      code: "NOT_FOUND",
    });
    expect((await picture(carla, marketplacePicturePath(listingId, "cover"))).status).toBe(404);
    // Bruno installed it: his space's list leaves it out meanwhile (his copies stay).
    expect((await bruno.client.marketplace.installs.query({ teamId: null })).map((row) => row.listingId)).not.toContain(listingId);
    await admin.client.admin.setDisabled.mutate({ userId: ana.userId, disabled: false });
    // Disabling ended her sessions: she signs in again for the tests that follow.
    await ana.client.auth.signIn.mutate({ email: ana.email, password: PASSWORD });
    expect(await browsed()).toContain(listingId);
    expect((await picture(carla, marketplacePicturePath(listingId, "cover"))).status).toBe(200);
    expect((await bruno.client.marketplace.installs.query({ teamId: null })).map((row) => row.listingId)).toContain(listingId);
  });

  it("unpublishes for the author only; the listing and its pictures go, installed copies stay", async () => {
    const copies = (await bruno.client.styles.list.query({ teamId: null })).styles.length;
    expect(await ana.client.marketplace.unpublish.mutate({ listingId })).toEqual({ ok: true });
    expect(await refusal(bruno.client.marketplace.get.query({ listingId, teamId: null }))).toEqual({
      message: MESSAGES.marketplaceListingNotFound,
      code: "NOT_FOUND",
    });
    expect((await picture(bruno, marketplacePicturePath(listingId, "cover"))).status).toBe(404);
    expect((await picture(bruno, marketplacePicturePath(listingId, 1))).status).toBe(404);
    expect((await bruno.client.styles.list.query({ teamId: null })).styles).toHaveLength(copies);
    expect(await bruno.client.marketplace.installs.query({ teamId: null })).toEqual([]);
  });

  it("says paid styles are out of scope, and each refusal, in three languages", () => {
    for (const language of ["en", "es", "fr"] as const) {
      const texts = translations[language] as { marketplace: { paidOutOfScope: string }; serverMessages: Record<string, string> };
      expect(texts.marketplace.paidOutOfScope).toBeTruthy();
      for (const name of Object.keys(MESSAGES).filter((key) => /marketplace|MarketplaceListings/i.test(key))) {
        expect(texts.serverMessages[name], `${language} ${name}`).toBeTruthy();
      }
    }
    expect(translations.fr).not.toEqual(translations.es);
    expect(keyedMessage("stylePackNoRoom", { room: 1, count: 2 })).toContain("stylePackNoRoom");
  });
});
