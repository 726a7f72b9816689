/**
 * Style packs (issue 32, decision 104) on a real server, through GET/POST /api/styles/pack: a space's
 * styles exported as a zip another zip reader (fflate) reads as documented, imported into another
 * space with their fields and pictures, all or nothing within the space's 50, by those with the right
 * manageStyles only. Hostile files built here are refused with their message, never a 500, nothing
 * kept: a gigabyte of zeros (declared honestly, and hidden behind a 10 MB declaration), paths out of
 * the pack, a "picture" that is text, 10,000 entries, a total over the limit, lying sizes and CRCs;
 * and the server's memory stays within a bound while the bomb is refused.
 */
import { unzipSync, zipSync, strToU8 } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { CUSTOM_STYLES, customStyleReferencePath, type CustomStyleView } from "../../src/shared/custom-styles";
import { MESSAGES, keyedMessage, type MessageName } from "../../src/shared/messages";
import { STYLE_PACKS, stylePackPath } from "../../src/shared/style-packs";
import { signedInClient, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { deflated, rawZip, stored, zerosDeflated, type RawEntry } from "../helpers/zip-files";

const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", RENDER_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
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

const photo = (width: number, height: number, colour = "#b8a98f") =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg({ quality: 90 })
    .withExifMerge({ IFD0: { Artist: "Ana Lima" } })
    .toBuffer();

async function exportPack(who: Person, query = "") {
  const response = await who.jar.fetch(`${server.url}${stylePackPath}${query}`);
  return { status: response.status, headers: response.headers, data: Buffer.from(await response.arrayBuffer()) };
}

async function importPack(who: Person, pack: Buffer, teamId?: string) {
  const response = await who.jar.fetch(`${server.url}${stylePackPath}${teamId ? `?teamId=${teamId}` : ""}`, {
    method: "POST",
    headers: { "content-type": "application/zip", origin: server.url },
    body: new Uint8Array(pack),
  });
  const body = (await response.json()) as { styles?: CustomStyleView[]; error?: string };
  return { status: response.status, body };
}

const manifest = (styles: unknown[], extra: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ format: STYLE_PACKS.format, version: STYLE_PACKS.version, styles, ...extra }));

const refused = (name: MessageName, params?: Record<string, number>) => ({ error: params ? keyedMessage(name, params) : MESSAGES[name] });

const styleCount = async (who: Person) => (await who.client.styles.list.query({ teamId: null })).styles.length;

