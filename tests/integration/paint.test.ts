/**
 * The studio's Paint tool on the real server (issue 33): a wall chosen by one click (the shared
 * smart selection on a room drawn with known regions), painted on the Preview engine in two exact
 * colours at once: each version's wall is its colour (the region's mean within ΔE 2000 of 2 of the
 * target), its light and shading kept, every pixel outside untouched; free by default, at the
 * operator's price when set, refused past three colours; the project's colour list; and on AI
 * engines (OpenAI's and ComfyUI's fakes) the same mask with an instruction naming the colour.
 */
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EDIT } from "../../src/shared/edits";
import { MESSAGES, readMessage } from "../../src/shared/messages";
import { translations } from "../../src/client/i18n/resources";
import { deltaE2000, labOfLinear, LINEAR_OF_LEVEL, luminanceOfLinear, rgbOfHex, labOfRgb, smartSelect } from "../../src/shared/paint";
import { failure } from "../helpers/failure";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { paintedRoom } from "../helpers/painted-room";
import { confirmedClient, createStudioClient, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

type Studio = Awaited<ReturnType<typeof signedInClient>>;

const room = paintedRoom();
/** The back wall as one click selects it (the studio's picture is the photo's size: 800 × 600). */
const wall = smartSelect({ width: room.width, height: room.height, data: room.rgb, channels: 3 }, { x: 240, y: 270 });

async function maskDataUrl(selected: Uint8Array): Promise<string> {
  const grey = Buffer.from(selected.map((value) => (value ? 255 : 0)));
  const png = await sharp(grey, { raw: { width: room.width, height: room.height, channels: 1 } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

async function pixelsOf(studio: Studio, baseUrl: string, path: string) {
  const response = await studio.jar.fetch(`${baseUrl}${path}`);
  expect(response.status).toBe(200);
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The selection grown by `by` pixels (the composite's feather reaches a little past the mask). */
function grown(selected: Uint8Array, by: number): Uint8Array {
  const out = new Uint8Array(selected.length);
  for (let y = 0; y < room.height; y++) {
    for (let x = 0; x < room.width; x++) {
      if (!selected[y * room.width + x]) continue;
      for (let yy = Math.max(0, y - by); yy <= Math.min(room.height - 1, y + by); yy++) {
        for (let xx = Math.max(0, x - by); xx <= Math.min(room.width - 1, x + by); xx++) out[yy * room.width + xx] = 1;
      }
    }
  }
  return out;
}

/** The selection shrunk by `by` pixels: the wall away from the feathered edge. */
const shrunk = (selected: Uint8Array, by: number) =>
  grown(
    selected.map((value) => 1 - value),
    by,
  ).map((value) => 1 - value);

/** Mean luminance (linear light) of the pixels where `where` is set. */
function meanLuminance(rgb: Uint8Array, where: (index: number) => boolean): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < rgb.length / 3; i++) {
    if (!where(i)) continue;
    sum += luminanceOfLinear(LINEAR_OF_LEVEL[rgb[i * 3]!]!, LINEAR_OF_LEVEL[rgb[i * 3 + 1]!]!, LINEAR_OF_LEVEL[rgb[i * 3 + 2]!]!);
    count++;
  }
  return sum / count;
}

/** The region's mean colour in CIE Lab, averaged in linear light (the colour the wall reads as). */
function meanLab(rgb: Uint8Array, region: Uint8Array) {
  const sums = [0, 0, 0];
  let count = 0;
  for (let i = 0; i < region.length; i++) {
    if (!region[i]) continue;
    for (let c = 0; c < 3; c++) sums[c]! += LINEAR_OF_LEVEL[rgb[i * 3 + c]!]!;
    count++;
  }
  return labOfLinear(sums[0]! / count, sums[1]! / count, sums[2]! / count);
}

describe("Paint on the Preview engine", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function userWithRoom() {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await room.png(), {}, "image/png");
    expect(uploaded.status).toBe(201);
    return { user, imageId: uploaded.body.imageId, projectId: uploaded.body.projectId };
  }

  it("paints the clicked wall in two exact colours, one version each, keeping its light and everything outside it; free by default", async () => {
    const { user, imageId, projectId } = await userWithRoom();
    const before = (await user.client.account.profile.query()).credits;
    expect(await user.client.render.paintOffer.query()).toMatchObject({ credits: 0, engine: "local" });
    const { jobIds, credits } = await user.client.render.paint.mutate({
      uploadId: imageId,
      mask: await maskDataUrl(wall),
      surface: "walls",
      colours: ["#2F3E57", "#c0765a"],
    });
    expect(jobIds).toHaveLength(2);
    expect(credits).toBe(before);
    await waitForRenders(user, jobIds);
    expect((await user.client.account.profile.query()).credits).toBe(before);

    const photo = await pixelsOf(user, server.url, `/files/uploads/${imageId}/original`);
    const inner = shrunk(wall, 2 * EDIT.featherPx);
    const outside = grown(wall, 3 * EDIT.featherPx).map((value) => 1 - value);
    for (const [jobId, colour] of [
      [jobIds[0]!, "#2f3e57"],
      [jobIds[1]!, "#c0765a"],
    ] as const) {
      const painted = await pixelsOf(user, server.url, `/files/renders/${jobId}/full`);
      expect([painted.width, painted.height]).toEqual([room.width, room.height]);
      // The wall reads as the chosen colour.
      expect(deltaE2000(meanLab(painted.data, inner), labOfRgb(rgbOfHex(colour)))).toBeLessThan(2);
      // Its light is kept: the part near the window stays as much brighter than the far part as it was.
      const near = (i: number) => inner[i] === 1 && Math.abs((i % room.width) - 400) < 150;
      const far = (i: number) => inner[i] === 1 && Math.abs((i % room.width) - 400) >= 150;
      const ratioBefore = meanLuminance(photo.data, near) / meanLuminance(photo.data, far);
      const ratioAfter = meanLuminance(painted.data, near) / meanLuminance(painted.data, far);
      expect(ratioBefore).toBeGreaterThan(1.03);
      expect(Math.abs(ratioAfter / ratioBefore - 1)).toBeLessThan(0.02);
      // Nothing outside the wall (and its feathered edge) changed, not by one level.
      let changed = 0;
      for (let i = 0; i < outside.length; i++) {
        if (!outside[i]) continue;
        for (let c = 0; c < 3; c++) if (painted.data[i * 3 + c] !== photo.data[i * 3 + c]) changed++;
      }
      expect(changed).toBe(0);
      // Named honestly: the Preview engine's recolour, not AI.
      expect(await user.client.render.job.query({ id: jobId })).toMatchObject({
        kind: "edit",
        engine: { id: "local", isAi: false },
        model: "preview-recolour",
      });
    }

    const tree = await user.client.render.versions.query({ id: imageId });
    expect(tree.nodes.filter((node) => node.paint).map((node) => node.paint)).toEqual([
      { colour: "#2f3e57", surface: "walls" },
      { colour: "#c0765a", surface: "walls" },
    ]);
    const colours = await user.client.render.paintColours.query({ projectId });
    expect(colours.map(({ surface, colour, jobIds: painted }) => ({ surface, colour, painted }))).toEqual(
      expect.arrayContaining([
        { surface: "walls", colour: "#2f3e57", painted: [jobIds[0]] },
        { surface: "walls", colour: "#c0765a", painted: [jobIds[1]] },
      ]),
    );
  });

  it("lists the colours in the making of each picture in the client review and in the listing export's manifest", async () => {
    const { user, imageId, projectId } = await userWithRoom();
    const walls = await user.client.render.paint.mutate({
      uploadId: imageId,
      mask: await maskDataUrl(wall),
      surface: "walls",
      colours: ["#2f3e57"],
    });
    await waitForRenders(user, walls.jobIds);
    // The painted version painted again: its left wall, as cabinets (what it is noted under is the user's choice).
    const left = smartSelect({ width: room.width, height: room.height, data: room.rgb, channels: 3 }, { x: 80, y: 300 });
    const cabinets = await user.client.render.paint.mutate({
      sourceJobId: walls.jobIds[0]!,
      mask: await maskDataUrl(left),
      surface: "cabinets",
      colours: ["#a7b59d"],
    });
    await waitForRenders(user, cabinets.jobIds);

    const review = await user.client.review.create.mutate({ projectId });
    const page = await createStudioClient(server.url).client.review.page.query({ token: review.path.slice("/review/".length) });
    expect(page.colours).toEqual([
      { colour: "#a7b59d", surface: "cabinets" },
      { colour: "#2f3e57", surface: "walls" },
    ]);
    expect(page.pictures.find((picture) => picture.jobId === cabinets.jobIds[0])?.paint).toEqual({
      colour: "#a7b59d",
      surface: "cabinets",
    });

    const exported = await user.client.listing.create.mutate({ jobId: cabinets.jobIds[0]!, language: "en" });
    const zip = await user.jar.fetch(`${server.url}/files/listing/projects/${projectId}/zip`);
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const manifest = strFromU8(files["manifest.csv"]!)
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(manifest[0]).toBe('"file","original file","disclosure","public URL","paint colours"');
    expect(manifest[1]).toMatch(/,"Walls: #2F3E57; Cabinets: #A7B59D"$/);

    // The public page lists them with their swatches, and the picture's XMP description names them.
    const publicPage = await (await fetch(exported.publicUrl)).text();
    expect(publicPage).toContain("<h2>Paint colours in the altered picture</h2>");
    expect(publicPage).toContain('<span class="swatch" style="background:#2f3e57" aria-hidden="true"></span>Walls: #2F3E57</li>');
    expect(publicPage).toContain("Cabinets: #A7B59D</li>");
    const altered = await fetch(`${exported.publicUrl}/altered.jpg`);
    const xmp = (await sharp(Buffer.from(await altered.arrayBuffer())).metadata()).xmp?.toString("utf8") ?? "";
    expect(xmp).toContain("a painted region tinted (paint colours: Walls: #2F3E57, Cabinets: #A7B59D)");
    // In French, in the export's words.
    const french = await user.client.listing.create.mutate({ jobId: walls.jobIds[0]!, language: "fr" });
    const frenchPage = await (await fetch(french.publicUrl)).text();
    expect(frenchPage).toContain("<h2>Couleurs de peinture de l’image modifiée</h2>");
    expect(frenchPage).toContain("Murs : #2F3E57</li>");
    // A render with no paint in its making lists none.
    const styled = await user.client.render.create.mutate({ projectId, imageId, style: "modern" });
    await waitForRenders(user, [styled.jobs[0]!.id]);
    const plain = await user.client.listing.create.mutate({ jobId: styled.jobs[0]!.id, language: "en" });
    expect(await (await fetch(plain.publicUrl)).text()).not.toContain("listing-paints");
  });

  it("costs what the operator sets, refuses more than three colours or a bad code in the user's words and free, and keeps projects to their owners", async () => {
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    const palette = [{ name: "Deep navy", hex: "#2F3E57" }];
    expect(await admin.client.admin.updatePaint.mutate({ palette, previewCredits: 1 })).toEqual({
      palette: [{ name: "Deep navy", hex: "#2f3e57" }],
      previewCredits: 1,
    });
    try {
      const { user, imageId, projectId } = await userWithRoom();
      expect(await user.client.render.paintOffer.query()).toEqual({
        palette: [{ name: "Deep navy", hex: "#2f3e57" }],
        credits: 1,
        engine: "local",
      });
      const before = (await user.client.account.profile.query()).credits;
      const mask = await maskDataUrl(wall);
      // A refusal names the field and says what to do, in the user's language (the client translates the message).
      const refusal = async (input: { colours: unknown; surface?: string }) => {
        const error = failure(
          await user.client.render.paint
            .mutate({ uploadId: imageId, mask, surface: "walls", ...input } as never)
            .catch((caught: unknown) => caught),
        );
        expect(error.data?.code).toBe("BAD_REQUEST");
        return Object.values(error.data?.zodError?.fieldErrors ?? {}).flat()[0];
      };
      expect(await refusal({ colours: ["#000000", "#111111", "#222222", "#333333"] })).toBe(MESSAGES.paintTooManyColours);
      expect(await refusal({ colours: ["navy"] })).toBe(MESSAGES.paintColourInvalid);
      expect(await refusal({ colours: ["#2f3e57", "#2F3E57"] })).toBe(MESSAGES.paintColourRepeated);
      expect(await refusal({ colours: ["#2f3e57"], surface: "roof" })).toBe(MESSAGES.paintSurfaceInvalid);
      for (const name of [
        "paintTooManyColours",
        "paintColourInvalid",
        "paintColourRepeated",
        "paintSurfaceInvalid",
        "paletteNameInvalid",
        "paletteTooLong",
      ] as const) {
        expect(readMessage(MESSAGES[name])?.key).toBe(name);
        for (const language of ["es", "fr"] as const) {
          const text = (translations[language] as { serverMessages: Record<string, string> }).serverMessages[name];
          expect(text, `${language} ${name}`).toBeTruthy();
          expect(text).not.toBe(MESSAGES[name]);
        }
      }
      expect((await user.client.account.profile.query()).credits).toBe(before);

      const { jobIds, credits } = await user.client.render.paint.mutate({
        uploadId: imageId,
        mask,
        surface: "cabinets",
        colours: ["#2f3e57", "#a7b59d"],
      });
      expect(credits).toBe(before - 2);
      await waitForRenders(user, jobIds);
      expect((await user.client.account.profile.query()).credits).toBe(before - 2);

      // Another account sees neither the photo nor the project's colours.
      const stranger = await signedInClient(server.url);
      const notFound = async (attempt: Promise<unknown>) => failure(await attempt.catch((caught: unknown) => caught)).data?.code;
      expect(await notFound(stranger.client.render.paint.mutate({ uploadId: imageId, mask, surface: "walls", colours: ["#000000"] }))).toBe(
        "NOT_FOUND",
      );
      expect(await notFound(stranger.client.render.paintColours.query({ projectId }))).toBe("NOT_FOUND");
      // The palette is the operator's to change.
      expect(await notFound(user.client.admin.updatePaint.mutate({ palette: [], previewCredits: 0 }))).toBe("FORBIDDEN");
      const tooLong = Array.from({ length: 25 }, (_, index) => ({ name: `Colour ${index}`, hex: "#123456" }));
      const paletteRefusal = failure(
        await admin.client.admin.updatePaint.mutate({ palette: tooLong, previewCredits: 0 }).catch((caught: unknown) => caught),
      );
      expect(paletteRefusal.data?.zodError?.fieldErrors.palette).toEqual([MESSAGES.paletteTooLong]);
    } finally {
      await admin.client.admin.updatePaint.mutate({ palette: [], previewCredits: 0 });
    }
  });
});

describe("Paint on AI engines: the mask, and an instruction naming the colour", () => {
  let openAi: FakeOpenAi;
  let comfy: FakeComfyUi;
  beforeAll(async () => {
    openAi = await startFakeOpenAi();
    comfy = await startFakeComfyUi();
    comfy.script({ steps: 2, stepDelayMs: 5 });
  });
  afterAll(async () => {
    await openAi.close();
    await comfy.close();
  });

  it.each(["openai", "comfyui"] as const)(
    "on %s, a paint is an edit of the selected region whose instruction names the exact colour, for a credit",
    async (engine) => {
      const server = await startTestServer(
        engine === "openai"
          ? { RENDER_PROVIDER: "openai", OPENAI_API_KEY: openAi.apiKey, OPENAI_API_URL: openAi.url }
          : { RENDER_PROVIDER: "comfyui", COMFYUI_URL: comfy.url },
      );
      try {
        // Engines that bill each call spend free credits only for a confirmed address.
        const user = await confirmedClient(server);
        const uploaded = await upload(server.url, user.jar, await room.png(), {}, "image/png");
        expect(await user.client.render.paintOffer.query()).toMatchObject({ credits: 1, engine });
        const before = (await user.client.account.profile.query()).credits;
        const { jobIds } = await user.client.render.paint.mutate({
          uploadId: uploaded.body.imageId,
          mask: await maskDataUrl(wall),
          surface: "walls",
          colours: ["#a7b59d"],
        });
        await waitForRenders(user, jobIds);
        expect((await user.client.account.profile.query()).credits).toBe(before - 1);
        const sent = engine === "openai" ? String(openAi.requests.at(-1)!.fields.prompt) : JSON.stringify(comfy.queued().at(-1)!.json);
        expect(sent).toContain("Repaint the wall in this area with paint of the exact colour #A7B59D (RGB 167, 181, 157)");
        if (engine === "openai") expect(openAi.requests.at(-1)!.mask?.type).toBe("image/png");
        expect(await user.client.render.job.query({ id: jobIds[0]! })).toMatchObject({ kind: "edit", engine: { id: engine, isAi: true } });
      } finally {
        await server.stop();
      }
    },
  );
});
