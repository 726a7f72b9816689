/**
 * Stored files in an S3-compatible store (STORAGE_URL, decision 076), against a real server of the
 * S3 protocol that this test starts in-process: fauxqs (npm), an emulator of S3 for tests. It is a
 * test double of S3, not S3: it checks the requests' shape and answers as S3 does (errors, paging),
 * but not signatures. (s3rver, the usual choice, pages with DES, which OpenSSL 3 in Node 24 refuses.)
 *
 * The adapter's contract first (put, get, remove, list with paging, missing objects, prefixes kept
 * apart, keys checked before any request), then the app on it: a photo uploaded, rendered with the
 * offline Preview engine and downloaded through the app, every file in the bucket and none under
 * DATA_DIR/storage, another user still refused; the disk floor, housekeeping and backups with a bucket.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { startFauxqs, type FauxqsServer } from "fauxqs";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import zlib from "node:zlib";
import tar from "tar-stream";
import type { BackupManifest } from "../../src/server/backup/archive";
import { MESSAGES } from "../../src/shared/messages";
import { runScript } from "../helpers/cli";
import { createS3Storage, type S3StorageOptions } from "../../src/server/storage/s3";
import type { Bucket, ObjectStorage } from "../../src/server/storage/storage";
import { collectEvents, createStudioClient, isFinal, PASSWORD, roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir, placeOf, testDatabaseVariables } from "../helpers/test-env";

const BUCKET = "roomcanvas-test";
const KEYS = { accessKeyId: "test-key", secretAccessKey: "test-secret" };
const S3_KEYS = { S3_ACCESS_KEY_ID: KEYS.accessKeyId, S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey };

let s3: FauxqsServer;
let raw: S3Client;
const stores: ObjectStorage[] = [];

beforeAll(async () => {
  s3 = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
  s3.createBucket(BUCKET);
  raw = new S3Client({ endpoint: s3.address, region: "us-east-1", forcePathStyle: true, credentials: KEYS });
});

afterAll(async () => {
  for (const store of stores) store.close?.();
  raw?.destroy();
  await s3?.stop();
});

/** The manifest of a backup file (its first entry). */
async function readManifest(file: string): Promise<BackupManifest> {
  const extract = tar.extract();
  let manifest: Buffer | undefined;
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on("end", () => {
      if (header.name === "manifest.json") manifest = Buffer.concat(chunks);
      next();
    });
  });
  const done = new Promise<void>((resolve, reject) => extract.on("finish", () => resolve()).on("error", reject));
  extract.end(zlib.gunzipSync(fs.readFileSync(file)));
  await done;
  return JSON.parse(manifest!.toString()) as BackupManifest;
}

function storeAt(prefix: string, options: Partial<S3StorageOptions> = {}): ObjectStorage {
  const store = createS3Storage({
    bucket: BUCKET,
    prefix,
    endpoint: s3.address,
    region: "us-east-1",
    credentials: KEYS,
    forcePathStyle: true,
    ...options,
  });
  stores.push(store);
  return store;
}

/** Every object name in the bucket under `prefix`, as the store itself sees it. */
async function namesIn(prefix: string): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }));
    names.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names.sort();
}

async function listed(store: ObjectStorage): Promise<Array<{ key: string; bytes: number }>> {
  const all: Array<{ key: string; bytes: number }> = [];
  for await (const object of store.list!(UPLOAD_BUCKET)) all.push({ key: object.key, bytes: object.bytes });
  return all.sort((a, b) => a.key.localeCompare(b.key));
}

