/**
 * Backups that restore (issue 16, decision 047). A backup taken by `npm run backup` while the
 * server renders and signs people up restores, with `npm run restore`, into a database whose tables
 * match the manifest and that passes integrity_check; a server started on it signs in a restored
 * account and serves a restored picture. A restore refuses a non-empty DATA_DIR, a damaged backup
 * and an archive with entries a backup cannot hold, and leaves DATA_DIR empty. The schedule takes a
 * backup when one is due and keeps BACKUP_KEEP; /admin's "Back up now" is audited and refused while
 * another runs or without BACKUP_DIR; the self-test warns when the last backup is overdue.
 * Issue 27 (decision 065): the manifest is signed with the install's backup key, and a restore
 * refuses a tampered backup, another install's, an unsigned one (unless accepted), and streams
 * entries capped by the signed manifest, its memory bounded before a small archive with a huge entry.
 * Issue 29 (decision 081): on PostgreSQL (both lanes run this file) the database is a pg_dump
 * restored into an empty database and counted again; a backup of the other engine, a database
 * that is not empty and a missing pg_dump are refused, saying why.
 */
import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import SqliteDatabase from "better-sqlite3";
import tar from "tar-stream";
import { afterEach, describe, expect, inject, it } from "vitest";
import { sql } from "kysely";
import {
  BACKUP_FILE_PATTERN,
  backupKeyId,
  countTables,
  createBackup,
  restoreBackup,
  type BackupManifest,
  type BackupSource,
} from "../../src/server/backup/archive";
import { pruneBackups, takeBackup } from "../../src/server/backup";
import { postgresEnvironment } from "../../src/server/backup/database";
import { openDatabase } from "../../src/server/db/client";
import { parseEnv } from "../../src/server/env";
import { CREDITS } from "../../src/shared/constants";
import { runScript } from "../helpers/cli";
import { PASSWORD, createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, TestClock } from "../helpers/test-clock";
import { failure } from "../helpers/failure";
import { databaseLane, placeOf, testDatabaseVariables } from "../helpers/test-env";

const onPostgres = databaseLane() === "postgres";

/** Where a restore goes besides DATA_DIR: on PostgreSQL, a new empty database (DATABASE_URL, APP_SECRET). */
const restoreTarget = () => testDatabaseVariables({ fresh: true });