describe("exporting a space's styles", () => {
  it("writes a zip of manifest.json and the pictures, read by another zip reader as documented; imported elsewhere, the styles are the same", async () => {
    const ana = await person();
    // Exported in the order they were made.
    const first = await ana.client.styles.create.mutate({ ...STYLE, teamId: null });
    clock.advance(1000);
    const second = await ana.client.styles.create.mutate({ ...STYLE, name: "Cool studio", tone: "cool", avoid: "", teamId: null });
    clock.advance(1000);
    const third = await ana.client.styles.create.mutate({ ...STYLE, name: "Nordic", palette: ["#ffffff"], tone: "light", teamId: null });
    for (const [style, size] of [
      [first, [3000, 2000]],
      [third, [600, 800]],
    ] as const) {
      const put = await ana.jar.fetch(`${server.url}${customStyleReferencePath(style.id)}`, {
        method: "PUT",
        headers: { "content-type": "image/jpeg", origin: server.url },
        body: new Uint8Array(await photo(size[0], size[1])),
      });
      expect(put.status).toBe(200);
    }

    const all = await exportPack(ana);
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("application/zip");
    expect(all.headers.get("content-disposition")).toMatch(/^attachment; filename="?styles\.roomcanvas-pack\.zip"?$/);
    const files = unzipSync(new Uint8Array(all.data));
    expect(Object.keys(files).sort()).toEqual(["manifest.json", "pictures/1.jpg", "pictures/3.jpg"]);
    const written = JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8")) as { styles: Array<Record<string, unknown>> };
    expect(written).toEqual({
      format: "roomcanvas-style-pack",
      version: 1,
      styles: [
        { ...STYLE, reference: "pictures/1.jpg" },
        { ...STYLE, name: "Cool studio", tone: "cool", avoid: "", reference: null },
        { ...STYLE, name: "Nordic", palette: ["#ffffff"], tone: "light", reference: "pictures/3.jpg" },
      ],
    });
    // The pictures are the kept reference pictures: JPEGs of at most 1024 px, without metadata.
    expect(await sharp(Buffer.from(files["pictures/1.jpg"]!)).metadata()).toMatchObject({ format: "jpeg", width: 1024, height: 683 });
    expect((await sharp(Buffer.from(files["pictures/1.jpg"]!)).metadata()).exif).toBeUndefined();

    // Only the styles named, in the order they were made.
    const some = await exportPack(ana, `?ids=${third.id},${second.id}`);
    const someFiles = unzipSync(new Uint8Array(some.data));
    const someManifest = JSON.parse(Buffer.from(someFiles["manifest.json"]!).toString("utf8")) as { styles: Array<{ name: string }> };
    expect(someManifest.styles.map((style) => style.name)).toEqual(["Cool studio", "Nordic"]);
    expect(Object.keys(someFiles).sort()).toEqual(["manifest.json", "pictures/2.jpg"]);

    // Imported by Bruno: new styles of his own, the same fields, the pictures kept.
    const bruno = await person();
    const imported = await importPack(bruno, all.data);
    expect(imported.status).toBe(200);
    const styles = imported.body.styles!;
    expect(
      styles.map(({ name, description, avoid, palette, tone, hasReference, teamId }) => ({
        name,
        description,
        avoid,
        palette,
        tone,
        hasReference,
        teamId,
      })),
    ).toEqual([
      { ...STYLE, hasReference: true, teamId: null },
      { ...STYLE, name: "Cool studio", tone: "cool", avoid: "", hasReference: false, teamId: null },
      { ...STYLE, name: "Nordic", palette: ["#ffffff"], tone: "light", hasReference: true, teamId: null },
    ]);
    expect(new Set(styles.map((style) => style.id)).size).toBe(3);
    for (const style of styles) expect([first.id, second.id, third.id]).not.toContain(style.id);
    expect(await styleCount(bruno)).toBe(3);
    const picture = await bruno.jar.fetch(`${server.url}${customStyleReferencePath(styles[2]!.id)}`);
    expect(await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 600, height: 800 });

    // A style id of another space is not found; a visitor is asked to sign in.
    expect((await exportPack(bruno, `?ids=${first.id}`)).status).toBe(404);
    expect((await fetch(`${server.url}${stylePackPath}`)).status).toBe(401);
  });

  it("lets any team member export, and only the Owner and Admins import into the team (403 for a Member, 404 outside)", async () => {
    const [owner, member, outsider] = await Promise.all([person(), person(), person()]);
    const team = await owner.client.teams.create.mutate({ name: `Studio ${Math.random().toString(36).slice(2, 8)}` });
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", monthly_cap: null, joined_at: clock.now() })
      .execute();
    await owner.client.styles.create.mutate({ ...STYLE, teamId: team.id });
    const pack = await exportPack(member, `?teamId=${team.id}`);
    expect(pack.status).toBe(200);
    expect((await exportPack(outsider, `?teamId=${team.id}`)).status).toBe(404);

    expect(await importPack(member, pack.data, team.id)).toEqual({ status: 403, body: refused("teamRightMissing") });
    expect(await importPack(outsider, pack.data, team.id)).toMatchObject({ status: 404 });
    const done = await importPack(owner, pack.data, team.id);
    expect(done.status).toBe(200);
    expect(done.body.styles!.map((style) => style.teamId)).toEqual([team.id]);
    expect((await owner.client.styles.list.query({ teamId: team.id })).styles).toHaveLength(2);
  });

  it("imports all or nothing within the space's 50", async () => {
    const ana = await person();
    const pack = rawZip([deflated("manifest.json", manifest([STYLE, { ...STYLE, name: "Second" }]))]);
    for (let n = 0; n < CUSTOM_STYLES.perSpaceMax - 1; n++)
      await ana.client.styles.create.mutate({ ...STYLE, name: `S${n}`, teamId: null });
    expect(await importPack(ana, pack)).toEqual({ status: 409, body: refused("stylePackNoRoom", { room: 1, count: 2 }) });
    expect(await styleCount(ana)).toBe(CUSTOM_STYLES.perSpaceMax - 1);
    const [newest] = (await ana.client.styles.list.query({ teamId: null })).styles;
    await ana.client.styles.delete.mutate({ id: newest!.id });
    expect((await importPack(ana, pack)).status).toBe(200);
    expect(await styleCount(ana)).toBe(CUSTOM_STYLES.perSpaceMax);
  });
});