describe("the S3 adapter", () => {
  it("stores, reads back and removes an object, under <prefix>/<bucket>/<key>", async () => {
    const store = storeAt("contract/one");
    const data = Buffer.from("a picture's bytes");
    await store.put(UPLOAD_BUCKET, "uploads/abc/original.jpg", data, "image/jpeg");
    expect(await namesIn("contract/one/")).toEqual(["contract/one/project-uploads/uploads/abc/original.jpg"]);
    expect(await store.get(UPLOAD_BUCKET, "uploads/abc/original.jpg")).toEqual({ data, contentType: "image/jpeg" });
    // Replaced in place.
    await store.put(UPLOAD_BUCKET, "uploads/abc/original.jpg", Buffer.from("newer"), "image/jpeg");
    expect((await store.get(UPLOAD_BUCKET, "uploads/abc/original.jpg"))?.data.toString()).toBe("newer");
    await store.remove(UPLOAD_BUCKET, "uploads/abc/original.jpg");
    expect(await store.get(UPLOAD_BUCKET, "uploads/abc/original.jpg")).toBeNull();
    expect(await namesIn("contract/one/")).toEqual([]);
  });

  it("answers null for a missing object, and removing one is not an error", async () => {
    const store = storeAt("contract/missing");
    expect(await store.get(UPLOAD_BUCKET, "renders/nothing/result.png")).toBeNull();
    await expect(store.remove(UPLOAD_BUCKET, "renders/nothing/result.png")).resolves.toBeUndefined();
  });

  it("a bucket that does not exist is an error, not a missing file", async () => {
    const store = storeAt("contract", { bucket: "no-such-bucket" });
    await expect(store.get(UPLOAD_BUCKET, "uploads/abc/original.jpg")).rejects.toMatchObject({ name: "NoSuchBucket" });
    await expect(store.put(UPLOAD_BUCKET, "uploads/abc/original.jpg", Buffer.from("x"), "image/jpeg")).rejects.toMatchObject({
      name: "NoSuchBucket",
    });
  });

  it("keeps the content type it was given, and falls back on the key's extension", async () => {
    const store = storeAt("contract/types");
    await store.put(UPLOAD_BUCKET, "renders/r1/result.png", Buffer.from("png"), "image/png");
    expect((await store.get(UPLOAD_BUCKET, "renders/r1/result.png"))?.contentType).toBe("image/png");
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: "contract/types/project-uploads/renders/r1/thumb.webp", Body: "w" }));
    // Copied in without a type (a migration from the disk, say): the extension's, as on disk.
    expect((await store.get(UPLOAD_BUCKET, "renders/r1/thumb.webp"))?.contentType).toBe("image/webp");
  });

  it("lists every object of the bucket through pages, with its size and time, and nothing it did not name", async () => {
    const store = storeAt("contract/paged", { pageSize: 2 });
    const written: Array<{ key: string; bytes: number }> = [];
    for (let index = 0; index < 7; index++) {
      const key = `renders/job${index}/medium.jpg`;
      await store.put(UPLOAD_BUCKET, key, Buffer.alloc(index + 1, 1), "image/jpeg");
      written.push({ key, bytes: index + 1 });
    }
    // Objects under the prefix that the app would never have named are not its to list (nor to remove).
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: "contract/paged/project-uploads/Notes From Ops.txt", Body: "x" }));
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: "contract/paged/other-bucket/renders/x/a.jpg", Body: "x" }));
    expect(await listed(store)).toEqual(written);
    const started = Date.now() - 60_000;
    for await (const object of store.list!(UPLOAD_BUCKET)) expect(object.modifiedAt).toBeGreaterThan(started);
  });

  it("keeps studios under different prefixes apart, even when one prefix starts the other's name", async () => {
    const a = storeAt("studio");
    const b = storeAt("studio-b");
    const top = storeAt("");
    await a.put(UPLOAD_BUCKET, "uploads/same/original.jpg", Buffer.from("A"), "image/jpeg");
    await b.put(UPLOAD_BUCKET, "uploads/same/original.jpg", Buffer.from("B"), "image/jpeg");
    expect((await a.get(UPLOAD_BUCKET, "uploads/same/original.jpg"))?.data.toString()).toBe("A");
    expect((await b.get(UPLOAD_BUCKET, "uploads/same/original.jpg"))?.data.toString()).toBe("B");
    expect(await top.get(UPLOAD_BUCKET, "uploads/same/original.jpg")).toBeNull();
    expect(await listed(a)).toEqual([{ key: "uploads/same/original.jpg", bytes: 1 }]);
    expect(await listed(b)).toEqual([{ key: "uploads/same/original.jpg", bytes: 1 }]);
    expect(await listed(top)).toEqual([]);
    await b.remove(UPLOAD_BUCKET, "uploads/same/original.jpg");
    expect((await a.get(UPLOAD_BUCKET, "uploads/same/original.jpg"))?.data.toString()).toBe("A");
  });

  it("refuses keys and buckets the server would not have made, before any request", async () => {
    const store = storeAt("contract/keys");
    for (const key of ["../escape.jpg", "uploads/../../x.jpg", "/absolute.jpg", "Upper/case.jpg", "with space.jpg", "no-extension", ""]) {
      await expect(store.put(UPLOAD_BUCKET, key, Buffer.from("x"), "image/jpeg"), key).rejects.toThrow(/invalid storage key/);
      await expect(store.get(UPLOAD_BUCKET, key), key).rejects.toThrow(/invalid storage key/);
      await expect(store.remove(UPLOAD_BUCKET, key), key).rejects.toThrow(/invalid storage key/);
    }
    await expect(store.put("other" as Bucket, "uploads/a/b.jpg", Buffer.from("x"), "image/jpeg")).rejects.toThrow(/unknown bucket/);
    expect(await namesIn("contract/keys")).toEqual([]);
  });

  it("fails a request to a store that does not answer instead of waiting for good", async () => {
    // Takes the connection and never says a word.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const store = storeAt("contract", { endpoint: `http://127.0.0.1:${port}`, requestTimeoutMs: 200 });
      await expect(store.get(UPLOAD_BUCKET, "uploads/abc/original.jpg")).rejects.toThrow(/timed? ?out/i);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("has no local files, no free-space probe and no running total (the studio's tests below show each caller doing without)", () => {
    const store = storeAt("contract");
    expect([store.localFile, store.freeBytes, store.size]).toEqual([undefined, undefined, undefined]);
  });
});