/** Row counts of every table of a database (a SQLite file, or a PostgreSQL URL). */
async function countRows(location: string): Promise<Record<string, number>> {
  if (!location.startsWith("postgres")) return countTables(location);
  const db = openDatabase(location);
  try {
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table.name)}`.execute(db);
      counts[table.name] = Number(rows[0]!.n);
    }
    return counts;
  } finally {
    await db.destroy();
  }
}

/** A backup source for a test server: its DATA_DIR and database (SQLite file, or its PostgreSQL database). */
function sourceOf(server: TestServer): BackupSource {
  return {
    dataDir: server.deps.env.DATA_DIR,
    databaseFile: server.deps.env.DATABASE_FILE,
    databaseUrl: server.deps.env.DATABASE_URL,
    secretFromEnvironment: false,
    appVersion: "test",
    keyFile: path.join(server.deps.env.DATA_DIR, "backup-key"),
  };
}

const temp = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `rc-${name}-`));

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function start(env: Record<string, string> = {}, options: Parameters<typeof startTestServer>[1] = {}) {
  const server = await startTestServer(env, options);
  servers.push(server);
  return server;
}

async function makeAdmin(server: TestServer) {
  const admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  return admin;
}

/** Reads a .tar.gz into its entries (name → bytes). */
async function readArchive(file: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on("end", () => {
      entries.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  const done = new Promise<void>((resolve, reject) => extract.on("finish", () => resolve()).on("error", reject));
  extract.end(zlib.gunzipSync(fs.readFileSync(file)));
  await done;
  return entries;
}

/** Writes entries as a .tar.gz (to make damaged and hostile archives). */
async function writeArchive(file: string, entries: Array<[string, Buffer]>): Promise<void> {
  const pack = tar.pack();
  for (const [name, data] of entries) pack.entry({ name, size: data.length }, data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(chunks)));
}

describe("backup and restore", () => {
  // Two Node processes (backup, restore) start with tsx here, each with its own 60 s limit that names
  // the command and prints its output; their start-up is most of this test's time and grows with
  // whatever else the machine runs, hence the test's own 60 s.
  it("a backup taken by npm run backup while the server renders and signs people up restores into a working studio (on PostgreSQL: pg_dump, pg_restore into a second, empty database)", async () => {
    // Sign-ups run back to back once no render paces them: the per-minute limit is not what this test is about.
    const server = await start({ AUTH_RATE_LIMIT_PER_MINUTE: "100000" });
    const dataDir = server.deps.env.DATA_DIR;
    const user = await signedInClient(server.url);
    // Small: every render of the busy loop below competes with the backup command for the cores.
    const uploaded = await upload(server.url, user.jar, await roomPhoto(160, 120));
    expect(uploaded.status).toBe(201);
    const first = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(
      user,
      first.jobs.map((job) => job.id),
    );

    // Writes keep coming while the backup runs: renders and sign-ups.
    const backupDir = temp("backups");
    let writing = true;
    const writes = (async () => {
      let count = 0;
      while (writing) {
        const other = createStudioClient(server.url);
        await other.client.auth.signUp.mutate({
          email: `busy${count}.${Date.now()}@example.com`,
          password: PASSWORD,
          fullName: "Busy Bee",
        });
        // Renders while the user's free credits last (one went to the first render): how many rounds
        // fit in the backup depends on the machine, and a refused charge is not what this test is about.
        if (count < CREDITS.signUpGrant - CREDITS.perRender) {
          const { jobs } = await user.client.render.create.mutate({
            projectId: uploaded.body.projectId,
            imageId: uploaded.body.imageId,
            style: count % 2 ? "scandinavian" : "industrial",
          });
          await waitForRenders(
            user,
            jobs.map((job) => job.id),
          );
        }
        count++;
      }
      return count;
    })();
    const backup = await runScript("scripts/backup.ts", [backupDir], {
      env: { ...process.env, ...placeOf(server.deps.env), LOG_LEVEL: "silent" },
    });
    writing = false;
    expect(await writes).toBeGreaterThan(0);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const [file] = fs.readdirSync(backupDir);
    expect(file).toMatch(BACKUP_FILE_PATTERN);
    expect(backup.stdout).toContain(`Backup written: ${path.join(backupDir, file!)}`);
    // Recorded for /admin like the server's own.
    const recorded = await server.deps.db.selectFrom("backups").selectAll().execute();
    expect(recorded).toEqual([expect.objectContaining({ trigger: "command", file: path.join(backupDir, file!), error: null })]);

    const entries = await readArchive(path.join(backupDir, file!));
    const manifest = JSON.parse(entries.get("manifest.json")!.toString()) as BackupManifest;
    expect(manifest.database.tables.users).toBeGreaterThanOrEqual(2);
    expect(manifest.database.tables.kysely_migration).toBeGreaterThan(0);
    expect(manifest.database.tables.render_jobs).toBeGreaterThanOrEqual(2);
    expect(manifest.storage.files).toBeGreaterThanOrEqual(3);
    if (onPostgres) {
      // The database is a pg_dump (custom format: "PGDMP"); APP_SECRET comes from the environment.
      expect(manifest).toMatchObject({ formatVersion: 3, database: { engine: "postgres", path: "database.pgdump" } });
      expect(entries.get("database.pgdump")!.subarray(0, 5).toString()).toBe("PGDMP");
      expect(entries.has("app.db")).toBe(false);
      expect(manifest.secret.included).toBe(false);
      expect(backup.stdout).toContain("database (pg_dump)");
      expect(backup.stdout).not.toContain(server.deps.env.DATABASE_URL!);
    } else {
      expect(manifest).toMatchObject({ formatVersion: 2, database: { engine: "sqlite", path: "app.db" } });
      expect(manifest.secret.included).toBe(true);
      expect(entries.get("app-secret")!.toString()).toBe(fs.readFileSync(path.join(dataDir, "app-secret"), "utf8"));
    }

    const restoredDir = path.join(temp("restored"), "data");
    const target = restoreTarget();
    const restore = await runScript("scripts/restore.ts", [path.join(backupDir, file!)], {
      env: { ...process.env, ...target, DATA_DIR: restoredDir, BACKUP_KEY_FILE: path.join(dataDir, "backup-key") },
    });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain("every checksum matched");

    if (onPostgres) {
      expect(restore.stdout).toContain("counted again after pg_restore: equal");
      expect(await countRows(target.DATABASE_URL!)).toEqual(manifest.database.tables);
      // Only the pictures land in DATA_DIR: the dump went into the database.
      expect(fs.readdirSync(restoredDir)).toEqual(["backup-key", "storage"]);
    } else {
      const restoredDb = path.join(restoredDir, "app.db");
      const sqlite = new SqliteDatabase(restoredDb, { readonly: true });
      expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
      sqlite.close();
      expect(countTables(restoredDb)).toEqual(manifest.database.tables);
      expect(fs.statSync(restoredDb).mode & 0o777).toBe(0o600);
    }

    // A server on the restored folder: the account signs in, its picture is there, byte for byte.
    const picture = await user.jar.fetch(`${server.url}${uploaded.body.url}`);
    const original = Buffer.from(await picture.arrayBuffer());
    const restoredServer = await start({ ...target, DATA_DIR: restoredDir }, { fresh: true });
    const again = createStudioClient(restoredServer.url);
    await again.client.auth.signIn.mutate({ email: user.email, password: PASSWORD });
    expect((await again.client.auth.session.query()).user?.email).toBe(user.email);
    const served = await again.jar.fetch(`${restoredServer.url}${uploaded.body.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(original)).toBe(true);
    const projects = await again.client.projects.list.query({});
    expect(projects.total).toBe(1);
  }, 60_000);

  it("refuses a DATA_DIR that is not empty, and leaves it as it was", async () => {
    const server = await start();
    const { result } = await backupOf(server);
    const busy = temp("busy");
    fs.writeFileSync(path.join(busy, "notes.txt"), "keep me");
    const restore = await runScript("scripts/restore.ts", [result.file], { env: { ...process.env, ...restoreTarget(), DATA_DIR: busy } });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(`Restore refused: ${busy} is not empty`);
    expect(fs.readdirSync(busy)).toEqual(["notes.txt"]);
  });

  it("refuses a damaged backup, one without a manifest, and entries a backup cannot hold, leaving DATA_DIR empty", async () => {
    const server = await start();
    const user = await signedInClient(server.url);
    expect((await upload(server.url, user.jar, await roomPhoto(320, 240))).status).toBe(201);
    const { result } = await backupOf(server);
    const entries = [...(await readArchive(result.file))];
    const picture = entries.find(([name]) => name.startsWith("storage/"))!;
    const work = temp("damaged");
    const cases: Array<[string, Array<[string, Buffer]>, string]> = [
      [
        "damaged.tar.gz",
        entries.map(([name, data]) => [
          name,
          name === picture[0] ? Buffer.concat([data.subarray(0, -1), Buffer.from([data.at(-1)! ^ 1])]) : data,
        ]),
        `${picture[0]} does not match its checksum in the manifest`,
      ],
      ["no-manifest.tar.gz", entries.filter(([name]) => name !== "manifest.json"), "the backup is not signed"],
      [
        "escape.tar.gz",
        [...entries.slice(0, 2), ["../outside.txt", Buffer.from("x")], ...entries.slice(2)],
        "an entry a backup cannot have",
      ],
      [
        "extra.tar.gz",
        [...entries.slice(0, 2), ["storage/project-uploads/extra.jpg", Buffer.from("x")], ...entries.slice(2)],
        "is in the backup but not in its manifest",
      ],
      [
        "missing.tar.gz",
        entries.filter(([name]) => name !== picture[0]),
        `${picture[0]} is listed in the manifest but missing from the backup`,
      ],
    ];
    // Each refused before pg_restore: the one empty database stays empty for the next.
    const databaseUrl = restoreTarget().DATABASE_URL;
    for (const [name, content, reason] of cases) {
      const file = path.join(work, name);
      await writeArchive(file, content);
      const target = path.join(work, `${name}-data`);
      await expect(restoreBackup(file, target, { keyFile: keyFileOf(server), databaseUrl }), name).rejects.toThrow(reason);
      expect(fs.existsSync(target) ? fs.readdirSync(target) : [], name).toEqual([]);
    }
    expect(fs.existsSync(path.join(work, "outside.txt"))).toBe(false);
    const notGzip = path.join(work, "plain.txt");
    fs.writeFileSync(notGzip, "hello");
    await expect(restoreBackup(notGzip, path.join(work, "plain-data"), { keyFile: keyFileOf(server), databaseUrl })).rejects.toThrow(
      "is not a readable backup",
    );
    // Cut short, as by a full disk or an interrupted copy.
    const whole = fs.readFileSync(result.file);
    const truncated = path.join(work, "truncated.tar.gz");
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
    await expect(restoreBackup(truncated, path.join(work, "truncated-data"), { keyFile: keyFileOf(server), databaseUrl })).rejects.toThrow(
      "is not a readable backup",
    );
    expect(fs.existsSync(path.join(work, "truncated-data")) ? fs.readdirSync(path.join(work, "truncated-data")) : []).toEqual([]);
  });

  const keyFileOf = (server: TestServer) => path.join(server.deps.env.DATA_DIR, "backup-key");

  async function backupOf(server: TestServer) {
    const dir = temp("one");
    const result = await createBackup(sourceOf(server), dir);
    return { dir, result };
  }
});

