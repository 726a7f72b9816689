/**
 * Styles of a space's own (issue 32, decision 100) on a real server, through tRPC and the reference
 * picture's route: each field's rule answered with its message (translated in Spanish and French);
 * 50 styles per space, counted in the insert's transaction (racing creations included); a team's styles
 * listed and resolved by any member, made, changed and deleted by its Owner and Admins only (403 for a
 * Member); a style of another space not found everywhere, the render module's resolve included; the
 * reference picture checked by its content, kept as a JPEG of at most 1024 pixels a side without
 * metadata, refused with its message (never a 500), removed; a deleted account's personal styles gone,
 * its team styles kept by the team.
 */
import { TRPCClientError } from "@trpc/client";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { CUSTOM_STYLES, customStyleReferencePath, type CustomStyleView } from "../../src/shared/custom-styles";
import { MESSAGES, readMessage, type MessageName } from "../../src/shared/messages";
import type { TeamRole } from "../../src/shared/teams";
import { DomainError } from "../../src/server/errors";
import type { AppRouter } from "../../src/server/trpc/root";
import { PASSWORD, signedInClient, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { databaseLane } from "../helpers/test-env";

const clock = new TestClock();
const SECOND = 1000;
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
  palette: ["#A0522D", "#f5f5dc"],
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

/** The first message of each field the server refused (error.data.zodError). */
async function fieldErrors(promise: Promise<unknown>): Promise<Record<string, string>> {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as TRPCClientError<AppRouter> | null;
  expect(error).toBeInstanceOf(TRPCClientError);
  expect(error!.data?.code).toBe("BAD_REQUEST");
  const fields = (error!.data as unknown as { zodError: { fieldErrors: Record<string, string[]> } }).zodError.fieldErrors;
  return Object.fromEntries(Object.entries(fields).map(([field, messages]) => [field, messages[0]!]));
}

/** A team whose Owner is `owner`, with these people added as Admin or Member. */
async function teamOf(owner: Person, others: { person: Person; role: Exclude<TeamRole, "owner"> }[] = []) {
  const team = await owner.client.teams.create.mutate({ name: `Studio ${Math.random().toString(36).slice(2, 8)}` });
  for (const { person: member, role } of others) {
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role, monthly_cap: null, joined_at: clock.now() })
      .execute();
  }
  return team;
}

/** The render module's call (through its port): the style, or the domain error it was refused with. */
async function resolved(owner: { userId: string; teamId: string | null }, styleId: string) {
  try {
    const { view, reference } = await server.services.styles.resolve(owner, styleId);
    return { view, reference };
  } catch (error) {
    if (error instanceof DomainError) return { refused: error.kind, message: error.message };
    throw error;
  }
}

/** PUT the bytes as a style's reference picture, as the browser does (its session cookie, same origin). */
async function putReference(who: Person, styleId: string, bytes: Buffer, contentType = "image/jpeg") {
  const response = await who.jar.fetch(`${server.url}${customStyleReferencePath(styleId)}`, {
    method: "PUT",
    headers: { "content-type": contentType, origin: server.url },
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Partial<CustomStyleView> & { error?: string } };
}

async function getReference(who: Person, styleId: string) {
  const response = await who.jar.fetch(`${server.url}${customStyleReferencePath(styleId)}`);
  const data = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get("content-type"), data };
}

/** A photo-like JPEG of the given size, with EXIF (an orientation and an owner) to be stripped. */
function photoWithExif(width: number, height: number, orientation = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#b8a98f" } })
    .composite([
      { input: { create: { width: Math.round(width / 3), height: Math.round(height / 3), channels: 3, background: "#6b6f76" } } },
    ])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .withExifMerge({ IFD0: { Artist: "Ana Lima", Copyright: "Ana Lima 2026" } })
    .toBuffer();
}

const serverText = (language: "es" | "fr", name: MessageName) =>
  (translations[language] as { serverMessages: Record<string, string> }).serverMessages[name];

