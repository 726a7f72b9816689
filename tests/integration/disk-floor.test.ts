/**
 * The free-disk floor (DISK_FREE_FLOOR_MB) holds for every writer, not only uploads (issue 27,
 * probe finding 10): below it, uploads, renders, re-renders, edits, upscales, listing exports, the
 * studio logo and backups are refused with serverStorageFull before anything is written or charged,
 * and a queued render that reaches its save fails with the same message and its credit back. Above
 * it, each works again. The free space is injected (the store's freeBytes), no disk is filled.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { ledgerBalance } from "../../src/server/services/credits";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { collectEvents, isFinal, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";
import { studioPictureSize } from "../../src/shared/edits";

const MB = 1_048_576;

describe("the free-disk floor", () => {
  let server: TestServer;
  let free = 100 * MB;
  // The Preview engine at 1024 px with an upscale (as the AI engines), and a hold the queued-render test releases.
  let hold: Promise<void> | null = null;
  const engine: RenderProvider = {
    ...localProvider,
    id: "floor-test",
    capabilities: { ...PREVIEW_CAPABILITIES, photoSize: false, upscale: true },
    async render(request) {
      if (hold) await hold;
      return localProvider.render(request);
    },
    async upscale(request) {
      const image = await sharp(request.image).resize(request.targetWidth, request.targetHeight).jpeg().toBuffer();
      return { image, mime: "image/jpeg", model: "test-upscaler" };
    },
  };
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "rc-floor-backups-"));

  beforeAll(async () => {
    server = await startTestServer(
      { DISK_FREE_FLOOR_MB: "10", BACKUP_DIR: backupDir, RENDER_CONCURRENCY: "1" },
      { renderProvider: engine, storage: (disk) => ({ ...disk, freeBytes: () => Promise.resolve(free) }) },
    );
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(backupDir, { recursive: true, force: true });
  });

  const refusedFull = async (call: Promise<unknown>) =>
    expect(await call.then(() => "written", failure)).toMatchObject({ message: MESSAGES.serverStorageFull });

  async function userWithRender() {
    const user = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: user.userId, role: "admin", created_at: Date.now() }).execute();
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1600, 1200));
    const { projectId, imageId } = uploaded.body;
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "modern" });
    await waitForRenders(user, [jobs[0]!.id]);
    const row = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobs[0]!.id).executeTakeFirstOrThrow();
    // Edits repaint the studio's picture (the result fitted to 1024 px), whose size the mask has.
    return { user, projectId, imageId, jobId: row.id, ...studioPictureSize(row.result_width!, row.result_height!) };
  }

  const mask = async (width: number, height: number) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000"/><rect x="10" y="10" width="${Math.round(width / 3)}" height="${Math.round(height / 3)}" fill="#fff"/></svg>`;
    return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString("base64")}`;
  };

  it("refuses every writer below the floor, charging nothing and writing nothing, and lets each work again above it", async () => {
    free = 100 * MB;
    const { user, projectId, imageId, jobId, width, height } = await userWithRender();
    const editMask = await mask(width, height);
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const credits = await ledgerBalance(server.deps.db, user.userId);
    const jobsBefore = await server.deps.db.selectFrom("render_jobs").select("id").execute();
    const exportsBefore = await server.deps.db.selectFrom("listing_exports").select("id").execute();

    free = 10 * MB - 1;
    const refusedUpload = await upload(server.url, user.jar, await roomPhoto(400, 300));
    expect(refusedUpload).toMatchObject({ status: 503, body: { error: MESSAGES.serverStorageFull } });
    await refusedFull(user.client.render.create.mutate({ projectId, imageId, style: "coastal" }));
    await refusedFull(user.client.render.rerender.mutate({ id: jobId, seed: "new" }));
    await refusedFull(user.client.render.edit.mutate({ sourceJobId: jobId, mask: editMask, instruction: "a green sofa" }));
    await refusedFull(user.client.render.upscale.mutate({ id: jobId }));
    await refusedFull(user.client.listing.create.mutate({ jobId, language: "en" }));
    await refusedFull(user.client.admin.backUpNow.mutate());
    await refusedFull(user.client.admin.setStudioLogo.mutate({ dataUrl: `data:image/png;base64,${logo.toString("base64")}` }));

    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(credits);
    expect(await server.deps.db.selectFrom("render_jobs").select("id").execute()).toEqual(jobsBefore);
    expect(await server.deps.db.selectFrom("listing_exports").select("id").execute()).toEqual(exportsBefore);
    expect(
      (await server.deps.db.selectFrom("render_jobs").select("upscaled_key").where("id", "=", jobId).executeTakeFirstOrThrow())
        .upscaled_key,
    ).toBeNull();
    expect(fs.readdirSync(backupDir).filter((name) => !name.startsWith("."))).toEqual([]);

    free = 10 * MB;
    expect((await upload(server.url, user.jar, await roomPhoto(400, 300))).status).toBe(201);
    const created = await user.client.render.create.mutate({ projectId, imageId, style: "coastal" });
    const rerolled = await user.client.render.rerender.mutate({ id: jobId, seed: "new" });
    const edited = await user.client.render.edit.mutate({ sourceJobId: jobId, mask: editMask, instruction: "a green sofa" });
    await waitForRenders(user, [created.jobs[0]!.id, rerolled.jobs[0]!.id, edited.jobId]);
    expect(await user.client.render.upscale.mutate({ id: jobId })).toMatchObject({ width: 1600, height: 1200 });
    expect(await user.client.listing.create.mutate({ jobId, language: "en" })).toMatchObject({ publicUrl: expect.any(String) });
    expect(await user.client.admin.backUpNow.mutate()).toMatchObject({ error: null });
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(credits - 3);
  });

  it("a queued render that cannot save below the floor fails with the message and its credit back, not a crash", async () => {
    free = 100 * MB;
    const { user, projectId, imageId } = await userWithRender();
    const credits = await ledgerBalance(server.deps.db, user.userId);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "coastal" });
    const jobId = jobs[0]!.id;
    await collectEvents(user, { jobId }, (seen) => seen.some((entry) => entry.event.type === "rendering"));
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(credits - 1);

    // The disk runs low while the engine works; the result cannot be saved.
    free = MB;
    release();
    hold = null;
    const events = await collectEvents(user, { jobId }, (seen) => seen.some((entry) => isFinal(entry.event)));
    expect(events.at(-1)!.event).toMatchObject({ type: "failed", message: MESSAGES.serverStorageFull, refunded: true });
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(credits);
    const row = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "failed", error: MESSAGES.serverStorageFull, result_key: null });
    expect(await server.deps.storage.get("project-uploads", `renders/${jobId}/medium.jpg`)).toBeNull();
    free = 100 * MB;
  });
});
