/**
 * The credit ledger: append-only rows that explain every balance (grant, charge, refund, purchase,
 * admin adjustment); profiles.credits_remaining always equals the sum of a user's rows.
 * job_id has no foreign key on purpose: the ledger outlives deleted jobs and images.
 * A job is charged once and refunded at most once (unique per job and kind).
 * Existing balances are carried over as grant rows. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("credit_ledger")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind IN ('grant', 'charge', 'refund', 'purchase', 'admin')`))
    .addColumn("amount", t.int, (col) => col.notNull().check(sql`amount <> 0`))
    .addColumn("job_id", "text")
    .addColumn("reference", "text")
    .addColumn("reason", "text")
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("credit_ledger_user_idx").on("credit_ledger").columns(["user_id", "created_at"]).execute();
  await sql`CREATE UNIQUE INDEX credit_ledger_job_kind_uq ON credit_ledger (job_id, kind) WHERE job_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX credit_ledger_reference_uq ON credit_ledger (kind, reference) WHERE reference IS NOT NULL`.execute(db);
  await sql`
    INSERT INTO credit_ledger (id, user_id, kind, amount, reason)
    SELECT ${t.randomId}, user_id, 'grant', credits_remaining, 'balance before the ledger'
    FROM profiles WHERE credits_remaining > 0
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("credit_ledger").execute();
}