describe("a custom style's fields", () => {
  it("refuses each broken rule with its message, keeps nothing, and each message has its Spanish and French text", async () => {
    const ana = await person();
    const cases: Array<[Record<string, unknown>, Record<string, MessageName>]> = [
      [{ name: " \n " }, { name: "customStyleNameRequired" }],
      [{ name: "N".repeat(CUSTOM_STYLES.nameMax + 1) }, { name: "customStyleNameTooLong" }],
      [{ description: "Too short" }, { description: "customStyleDescriptionTooShort" }],
      [{ description: "d".repeat(CUSTOM_STYLES.descriptionMax + 1) }, { description: "customStyleDescriptionTooLong" }],
      [{ avoid: "a".repeat(CUSTOM_STYLES.avoidMax + 1) }, { avoid: "customStyleAvoidTooLong" }],
      [{ palette: [] }, { palette: "customStylePaletteInvalid" }],
      [
        { palette: ["#111111", "#222222", "#333333", "#444444", "#555555", "#666666", "#777777"] },
        { palette: "customStylePaletteInvalid" },
      ],
      [{ palette: ["#fff"] }, { palette: "customStylePaletteInvalid" }],
      [{ palette: ["red"] }, { palette: "customStylePaletteInvalid" }],
      [{ palette: "#ffffff" }, { palette: "customStylePaletteInvalid" }],
      [{ tone: "pastel" }, { tone: "customStyleToneInvalid" }],
      [{ tone: undefined }, { tone: "customStyleToneInvalid" }],
    ];
    for (const [change, expected] of cases) {
      const input = { ...STYLE, ...change, teamId: null } as Parameters<typeof ana.client.styles.create.mutate>[0];
      expect(await fieldErrors(ana.client.styles.create.mutate(input)), JSON.stringify(change)).toEqual(
        Object.fromEntries(Object.entries(expected).map(([field, name]) => [field, MESSAGES[name]])),
      );
    }
    expect((await ana.client.styles.list.query({ teamId: null })).styles).toEqual([]);

    // Every refusal of this module is a message the client translates by its key, in both other languages.
    const names: MessageName[] = [
      "customStyleNotFound",
      "customStyleNameRequired",
      "customStyleNameTooLong",
      "customStyleDescriptionTooShort",
      "customStyleDescriptionTooLong",
      "customStyleAvoidTooLong",
      "customStylePaletteInvalid",
      "customStyleToneInvalid",
      "customStyleReferenceInvalid",
      "tooManyCustomStyles",
    ];
    for (const name of names) {
      expect(readMessage(MESSAGES[name])?.key).toBe(name);
      for (const language of ["es", "fr"] as const) {
        expect(serverText(language, name), `${language} ${name}`).toBeTruthy();
        expect(serverText(language, name)).not.toBe(MESSAGES[name]);
      }
    }
    expect(serverText("fr", "customStyleNameTooLong")).toBe("Le nom d'un style compte au plus 40 caractères");
    expect(serverText("es", "tooManyCustomStyles")).toMatch(/50/);
  });

  it("takes the limits themselves, makes each text one line, and keeps colours in lower case", async () => {
    const ana = await person();
    const edge = await ana.client.styles.create.mutate({
      name: ` ${"N".repeat(CUSTOM_STYLES.nameMax)} `,
      description: "d".repeat(CUSTOM_STYLES.descriptionMax),
      avoid: "a".repeat(CUSTOM_STYLES.avoidMax),
      palette: ["#111111", "#222222", "#333333", "#444444", "#555555", "#AbCdEf"],
      tone: "bold",
      teamId: null,
    });
    expect(edge).toMatchObject({
      name: "N".repeat(CUSTOM_STYLES.nameMax),
      description: "d".repeat(CUSTOM_STYLES.descriptionMax),
      avoid: "a".repeat(CUSTOM_STYLES.avoidMax),
      palette: ["#111111", "#222222", "#333333", "#444444", "#555555", "#abcdef"],
      tone: "bold",
    });
    const short = await ana.client.styles.create.mutate({
      name: "Two\nlines\t here",
      description: "Ten chars!",
      palette: ["#000000"],
      tone: "dark",
      teamId: null,
    });
    expect(short).toMatchObject({ name: "Two lines here", description: "Ten chars!", avoid: "", palette: ["#000000"] });
    // What is stored is what was answered.
    expect(await ana.client.styles.get.query({ id: short.id })).toEqual(short);
  });
});

