import path from "node:path";
import { Migrator } from "kysely/migration";
import { afterEach, describe, expect, it } from "vitest";
import { migrations } from "../../db/migrations";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { migrateToLatest } from "../../src/server/db/migrate";
import { DomainError } from "../../src/server/errors";
import { chargeForJob, grantCredits, ledgerBalance, refundJob } from "../../src/server/services/credits";
import { createProfile } from "../../src/server/services/accounts";
import { makeTempDir } from "../helpers/test-env";

let db: AppDatabase;
afterEach(async () => {
  await db?.destroy();
});

async function databaseWithUser(): Promise<AppDatabase> {
  const database = openDatabase(path.join(makeTempDir(), "app.db"));
  await migrateToLatest(database);
  await database.insertInto("users").values({ id: "u1", email: "ana@example.com", updated_at: 0 }).execute();
  await database.transaction().execute((trx) => createProfile(trx, { id: "u1", email: "ana@example.com" }, "Ana", 1));
  return database;
}

const balance = async (database: AppDatabase) =>
  (await database.selectFrom("profiles").select("credits_remaining").where("user_id", "=", "u1").executeTakeFirstOrThrow())
    .credits_remaining;

describe("credits", () => {
  it("a new profile gets its 10 credits through a ledger grant, once", async () => {
    db = await databaseWithUser();
    await db.transaction().execute((trx) => createProfile(trx, { id: "u1", email: "ana@example.com" }, "Ana", 2));
    expect(await balance(db)).toBe(10);
    expect(await ledgerBalance(db, "u1")).toBe(10);
    expect(await db.selectFrom("credit_ledger").select(["kind", "amount"]).execute()).toEqual([{ kind: "grant", amount: 10 }]);
  });

  it("30 concurrent charges against 10 credits: exactly 10 succeed and the ledger balances", async () => {
    db = await databaseWithUser();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) => db.transaction().execute((trx) => chargeForJob(trx, "u1", `job-${index}`, 5))),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(10);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(refused).toHaveLength(20);
    for (const refusal of refused) {
      expect(refusal.reason).toBeInstanceOf(DomainError);
      expect(refusal.reason).toMatchObject({ kind: "payment-required", messageName: "notEnoughCredits", message: "Not enough credits" });
    }
    expect(await balance(db)).toBe(0);
    expect(await ledgerBalance(db, "u1")).toBe(0);
  });

  it("a job is refunded at most once, even when refunds race", async () => {
    db = await databaseWithUser();
    await db.transaction().execute((trx) => chargeForJob(trx, "u1", "job-1", 5));
    const refunds = await Promise.all(
      Array.from({ length: 5 }, () => db.transaction().execute((trx) => refundJob(trx, "u1", "job-1", 6, "provider failed"))),
    );
    expect(refunds.filter(Boolean)).toHaveLength(1);
    expect(await balance(db)).toBe(10);
    expect(await ledgerBalance(db, "u1")).toBe(10);
  });

  it("a refund rolls back with the transaction that failed to mark the job", async () => {
    db = await databaseWithUser();
    await db.transaction().execute((trx) => chargeForJob(trx, "u1", "job-1", 5));
    await expect(
      db.transaction().execute(async (trx) => {
        await refundJob(trx, "u1", "job-1", 6, "provider failed");
        throw new Error("marking the job failed did not work");
      }),
    ).rejects.toThrow("marking the job failed did not work");
    expect(await balance(db)).toBe(9);
    expect(await db.transaction().execute((trx) => refundJob(trx, "u1", "job-1", 7, "retry"))).toBe(true);
    expect(await balance(db)).toBe(10);
  });

  it("a payment reference counts once", async () => {
    db = await databaseWithUser();
    await grantCredits(db, "u1", 50, "purchase", 5, { reference: "evt_1" });
    await expect(grantCredits(db, "u1", 50, "purchase", 6, { reference: "evt_1" })).rejects.toThrow(/UNIQUE/);
    expect(await ledgerBalance(db, "u1")).toBe(60);
  });

  it("the migration carries existing balances over as grants", async () => {
    db = openDatabase(path.join(makeTempDir(), "app.db"));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0003-identities")).error).toBeUndefined();
    await db.insertInto("users").values({ id: "u1", email: "ana@example.com", updated_at: 0 }).execute();
    await db
      .insertInto("profiles")
      .values({ user_id: "u1", email: "ana@example.com", full_name: "Ana", credits_remaining: 7, updated_at: 0 })
      .execute();
    await migrateToLatest(db);
    expect(await ledgerBalance(db, "u1")).toBe(7);
  });
});
