/**
 * The modification studio's edits and versions, on the real server: a mask checked on the server
 * (each refusal free), one credit per edit through the queue with live events, only the painted
 * region changed (whatever the engine returned outside it), the version tree (branching, deleting a
 * middle version, ownership), and OpenAI's mask protocol against its fake.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/server/render/engines/openai";
import type { InpaintRequest, RenderProvider } from "../../src/server/render/engines/provider";
import { PREVIEW_CAPABILITIES, localProvider } from "../../src/server/render/engines/local";
import { EDIT } from "../../src/shared/edits";
import { MESSAGES } from "../../src/shared/messages";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { collectEvents, createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";

type Studio = Awaited<ReturnType<typeof signedInClient>>;

/** A mask PNG of width × height: white (change) inside the rectangle, black elsewhere. */
function rectangleMask(width: number, height: number, box: { left: number; top: number; width: number; height: number }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000"/><rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`;

/** A picture's pixels; `size`: resized to it first, as the edit's source is (editSource: fill, upright). */
async function pixels(studio: Studio, baseUrl: string, path: string, size?: { width: number; height: number }) {
  const response = await studio.jar.fetch(`${baseUrl}${path}`);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const picture = size ? sharp(bytes).rotate().resize(size.width, size.height, { fit: "fill" }) : sharp(bytes);
  const { data, info } = await picture.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Largest channel difference between two pictures of one size, inside or outside a box (grown by `margin`). */
function maxDifference(
  a: { data: Buffer; width: number; height: number },
  b: { data: Buffer; width: number },
  box: { left: number; top: number; width: number; height: number },
  where: "inside" | "outside",
  margin: number,
) {
  let max = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const inBox =
        x >= box.left - margin && x < box.left + box.width + margin && y >= box.top - margin && y < box.top + box.height + margin;
      const deepInside =
        x >= box.left + margin && x < box.left + box.width - margin && y >= box.top + margin && y < box.top + box.height - margin;
      if (where === "outside" ? inBox : !deepInside) continue;
      for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(a.data[(y * a.width + x) * 3 + c]! - b.data[(y * b.width + x) * 3 + c]!));
    }
  }
  return max;
}

/** An AI-like engine whose every answer is a different, flat picture: the composite must keep everything outside the mask. */
function repaintingEngine(): RenderProvider & { inpaints: InpaintRequest[] } {
  const inpaints: InpaintRequest[] = [];
  return {
    id: "replicate",
    label: "Test inpainting engine",
    capabilities: { ...PREVIEW_CAPABILITIES, isAi: true, seeds: true, photoSize: false },
    render: (request) => localProvider.render(request),
    inpaints,
    async inpaint(request) {
      inpaints.push(request);
      // Another size and a flat colour everywhere: nothing of the source survives in the answer.
      const image = await sharp({ create: { width: 700, height: 500, channels: 3, background: "#2a7f3f" } })
        .jpeg()
        .toBuffer();
      return { image, mime: "image/jpeg", model: "test/inpainter", seed: request.seed ?? 42, prompt: `repaint: ${request.prompt}` };
    },
  };
}

const BOX = { left: 200, top: 150, width: 300, height: 220 };

/** BOX on a picture `factor` times the studio's (1024 px): an edit's result is the version's own size. */
const boxAt = (factor: number) => ({
  left: BOX.left * factor,
  top: BOX.top * factor,
  width: BOX.width * factor,
  height: BOX.height * factor,
});