describe("a personal space's styles", () => {
  it("are made, listed newest change first, read, changed and deleted by their keeper", async () => {
    const ana = await person();
    const first = await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
    expect(first).toMatchObject({
      name: "Warm loft",
      description: STYLE.description,
      avoid: STYLE.avoid,
      palette: ["#a0522d", "#f5f5dc"],
      tone: "warm",
      teamId: null,
      hasReference: false,
    });
    expect(first.id).toMatch(/^cs_[a-z0-9]{24}$/);
    expect(first.createdAt).toBe(clock.now());
    clock.advance(SECOND);
    const second = await ana.client.styles.create.mutate({ ...STYLE, name: "Cool studio", tone: "cool", teamId: null });
    expect((await ana.client.styles.list.query({ teamId: null })).styles.map((style) => style.id)).toEqual([second.id, first.id]);

    clock.advance(SECOND);
    const changed = await ana.client.styles.update.mutate({ id: first.id, ...STYLE, name: "Warmer loft", palette: ["#ff0000"] });
    expect(changed).toMatchObject({ name: "Warmer loft", palette: ["#ff0000"], createdAt: first.createdAt, updatedAt: clock.now() });
    expect(changed.updatedAt).toBeGreaterThan(first.updatedAt);
    expect(await ana.client.styles.get.query({ id: first.id })).toEqual(changed);
    expect((await ana.client.styles.list.query({ teamId: null })).styles.map((style) => style.id)).toEqual([first.id, second.id]);

    expect(await ana.client.styles.delete.mutate({ id: first.id })).toEqual({ ok: true });
    expect((await ana.client.styles.list.query({ teamId: null })).styles.map((style) => style.id)).toEqual([second.id]);
    expect(await refusal(ana.client.styles.get.query({ id: first.id }))).toEqual({
      message: MESSAGES.customStyleNotFound,
      code: "NOT_FOUND",
    });
    expect(await resolved({ userId: ana.userId, teamId: null }, first.id)).toEqual({
      refused: "not-found",
      message: MESSAGES.customStyleNotFound,
    });
    const { view, reference } = (await resolved({ userId: ana.userId, teamId: null }, second.id)) as {
      view: CustomStyleView;
      reference: null;
    };
    expect(view).toEqual(second);
    expect(reference).toBeNull();
  });

  it("are another user's business only: every call with their id answers NOT_FOUND, resolve included", async () => {
    const ana = await person();
    const bruno = await person();
    const style = await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
    await putReference(ana, style.id, await photoWithExif(400, 300, 1));
    const notFound = { message: MESSAGES.customStyleNotFound, code: "NOT_FOUND" };
    expect(await refusal(bruno.client.styles.get.query({ id: style.id }))).toEqual(notFound);
    expect(await refusal(bruno.client.styles.update.mutate({ id: style.id, ...STYLE, name: "Taken" }))).toEqual(notFound);
    expect(await refusal(bruno.client.styles.delete.mutate({ id: style.id }))).toEqual(notFound);
    expect(await refusal(bruno.client.styles.removeReference.mutate({ id: style.id }))).toEqual(notFound);
    expect(await putReference(bruno, style.id, await photoWithExif(400, 300, 1))).toEqual({
      status: 404,
      body: { error: MESSAGES.customStyleNotFound },
    });
    expect((await getReference(bruno, style.id)).status).toBe(404);
    expect((await bruno.client.styles.list.query({ teamId: null })).styles).toEqual([]);
    expect(await resolved({ userId: bruno.userId, teamId: null }, style.id)).toEqual({
      refused: "not-found",
      message: MESSAGES.customStyleNotFound,
    });
    // An id that is no style's at all answers the same; a malformed one is refused by the schema.
    const unknown = `cs_${"a".repeat(24)}`;
    expect(await refusal(ana.client.styles.get.query({ id: unknown }))).toEqual(notFound);
    expect(await resolved({ userId: ana.userId, teamId: null }, "scandinavian")).toEqual({
      refused: "not-found",
      message: MESSAGES.customStyleNotFound,
    });
    expect(await refusal(ana.client.styles.get.query({ id: "../etc" }))).toMatchObject({ code: "BAD_REQUEST" });
    // Nothing of Ana's changed.
    expect(await ana.client.styles.get.query({ id: style.id })).toEqual({ ...style, hasReference: true, updatedAt: clock.now() });
  });
});

