/**
 * Anonymous uploads cannot fill the disk (issue 14, item 6): daily byte budgets per visitor and per
 * client address, a storage quota per account over its photos and renders, and a free-space floor
 * kept by removing visitors' unclaimed demo pictures, oldest first.
 */
import sharp from "sharp";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { prepareUpload } from "../../src/server/images/prepare-upload";
import { thumbnail } from "../../src/server/images/variants";
import type { ObjectStorage } from "../../src/server/storage/storage";
import { createStudioClient, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, TestClock } from "../helpers/test-clock";

const MB = 1_048_576;

/** A photo of noise, which JPEG cannot shrink much: a few hundred kilobytes as stored. */
async function noisePhoto(seed: number, width = 700, height = 500): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let index = 0; index < raw.length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    raw[index] = (state >> 16) & 255;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** What the server stores for this photo (the cleaned original and its thumbnail): what the budgets count. */
async function storedSize(photo: Buffer): Promise<number> {
  const prepared = await prepareUpload(photo);
  if (!prepared.ok) throw new Error(prepared.reason);
  return prepared.data.length + (await thumbnail(prepared.data)).data.length;
}

let photo: Buffer;
let size: number;
beforeAll(async () => {
  photo = await noisePhoto(7);
  size = await storedSize(photo);
  // The arithmetic below needs a photo well under a megabyte.
  expect(size).toBeGreaterThan(200_000);
  expect(size).toBeLessThan(MB / 2);
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Uploads as new visitors (a fresh cookie each) until one is refused; the answers in order. */
async function uploadsUntilRefused(url: string, visitor = () => createStudioClient(url).jar, limit = 20) {
  const answers: Array<{ status: number; error?: string }> = [];
  for (let attempt = 0; attempt < limit; attempt++) {
    const { status, body } = await upload(url, visitor(), photo);
    answers.push({ status, error: body.error });
    if (status !== 201) break;
  }
  return answers;
}

describe("visitors' daily upload budgets", () => {
  it("holds one visitor to VISITOR_UPLOAD_MB_PER_DAY, then lets them go on the next day", async () => {
    const clock = new TestClock();
    server = await startTestServer({ VISITOR_UPLOAD_MB_PER_DAY: "1", ADDRESS_UPLOAD_MB_PER_DAY: "100" }, { clock });
    const visitor = createStudioClient(server.url).jar;
    const answers = await uploadsUntilRefused(server.url, () => visitor);
    const fits = Math.floor(MB / size);
    expect(answers.slice(0, fits).every((answer) => answer.status === 201)).toBe(true);
    expect(answers[fits]).toEqual({ status: 429, error: MESSAGES.uploadVisitorBudgetSpent });
    // Another visitor from the same address has a budget of their own.
    expect((await upload(server.url, createStudioClient(server.url).jar, photo)).status).toBe(201);

    clock.advance(DAY);
    expect((await upload(server.url, visitor, photo)).status).toBe(201);
    // Past days' totals are forgotten by housekeeping.
    clock.advance(2 * DAY);
    await server.services.render.runHousekeeping();
    expect(await server.deps.db.selectFrom("upload_budgets").selectAll().execute()).toEqual([]);
  });

  it("holds all visitors of one address to ADDRESS_UPLOAD_MB_PER_DAY together; signed-in users are not counted", async () => {
    server = await startTestServer({ VISITOR_UPLOAD_MB_PER_DAY: "100", ADDRESS_UPLOAD_MB_PER_DAY: "2" });
    const url = server.url;
    const answers = await uploadsUntilRefused(url);
    const fits = Math.floor((2 * MB) / size);
    expect(answers).toHaveLength(fits + 1);
    expect(answers.at(-1)).toEqual({ status: 429, error: MESSAGES.uploadAddressBudgetSpent });
    // The refused upload left nothing behind, and took nothing from the budget.
    expect(await server.deps.db.selectFrom("uploads").select("id").execute()).toHaveLength(fits);
    const budget = await server.deps.db
      .selectFrom("upload_budgets")
      .selectAll()
      .where("subject", "like", "address:%")
      .executeTakeFirstOrThrow();
    expect(budget.bytes).toBe(fits * size);

    const user = await signedInClient(url);
    expect((await upload(url, user.jar, photo)).status).toBe(201);
  });
});

describe("the storage quota of an account", () => {
  it("counts photos and render files; refuses an upload past USER_STORAGE_QUOTA_MB until something is deleted", async () => {
    server = await startTestServer({ USER_STORAGE_QUOTA_MB: "1" });
    const url = server.url;
    const user = await signedInClient(url);
    const first = await upload(url, user.jar, photo);
    expect(first.status).toBe(201);
    const { jobs } = await user.client.render.create.mutate({
      projectId: first.body.projectId,
      imageId: first.body.imageId,
      style: "modern",
    });
    await waitForRenders(user, [jobs[0]!.id]);

    const job = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobs[0]!.id).executeTakeFirstOrThrow();
    expect(job.stored_bytes).toBeGreaterThan(10_000);
    const use = await user.client.render.storage.query();
    expect(use).toEqual({ usedBytes: job.stored_bytes + (await uploadBytes(first.body.imageId)), quotaBytes: MB });

    // The photo and its render's files (input, result in three sizes) fill the megabyte.
    expect(use.usedBytes + size).toBeGreaterThan(MB);
    const refused = await upload(url, user.jar, photo);
    expect(refused).toMatchObject({ status: 403, body: { error: MESSAGES.storageQuotaFull } });
    // A full account starts no render either (it would store more files), and is not charged.
    const credits = (await user.client.render.allowance.query()).credits;
    await expect(
      user.client.render.create.mutate({ projectId: first.body.projectId, imageId: first.body.imageId, style: "modern" }),
    ).rejects.toThrow(MESSAGES.storageQuotaFull);
    expect((await user.client.render.allowance.query()).credits).toBe(credits);

    // Deleting the render makes room again.
    await user.client.render.delete.mutate({ id: jobs[0]!.id });
    expect((await upload(url, user.jar, photo)).status).toBe(201);
  });

  it("USER_STORAGE_QUOTA_MB=0 means no quota", async () => {
    server = await startTestServer({ USER_STORAGE_QUOTA_MB: "0" });
    const user = await signedInClient(server.url);
    expect((await user.client.render.storage.query()).quotaBytes).toBeNull();
  });

  async function uploadBytes(id: string): Promise<number> {
    const row = await server!.deps.db.selectFrom("uploads").select("bytes").where("id", "=", id).executeTakeFirstOrThrow();
    return row.bytes;
  }
});

describe("a disk that runs low", () => {
  /** A disk of `capacity` bytes: free space is what the stored files leave. */
  const smallDisk = (capacity: () => number) => (disk: ObjectStorage) => ({
    ...disk,
    freeBytes: async () => capacity() - (await disk.size!(UPLOAD_BUCKET)),
  });

  it("removes visitors' unclaimed pictures oldest first to keep DISK_FREE_FLOOR_MB, and refuses uploads when nothing is left to remove", async () => {
    let capacity = MB + 2.5 * size;
    const clock = new TestClock();
    server = await startTestServer({ DISK_FREE_FLOOR_MB: "1" }, { clock, storage: smallDisk(() => capacity) });
    const url = server.url;
    const uploaded: string[] = [];
    for (let visitor = 0; visitor < 3; visitor++) {
      clock.advance(60_000);
      const { status, body } = await upload(url, createStudioClient(url).jar, photo);
      expect(status).toBe(201);
      uploaded.push(body.imageId);
    }
    // The first visitor's picture went to make room for the fourth; the others stay.
    clock.advance(60_000);
    const fourth = await upload(url, createStudioClient(url).jar, photo);
    expect(fourth.status).toBe(201);
    const kept = await server.deps.db.selectFrom("uploads").select("id").orderBy("created_at").execute();
    expect(kept.map((row) => row.id)).toEqual([...uploaded.slice(1), fourth.body.imageId]);
    expect(await server.deps.storage.get(UPLOAD_BUCKET, `uploads/${uploaded[0]}/original.jpg`)).toBeNull();

    // A user's pictures are never removed for space: with the disk full of them, uploads wait.
    const user = await signedInClient(url);
    capacity = MB - 1;
    const refused = await upload(url, user.jar, photo);
    expect(refused).toMatchObject({ status: 503, body: { error: MESSAGES.serverStorageFull } });
    // It took the visitors' pictures first, all of them, before refusing.
    expect(await server.deps.db.selectFrom("uploads").select("id").where("visitor_id", "is not", null).execute()).toEqual([]);
  });
});