/**
 * Writes a .tar.gz as a stream: an entry is bytes, or that many zero bytes (a highly compressible
 * "bomb"); `trailing` zero bytes follow the end of the archive inside the gzip stream.
 */
async function writeBigArchive(file: string, entries: Array<[string, Buffer | number]>, trailing = 0): Promise<void> {
  const pack = tar.pack();
  const zeros = Buffer.alloc(1024 * 1024);
  const gzip = zlib.createGzip({ level: 1 });
  const written = pipeline(gzip, fs.createWriteStream(file));
  const feed = (async () => {
    for await (const chunk of pack) if (!gzip.write(chunk as Buffer)) await new Promise((resolve) => gzip.once("drain", resolve));
    for (let left = trailing; left > 0; left -= zeros.length) {
      if (!gzip.write(zeros.subarray(0, Math.min(left, zeros.length)))) await new Promise((resolve) => gzip.once("drain", resolve));
    }
    gzip.end();
  })();
  for (const [name, data] of entries) {
    if (typeof data !== "number") {
      await new Promise<void>((resolve, reject) =>
        pack.entry({ name, size: data.length }, data, (error) => (error ? reject(error) : resolve())),
      );
      continue;
    }
    await new Promise<void>((resolve, reject) => {
      const entry = pack.entry({ name, size: data }, (error) => (error ? reject(error) : resolve()));
      void (async () => {
        for (let left = data; left > 0; left -= zeros.length) {
          if (!entry.write(zeros.subarray(0, Math.min(left, zeros.length))))
            await new Promise<void>((done) => entry.once("drain", () => done()));
        }
        entry.end(() => undefined);
      })();
    });
  }
  pack.finalize();
  await feed;
  await written;
}