describe("at most 50 styles per space", () => {
  it("refuses the 51st with CONFLICT and its message; another space has its own 50", async () => {
    const ana = await person();
    for (let n = 0; n < CUSTOM_STYLES.perSpaceMax; n++)
      await ana.client.styles.create.mutate({ ...STYLE, name: `Style ${n}`, teamId: null });
    expect(await refusal(ana.client.styles.create.mutate({ ...STYLE, teamId: null }))).toEqual({
      message: MESSAGES.tooManyCustomStyles,
      code: "CONFLICT",
    });
    expect((await ana.client.styles.list.query({ teamId: null })).styles).toHaveLength(CUSTOM_STYLES.perSpaceMax);
    const team = await teamOf(ana);
    expect(await ana.client.styles.create.mutate({ ...STYLE, teamId: team.id })).toMatchObject({ teamId: team.id });
    // One deleted makes room for one.
    const [newest] = (await ana.client.styles.list.query({ teamId: null })).styles;
    await ana.client.styles.delete.mutate({ id: newest!.id });
    await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
  });

  it("holds when creations race: ten at once with five places left make five", async () => {
    const ana = await person();
    const team = await teamOf(ana);
    for (let n = 0; n < CUSTOM_STYLES.perSpaceMax - 5; n++)
      await ana.client.styles.create.mutate({ ...STYLE, name: `S${n}`, teamId: team.id });
    // On PostgreSQL, the pool opens its connections first: racers that each waited for a new
    // connection would arrive one after the other, and the race would not be run (as in races.test.ts).
    if (databaseLane() === "postgres") {
      await Promise.all(Array.from({ length: 10 }, () => sql`SELECT pg_sleep(0.05)`.execute(server.deps.db)));
    }
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, n) =>
        server.services.styles.create(ana.userId, team.id, { ...STYLE, name: `Race ${n}`, palette: ["#123456"] }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(5);
    for (const outcome of outcomes.filter((o) => o.status === "rejected")) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ kind: "conflict", messageName: "tooManyCustomStyles" });
    }
    expect((await ana.client.styles.list.query({ teamId: team.id })).styles).toHaveLength(CUSTOM_STYLES.perSpaceMax);
  });
});