describe("edits on the Preview engine", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function userWithRender() {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1600, 1200));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "coastal",
    });
    await waitForRenders(user, [jobs[0]!.id]);
    return { user, imageId: uploaded.body.imageId, projectId: uploaded.body.projectId, renderId: jobs[0]!.id };
  }

  it("refuses a mask that is not a PNG, of another size, too small or too large, each in the user's words and free", async () => {
    const { user, renderId } = await userWithRender();
    const before = (await user.client.account.profile.query()).credits;
    const tree = await user.client.render.versions.query({ id: renderId });
    const render = tree.nodes.find((node) => node.id === renderId)!;
    expect({ width: render.width, height: render.height }).toEqual({ width: 1024, height: 768 });
    const attempt = (mask: string) =>
      user.client.render.edit.mutate({ sourceJobId: renderId, mask, instruction: "paint the wall sage green" });
    const jpeg = await sharp({ create: { width: 1024, height: 768, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const refusals = [
      [`data:image/png;base64,${jpeg.toString("base64")}`, MESSAGES.maskNotPng],
      ["data:image/jpeg;base64,AAAA", MESSAGES.maskNotPng],
      [dataUrl(await rectangleMask(800, 600, BOX)), MESSAGES.maskWrongSize],
      [dataUrl(await rectangleMask(1024, 768, { left: 10, top: 10, width: 15, height: 15 })), MESSAGES.maskTooSmall],
      [dataUrl(await rectangleMask(1024, 768, { left: 0, top: 0, width: 1024, height: 760 })), MESSAGES.maskTooLarge],
    ] as const;
    for (const [mask, message] of refusals) {
      const error = failure(await attempt(mask).catch((caught: unknown) => caught));
      expect(error.message).toBe(message);
      expect(error.data?.code).toBe("BAD_REQUEST");
    }
    const longInstruction = failure(
      await user.client.render.edit
        .mutate({
          sourceJobId: renderId,
          mask: dataUrl(await rectangleMask(1024, 768, BOX)),
          instruction: "x".repeat(EDIT.instructionMax + 1),
        })
        .catch((caught: unknown) => caught),
    );
    expect(longInstruction.data?.zodError?.fieldErrors.instruction).toEqual([MESSAGES.instructionTooLong]);
    expect((await user.client.account.profile.query()).credits).toBe(before);
  });

  it("charges one credit, streams the edit live, tints only the painted region and records it as the Preview engine's", async () => {
    const { user, renderId } = await userWithRender();
    const before = (await user.client.account.profile.query()).credits;
    const { jobId, credits } = await user.client.render.edit.mutate({
      sourceJobId: renderId,
      mask: dataUrl(await rectangleMask(1024, 768, BOX)),
      instruction: "replace the sofa with a green velvet one",
      preset: "replace",
    });
    expect(credits).toBe(before - 1);
    const events = await collectEvents(user, { jobId }, (seen) => seen.some((entry) => entry.event.type === "succeeded"));
    expect(events.map((entry) => entry.event.type)).toEqual(expect.arrayContaining(["preprocessing", "rendering", "saving", "succeeded"]));
    const view = await user.client.render.job.query({ id: jobId });
    expect(view).toMatchObject({
      kind: "edit",
      style: "coastal",
      status: "succeeded",
      model: "preview-region-tint",
      engine: { id: "local", isAi: false },
    });
    // The render is at the photo's size (issue 30), and so is the edit: the studio's mask (1024 px) is
    // laid on the version at its own size.
    const source = await pixels(user, server.url, `/files/renders/${renderId}/full`);
    const edited = await pixels(user, server.url, `/files/renders/${jobId}/full`);
    expect({ width: edited.width, height: edited.height }).toEqual({ width: 1600, height: 1200 });
    // Outside the region (beyond the feathered edge) the source's pixels; inside, visibly tinted.
    const factor = 1600 / 1024;
    expect(maxDifference(edited, source, boxAt(factor), "outside", 3 * EDIT.featherPx * factor)).toBeLessThanOrEqual(2);
    expect(maxDifference(edited, source, boxAt(factor), "inside", 3 * EDIT.featherPx * factor)).toBeGreaterThan(20);
  });

  it("keeps versions as a tree: edits of edits, branches, deleting a middle version, and only for their owner", async () => {
    const { user, imageId, renderId } = await userWithRender();
    const mask = dataUrl(await rectangleMask(1024, 768, BOX));
    const first = await user.client.render.edit.mutate({
      sourceJobId: renderId,
      mask,
      instruction: "remove the clutter",
      preset: "remove",
    });
    await waitForRenders(user, [first.jobId]);
    const second = await user.client.render.edit.mutate({ sourceJobId: first.jobId, mask, instruction: "a green sofa" });
    const branch = await user.client.render.edit.mutate({ sourceJobId: first.jobId, mask, instruction: "a blue sofa" });
    const fromPhoto = await user.client.render.edit.mutate({
      uploadId: imageId,
      mask: dataUrl(await rectangleMask(1024, 768, BOX)),
      instruction: "",
    });
    await waitForRenders(user, [second.jobId, branch.jobId, fromPhoto.jobId]);

    const parents = (tree: Awaited<ReturnType<typeof user.client.render.versions.query>>) =>
      Object.fromEntries(tree.nodes.map((node) => [node.id, node.parentId]));
    const tree = await user.client.render.versions.query({ id: second.jobId });
    expect(tree.uploadId).toBe(imageId);
    expect(parents(tree)).toEqual({
      [imageId]: null,
      [renderId]: imageId,
      [first.jobId]: renderId,
      [second.jobId]: first.jobId,
      [branch.jobId]: first.jobId,
      [fromPhoto.jobId]: imageId,
    });
    expect(tree.nodes.find((node) => node.id === fromPhoto.jobId)).toMatchObject({ kind: "edit", style: null, instruction: "" });
    // The same tree whichever version it is asked from.
    expect(parents(await user.client.render.versions.query({ id: imageId }))).toEqual(parents(tree));

    // Someone else sees none of it and cannot edit it.
    const stranger = await signedInClient(server.url);
    for (const attempt of [
      () => stranger.client.render.versions.query({ id: first.jobId }),
      () => stranger.client.render.edit.mutate({ sourceJobId: first.jobId, mask, instruction: "mine now" }),
      () => stranger.client.render.delete.mutate({ id: first.jobId }),
    ]) {
      expect(failure(await attempt().catch((caught: unknown) => caught)).message).toBe(MESSAGES.notFound);
    }

    // Deleting the middle version: its files go, its children hang from its parent and keep their pictures.
    await user.client.render.delete.mutate({ id: first.jobId });
    expect((await user.jar.fetch(`${server.url}/files/renders/${first.jobId}/full`)).status).toBe(404);
    const after = await user.client.render.versions.query({ id: renderId });
    expect(parents(after)).toEqual({
      [imageId]: null,
      [renderId]: imageId,
      [second.jobId]: renderId,
      [branch.jobId]: renderId,
      [fromPhoto.jobId]: imageId,
    });
    for (const id of [second.jobId, branch.jobId])
      expect((await user.jar.fetch(`${server.url}/files/renders/${id}/full`)).status).toBe(200);
    // A child can still be edited further (continue from any version).
    const more = await user.client.render.edit.mutate({ sourceJobId: branch.jobId, mask, instruction: "a lamp" });
    await waitForRenders(user, [more.jobId]);

    // Sharing works for a version as for a render: the link opens it signed out.
    const { shareUrl } = await user.client.render.setSharing.mutate({ id: more.jobId, link: true });
    const token = new URL(shareUrl!, server.url).searchParams.get("share")!;
    expect(await createStudioClient(server.url).client.render.shared.query({ token })).toMatchObject({ kind: "edit", style: "coastal" });
    expect((await fetch(`${server.url}/files/shared/${token}/after`)).status).toBe(200);

    // Moving a version to another project takes the edits made from it along; the rest stays.
    const other = await user.client.projects.create.mutate({ name: "Second flat" });
    await user.client.render.moveToProject.mutate({ id: branch.jobId, projectId: other.id });
    const projectOf = async (id: string) => (await user.client.render.job.query({ id })).projectId;
    expect([await projectOf(branch.jobId), await projectOf(more.jobId)]).toEqual([other.id, other.id]);
    expect(await projectOf(second.jobId)).not.toBe(other.id);
  });

  it("gives each version its number once: an edit of v2 made after v3 is v4, and v3 stays v3 (also after a delete)", async () => {
    const { user, imageId, renderId } = await userWithRender();
    const mask = dataUrl(await rectangleMask(1024, 768, BOX));
    const numbers = async () =>
      Object.fromEntries((await user.client.render.versions.query({ id: imageId })).nodes.map((node) => [node.id, node.number]));
    // v1 the photo → v2 the render → v3 an edit of v2.
    const third = await user.client.render.edit.mutate({ sourceJobId: renderId, mask, instruction: "a green sofa" });
    await waitForRenders(user, [third.jobId]);
    expect(await numbers()).toEqual({ [imageId]: 1, [renderId]: 2, [third.jobId]: 3 });
    // Another edit of v2 (shown under v2, above v3 in the tree) is v4; v3 keeps its number. It is
    // numbered as soon as it is queued, and keeps the number when it finishes.
    const fourth = await user.client.render.edit.mutate({ sourceJobId: renderId, mask, instruction: "a blue sofa" });
    expect((await numbers())[fourth.jobId]).toBe(4);
    await waitForRenders(user, [fourth.jobId]);
    const tree = await user.client.render.versions.query({ id: imageId });
    expect(tree.nodes.map((node) => [node.number, node.parentId])).toEqual([
      [1, null],
      [2, imageId],
      [3, renderId],
      [4, renderId],
    ]);
    // A Preview edit says which engine made it (the client labels it as the tint it is).
    expect(tree.nodes.find((node) => node.id === fourth.jobId)?.engine).toEqual({ id: "local", isAi: false });
    // Deleting v3 renumbers nothing, and its number is never given again.
    await user.client.render.delete.mutate({ id: third.jobId });
    const fifth = await user.client.render.edit.mutate({ sourceJobId: fourth.jobId, mask, instruction: "a lamp" });
    await waitForRenders(user, [fifth.jobId]);
    expect(await numbers()).toEqual({ [imageId]: 1, [renderId]: 2, [fourth.jobId]: 4, [fifth.jobId]: 5 });
    // A render of the same photo becomes a version when it succeeds, with the next number.
    const { jobs } = await user.client.render.create.mutate({ projectId: tree.projectId!, imageId, style: "luxury" });
    await waitForRenders(user, [jobs[0]!.id]);
    expect((await numbers())[jobs[0]!.id]).toBe(6);
  });

  it("re-rolls an edit as an edit (same version, mask and instruction), charged like one", async () => {
    const { user, renderId } = await userWithRender();
    const mask = dataUrl(await rectangleMask(1024, 768, BOX));
    const edit = await user.client.render.edit.mutate({ sourceJobId: renderId, mask, instruction: "paint the wall sage green" });
    await waitForRenders(user, [edit.jobId]);
    const again = await user.client.render.rerender.mutate({ id: edit.jobId, seed: "new" });
    await waitForRenders(user, [again.jobs[0]!.id]);
    const tree = await user.client.render.versions.query({ id: renderId });
    expect(tree.nodes.find((node) => node.id === again.jobs[0]!.id)).toMatchObject({
      kind: "edit",
      parentId: renderId,
      instruction: "paint the wall sage green",
    });
  });
});

describe("edits with an engine that repaints the whole picture", () => {
  let server: TestServer;
  const engine = repaintingEngine();
  beforeAll(async () => {
    server = await startTestServer({}, { renderProvider: engine });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("composites the answer so that only the painted region changes, and sends the engine the source and mask at one size", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1200, 900));
    const edit = await user.client.render.edit.mutate({
      uploadId: uploaded.body.imageId,
      mask: dataUrl(await rectangleMask(1024, 768, BOX)),
      instruction: "remove everything on the table",
      preset: "remove",
    });
    await waitForRenders(user, [edit.jobId]);
    const sent = engine.inpaints.at(-1)!;
    expect(sent.prompt).toBe("remove everything on the table");
    const [sentImage, sentMask] = await Promise.all([sharp(sent.image).metadata(), sharp(sent.mask).metadata()]);
    expect([sentImage.width, sentImage.height, sentMask.width, sentMask.height]).toEqual([1024, 768, 1024, 768]);

    // The engine repainted the studio's picture; the edit is the photo at its own size (1200 × 900) with
    // the region laid in, the photo's own pixels outside it.
    const photo = await pixels(user, server.url, `/files/uploads/${uploaded.body.imageId}/original`);
    const edited = await pixels(user, server.url, `/files/renders/${edit.jobId}/full`);
    expect([edited.width, edited.height]).toEqual([1200, 900]);
    const factor = 1200 / 1024;
    expect(maxDifference(edited, photo, boxAt(factor), "outside", 3 * EDIT.featherPx * factor)).toBeLessThanOrEqual(2);
    // Inside, the engine's green.
    const centre = (Math.round((BOX.top + BOX.height / 2) * factor) * 1200 + Math.round((BOX.left + BOX.width / 2) * factor)) * 3;
    expect([...edited.data.subarray(centre, centre + 3)].map((value) => Math.round(value / 8))).toEqual(
      [42 / 8, 127 / 8, 63 / 8].map(Math.round),
    );
    const view = await user.client.render.job.query({ id: edit.jobId });
    expect(view).toMatchObject({ kind: "edit", style: null, model: "test/inpainter", seed: 42, engine: { isAi: true } });
  });
});