describe("the studio with STORAGE_URL", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const start = (prefix: string, extra: Record<string, string> = {}) =>
    startTestServer({
      STORAGE_URL: `s3://${BUCKET}/${prefix}`,
      S3_ENDPOINT: s3.address,
      ...S3_KEYS,
      ...extra,
    });

  it("uploads, renders and downloads through the app with every file in the bucket and none under DATA_DIR", async () => {
    server = await start("e2e");
    const { url } = server;
    const ana = await signedInClient(url);
    const uploaded = await upload(url, ana.jar, await roomPhoto(800, 600));
    expect(uploaded.status).toBe(201);
    const { jobs } = await ana.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "scandinavian",
    });
    const jobId = jobs[0]!.id;
    const events = await collectEvents(ana, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    expect(events.at(-1)!.event.type).toBe("succeeded");

    const { db, env } = server.deps;
    const upload_ = await db.selectFrom("uploads").selectAll().where("id", "=", uploaded.body.imageId).executeTakeFirstOrThrow();
    const job = await db.selectFrom("render_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    const keys = [upload_.original_key, upload_.thumb_key, job.input_key, job.result_key, job.medium_key, job.thumb_key];
    const names = await namesIn("e2e/");
    for (const key of keys) expect(names, String(key)).toContain(`e2e/project-uploads/${key}`);
    // Nothing was written to the data folder's store.
    expect(fs.existsSync(path.join(env.DATA_DIR, "storage"))).toBe(false);

    // The download goes through the app, after its ownership check: the bucket's very bytes.
    const download = await ana.jar.fetch(`${url}/files/renders/${jobId}/download/high`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/jpeg");
    const bytes = Buffer.from(await download.arrayBuffer());
    const object = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: `e2e/project-uploads/${job.result_key}` }));
    expect(bytes.equals(Buffer.from(await object.Body!.transformToByteArray()))).toBe(true);
    expect((await sharp(bytes).metadata()).format).toBe("jpeg");
    const original = await ana.jar.fetch(`${url}${uploaded.body.url}`);
    expect([original.status, (await sharp(Buffer.from(await original.arrayBuffer())).metadata()).width]).toEqual([200, 800]);

    // The status page's byte total is the database's: the photo and the render's files.
    const overview = await server.services.admin.overview();
    expect(overview.storageBytes).toBe(upload_.bytes + job.stored_bytes);
    expect(job.stored_bytes).toBeGreaterThan(0);

    // Ready: the store takes a probe file (and removes it); the disk floor is measured on DATA_DIR's disk.
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true, storage: { ok: true }, disk: { ok: true } });
    expect((await namesIn("e2e/project-uploads/self-test/")).length).toBe(0);
  });

  it("still refuses another user's and a stranger's requests for the files (404)", async () => {
    server = await start("owners");
    const { url } = server;
    const ana = await signedInClient(url);
    const bob = await signedInClient(url);
    const uploaded = await upload(url, ana.jar, await roomPhoto(500, 400));
    const { jobs } = await ana.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "coastal",
    });
    const jobId = jobs[0]!.id;
    await collectEvents(ana, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    for (const file of [
      uploaded.body.url,
      uploaded.body.thumbUrl,
      `/files/renders/${jobId}/medium`,
      `/files/renders/${jobId}/before`,
      `/files/renders/${jobId}/download/high`,
    ]) {
      expect((await ana.jar.fetch(`${url}${file}`)).status, file).toBe(200);
      expect((await bob.jar.fetch(`${url}${file}`)).status, file).toBe(404);
      expect((await fetch(`${url}${file}`)).status, file).toBe(404);
    }
    // A deleted render's files leave the bucket with it.
    const job = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    await ana.client.render.delete.mutate({ id: jobId });
    const names = await namesIn("owners/");
    for (const key of [job.result_key, job.medium_key, job.thumb_key]) expect(names).not.toContain(`owners/project-uploads/${key}`);
  });

  it("starts on a DATA_DIR nothing has made yet, and measures its disk (on PostgreSQL nothing else makes it)", async () => {
    const dataDir = path.join(makeTempDir(), "not-yet");
    server = await startTestServer(
      { DATA_DIR: dataDir, STORAGE_URL: `s3://${BUCKET}/fresh`, S3_ENDPOINT: s3.address, ...S3_KEYS },
      { fresh: true },
    );
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect((await server.services.admin.overview()).diskFreeBytes).toBeGreaterThan(0);
    expect(await server.services.system.runCheck("disk-space")).toMatchObject({ ok: true });
  });

  it("keeps the disk floor on DATA_DIR's disk, and removes no visitor's picture from the bucket to make room there", async () => {
    server = await start("floor");
    const place = placeOf(server.deps.env);
    const first = await upload(server.url, createStudioClient(server.url).jar, await roomPhoto(400, 300));
    expect(first.status).toBe(201);
    await server.stop();
    // The same studio again, with a floor above any disk's size: DATA_DIR's disk is "full".
    server = await startTestServer(
      { ...place, STORAGE_URL: `s3://${BUCKET}/floor`, S3_ENDPOINT: s3.address, ...S3_KEYS, DISK_FREE_FLOOR_MB: "1000000000" },
      { fresh: true },
    );
    const second = await upload(server.url, createStudioClient(server.url).jar, await roomPhoto(400, 300));
    expect(second).toEqual({ status: 503, body: { error: MESSAGES.serverStorageFull } });
    // Removing the first visitor's picture would free nothing on that disk: it stays, row and objects.
    const row = await server.deps.db.selectFrom("uploads").selectAll().where("id", "=", first.body.imageId).executeTakeFirst();
    expect(row).toBeDefined();
    expect(await namesIn("floor/")).toEqual(
      [`floor/project-uploads/${row!.original_key}`, `floor/project-uploads/${row!.thumb_key}`].sort(),
    );
  });

  it("housekeeping finds files of the bucket that belong to nothing and removes them, and only them", async () => {
    server = await start("orphans");
    const ana = await signedInClient(server.url);
    const kept = await upload(server.url, ana.jar, await roomPhoto(400, 300));
    const row = await server.deps.db.selectFrom("uploads").selectAll().where("id", "=", kept.body.imageId).executeTakeFirstOrThrow();
    await server.deps.storage.put(UPLOAD_BUCKET, "renders/nosuchjob/medium.jpg", Buffer.alloc(10), "image/jpeg");
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: "orphans/project-uploads/renders/Ops Notes.txt", Body: "mine" }));
    // Two days on, every file is old enough to be judged.
    const later = Date.now() + 2 * 86_400_000;
    const removed = await server.services.render.runHousekeeping({ now: () => later });
    expect(removed).toMatchObject({ orphanFiles: 1, orphanBytes: 10 });
    expect(await namesIn("orphans/")).toEqual(
      [
        `orphans/project-uploads/${row.original_key}`,
        `orphans/project-uploads/${row.thumb_key}`,
        "orphans/project-uploads/renders/Ops Notes.txt",
      ].sort(),
    );
  });

  it("a backup holds the database only and names the bucket; restored, the database is checked and the pictures are read from the bucket", async () => {
    const backupDir = makeTempDir("rc-s3-backups-");
    server = await start("backups", { BACKUP_DIR: backupDir });
    const bucketWords = `s3://${BUCKET}/backups at ${new URL(s3.address).toString().replace(/\/$/, "")}`;
    const ana = await signedInClient(server.url);
    const uploaded = await upload(server.url, ana.jar, await roomPhoto(400, 300));
    expect(uploaded.status).toBe(201);
    const picture = Buffer.from(await (await ana.jar.fetch(`${server.url}${uploaded.body.url}`)).arrayBuffer());

    // /admin's "Back up now": taken, recorded, and the status says where the files are.
    const taken = await server.services.backups.backUpNow();
    expect(taken).toMatchObject({ trigger: "admin", error: null });
    expect((await server.services.backups.status()).filesElsewhere).toBe(bucketWords);
    // The self-test's backups check says it too.
    expect((await server.services.system.runCheck("backups")).detail).toContain(
      `backups hold the database only: the files stay in ${bucketWords}, backed up with the object store's own tools`,
    );

    // `npm run backup`: the same, and it says so.
    const cliDir = makeTempDir("rc-s3-cli-backups-");
    const s3Variables = { STORAGE_URL: `s3://${BUCKET}/backups`, S3_ENDPOINT: s3.address, ...S3_KEYS };
    const cli = await runScript("scripts/backup.ts", [cliDir], {
      env: { ...process.env, ...placeOf(server.deps.env), ...s3Variables, LOG_LEVEL: "silent" },
    });
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain("the database only");
    expect(cli.stdout).toContain(`pictures NOT in this backup: they stay in ${bucketWords} (STORAGE_URL)`);
    expect(cli.stdout).toContain("object store's own tools");

    const manifest = await readManifest(taken.file!);
    expect(manifest).toMatchObject({
      formatVersion: 4,
      storage: {
        files: 0,
        bytes: 0,
        objectStore: {
          url: `s3://${BUCKET}/backups`,
          endpoint: expect.stringContaining("127.0.0.1"),
          note: expect.stringContaining("object store's own tools"),
        },
      },
    });
    expect(manifest.files.filter((file) => file.path !== "app-secret")).toEqual([]);
    expect(manifest.database.tables.uploads).toBe(1);

    // Restored with the same bucket: every checksum and count matched, and the restore says where the pictures are.
    const target = testDatabaseVariables({ fresh: true });
    const restoredDir = path.join(makeTempDir("rc-s3-restored-"), "data");
    const restore = await runScript("scripts/restore.ts", [taken.file!], {
      env: {
        ...process.env,
        ...target,
        ...s3Variables,
        DATA_DIR: restoredDir,
        BACKUP_KEY_FILE: path.join(server.deps.env.DATA_DIR, "backup-key"),
      },
    });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain("the database only; every checksum matched");
    expect(restore.stdout).toContain(`pictures not in the backup: they stay in ${bucketWords}`);
    expect(fs.existsSync(path.join(restoredDir, "storage"))).toBe(false);

    // Without STORAGE_URL, the restore tells the operator to set it.
    const bare = await runScript("scripts/restore.ts", [taken.file!], {
      env: {
        ...process.env,
        ...testDatabaseVariables({ fresh: true }),
        DATA_DIR: path.join(makeTempDir("rc-s3-restored-"), "data"),
        BACKUP_KEY_FILE: path.join(server.deps.env.DATA_DIR, "backup-key"),
      },
    });
    expect(bare.code).toBe(0);
    expect(bare.stderr).toContain(`STORAGE_URL is not set: start the server with STORAGE_URL=s3://${BUCKET}/backups S3_ENDPOINT=`);

    // A server on the restored database and the same bucket: Ana signs in, her picture is there, byte for byte.
    await server.stop();
    server = await startTestServer({ ...target, ...s3Variables, DATA_DIR: restoredDir }, { fresh: true });
    const again = createStudioClient(server.url);
    await again.client.auth.signIn.mutate({ email: ana.email, password: PASSWORD });
    const restored = await again.jar.fetch(`${server.url}${uploaded.body.url}`);
    expect(restored.status).toBe(200);
    expect(Buffer.from(await restored.arrayBuffer()).equals(picture)).toBe(true);
  });
});
