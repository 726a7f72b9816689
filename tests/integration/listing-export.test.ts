/**
 * Export for listing over real HTTP on a real SQLite file: the picture with its disclosure banner
 * (text really drawn) and a QR code that decodes to the public page; the page and its two pictures
 * signed out, without cookies or scripts; the XMP description (DigitalSourceType only for AI
 * engines, checked with a fake ComfyUI); revoking; deleted renders and projects; owners only;
 * visitors and bad disclosures refused; and a project's zip with its manifest. Issue 27: the band
 * below the room (the room's pixels untouched), a printable QR code with its quiet zone measured in
 * the output, any aspect ratio and tiny old renders, the XMP in the names users see, the public link
 * never from a forged Host header, and a manifest a spreadsheet cannot run.
 */
import http from "node:http";
import { strFromU8, unzipSync } from "fflate";
import jsQR from "jsqr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { DIGITAL_SOURCE_TYPE_EDITED_WITH_AI } from "../../src/server/images/provenance";
import { csvField, manifestCsv } from "../../src/server/listing/archive";
import { listingLayout, QR_MIN_PX, QR_QUIET_MODULES, qrCodeOf } from "../../src/server/listing/picture";
import { UPLOAD, UPLOAD_BUCKET } from "../../src/shared/constants";
import { LISTING } from "../../src/shared/listing";
import { MESSAGES } from "../../src/shared/messages";
import type { RenderMode } from "../../src/shared/render";
import type { DesignStyle } from "../../src/shared/styles";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { createStudioClient, roomPhoto, signedInClient, upload, waitForRenders, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";

type User = Awaited<ReturnType<typeof signedInClient>>;

/** A finished render of the user's, from a photo of this size. */
async function finishedRender(
  server: TestServer,
  user: StudioClient,
  options: { width?: number; height?: number; renderMode?: RenderMode; projectId?: string; style?: DesignStyle } = {},
) {
  const uploaded = await upload(
    server.url,
    user.jar,
    await roomPhoto(options.width ?? 1600, options.height ?? 1200),
    options.projectId ? { projectId: options.projectId } : {},
  );
  expect(uploaded.status).toBe(201);
  const { jobs } = await user.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: options.style ?? "japandi",
    renderMode: options.renderMode,
  });
  await waitForRenders(user, [jobs[0]!.id]);
  return { jobId: jobs[0]!.id, projectId: uploaded.body.projectId };
}