describe("a hostile or broken pack", () => {
  let ana: Person;
  let jpeg: Buffer;
  beforeAll(async () => {
    ana = await person();
    jpeg = await photo(320, 240);
  });

  const withPicture = (name = "pictures/1.jpg") => manifest([{ ...STYLE, reference: name }]);

  it("is refused with the message of its reason (400, 413 for sizes), never a 500, and nothing is kept", async () => {
    const tenThousand = zipSync(Object.fromEntries(Array.from({ length: 10_000 }, (_, n) => [`pictures/${n}.jpg`, new Uint8Array(0)])), {
      level: 0,
    });
    const text = Buffer.from("This is not a picture at all, only words in a file named .jpg\n");
    const tenMiBOfZeros = await zerosDeflated(10);
    const tooMuch: RawEntry[] = Array.from({ length: 7 }, (_, n) => ({
      name: `pictures/${n + 1}.jpg`,
      ...tenMiBOfZeros,
      method: 8,
    }));
    const lyingCrc = { ...stored("pictures/1.jpg", jpeg), crc: 12345 };
    const cases: Array<[string, Buffer, number, ReturnType<typeof refused>]> = [
      ["a text file", Buffer.from("name,description\nWarm,brick\n"), 400, refused("stylePackUnreadable")],
      ["an empty body", Buffer.alloc(0), 400, refused("stylePackUnreadable")],
      ["a zip without a manifest", rawZip([stored("pictures/1.jpg", jpeg)]), 400, refused("stylePackUnreadable")],
      ["a manifest that is not JSON", rawZip([deflated("manifest.json", Buffer.from("{styles: ["))]), 400, refused("stylePackUnreadable")],
      ["another format", rawZip([deflated("manifest.json", manifest([STYLE], { format: "other" }))]), 400, refused("stylePackUnreadable")],
      ["a newer version", rawZip([deflated("manifest.json", manifest([STYLE], { version: 2 }))]), 400, refused("stylePackUnreadable")],
      ["no styles", rawZip([deflated("manifest.json", manifest([]))]), 400, refused("stylePackEmpty")],
      [
        "a style breaking a rule (seven colours)",
        rawZip([deflated("manifest.json", manifest([STYLE, { ...STYLE, palette: Array(7).fill("#000000") }]))]),
        400,
        refused("stylePackStyleInvalid", { number: 2 }),
      ],
      [
        "a path up and out (../)",
        rawZip([deflated("manifest.json", withPicture()), stored("pictures/1.jpg", jpeg), stored("../../evil.jpg", jpeg)]),
        400,
        refused("stylePackPathRefused"),
      ],
      [
        "an absolute path",
        rawZip([deflated("manifest.json", withPicture()), stored("/etc/cron.d/x", text)]),
        400,
        refused("stylePackPathRefused"),
      ],
      [
        "a backslash path",
        rawZip([deflated("manifest.json", withPicture("pictures/1.jpg")), stored("pictures\\1.jpg", jpeg)]),
        400,
        refused("stylePackPathRefused"),
      ],
      [
        "a manifest naming a picture outside the pack",
        rawZip([deflated("manifest.json", withPicture("../secret.jpg")), stored("pictures/1.jpg", jpeg)]),
        400,
        refused("stylePackPathRefused"),
      ],
      [
        "a file the manifest does not name",
        rawZip([deflated("manifest.json", withPicture()), stored("pictures/1.jpg", jpeg), stored("pictures/2.jpg", jpeg)]),
        400,
        refused("stylePackPathRefused"),
      ],
      [
        "one name twice",
        rawZip([deflated("manifest.json", withPicture()), stored("pictures/1.jpg", jpeg), stored("pictures/1.jpg", text)]),
        400,
        refused("stylePackPathRefused"),
      ],
      [
        "a picture the manifest names but the pack lacks",
        rawZip([deflated("manifest.json", withPicture())]),
        400,
        refused("stylePackUnreadable"),
      ],
      [
        'a "picture" that is text',
        rawZip([deflated("manifest.json", withPicture()), stored("pictures/1.jpg", text)]),
        400,
        refused("stylePackPictureInvalid", { number: 1 }),
      ],
      [
        "a JPEG cut short",
        rawZip([deflated("manifest.json", withPicture()), stored("pictures/1.jpg", jpeg.subarray(0, 600))]),
        400,
        refused("stylePackPictureInvalid", { number: 1 }),
      ],
      ["10,000 entries", Buffer.from(tenThousand), 400, refused("stylePackTooManyEntries")],
      [
        "more styles than a space may keep",
        rawZip([deflated("manifest.json", manifest(Array.from({ length: 51 }, (_, n) => ({ ...STYLE, name: `S${n}` }))))]),
        400,
        refused("stylePackTooManyEntries"),
      ],
      [
        "seven pictures of 10 MB (70 MB unpacked, declared honestly)",
        rawZip([deflated("manifest.json", manifest(tooMuch.map((entry) => ({ ...STYLE, reference: entry.name })))), ...tooMuch]),
        413,
        refused("stylePackTooLargeUnpacked"),
      ],
      ["a wrong CRC", rawZip([deflated("manifest.json", withPicture()), lyingCrc]), 400, refused("stylePackUnreadable")],
      [
        "an encrypted entry",
        rawZip([deflated("manifest.json", withPicture()), { ...stored("pictures/1.jpg", jpeg), flags: 1 }]),
        400,
        refused("stylePackUnreadable"),
      ],
      [
        "a stored entry longer than it declares",
        rawZip([deflated("manifest.json", withPicture()), { ...stored("pictures/1.jpg", jpeg), size: 100 }]),
        400,
        refused("stylePackUnreadable"),
      ],
    ];
    for (const [what, pack, status, body] of cases) {
      expect(await importPack(ana, pack), what).toEqual({ status, body });
    }
    expect(await styleCount(ana)).toBe(0);
  });

  it("refuses a gigabyte of zeros declared as such before unpacking it, and one hidden behind a 10 MB declaration after 10 MB, with memory bounded", async () => {
    const gigabyte = await zerosDeflated(1024);
    expect(gigabyte.packed.length).toBeLessThan(2 * 1024 * 1024);
    const bomb = (declared: number) =>
      rawZip([
        deflated("manifest.json", withPicture()),
        { name: "pictures/1.jpg", packed: gigabyte.packed, method: 8, crc: gigabyte.crc, size: declared },
      ]);
    const honest = bomb(gigabyte.size);
    const hidden = bomb(STYLE_PACKS.pictureMaxBytes);

    expect(await importPack(ana, honest)).toEqual({ status: 413, body: refused("stylePackTooLargeUnpacked") });

    // The server runs in this process: its memory is this process's. Sampled while the request runs.
    const before = process.memoryUsage();
    let peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = { rss: Math.max(peak.rss, now.rss), arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers) };
    }, 2);
    const started = performance.now();
    let outcome: Awaited<ReturnType<typeof importPack>>;
    try {
      outcome = await importPack(ana, hidden);
    } finally {
      clearInterval(sampler);
    }
    const elapsed = performance.now() - started;
    const after = process.memoryUsage();
    expect(outcome).toEqual({ status: 413, body: refused("stylePackTooLargeUnpacked") });
    const MB = 1024 * 1024;
    const growth = {
      peakRss: (Math.max(peak.rss, after.rss) - before.rss) / MB,
      peakArrayBuffers: (Math.max(peak.arrayBuffers, after.arrayBuffers) - before.arrayBuffers) / MB,
      ms: elapsed,
    };
    console.info(`zip bomb (1 GiB of zeros in ${(hidden.length / MB).toFixed(2)} MB) refused: ${JSON.stringify(growth)}`);
    // Unpacked whole, it would hold 1024 MB; the reader stops after 10 MB (one 16 KB chunk over).
    expect(growth.peakArrayBuffers).toBeLessThan(100);
    expect(growth.peakRss).toBeLessThan(100);
    expect(await styleCount(ana)).toBe(0);
  });

  it("refuses a file over 32 MB with 413 before reading it, and says each reason in Spanish and French", async () => {
    const big = Buffer.alloc(STYLE_PACKS.maxBytes + 1);
    expect(await importPack(ana, big)).toEqual({ status: 413, body: refused("stylePackTooLarge") });
    // From another site's page: refused by the CSRF check.
    const crossSite = await ana.jar.fetch(`${server.url}${stylePackPath}`, {
      method: "POST",
      headers: { "content-type": "application/zip", origin: "https://evil.example" },
      body: new Uint8Array(rawZip([deflated("manifest.json", manifest([STYLE]))])),
    });
    expect(crossSite.status).toBe(403);
    const visitor = await fetch(`${server.url}${stylePackPath}`, {
      method: "POST",
      headers: { "content-type": "application/zip", origin: server.url },
      body: new Uint8Array(rawZip([deflated("manifest.json", manifest([STYLE]))])),
    });
    expect(visitor.status).toBe(401);

    const names = Object.keys(MESSAGES).filter((name) => name.startsWith("stylePack")) as MessageName[];
    expect(names).toHaveLength(9);
    for (const name of names) {
      for (const language of ["es", "fr"] as const) {
        const text = (translations[language] as { serverMessages: Record<string, string> }).serverMessages[name];
        expect(text, `${language} ${name}`).toBeTruthy();
        expect(text).not.toBe(MESSAGES[name]);
        // The same parameters as the English text.
        expect(text!.match(/\{\{\w+\}\}/g)?.sort()).toEqual(MESSAGES[name].match(/\{\{\w+\}\}/g)?.sort());
      }
    }
    expect(await styleCount(ana)).toBe(0);
  });
});

// A pack written by hand with another zip tool (fflate, deflated) is read as well as our own.
describe("a pack made by another tool", () => {
  it("is imported", async () => {
    const ana = await person();
    const jpeg = await photo(200, 100, "#224466");
    const pack = zipSync({
      "manifest.json": strToU8(
        JSON.stringify({ format: STYLE_PACKS.format, version: 1, styles: [{ ...STYLE, reference: "pictures/a.jpg" }] }),
      ),
      "pictures/a.jpg": new Uint8Array(jpeg),
    });
    const done = await importPack(ana, Buffer.from(pack));
    expect(done.status).toBe(200);
    expect(done.body.styles).toHaveLength(1);
    expect(done.body.styles![0]).toMatchObject({ name: STYLE.name, hasReference: true });
  });
});