/** The highest RSS and ArrayBuffer memory of this process above what it was, while `work` runs. */
async function memoryGrowth(work: () => Promise<unknown>): Promise<{ rss: number; arrayBuffers: number; outcome: unknown }> {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let rss = 0;
  let arrayBuffers = 0;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss - before.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers - before.arrayBuffers);
  };
  const timer = setInterval(sample, 5);
  const outcome = await work().then(
    () => "restored",
    (error: unknown) => error,
  );
  clearInterval(timer);
  sample();
  return { rss, arrayBuffers, outcome };
}

const MB = 1024 * 1024;

describe("signed backups and bounded restores (issue 27, decision 065)", () => {
  async function backupWithUser() {
    const server = await start();
    const user = await signedInClient(server.url);
    expect((await upload(server.url, user.jar, await roomPhoto(160, 120))).status).toBe(201);
    const keyFile = path.join(server.deps.env.DATA_DIR, "backup-key");
    const result = await createBackup(sourceOf(server), temp("signed"));
    return { server, user, keyFile, result, entries: [...(await readArchive(result.file))] };
  }

  const sign = (key: string, manifest: Buffer) =>
    Buffer.from(
      JSON.stringify({
        algorithm: "HMAC-SHA256",
        keyId: backupKeyId(key),
        hmac: createHmac("sha256", `roomcanvas:backup-manifest:${key}`).update(manifest).digest("hex"),
      }),
    );

  it.skipIf(onPostgres)(
    "refuses a backup changed after it was written (an account made admin with 999,000 credits, checksums recomputed), one signed by another install's key, and one without the key; restores the genuine one with its key",
    async () => {
      const { user, keyFile, result, entries } = await backupWithUser();
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(entries.slice(0, 2).map(([name]) => name)).toEqual(["manifest.json", "manifest.sig"]);
      expect(entries.map(([name]) => name)).not.toContain("backup-key");

      // The probe's tampering: the database edited, its size, checksum and row counts put right.
      const work = temp("tampered");
      const database = path.join(work, "app.db");
      fs.writeFileSync(database, entries.find(([name]) => name === "app.db")![1]);
      const sqlite = new SqliteDatabase(database);
      sqlite.prepare("INSERT INTO user_roles (user_id, role, created_at) VALUES (?, 'admin', ?)").run(user.userId, Date.now());
      sqlite.prepare("UPDATE profiles SET credits_remaining = 999000 WHERE user_id = ?").run(user.userId);
      sqlite.close();
      const edited = fs.readFileSync(database);
      const manifest = JSON.parse(entries[0]![1].toString()) as BackupManifest;
      manifest.database = {
        ...manifest.database,
        bytes: edited.length,
        sha256: createHash("sha256").update(edited).digest("hex"),
        tables: countTables(database),
      };
      const forged = Buffer.from(JSON.stringify(manifest, null, 2));
      const rest = entries.slice(2).map(([name, data]): [string, Buffer] => [name, name === "app.db" ? edited : data]);
      const otherKey = "another-install-key-0123456789abcdefghijklmnop";
      const cases: Array<[string, Array<[string, Buffer]>, Record<string, string>, string]> = [
        ["tampered", [["manifest.json", forged], entries[1]!, ...rest], { BACKUP_KEY_FILE: keyFile }, "does not match its signature"],
        [
          "re-signed",
          [["manifest.json", forged], ["manifest.sig", sign(otherKey, forged)], ...rest],
          { BACKUP_KEY_FILE: keyFile },
          "made by another install",
        ],
        ["stripped", [["manifest.json", forged], ...rest], { BACKUP_KEY_FILE: keyFile }, "the backup is not signed"],
        ["genuine without key", entries, {}, "set BACKUP_KEY_FILE to a copy of the backup key"],
      ];
      for (const [name, content, env, reason] of cases) {
        const file = path.join(work, `${name}.tar.gz`);
        await writeArchive(file, content);
        const dataDir = path.join(work, `${name}-data`);
        const restore = await runScript("scripts/restore.ts", [file], { env: { ...process.env, DATA_DIR: dataDir, ...env } });
        expect(restore.code, name).toBe(1);
        expect(restore.stderr, name).toContain("Restore refused: ");
        expect(restore.stderr, name).toContain(reason);
        expect(fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [], name).toEqual([]);
      }

      // The genuine backup onto a new machine: the operator's saved copy of the key.
      const saved = path.join(temp("saved-key"), "backup-key");
      fs.copyFileSync(keyFile, saved);
      const dataDir = path.join(work, "new-install");
      const restore = await runScript("scripts/restore.ts", [result.file], {
        env: { ...process.env, DATA_DIR: dataDir, BACKUP_KEY_FILE: saved },
      });
      expect(restore.stderr).toBe("");
      expect(restore.code).toBe(0);
      expect(restore.stdout).toContain("signature matched the backup key");
      // The restored studio keeps the key, so its next backups restore with the same saved copy.
      expect(fs.readFileSync(path.join(dataDir, "backup-key"), "utf8")).toBe(fs.readFileSync(keyFile, "utf8"));
      expect(fs.statSync(path.join(dataDir, "backup-key")).mode & 0o777).toBe(0o600);
    },
    60_000,
  );

  // Format 1 predates PostgreSQL backups: only SQLite ones exist.
  it.skipIf(onPostgres)(
    "restores an unsigned backup of the old format only with --accept-unsigned, and warns",
    async () => {
      const { entries } = await backupWithUser();
      // The layout before signatures: the data, then the manifest, last, as format 1.
      const manifest = JSON.parse(entries[0]![1].toString()) as BackupManifest;
      const legacy: Array<[string, Buffer]> = [
        ...entries.slice(2),
        ["manifest.json", Buffer.from(JSON.stringify({ ...manifest, formatVersion: 1 }, null, 2))],
      ];
      const work = temp("legacy");
      const file = path.join(work, "old.tar.gz");
      await writeArchive(file, legacy);

      const refused = await runScript("scripts/restore.ts", [file], { env: { ...process.env, DATA_DIR: path.join(work, "refused") } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("Restore refused: the backup is not signed");
      expect(refused.stderr).toContain("--accept-unsigned");
      expect(fs.existsSync(path.join(work, "refused")) ? fs.readdirSync(path.join(work, "refused")) : []).toEqual([]);

      const dataDir = path.join(work, "accepted");
      const accepted = await runScript("scripts/restore.ts", ["--accept-unsigned", file], { env: { ...process.env, DATA_DIR: dataDir } });
      expect(accepted.code).toBe(0);
      expect(accepted.stderr).toContain("Warning: this backup is not signed");
      expect(accepted.stdout).toContain("every checksum matched");
      expect(fs.readdirSync(dataDir).sort()).toEqual(["app-secret", "app.db", "storage"]);
      expect(countTables(path.join(dataDir, "app.db"))).toEqual(manifest.database.tables);
    },
    60_000,
  );

  it("refuses a small archive holding a huge entry, an entry beyond the manifest or data past its end, with memory bounded", async () => {
    const { keyFile, entries } = await backupWithUser();
    const key = fs.readFileSync(keyFile, "utf8");
    const manifest = JSON.parse(entries[0]![1].toString()) as BackupManifest;
    const picture = manifest.files.find((file) => file.path.startsWith("storage/"))!;
    const work = temp("bombs");
    const big = 256 * MB;
    const legacyManifest = Buffer.from(JSON.stringify({ ...manifest, formatVersion: 1 }));
    const cases: Array<[string, Array<[string, Buffer | number]>, number, boolean, string]> = [
      // A listed picture, its header saying 256 MB: refused from its header, before it is read.
      [
        "oversized",
        entries.map(([name, data]) => [name, name === picture.path ? big : data]),
        0,
        false,
        `${picture.path} holds ${big} bytes, its manifest says ${picture.bytes}`,
      ],
      // An entry no manifest lists, in the old layout (manifest last) accepted as unsigned: read through, never held.
      [
        "unlisted",
        [["storage/bomb.bin", big], ...entries.slice(2), ["manifest.json", legacyManifest]],
        0,
        true,
        "storage/bomb.bin is in the backup but not in its manifest",
      ],
      // 256 MB of zeros after the end of a genuine archive.
      ["trailing", entries, big, false, "the backup holds more data than its manifest declares"],
    ];
    for (const [name, content, trailing, acceptUnsigned, reason] of cases) {
      const file = path.join(work, `${name}.tar.gz`);
      await writeBigArchive(file, content, trailing);
      expect(fs.statSync(file).size, name).toBeLessThan(8 * MB);
      const dataDir = path.join(work, `${name}-data`);
      const databaseUrl = restoreTarget().DATABASE_URL;
      const { rss, arrayBuffers, outcome } = await memoryGrowth(() =>
        restoreBackup(file, dataDir, { keyFile, acceptUnsigned, databaseUrl }),
      );
      expect(String(outcome), name).toContain(reason);
      if (process.env.BACKUP_MEMORY_REPORT) console.info(name, { rss: rss / MB, arrayBuffers: arrayBuffers / MB });
      // Without streaming, the 256 MB entry was held (twice, when joined): hundreds of MB.
      expect(arrayBuffers, name).toBeLessThan(64 * MB);
      expect(rss, name).toBeLessThan(160 * MB);
      expect(fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [], name).toEqual([]);
    }
    expect(key.length).toBeGreaterThanOrEqual(32);
  }, 120_000);
});

describe("backups on PostgreSQL (issue 29, decision 081)", () => {
  async function postgresBackup() {
    const server = await start();
    const user = await signedInClient(server.url);
    expect((await upload(server.url, user.jar, await roomPhoto(160, 120))).status).toBe(201);
    const keyFile = path.join(server.deps.env.DATA_DIR, "backup-key");
    const result = await createBackup(sourceOf(server), temp("pg"));
    return { server, user, keyFile, result, entries: [...(await readArchive(result.file))] };
  }

  it.skipIf(!onPostgres)(
    "refuses a pg_dump changed after it was written (manifest re-hashed: signature; not re-hashed: checksum), a database that is not empty and a restore without DATABASE_URL; restores the genuine one into an empty database, counted again",
    async () => {
      const { server, user, keyFile, result, entries } = await postgresBackup();
      const manifest = JSON.parse(entries[0]![1].toString()) as BackupManifest;
      expect(manifest.database).toMatchObject({ engine: "postgres", path: "database.pgdump" });
      expect(manifest.database.tables).toEqual(await countRows(server.deps.env.DATABASE_URL!));
      const dump = entries.find(([name]) => name === "database.pgdump")![1];

      // Changed, with its size and checksum put right in the manifest: the signature no longer matches.
      const edited = Buffer.concat([dump, Buffer.from("\nINSERT INTO user_roles VALUES ('x', 'admin');")]);
      const forged = Buffer.from(
        JSON.stringify(
          {
            ...manifest,
            database: { ...manifest.database, bytes: edited.length, sha256: createHash("sha256").update(edited).digest("hex") },
          },
          null,
          2,
        ),
      );
      const swapDump = (data: Buffer) =>
        entries.slice(2).map(([name, bytes]): [string, Buffer] => [name, name === "database.pgdump" ? data : bytes]);
      // Changed in place, the manifest left alone: its checksum no longer matches.
      const flipped = Buffer.from(dump);
      flipped.writeUInt8(flipped.readUInt8(flipped.length >> 1) ^ 1, flipped.length >> 1);
      const work = temp("pg-tampered");
      const cases: Array<[string, Array<[string, Buffer]>, string]> = [
        ["re-hashed", [["manifest.json", forged], entries[1]!, ...swapDump(edited)], "does not match its signature"],
        ["in place", [...entries.slice(0, 2), ...swapDump(flipped)], "database.pgdump does not match its checksum in the manifest"],
      ];
      const empty = restoreTarget().DATABASE_URL!;
      for (const [name, content, reason] of cases) {
        const file = path.join(work, `${name}.tar.gz`);
        await writeArchive(file, content);
        const dataDir = path.join(work, `${name}-data`);
        await expect(restoreBackup(file, dataDir, { keyFile, databaseUrl: empty }), name).rejects.toThrow(reason);
        expect(fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [], name).toEqual([]);
      }
      // Refused before pg_restore ran: the database is still empty.
      expect(await countRows(empty)).toEqual({});

      // Not into the studio's own database, nor without one.
      const intoLive = await runScript("scripts/restore.ts", [result.file], {
        env: { ...process.env, ...placeOf(server.deps.env), DATA_DIR: path.join(work, "live-data"), BACKUP_KEY_FILE: keyFile },
      });
      expect(intoLive.code).toBe(1);
      expect(intoLive.stderr).toMatch(/Restore refused: the PostgreSQL database rc_test_\w+ is not empty \(it has \d+ tables/);
      expect(fs.existsSync(path.join(work, "live-data")) ? fs.readdirSync(path.join(work, "live-data")) : []).toEqual([]);
      await expect(restoreBackup(result.file, path.join(work, "no-url"), { keyFile })).rejects.toThrow(
        "the backup holds a PostgreSQL database (pg_dump): set DATABASE_URL to an empty PostgreSQL database",
      );

      const target = restoreTarget();
      const restore = await runScript("scripts/restore.ts", [result.file], {
        env: { ...process.env, ...target, DATA_DIR: path.join(work, "restored"), BACKUP_KEY_FILE: keyFile },
      });
      expect(restore.stderr).toBe("");
      expect(restore.code).toBe(0);
      expect(restore.stdout).toContain(`and the PostgreSQL database ${new URL(target.DATABASE_URL!).pathname.slice(1)}`);
      expect(await countRows(target.DATABASE_URL!)).toEqual(manifest.database.tables);
      const restored = openDatabase(target.DATABASE_URL!);
      try {
        const account = await restored.selectFrom("users").select("email").where("id", "=", user.userId).executeTakeFirst();
        expect(account?.email).toBe(user.email);
      } finally {
        await restored.destroy();
      }
    },
    60_000,
  );

  it.skipIf(!onPostgres)("refuses a SQLite backup into PostgreSQL, saying what the backup holds", async () => {
    const dataDir = temp("sqlite-studio");
    fs.copyFileSync(inject("templateDatabase"), path.join(dataDir, "app.db"));
    const keyFile = path.join(dataDir, "backup-key");
    const { file } = await createBackup(
      { dataDir, databaseFile: path.join(dataDir, "app.db"), secretFromEnvironment: false, appVersion: "test", keyFile },
      temp("sqlite-backup"),
    );
    const target = restoreTarget();
    const restore = await runScript("scripts/restore.ts", [file], {
      env: { ...process.env, ...target, DATA_DIR: path.join(temp("sqlite-into-pg"), "data"), BACKUP_KEY_FILE: keyFile },
    });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(
      "Restore refused: the backup holds a SQLite database (app.db), and DATABASE_URL names a PostgreSQL database: unset DATABASE_URL",
    );
    expect(await countRows(target.DATABASE_URL!)).toEqual({});
  });

  it.skipIf(!onPostgres)(
    "without pg_dump, a backup is refused naming pg_dump and how to install it, recorded, and the self-test says so",
    async () => {
      const server = await start({ BACKUP_DIR: temp("no-pg-dump") });
      const admin = await makeAdmin(server);
      const noTools = temp("no-tools");
      const source = { ...sourceOf(server), postgresToolDirs: [noTools] };
      await expect(takeBackup(server.deps.db, source, temp("no-pg-dump-out"), "command", () => Date.now())).rejects.toThrow(
        /^pg_dump was not found .*apt-get install postgresql-client/,
      );
      const check = await admin.client.selfTest.check.mutate({ name: "backups" });
      expect(check).toMatchObject({ ok: true, warning: true });
      expect(check.detail).toContain("the last backup failed (pg_dump was not found");
      expect((await admin.client.admin.backups.query()).lastFailure?.error).toContain("apt-get install postgresql-client");
      expect(fs.readdirSync(server.deps.env.DATA_DIR).filter((name) => name.startsWith(".backup-work-"))).toEqual([]);
    },
  );

  it("hands pg_dump and pg_restore the connection as PG* variables, never on their command line", () => {
    const saved = process.env.PGSERVICE;
    process.env.PGSERVICE = "elsewhere";
    try {
      const env = postgresEnvironment("postgres://alice:s%40cret%2F1@db.example:6543/studio?sslmode=require&application_name=rc");
      expect(env).toMatchObject({
        PGHOST: "db.example",
        PGPORT: "6543",
        PGUSER: "alice",
        PGPASSWORD: "s@cret/1",
        PGDATABASE: "studio",
        PGSSLMODE: "require",
        PGAPPNAME: "rc",
      });
      // A PG* variable of this process could send the child elsewhere: left out.
      expect(env.PGSERVICE).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.PGSERVICE;
      else process.env.PGSERVICE = saved;
    }
  });
});

describe("scheduled backups, Back up now and the self-test", () => {
  it("keeps two backups taken in the same second, and prunes in the order they were taken", async () => {
    const server = await start();
    const dir = temp("same-second");
    const at = new Date("2026-11-27T10:15:30.250Z");
    const first = await createBackup(sourceOf(server), dir, at);
    const second = await createBackup(sourceOf(server), dir, new Date(at.getTime() + 500));
    expect(path.basename(first.file)).toBe("roomcanvas-backup-2026-11-27T10-15-30Z.tar.gz");
    expect(path.basename(second.file)).toBe("roomcanvas-backup-2026-11-27T10-15-30-750Z.tar.gz");
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(second.file), path.basename(first.file)]);
    for (const file of [first.file, second.file]) expect(BACKUP_FILE_PATTERN.test(path.basename(file))).toBe(true);
    // The second is the newer: keeping one keeps it.
    expect(await pruneBackups(dir, 1)).toEqual([path.basename(first.file)]);
    expect(fs.readdirSync(dir)).toEqual([path.basename(second.file)]);
  });

  it("takes a backup when one is due, keeps BACKUP_KEEP, and the self-test warns once the last is over twice the schedule old", async () => {
    const clock = new TestClock(Date.parse("2026-11-23T08:00:00Z"));
    const backupDir = temp("scheduled");
    const server = await start({ BACKUP_DIR: backupDir, BACKUP_EVERY: "6h", BACKUP_KEEP: "2" }, { clock });
    const { backups } = server.services;
    const admin = await makeAdmin(server);
    // Signed in afresh each time: the clock jumps by hours, past the session's idle timeout.
    const asAdmin = async () => {
      const studio = createStudioClient(server.url);
      await studio.client.auth.signIn.mutate({ email: admin.email, password: PASSWORD });
      return studio.client;
    };
    const check = async () => (await asAdmin()).selfTest.check.mutate({ name: "backups" });

    // No backup taken yet: something to look at, not "Passed" (issue 27).
    const before = await check();
    expect(before).toMatchObject({ ok: true, warning: true });
    expect(before.detail).toMatch(/^no backup yet; every 6 h into .+, keeping 2$/);
    const keyFile = path.join(server.deps.env.DATA_DIR, "backup-key");
    // /admin names the key the first backup creates, then its id: the operator keeps a copy.
    expect((await (await asAdmin()).admin.backups.query()).key).toEqual({ file: keyFile, id: null });
    const first = await backups.runIfDue();
    expect(first).toMatchObject({ trigger: "schedule", error: null });
    expect(await backups.runIfDue()).toBeNull();
    clock.advance(3 * 3_600_000);
    expect(await backups.runIfDue()).toBeNull();
    expect(await check()).toMatchObject({
      ok: true,
      warning: false,
      detail: expect.stringMatching(/^last backup 3 h ago \(.+\); every 6 h into .+, keeping 2$/),
    });

    for (let round = 0; round < 3; round++) {
      clock.advance(6 * 3_600_000);
      expect(await backups.runIfDue()).toMatchObject({ trigger: "schedule" });
    }
    // Four taken, two kept: the newest.
    const files = fs.readdirSync(backupDir).sort();
    expect(files).toHaveLength(2);
    expect(files[1]).toBe("roomcanvas-backup-2026-11-24T05-00-00Z.tar.gz");

    clock.advance(13 * 3_600_000);
    const overdue = await check();
    expect(overdue).toMatchObject({ ok: true, warning: true });
    expect(overdue.detail).toContain("older than twice the schedule");
    const status = await (await asAdmin()).admin.backups.query();
    expect(status).toMatchObject({ dir: backupDir, everyMs: 6 * 3_600_000, keep: 2, overdue: true });
    expect(status.lastSuccess?.fileName).toBe(files[1]);
    expect(status.key).toEqual({ file: keyFile, id: backupKeyId(fs.readFileSync(keyFile, "utf8")) });
  });

  it("Back up now is audited, refused while another runs, and refused without BACKUP_DIR", async () => {
    const backupDir = temp("now");
    const server = await start({ BACKUP_DIR: backupDir });
    const admin = await makeAdmin(server);
    const [one, two] = await Promise.allSettled([admin.client.admin.backUpNow.mutate(), admin.client.admin.backUpNow.mutate()]);
    const outcomes = [one, two].map((outcome) => outcome.status);
    expect(outcomes.sort()).toEqual(["fulfilled", "rejected"]);
    const refused = [one, two].find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expect(failure(refused.reason).data?.code).toBe("CONFLICT");
    expect(failure(refused.reason).message).toBe("A backup is being written right now. Wait for it to finish.");
    const audit = await server.deps.db.selectFrom("admin_audit").selectAll().where("action", "=", "backup.create").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.admin_user_id).toBe(admin.userId);
    expect(fs.readdirSync(backupDir)).toHaveLength(1);

    const user = await signedInClient(server.url);
    await expect(user.client.admin.backUpNow.mutate()).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });

    const unscheduled = await start();
    const otherAdmin = await makeAdmin(unscheduled);
    await expect(otherAdmin.client.admin.backUpNow.mutate()).rejects.toThrow("Backups have no folder yet: set BACKUP_DIR");
    // Never backed up and nothing scheduled: a warning, not "Backups: Passed" (issue 27).
    const check = await otherAdmin.client.selfTest.check.mutate({ name: "backups" });
    expect(check).toMatchObject({ ok: true, warning: true });
    expect(check.detail).toBe("no backup yet; backups are not scheduled (BACKUP_DIR is not set; npm run backup DIR takes one)");
    expect(check.texts?.map((text) => text.key)).toEqual(["noBackupYet", "backupsUnscheduled"]);
  });

  it("refuses a BACKUP_DIR inside DATA_DIR, a BACKUP_KEY_FILE inside BACKUP_DIR and a BACKUP_EVERY it cannot read", () => {
    const dataDir = temp("env");
    expect(() => parseEnv({ DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, "backups") })).toThrow(
      "BACKUP_DIR: expected a folder outside DATA_DIR",
    );
    expect(() => parseEnv({ DATA_DIR: dataDir, BACKUP_EVERY: "2m" })).toThrow("BACKUP_EVERY: expected a period such as 30m, 6h or 1d");
    expect(() => parseEnv({ DATA_DIR: dataDir, BACKUP_EVERY: "daily" })).toThrow("BACKUP_EVERY");
    // The key that proves backups genuine is not kept with them.
    const backupDir = temp("env-backups");
    expect(() => parseEnv({ DATA_DIR: dataDir, BACKUP_DIR: backupDir, BACKUP_KEY_FILE: path.join(backupDir, "backup-key") })).toThrow(
      "BACKUP_KEY_FILE: expected a file outside BACKUP_DIR",
    );
    expect(parseEnv({ DATA_DIR: dataDir, BACKUP_EVERY: "6h" }).BACKUP_EVERY).toBe(6 * 3_600_000);
    expect(parseEnv({ DATA_DIR: dataDir }).BACKUP_EVERY).toBe(DAY);
  });
});