/** The QR code in the picture, decoded from its RGBA pixels (enlarged first when its modules are a single pixel). */
async function decodeQr(picture: Buffer): Promise<string | null> {
  for (const factor of [1, 4]) {
    const { width } = await sharp(picture).metadata();
    const { data, info } = await sharp(picture)
      .resize({ width: width! * factor, kernel: "nearest" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    if (code) return code.data;
  }
  return null;
}

/** The QR code as a decoder finds it in the output's pixels: its text, and its bounds in pixels. */
async function findQr(picture: Buffer) {
  const { data, info } = await sharp(picture).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  if (!code) return null;
  const { topLeftCorner: tl, topRightCorner: tr, bottomLeftCorner: bl, bottomRightCorner: br } = code.location;
  const left = Math.min(tl.x, bl.x);
  const right = Math.max(tr.x, br.x);
  const top = Math.min(tl.y, tr.y);
  const bottom = Math.max(bl.y, br.y);
  const modules = 17 + 4 * code.version;
  return { text: code.data, left, top, width: right - left, height: bottom - top, modules, module: (right - left) / modules };
}

/**
 * The QR code is printable: at least QR_MIN_PX (1.5 cm at 300 dpi) a side, wholly below the room,
 * inside a light quiet zone of QR_QUIET_MODULES modules on every side (measured in the output's pixels).
 */
async function expectPrintableQr(picture: Buffer, url: string, roomBottom: number) {
  const qr = await findQr(picture);
  expect(qr?.text).toBe(url);
  expect(qr!.width).toBeGreaterThanOrEqual(QR_MIN_PX - 1);
  expect(qr!.height).toBeGreaterThanOrEqual(QR_MIN_PX - 1);
  const quiet = Math.floor(QR_QUIET_MODULES * qr!.module);
  const { width, height } = (await sharp(picture).metadata()) as { width: number; height: number };
  const zone = {
    left: Math.round(qr!.left) - quiet + 1,
    top: Math.round(qr!.top) - quiet + 1,
    right: Math.round(qr!.left + qr!.width) + quiet - 1,
    bottom: Math.round(qr!.top + qr!.height) + quiet - 1,
  };
  expect(zone.left).toBeGreaterThanOrEqual(0);
  expect(zone.right).toBeLessThanOrEqual(width);
  expect(zone.bottom).toBeLessThanOrEqual(height);
  expect(zone.top).toBeGreaterThanOrEqual(roomBottom);
  const { data, info } = await sharp(picture).greyscale().raw().toBuffer({ resolveWithObject: true });
  const inCode = (x: number, y: number) =>
    x >= qr!.left - 2 && x <= qr!.left + qr!.width + 2 && y >= qr!.top - 2 && y <= qr!.top + qr!.height + 2;
  let darkest = 255;
  for (let y = zone.top; y < zone.bottom; y++)
    for (let x = zone.left; x < zone.right; x++) if (!inCode(x, y)) darkest = Math.min(darkest, data[y * info.width + x]!);
  // JPEG keeps a light zone light (a few levels of ringing next to the modules at most).
  expect(darkest).toBeGreaterThan(200);
  return qr!;
}

/** The render as stored (the picture the export was made from). */
async function sourceRender(server: TestServer, jobId: string): Promise<Buffer> {
  const job = await server.deps.db
    .selectFrom("render_jobs")
    .select(["result_key", "upscaled_key"])
    .where("id", "=", jobId)
    .executeTakeFirstOrThrow();
  return (await server.deps.storage.get(UPLOAD_BUCKET, (job.upscaled_key ?? job.result_key)!))!.data;
}

/**
 * The room in the export is the render, row for row: the largest mean difference of a row (JPEG at
 * quality 90 moves a few levels; a band over the room moves its rows by a hundred).
 */
async function roomRowDifference(picture: Buffer, source: Buffer, room: { left: number; top: number; width: number; height: number }) {
  const exported = await sharp(picture).extract(room).removeAlpha().raw().toBuffer();
  const original = await sharp(source).flatten({ background: "#ffffff" }).toColourspace("srgb").removeAlpha().raw().toBuffer();
  expect(exported.length).toBe(original.length);
  const rowBytes = room.width * 3;
  let worst = 0;
  for (let y = 0; y < room.height; y++) {
    let sum = 0;
    for (let i = y * rowBytes; i < (y + 1) * rowBytes; i++) sum += Math.abs(exported[i]! - original[i]!);
    worst = Math.max(worst, sum / rowBytes);
  }
  return worst;
}

/** The description of the XMP packet (dc:description's x-default entry), its XML entities decoded. */
function xmpDescription(picture: { xmp?: Buffer }): string {
  const xmp = picture.xmp?.toString("utf8") ?? "";
  expect(xmp).toMatch(/^<\?xpacket begin=/);
  const entry = /<dc:description><rdf:Alt><rdf:li xml:lang="x-default">([^<]*)<\/rdf:li><\/rdf:Alt><\/dc:description>/.exec(xmp);
  expect(entry, xmp).not.toBeNull();
  return entry![1]!
    .replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** Luminance statistics of a region: how dark it is on average and what share of it is bright (drawn text). */
async function region(picture: Buffer, area: { left: number; top: number; width: number; height: number }) {
  const { data } = await sharp(picture).extract(area).greyscale().raw().toBuffer({ resolveWithObject: true });
  const values = [...data];
  return {
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
    brightShare: values.filter((v) => v > 200).length / values.length,
  };
}

async function get(url: string, jar?: StudioClient["jar"]) {
  const response = jar ? await jar.fetch(url) : await fetch(url);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe("listing export with the Preview engine", () => {
  let server: TestServer;
  let owner: User;
  let render: { jobId: string; projectId: string };

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    owner = await signedInClient(server.url);
    render = await finishedRender(server, owner, { width: 2400, height: 1800 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("burns the disclosure and a QR code of the public page into the picture, with an XMP description and no AI claim", async () => {
    const made = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "en" });
    expect(made.disclosure).toBe("Digitally altered");
    expect(made.publicUrl).toMatch(new RegExp(`^${server.url}/l/[A-Za-z0-9_-]{${LISTING.codeLength}}$`));

    const { response, body } = await get(`${server.url}${made.downloadUrl}`, owner.jar);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="?roomcanvas-listing-japandi-[a-f0-9]{8}\.jpg"?$/);

    const job = await owner.client.render.job.query({ id: render.jobId });
    const metadata = await sharp(body).metadata();
    // The band goes below the room: as wide as the render, taller by the band (the QR code's box).
    const layout = listingLayout(job.resultWidth!, job.resultHeight!, qrCodeOf(made.publicUrl).modules.size);
    expect(layout.width).toBe(job.resultWidth);
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", job.resultWidth, job.resultHeight! + layout.band.height]);
    expect([made.width, made.height]).toEqual([metadata.width, metadata.height]);

    // The room is the render, untouched to its last row; the code is printable, with its quiet zone, below it.
    expect(await roomRowDifference(body, await sourceRender(server, render.jobId), layout.room)).toBeLessThan(6);
    const qr = await expectPrintableQr(body, made.publicUrl, job.resultHeight!);
    expect(qr.left).toBeGreaterThan(metadata.width! * 0.6);

    // A dark band with light text drawn in it, left of the code.
    const height = metadata.height!;
    const band = layout.band.height;
    const text = await region(body, { left: 0, top: height - band + 8, width: Math.round(qr.left - 8 * qr.module), height: band - 16 });
    expect(text.mean).toBeLessThan(110);
    expect(text.brightShare).toBeGreaterThan(0.03);
    expect(text.brightShare).toBeLessThan(0.6);

    // The description says what users see: the style's display name, the engine's name, never "AI".
    expect(xmpDescription(metadata)).toBe(
      `Digitally altered room photo: colour and light graded in the Japandi style. Engine: Preview engine. Disclosure: "Digitally altered". Unaltered original: ${made.publicUrl}`,
    );
    const xmp = metadata.xmp?.toString("utf8") ?? "";
    expect(xmp).not.toContain("DigitalSourceType");
    expect(xmp).not.toMatch(/\bAI\b/);
  });

  it("serves the public page signed out: both pictures, the disclosure and the date, no script, no cookie, not indexed", async () => {
    const made = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "en", disclosure: "Virtually staged" });
    const code = made.publicUrl.split("/l/")[1]!;
    const { response, body } = await get(made.publicUrl);
    const html = body.toString("utf8");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Virtually staged");
    expect(html).toContain(new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(made.createdAt));
    expect(html).toContain(`src="/l/${code}/original.jpg"`);
    expect(html).toContain(`src="/l/${code}/altered.jpg"`);

    const original = await get(`${server.url}/l/${code}/original.jpg`);
    expect([original.response.status, original.response.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
    expect(original.response.headers.get("set-cookie")).toBeNull();
    // The upload was 2400 × 1800: the original keeps its aspect, at most 2048 px.
    const originalSize = await sharp(original.body).metadata();
    expect([originalSize.width, originalSize.height]).toEqual([2048, 1536]);
    const altered = await get(`${server.url}/l/${code}/altered.jpg`);
    expect([altered.response.status, altered.response.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
    const alteredSize = await sharp(altered.body).metadata();
    const job = await owner.client.render.job.query({ id: render.jobId });
    expect([alteredSize.width, alteredSize.height]).toEqual([job.resultWidth, job.resultHeight]);
    // The altered picture is the render itself (no band): its bottom is not the dark band.
    const bottom = await region(altered.body, { left: 0, top: job.resultHeight! - 20, width: 200, height: 10 });
    expect(bottom.mean).toBeGreaterThan(60);

    expect((await get(`${server.url}/l/${code}/other.jpg`)).response.status).toBe(404);
    expect((await get(`${server.url}/l/AAAAAAAAAAAA`)).response.status).toBe(404);
  });

  it("writes a Spanish disclosure with XML characters safely, and the page in Spanish", async () => {
    const disclosure = 'Amueblado <virtual> & "nuevo"';
    const made = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "es", disclosure });
    expect(made.disclosure).toBe(disclosure);
    const { body } = await get(`${server.url}${made.downloadUrl}`, owner.jar);
    const job = await owner.client.render.job.query({ id: render.jobId });
    const qr = await expectPrintableQr(body, made.publicUrl, job.resultHeight!);
    const band = made.height - job.resultHeight!;
    const text = await region(body, { left: 0, top: job.resultHeight! + 8, width: Math.round(qr.left * 0.9), height: band - 16 });
    expect(text.brightShare).toBeGreaterThan(0.03);
    // In Spanish, with the style's Spanish name (Japandi is Japandi in every language).
    expect(xmpDescription(await sharp(body).metadata())).toBe(
      `Foto de la estancia modificada digitalmente: colores y luz ajustados al estilo Japandi. Motor: Motor de vista previa. Aviso: "${disclosure}". Original sin modificar: ${made.publicUrl}`,
    );

    const html = (await get(made.publicUrl)).body.toString("utf8");
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("Foto original");
    expect(html).toContain("Amueblado &lt;virtual&gt; &amp; &quot;nuevo&quot;");
    expect(html).not.toContain("<virtual>");
    expect(html).toContain(new Intl.DateTimeFormat("es", { dateStyle: "long", timeZone: "UTC" }).format(made.createdAt));

    const frenchDefault = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "fr" });
    expect(frenchDefault.disclosure).toBe("Image modifiée numériquement");
  });

  it("refuses an empty or too long disclosure with a message every language translates", async () => {
    const empty = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "es", disclosure: "  \n " }).catch(failure);
    expect(empty).toMatchObject({ message: MESSAGES.listingDisclosureEmpty, data: { code: "BAD_REQUEST" } });
    const long = await owner.client.listing.create
      .mutate({ jobId: render.jobId, language: "en", disclosure: "x".repeat(LISTING.disclosureMax + 1) })
      .catch(failure);
    expect(long).toMatchObject({ message: MESSAGES.listingDisclosureTooLong, data: { code: "BAD_REQUEST" } });
    // Exactly the limit passes.
    const fits = await owner.client.listing.create.mutate({
      jobId: render.jobId,
      language: "en",
      disclosure: "é".repeat(LISTING.disclosureMax),
    });
    expect(fits.disclosure).toHaveLength(LISTING.disclosureMax);
    const serverMessages = (language: "es" | "fr") => translations[language].serverMessages as Record<string, string>;
    expect(serverMessages("es").listingDisclosureEmpty).toBe("Escribe el aviso que se mostrará sobre la imagen");
    expect(serverMessages("fr").listingDisclosureTooLong).toBe("La mention ne peut pas dépasser 80 caractères");
  });

  it("lets only the owner create, see, download and revoke; visitors are asked to sign in", async () => {
    const made = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "en" });
    const stranger = await signedInClient(server.url);
    expect(await stranger.client.listing.create.mutate({ jobId: render.jobId, language: "en" }).catch(failure)).toMatchObject({
      data: { code: "NOT_FOUND" },
    });
    expect(await stranger.client.listing.forJob.query({ jobId: render.jobId })).toEqual([]);
    expect(await stranger.client.listing.revoke.mutate({ exportId: made.id }).catch(failure)).toMatchObject({
      data: { code: "NOT_FOUND" },
    });
    for (const jar of [stranger.jar, undefined]) {
      expect((await get(`${server.url}${made.downloadUrl}`, jar)).response.status).toBe(404);
      expect((await get(`${server.url}${made.pictureUrl}`, jar)).response.status).toBe(404);
      expect((await get(`${server.url}/files/listing/projects/${render.projectId}/zip`, jar)).response.status).toBe(404);
    }
    expect(await stranger.client.listing.projectCount.query({ projectId: render.projectId })).toEqual({ count: 0 });

    // A visitor, even with a finished demo render of their own.
    const visitor = createStudioClient(server.url);
    const demo = await finishedRender(server, visitor, { width: 800, height: 600 });
    for (const attempt of [
      () => visitor.client.listing.create.mutate({ jobId: demo.jobId, language: "en" }),
      () => visitor.client.listing.forJob.query({ jobId: demo.jobId }),
    ]) {
      expect(await attempt().catch(failure)).toMatchObject({ message: MESSAGES.listingAccountRequired, data: { code: "UNAUTHORIZED" } });
    }
    expect((translations.es.serverMessages as Record<string, string>).listingAccountRequired).toBe(
      "Inicia sesión para exportar imágenes para anuncios",
    );
    // The owner still sees it.
    expect((await owner.client.listing.forJob.query({ jobId: render.jobId })).map((item) => item.id)).toContain(made.id);
  });

  it("revoking ends the page and both pictures at once, says nothing of what was there, and removes the files", async () => {
    const made = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "en", disclosure: "Revoke me please" });
    const code = made.publicUrl.split("/l/")[1]!;
    const row = await server.deps.db.selectFrom("listing_exports").selectAll().where("id", "=", made.id).executeTakeFirstOrThrow();
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.picture_key!)).not.toBeNull();
    expect((await get(made.publicUrl)).response.status).toBe(200);

    await owner.client.listing.revoke.mutate({ exportId: made.id });
    const page = await get(made.publicUrl);
    expect(page.response.status).toBe(404);
    expect(page.response.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(page.body.toString("utf8")).not.toContain("Revoke me please");
    expect((await get(`${server.url}/l/${code}/original.jpg`)).response.status).toBe(404);
    expect((await get(`${server.url}/l/${code}/altered.jpg`)).response.status).toBe(404);
    expect((await get(`${server.url}${made.downloadUrl}`, owner.jar)).response.status).toBe(404);
    expect((await owner.client.listing.forJob.query({ jobId: render.jobId })).map((item) => item.id)).not.toContain(made.id);

    const after = await server.deps.db.selectFrom("listing_exports").selectAll().where("id", "=", made.id).executeTakeFirstOrThrow();
    expect(after.revoked_at).not.toBeNull();
    expect([after.picture_key, after.altered_key, after.original_key]).toEqual([null, null, null]);
    for (const key of [row.picture_key!, row.altered_key!, row.original_key!])
      expect(await server.deps.storage.get(UPLOAD_BUCKET, key)).toBeNull();
  });

  it("a deleted render or project takes its public pages down at once, and the sweep removes rows and files", async () => {
    const other = await finishedRender(server, owner, { width: 800, height: 600 });
    const made = await owner.client.listing.create.mutate({ jobId: other.jobId, language: "en" });
    const row = await server.deps.db.selectFrom("listing_exports").selectAll().where("id", "=", made.id).executeTakeFirstOrThrow();
    await owner.client.render.delete.mutate({ id: other.jobId });
    expect((await get(made.publicUrl)).response.status).toBe(404);
    expect((await get(`${made.publicUrl}/altered.jpg`)).response.status).toBe(404);
    expect(await server.services.listing.sweep()).toBeGreaterThanOrEqual(1);
    expect(await server.deps.db.selectFrom("listing_exports").selectAll().where("id", "=", made.id).executeTakeFirst()).toBeUndefined();
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.picture_key!)).toBeNull();

    const project = await owner.client.projects.create.mutate({ name: "To delete" });
    const inProject = await finishedRender(server, owner, { width: 800, height: 600, projectId: project.id });
    const exported = await owner.client.listing.create.mutate({ jobId: inProject.jobId, language: "en" });
    await owner.client.projects.delete.mutate({ id: project.id });
    expect((await get(exported.publicUrl)).response.status).toBe(404);
    expect((await get(`${exported.publicUrl}/original.jpg`)).response.status).toBe(404);

    // An account that goes takes its pages with it, even before its renders' files are gone.
    const leaving = await signedInClient(server.url);
    const theirs = await finishedRender(server, leaving, { width: 800, height: 600 });
    const theirExport = await leaving.client.listing.create.mutate({ jobId: theirs.jobId, language: "en" });
    expect((await get(theirExport.publicUrl)).response.status).toBe(200);
    await server.deps.db.deleteFrom("users").where("id", "=", leaving.userId).execute();
    expect((await get(theirExport.publicUrl)).response.status).toBe(404);
    await server.services.listing.sweep();
    expect(
      await server.deps.db.selectFrom("listing_exports").select("id").where("id", "=", theirExport.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("zips a project's current exports with their originals and a manifest", async () => {
    const project = await owner.client.projects.create.mutate({ name: "Listing 12 Oak St" });
    const first = await finishedRender(server, owner, { width: 1200, height: 900, projectId: project.id });
    const second = await finishedRender(server, owner, { width: 900, height: 1200, projectId: project.id });
    const a = await owner.client.listing.create.mutate({ jobId: first.jobId, language: "en", disclosure: 'Staged, "virtually"' });
    const revoked = await owner.client.listing.create.mutate({ jobId: first.jobId, language: "en" });
    const b = await owner.client.listing.create.mutate({ jobId: second.jobId, language: "es" });
    await owner.client.listing.revoke.mutate({ exportId: revoked.id });
    expect(await owner.client.listing.projectCount.query({ projectId: project.id })).toEqual({ count: 2 });

    const { response, body } = await get(`${server.url}/files/listing/projects/${project.id}/zip`, owner.jar);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="?roomcanvas-listing-pictures-\d{4}-\d{2}-\d{2}\.zip"?$/,
    );
    const files = unzipSync(new Uint8Array(body));
    const names = Object.keys(files).sort();
    expect(names).toHaveLength(5);
    expect(names.filter((name) => name.startsWith("originals/"))).toHaveLength(2);

    // The byte-order mark (for spreadsheets to read UTF-8), then the rows.
    expect([...files["manifest.csv"]!.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(strFromU8(files["manifest.csv"]!).replace(/^\uFEFF/, ""));
    expect(rows[0]).toEqual(["file", "original file", "disclosure", "public URL", "paint colours"]);
    expect(rows.slice(1)).toEqual([
      [
        expect.stringMatching(/^01-.+\.jpg$/),
        expect.stringMatching(/^originals\/01-.+-original\.jpg$/),
        'Staged, "virtually"',
        a.publicUrl,
        "",
      ],
      [
        expect.stringMatching(/^02-.+\.jpg$/),
        expect.stringMatching(/^originals\/02-.+-original\.jpg$/),
        "Imagen modificada digitalmente",
        b.publicUrl,
        "",
      ],
    ]);
    for (const [file, originalFile] of rows.slice(1)) {
      expect(files[file!], file).toBeDefined();
      expect(files[originalFile!], originalFile).toBeDefined();
    }
    // Each picture decodes to its own page; the originals are the uploads' aspect.
    const pictureNames = names.filter((name) => !name.startsWith("originals/") && name.endsWith(".jpg"));
    expect(await decodeQr(Buffer.from(files[pictureNames[0]!]!))).toBe(a.publicUrl);
    expect(await decodeQr(Buffer.from(files[pictureNames[1]!]!))).toBe(b.publicUrl);
    const originals = await Promise.all(
      names.filter((name) => name.startsWith("originals/")).map((name) => sharp(Buffer.from(files[name]!)).metadata()),
    );
    expect(originals.map((size) => [size.width, size.height])).toEqual([
      [1200, 900],
      [900, 1200],
    ]);
  });
  /** Exports the user's render and checks the output against the render it was made from: any size, no 500. */
  async function exportOf(user: User, jobId: string): Promise<void> {
    const made = await user.client.listing.create.mutate({ jobId, language: "en" });
    const { body } = await get(`${server.url}${made.downloadUrl}`, user.jar);
    const source = await sourceRender(server, jobId);
    const { width, height } = (await sharp(source).metadata()) as { width: number; height: number };
    const layout = listingLayout(width, height, qrCodeOf(made.publicUrl).modules.size);
    const metadata = await sharp(body).metadata();
    expect([metadata.width, metadata.height], `${width} x ${height}`).toEqual([layout.width, layout.height]);
    expect([made.width, made.height]).toEqual([layout.width, layout.height]);
    expect(await roomRowDifference(body, source, layout.room), `${width} x ${height}`).toBeLessThan(6);
    await expectPrintableQr(body, made.publicUrl, height);
    for (const picture of ["original.jpg", "altered.jpg"]) expect((await get(`${made.publicUrl}/${picture}`)).response.status).toBe(200);
    expect((await get(made.publicUrl)).response.status).toBe(200);
  }

  it("exports renders of the thinnest photos uploads take: the shortest side allowed at the longest ratio, both ways", async () => {
    const user = await signedInClient(server.url);
    const long = UPLOAD.minSide * UPLOAD.maxAspect;
    for (const [width, height] of [
      [long, UPLOAD.minSide],
      [UPLOAD.minSide, long],
    ] as const) {
      await exportOf(user, (await finishedRender(server, user, { width, height })).jobId);
    }
  }, 60_000);

  it("exports tiny and thin renders made before uploads had a minimum (2 x 2, 4000 x 1, 1 x 4000, written in directly)", async () => {
    const user = await signedInClient(server.url);
    const { jobId } = await finishedRender(server, user, { width: 400, height: 300 });
    const job = await server.deps.db
      .selectFrom("render_jobs")
      .select(["result_key", "upload_id"])
      .where("id", "=", jobId)
      .executeTakeFirstOrThrow();
    const photo = await server.deps.db
      .selectFrom("uploads")
      .select("original_key")
      .where("id", "=", job.upload_id)
      .executeTakeFirstOrThrow();
    for (const [width, height] of [
      [2, 2],
      [4000, 1],
      [1, 4000],
    ] as const) {
      // The render and its photo as an old upload left them.
      const tiny = await sharp({ create: { width, height, channels: 3, background: "#8a6d4b" } })
        .jpeg()
        .toBuffer();
      await server.deps.storage.put(UPLOAD_BUCKET, job.result_key!, tiny, "image/jpeg");
      await server.deps.storage.put(UPLOAD_BUCKET, photo.original_key, tiny, "image/jpeg");
      await exportOf(user, jobId);
    }
  }, 60_000);

  it("a disclosure that would run as a spreadsheet formula is plain text in the zip's manifest (OWASP CSV injection)", async () => {
    const user = await signedInClient(server.url);
    const project = await user.client.projects.create.mutate({ name: "Formulas" });
    const { jobId } = await finishedRender(server, user, { width: 800, height: 600, projectId: project.id });
    const disclosures = ['=HYPERLINK("http://evil.example","Virtually staged")', "+1+1 Virtually staged", "-2+3 staged", "@SUM(A1) staged"];
    for (const disclosure of disclosures) await user.client.listing.create.mutate({ jobId, language: "en", disclosure });

    const { body } = await get(`${server.url}/files/listing/projects/${project.id}/zip`, user.jar);
    const files = unzipSync(new Uint8Array(body));
    const rows = parseCsv(strFromU8(files["manifest.csv"]!).replace(/^\uFEFF/, ""));
    expect(rows.slice(1).map((row) => row[2])).toEqual(disclosures.map((text) => `'${text}`));
    for (const row of rows) {
      expect(row).toHaveLength(5);
      for (const cell of row) expect(cell).not.toMatch(FORMULA_START);
    }
  });
});

/** RFC 4180 as a spreadsheet reads it: quoted fields (quotes doubled, commas and line breaks inside), CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      index++;
    } else field += char;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** What a spreadsheet would run as a formula (OWASP CSV injection): a cell starting with one of these. */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

describe("manifest.csv", () => {
  it("quotes every field and doubles quotes inside (commas and line breaks stay in their cell)", () => {
    expect(csvField("plain text")).toBe('"plain text"');
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(
      manifestCsv([
        {
          file: "01.jpg",
          originalFile: "originals/01.jpg",
          disclosure: "Meublé, virtuellement",
          publicUrl: "http://x/l/abc",
          paintColours: "walls: #2F3E57; doors: #FFFFFF",
        },
      ]),
    ).toBe(
      '\uFEFF"file","original file","disclosure","public URL","paint colours"\r\n"01.jpg","originals/01.jpg","Meublé, virtuellement","http://x/l/abc","walls: #2F3E57; doors: #FFFFFF"\r\n',
    );
  });

  it("turns a cell that would start a formula (= + - @ tab, carriage return, full-width forms) into text with a leading quote", () => {
    const risky = ["=1+1", "+1", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "＝1+1", '=HYPERLINK("http://evil.example","x")'];
    const csv = manifestCsv(
      risky.map((text) => ({ file: text, originalFile: text, disclosure: text, publicUrl: text, paintColours: text })),
    );
    const rows = parseCsv(csv.slice(1)).slice(1);
    expect(rows).toHaveLength(risky.length);
    for (const [index, row] of rows.entries()) {
      expect(row).toEqual(Array(5).fill(`'${risky[index]}`));
      for (const cell of row) expect(cell).not.toMatch(FORMULA_START);
    }
    // Text that only contains those characters later is left as it is.
    expect(csvField("Staged - virtually = new")).toBe('"Staged - virtually = new"');
  });
});

/** listing.create sent with a Host header of our choosing (fetch cannot set one), with the user's cookies and no Origin. */
function createWithHost(server: TestServer, user: User, host: string, jobId: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = JSON.stringify({ json: { jobId, language: "en" } });
    const request = http.request(new URL("/trpc/listing.create", server.url), {
      method: "POST",
      headers: {
        host,
        cookie: user.jar.header(),
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(payload)),
      },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
    request.end(payload);
  });
}