describe("an engine without masks", () => {
  let server: TestServer;
  beforeAll(async () => {
    const { inpaint: _dropped, ...withoutMasks } = localProvider;
    server = await startTestServer({}, { renderProvider: { ...withoutMasks, capabilities: { ...PREVIEW_CAPABILITIES, masks: false } } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("refuses edits, free", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto());
    const error = failure(
      await user.client.render.edit
        .mutate({ uploadId: uploaded.body.imageId, mask: dataUrl(await rectangleMask(1024, 768, BOX)), instruction: "a sofa" })
        .catch((caught: unknown) => caught),
    );
    expect(error.message).toBe(MESSAGES.engineCannot);
  });
});

describe("OpenAI's mask protocol", () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("sends the mask as a PNG of the image's size, transparent where to edit, with the inpaint prompt", async () => {
    const provider = createOpenAiProvider({ apiKey: fake.apiKey, model: "gpt-image-1", baseUrl: fake.url });
    expect(provider.capabilities.masks).toBe(true);
    const image = await sharp(await roomPhoto(1024, 768))
      .jpeg()
      .toBuffer();
    const mask = await rectangleMask(1024, 768, BOX);
    const result = await provider.inpaint!({ image, mask, prompt: "a green velvet sofa", signal: new AbortController().signal });
    expect(result).toMatchObject({ model: "gpt-image-1", mime: "image/jpeg", parameters: { size: "1536x1024", mask: true } });
    const sent = fake.requests.at(-1)!;
    expect(sent.fields.prompt).toMatch(/^a green velvet sofa, photorealistic/);
    expect(sent.mask?.type).toBe("image/png");
    const { data, info } = await sharp(sent.mask!.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([1024, 768, 4]);
    const alphaAt = (x: number, y: number) => data[(y * 1024 + x) * 4 + 3];
    expect(alphaAt(BOX.left + 10, BOX.top + 10)).toBe(0);
    expect(alphaAt(5, 5)).toBe(255);
  });
});

describe("edits on a studio's own ComfyUI box", () => {
  let comfy: FakeComfyUi;
  let server: TestServer;
  beforeAll(async () => {
    comfy = await startFakeComfyUi();
    comfy.script({ steps: 4, stepDelayMs: 30 });
    server = await startTestServer({ RENDER_PROVIDER: "comfyui", COMFYUI_URL: comfy.url });
  });
  afterAll(async () => {
    await server.stop();
    await comfy.close();
  });

  it("runs the inpaint workflow with the photo and the mask, reports percent progress, and keeps the rest of the picture", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1200, 900));
    const { jobId } = await user.client.render.edit.mutate({
      uploadId: uploaded.body.imageId,
      mask: dataUrl(await rectangleMask(1024, 768, BOX)),
      instruction: "a green velvet sofa",
      preset: "replace",
    });
    const events = await collectEvents(user, { jobId }, (seen) => seen.some((entry) => entry.event.type === "succeeded"));
    const percents = events.flatMap((entry) =>
      entry.event.type === "rendering" && entry.event.percent !== null ? [entry.event.percent] : [],
    );
    expect(percents.length).toBeGreaterThan(0);
    // Two uploads (photo and mask), then the inpaint template queued with the instruction.
    expect(comfy.uploadsReceived.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(comfy.queued().at(-1)!.json)).toContain("a green velvet sofa");
    const view = await user.client.render.job.query({ id: jobId });
    expect(view).toMatchObject({
      kind: "edit",
      status: "succeeded",
      engine: { id: "comfyui", isAi: true },
      parameters: { template: "inpaint" },
    });
    const photo = await pixels(user, server.url, `/files/uploads/${uploaded.body.imageId}/original`);
    const edited = await pixels(user, server.url, `/files/renders/${jobId}/full`);
    expect([edited.width, edited.height]).toEqual([1200, 900]);
    const factor = 1200 / 1024;
    expect(maxDifference(edited, photo, boxAt(factor), "outside", 3 * EDIT.featherPx * factor)).toBeLessThanOrEqual(2);
  });
});