describe("a team's styles", () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let teamId: string;

  beforeAll(async () => {
    [owner, admin, member, outsider] = await Promise.all([person(), person(), person(), person()]);
    teamId = (
      await teamOf(owner, [
        { person: admin, role: "admin" },
        { person: member, role: "member" },
      ])
    ).id;
  });

  it("are made and changed by the Owner and Admins; a Member lists, reads and resolves them but changes nothing (403)", async () => {
    const style = await admin.client.styles.create.mutate({ ...STYLE, teamId });
    expect(style.teamId).toBe(teamId);
    const byOwner = await owner.client.styles.create.mutate({ ...STYLE, name: "Owner's", teamId });
    for (const who of [owner, admin, member]) {
      const shelf = await who.client.styles.list.query({ teamId });
      expect(shelf.styles.map((s) => s.id).sort()).toEqual([style.id, byOwner.id].sort());
      // What the page offers follows the role: a Member is told they may not change them.
      expect(shelf).toMatchObject({ teamId, canManage: who !== member });
      expect(await who.client.styles.get.query({ id: style.id })).toEqual(style);
    }
    // The team's styles are not anyone's personal ones.
    expect(await admin.client.styles.list.query({ teamId: null })).toEqual({ teamId: null, canManage: true, styles: [] });

    const forbidden = { message: MESSAGES.teamRightMissing, code: "FORBIDDEN" };
    expect(await refusal(member.client.styles.create.mutate({ ...STYLE, teamId }))).toEqual(forbidden);
    expect(await refusal(member.client.styles.update.mutate({ id: style.id, ...STYLE, name: "Mine now" }))).toEqual(forbidden);
    expect(await refusal(member.client.styles.delete.mutate({ id: style.id }))).toEqual(forbidden);
    expect(await refusal(member.client.styles.removeReference.mutate({ id: style.id }))).toEqual(forbidden);
    expect(await putReference(member, style.id, await photoWithExif(400, 300, 1))).toEqual({
      status: 403,
      body: { error: MESSAGES.teamRightMissing },
    });
    expect((await member.client.styles.list.query({ teamId })).styles.length).toBe(2);
    expect(await member.client.styles.get.query({ id: style.id })).toEqual(style);

    const resolvedByMember = (await resolved({ userId: member.userId, teamId }, style.id)) as { view: CustomStyleView };
    expect(resolvedByMember.view).toEqual(style);
    // Resolved only in the team's space: not in the member's personal one.
    expect(await resolved({ userId: member.userId, teamId: null }, style.id)).toEqual({
      refused: "not-found",
      message: MESSAGES.customStyleNotFound,
    });

    clock.advance(SECOND);
    const changed = await admin.client.styles.update.mutate({ id: byOwner.id, ...STYLE, name: "Admin's now" });
    expect(changed).toMatchObject({ name: "Admin's now", updatedAt: clock.now() });
    expect(await owner.client.styles.update.mutate({ id: style.id, ...STYLE, tone: "light" })).toMatchObject({ tone: "light" });
    await owner.client.styles.delete.mutate({ id: byOwner.id });
    expect((await member.client.styles.list.query({ teamId })).styles.map((s) => s.id)).toEqual([style.id]);

    // The team's log: who added, changed and deleted which style (a Member's refused attempts are not in it).
    const log = await owner.client.teams.activity.query({ teamId });
    expect(
      log
        .filter((entry) => entry.action.startsWith("style"))
        .map((entry) => [entry.action, entry.actorId, entry.details["name"]])
        .reverse(),
    ).toEqual([
      ["styleAdded", admin.userId, STYLE.name],
      ["styleAdded", owner.userId, "Owner's"],
      ["styleChanged", admin.userId, "Admin's now"],
      ["styleChanged", owner.userId, STYLE.name],
      ["styleRemoved", owner.userId, "Admin's now"],
    ]);
  });

  it("are not found by anyone outside the team, in every call and in resolve", async () => {
    const style = await owner.client.styles.create.mutate({ ...STYLE, name: "Secret", teamId });
    const notFound = { message: MESSAGES.customStyleNotFound, code: "NOT_FOUND" };
    expect(await refusal(outsider.client.styles.list.query({ teamId }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(outsider.client.styles.create.mutate({ ...STYLE, teamId }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(outsider.client.styles.get.query({ id: style.id }))).toEqual(notFound);
    expect(await refusal(outsider.client.styles.update.mutate({ id: style.id, ...STYLE }))).toEqual(notFound);
    expect(await refusal(outsider.client.styles.delete.mutate({ id: style.id }))).toEqual(notFound);
    expect(await refusal(outsider.client.styles.removeReference.mutate({ id: style.id }))).toEqual(notFound);
    expect((await putReference(outsider, style.id, await photoWithExif(400, 300, 1))).status).toBe(404);
    expect((await getReference(outsider, style.id)).status).toBe(404);
    const refused = { refused: "not-found", message: MESSAGES.customStyleNotFound };
    // Naming the team does not help a non-member; nor does their own space.
    expect(await resolved({ userId: outsider.userId, teamId }, style.id)).toEqual(refused);
    expect(await resolved({ userId: outsider.userId, teamId: null }, style.id)).toEqual(refused);
    // The team's Owner does not reach a personal style of a member through the team either.
    const personal = await member.client.styles.create.mutate({ ...STYLE, teamId: null });
    expect(await resolved({ userId: owner.userId, teamId }, personal.id)).toEqual(refused);
    expect(await resolved({ userId: member.userId, teamId }, personal.id)).toEqual(refused);
    expect(await refusal(owner.client.styles.get.query({ id: personal.id }))).toEqual(notFound);
  });
});

describe("the reference picture", () => {
  it("is kept as a JPEG at most 1024 pixels a side, upright, without EXIF; a PNG is taken too; removed on request", async () => {
    const ana = await person();
    const style = await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
    const photo = await photoWithExif(3000, 2000, 6);
    const input = await sharp(photo).metadata();
    expect(input).toMatchObject({ width: 3000, height: 2000, orientation: 6 });
    expect(input.exif).toBeDefined();

    clock.advance(SECOND);
    const put = await putReference(ana, style.id, photo);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: style.id, hasReference: true, updatedAt: clock.now() });
    const got = await getReference(ana, style.id);
    expect(got.status).toBe(200);
    expect(got.type).toBe("image/jpeg");
    const kept = await sharp(got.data).metadata();
    // Turned upright (orientation 6: a quarter turn), then scaled to fit 1024.
    expect(kept).toMatchObject({ format: "jpeg", width: 683, height: CUSTOM_STYLES.referenceLongEdge });
    expect(kept.exif).toBeUndefined();
    expect(kept.orientation).toBeUndefined();
    expect(kept.icc).toBeUndefined();
    const row = await server.deps.db
      .selectFrom("custom_styles")
      .select(["reference_width", "reference_height"])
      .where("id", "=", style.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ reference_width: 683, reference_height: 1024 });
    // The render module receives the same bytes.
    const { reference } = (await resolved({ userId: ana.userId, teamId: null }, style.id)) as { reference: Buffer };
    expect(reference.equals(got.data)).toBe(true);

    // A PNG (with transparency) is taken, kept as a JPEG, never enlarged.
    const png = await sharp({ create: { width: 800, height: 600, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } })
      .png()
      .toBuffer();
    expect((await putReference(ana, style.id, png, "image/png")).status).toBe(200);
    const fromPng = await sharp((await getReference(ana, style.id)).data).metadata();
    expect(fromPng).toMatchObject({ format: "jpeg", width: 800, height: 600 });

    clock.advance(SECOND);
    const removed = await ana.client.styles.removeReference.mutate({ id: style.id });
    expect(removed).toMatchObject({ hasReference: false, updatedAt: clock.now() });
    expect((await getReference(ana, style.id)).status).toBe(404);
    expect(await resolved({ userId: ana.userId, teamId: null }, style.id)).toMatchObject({ reference: null });
    const cleared = await server.deps.db
      .selectFrom("custom_styles")
      .select("reference")
      .where("id", "=", style.id)
      .executeTakeFirstOrThrow();
    expect(cleared.reference).toBeNull();
  });

  it("refuses what is not a JPEG or PNG photo of at most 10 MB with its message, never a 500, and keeps the one it had", async () => {
    const ana = await person();
    const style = await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
    expect((await putReference(ana, style.id, await photoWithExif(640, 480, 1))).status).toBe(200);
    const before = (await getReference(ana, style.id)).data;

    const gif = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff0000" } })
      .gif()
      .toBuffer();
    expect(gif.subarray(0, 3).toString("latin1")).toBe("GIF");
    const webp = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#00ff00" } })
      .webp()
      .toBuffer();
    const jpeg = await photoWithExif(640, 480, 1);
    const refusals: Array<[string, Buffer, string, number]> = [
      ["a text file", Buffer.from("This is not a picture at all.\n"), "text/plain", 400],
      ["a GIF", gif, "image/gif", 400],
      ["a WebP", webp, "image/webp", 400],
      ["a JPEG's first bytes only", jpeg.subarray(0, 2000), "image/jpeg", 400],
      ["a JPEG's magic before text", Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from("not really")]), "image/jpeg", 400],
      ["an empty body", Buffer.alloc(0), "image/jpeg", 400],
      ["a file over 10 MB", Buffer.concat([jpeg, Buffer.alloc(CUSTOM_STYLES.referenceMaxBytes)]), "image/jpeg", 413],
    ];
    for (const [what, bytes, type, status] of refusals) {
      expect(await putReference(ana, style.id, bytes, type), what).toEqual({
        status,
        body: { error: MESSAGES.customStyleReferenceInvalid },
      });
    }
    // Decoded, a small file may be huge: sharp's pixel limit refuses it.
    const huge = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "#ffffff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(huge.length).toBeLessThan(CUSTOM_STYLES.referenceMaxBytes);
    expect(await putReference(ana, style.id, huge, "image/png")).toEqual({
      status: 400,
      body: { error: MESSAGES.customStyleReferenceInvalid },
    });

    // Over the limit without saying so (chunked, no Content-Length): cut while it is read, the same answer.
    const chunks = [jpeg, Buffer.alloc(CUSTOM_STYLES.referenceMaxBytes)];
    const chunked = await ana.jar.fetch(`${server.url}${customStyleReferencePath(style.id)}`, {
      method: "PUT",
      headers: { "content-type": "image/jpeg", origin: server.url },
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(new Uint8Array(next));
          else controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: MESSAGES.customStyleReferenceInvalid });
    // From another site's page (the browser's Origin): refused by the CSRF check before anything is read.
    const crossSite = await ana.jar.fetch(`${server.url}${customStyleReferencePath(style.id)}`, {
      method: "PUT",
      headers: { "content-type": "image/jpeg", origin: "https://evil.example" },
      body: new Uint8Array(jpeg),
    });
    expect(crossSite.status).toBe(403);

    expect((await getReference(ana, style.id)).data.equals(before)).toBe(true);
    expect(await ana.client.styles.get.query({ id: style.id })).toMatchObject({ hasReference: true });
    // Signed out: 401, before any body is read.
    const visitor = await fetch(`${server.url}${customStyleReferencePath(style.id)}`, {
      method: "PUT",
      headers: { "content-type": "image/jpeg", origin: server.url },
      body: new Uint8Array(jpeg),
    });
    expect(visitor.status).toBe(401);
    expect((await fetch(`${server.url}${customStyleReferencePath(style.id)}`)).status).toBe(401);
  });
});