describe("the public link and its QR code never follow a forged Host header (probe finding 6)", () => {
  /** A finished render uploaded without Origin (with PUBLIC_URL set, only its origin may send one). */
  async function renderOf(server: TestServer, user: User): Promise<string> {
    const response = await user.jar.fetch(`${server.url}/api/uploads`, {
      method: "POST",
      headers: { "content-type": "image/jpeg" },
      body: new Uint8Array(await roomPhoto(800, 600)),
    });
    const uploaded = (await response.json()) as { imageId: string; projectId: string };
    const { jobs } = await user.client.render.create.mutate({ projectId: uploaded.projectId, imageId: uploaded.imageId, style: "modern" });
    await waitForRenders(user, [jobs[0]!.id]);
    return jobs[0]!.id;
  }

  /** Everything an export wrote where a link can be read: the row, the picture's QR code and XMP, the public page's pictures. */
  async function everythingOf(server: TestServer, user: User, exportId: string) {
    const row = await server.deps.db.selectFrom("listing_exports").selectAll().where("id", "=", exportId).executeTakeFirstOrThrow();
    const picture = (await get(`${server.url}/files/listing/${exportId}/download`, user.jar)).body;
    const altered = (await get(`${server.url}/l/${row.code}/altered.jpg`)).body;
    return {
      publicUrl: row.public_url,
      qr: (await findQr(picture))?.text,
      xmp: [xmpDescription(await sharp(picture).metadata()), xmpDescription(await sharp(altered).metadata())],
    };
  }

  it("with PUBLIC_URL, the link, the QR code and the XMP point there whatever Host the request names", async () => {
    const server = await startTestServer({ PUBLIC_URL: "https://studio.example/", AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    try {
      const user = await signedInClient(server.url);
      const jobId = await renderOf(server, user);
      const answer = await createWithHost(server, user, "evil.example", jobId);
      expect(answer.status, answer.body).toBe(200);
      expect(answer.body).not.toContain("evil.example");
      const made = (JSON.parse(answer.body) as { result: { data: { json: { id: string; publicUrl: string } } } }).result.data.json;
      expect(made.publicUrl).toMatch(/^https:\/\/studio\.example\/l\/[A-Za-z0-9_-]{12}$/);
      const written = await everythingOf(server, user, made.id);
      expect(written.publicUrl).toBe(made.publicUrl);
      // The QR code decoded from the picture's pixels.
      expect(written.qr).toBe(made.publicUrl);
      for (const description of written.xmp) expect(description).toContain(`: ${made.publicUrl}`);
      expect(JSON.stringify(written)).not.toContain("evil.example");
    } finally {
      await server.stop();
    }
  });

  it("without PUBLIC_URL, a host the server does not know is refused with a message; the server's own address and ALLOWED_HOSTS work", async () => {
    const server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    try {
      const user = await signedInClient(server.url);
      const jobId = await renderOf(server, user);
      const refused = await createWithHost(server, user, "evil.example", jobId);
      expect(refused.status).toBe(412);
      expect(refused.body).toContain(JSON.stringify(MESSAGES.listingNoPublicAddress).slice(1, -1));
      expect(await server.deps.db.selectFrom("listing_exports").select("id").execute()).toEqual([]);
      for (const language of ["es", "fr"] as const)
        expect((translations[language].serverMessages as Record<string, string>).listingNoPublicAddress).toMatch(/PUBLIC_URL/);
      // The address the server was started for (its loopback address and port).
      const own = await createWithHost(server, user, new URL(server.url).host, jobId);
      expect(own.status, own.body).toBe(200);
      const made = (JSON.parse(own.body) as { result: { data: { json: { id: string; publicUrl: string } } } }).result.data.json;
      expect(made.publicUrl.startsWith(`${server.url}/l/`)).toBe(true);
      expect((await everythingOf(server, user, made.id)).qr).toBe(made.publicUrl);
    } finally {
      await server.stop();
    }

    const allowed = await startTestServer({ ALLOWED_HOSTS: "studio.lan", AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    try {
      const user = await signedInClient(allowed.url);
      const jobId = await renderOf(allowed, user);
      expect((await createWithHost(allowed, user, "evil.example", jobId)).status).toBe(412);
      const answer = await createWithHost(allowed, user, "studio.lan", jobId);
      expect(answer.status, answer.body).toBe(200);
      const made = (JSON.parse(answer.body) as { result: { data: { json: { id: string; publicUrl: string } } } }).result.data.json;
      expect(made.publicUrl).toMatch(/^http:\/\/studio\.lan\/l\//);
      expect((await everythingOf(allowed, user, made.id)).qr).toBe(made.publicUrl);
    } finally {
      await allowed.stop();
    }
  });
});

describe("listing export of an AI render (ComfyUI)", () => {
  let box: FakeComfyUi;
  let server: TestServer;
  beforeAll(async () => {
    box = await startFakeComfyUi();
    box.script({ steps: 1, stepDelayMs: 0 });
    server = await startTestServer({ RENDER_PROVIDER: "comfyui", COMFYUI_URL: box.url, AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
    await box?.close();
  });

  it("says Virtually staged for a staged room, and marks the file as edited with AI, naming engine and style as users see them", async () => {
    const user = await signedInClient(server.url);
    const { jobId } = await finishedRender(server, user, { renderMode: "stage", style: "scandinavian" });
    const made = await user.client.listing.create.mutate({ jobId, language: "en" });
    expect(made.disclosure).toBe("Virtually staged");
    const spanish = await user.client.listing.create.mutate({ jobId, language: "es" });
    expect(spanish.disclosure).toBe("Amueblado virtualmente");

    const { body } = await get(`${server.url}${made.downloadUrl}`, user.jar);
    expect(await decodeQr(body)).toBe(made.publicUrl);
    const metadata = await sharp(body).metadata();
    const xmp = metadata.xmp?.toString("utf8") ?? "";
    expect(xmp).toContain(`<Iptc4xmpExt:DigitalSourceType>${DIGITAL_SOURCE_TYPE_EDITED_WITH_AI}</Iptc4xmpExt:DigitalSourceType>`);
    // The engine as the render page names it (the job's provider label), the style's display name.
    const { providerLabel } = await user.client.render.job.query({ id: jobId });
    expect(providerLabel).toBe("ComfyUI (sd_xl_base_1.0.safetensors)");
    expect(xmpDescription(metadata)).toBe(
      `Room photo edited with AI: virtually staged (furniture added), Scandinavian style. Engine: ${providerLabel}. Disclosure: "Virtually staged". Unaltered original: ${made.publicUrl}`,
    );
    const inSpanish = xmpDescription(await sharp((await get(`${server.url}${spanish.downloadUrl}`, user.jar)).body).metadata());
    expect(inSpanish).toBe(
      `Foto de la estancia editada con IA: amueblada virtualmente (muebles añadidos), estilo Escandinavo. Motor: ${providerLabel}. Aviso: "Amueblado virtualmente". Original sin modificar: ${spanish.publicUrl}`,
    );
    const french = await user.client.listing.create.mutate({ jobId, language: "fr" });
    expect(xmpDescription(await sharp((await get(`${server.url}${french.downloadUrl}`, user.jar)).body).metadata())).toContain(
      "meublée virtuellement (meubles ajoutés), style Scandinave. Moteur\u00a0: ComfyUI",
    );
    for (const description of [xmp, inSpanish]) expect(description).not.toMatch(/scandinavian style|comfyui engine/);
    // The public page's altered picture carries the same mark.
    const altered = await get(`${made.publicUrl}/altered.jpg`);
    expect((await sharp(altered.body).metadata()).xmp?.toString("utf8")).toContain(DIGITAL_SOURCE_TYPE_EDITED_WITH_AI);
  });
});

describe("a renamed studio's listing files (issue 27)", () => {
  it("names the exported picture and the project's zip after the studio", async () => {
    const server = await startTestServer({ STUDIO_NAME: "Casa Nová Studio", AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    try {
      const owner = await signedInClient(server.url);
      const render = await finishedRender(server, owner);
      const made = await owner.client.listing.create.mutate({ jobId: render.jobId, language: "en" });
      const picture = await get(`${server.url}${made.downloadUrl}`, owner.jar);
      expect(picture.response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="?casa-nova-studio-listing-japandi-[a-f0-9]{8}\.jpg"?$/,
      );
      const zip = await get(`${server.url}/files/listing/projects/${render.projectId}/zip`, owner.jar);
      expect(zip.response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="?casa-nova-studio-listing-pictures-\d{4}-\d{2}-\d{2}\.zip"?$/,
      );
    } finally {
      await server.stop();
    }
  });
});