describe("when a team is deleted", () => {
  it("its styles go with it", async () => {
    const owner = await person();
    const team = await teamOf(owner);
    const style = await owner.client.styles.create.mutate({ ...STYLE, teamId: team.id });
    const personal = await owner.client.styles.create.mutate({ ...STYLE, teamId: null });
    await owner.client.teams.delete.mutate({ teamId: team.id });
    const left = await server.deps.db.selectFrom("custom_styles").select("id").where("id", "in", [style.id, personal.id]).execute();
    expect(left).toEqual([{ id: personal.id }]);
  });
});

describe("when an account is deleted", () => {
  it("its personal styles go with it; the team styles it made stay the team's", async () => {
    const owner = await person();
    const leaver = await person();
    const team = await teamOf(owner, [{ person: leaver, role: "admin" }]);
    const personal = await leaver.client.styles.create.mutate({ ...STYLE, teamId: null });
    await putReference(leaver, personal.id, await photoWithExif(400, 300, 1));
    const forTeam = await leaver.client.styles.create.mutate({ ...STYLE, name: "Team look", teamId: team.id });

    await leaver.client.account.deleteAccount.mutate({ confirmEmail: leaver.email, password: PASSWORD });

    const left = await server.deps.db.selectFrom("custom_styles").select(["id", "user_id", "created_by"]).execute();
    expect(left.find((row) => row.id === personal.id)).toBeUndefined();
    expect(left.filter((row) => row.user_id === leaver.userId)).toEqual([]);
    expect(left.find((row) => row.id === forTeam.id)).toEqual({ id: forTeam.id, user_id: null, created_by: null });
    expect((await owner.client.styles.list.query({ teamId: team.id })).styles.map((style) => style.id)).toEqual([forTeam.id]);
  });
});
