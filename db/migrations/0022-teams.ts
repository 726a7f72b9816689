/**
 * Teams (issue 28, decision 070): a studio's shared space. A user works in their personal space or
 * in one of their teams; projects, uploads and renders of a team carry its id (user_id stays their
 * author); a team has its own credit balance and ledger, a monthly cap per member, invitations and
 * an activity log.
 * - teams: name, credits_remaining (the running balance of team_credit_ledger), deleted_at.
 * - team_members: one row per member and role (exactly one 'owner' per team: a unique partial index),
 *   and the member's monthly_cap (null: none).
 * - team_member_usage: credits a member used per month, counted in the statement that charges.
 * - team_invitations: single-use links by e-mail (only a SHA-256 of the token is kept).
 * - current_spaces: the space each user works in (no row: personal).
 * - team_credit_ledger: like credit_ledger, with the member who caused each row.
 * - team_activity: the team's log (who did what, when), shown on the team page.
 * - credit_purchases.team_id: a purchase for a team (null: for the buyer).
 * - render_jobs.shared_by: who made the render's share link.
 * - credit_ledger gains the kind 'transfer' (credits moved from a personal balance into a team), so
 *   the table is rebuilt (SQLite cannot change a CHECK).
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("teams")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("credits_remaining", t.int, (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`credits_remaining >= 0`),
    )
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("team_members")
    .addColumn("team_id", "text", (col) => col.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (col) => col.notNull().check(sql`role IN ('owner', 'admin', 'member')`))
    .addColumn("monthly_cap", t.int, (col) => col.check(sql`monthly_cap IS NULL OR monthly_cap >= 0`))
    .addColumn("joined_at", t.int, (col) => col.notNull())
    .addPrimaryKeyConstraint("team_members_pk", ["team_id", "user_id"])
    .execute();
  await db.schema.createIndex("team_members_user_idx").on("team_members").columns(["user_id", "team_id"]).execute();
  await sql`CREATE UNIQUE INDEX team_members_one_owner_uq ON team_members (team_id) WHERE role = 'owner'`.execute(db);

  await db.schema
    .createTable("team_invitations")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("team_id", "text", (col) => col.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("role", "text", (col) => col.notNull().check(sql`role IN ('admin', 'member')`))
    .addColumn("token_hash", t.bytes, (col) => col.notNull())
    .addColumn("language", "text")
    .addColumn("invited_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("sent_at", t.int, (col) => col.notNull())
    .addColumn("send_count", t.int, (col) => col.notNull().defaultTo(1))
    .addColumn("expires_at", t.int, (col) => col.notNull())
    .addColumn("accepted_at", t.int)
    .addColumn("accepted_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("revoked_at", t.int)
    .execute();
  await db.schema.createIndex("team_invitations_team_idx").on("team_invitations").columns(["team_id", "email"]).execute();

  await db.schema
    .createTable("current_spaces")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("team_id", "text", (col) => col.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("team_credit_ledger")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("team_id", "text", (col) => col.notNull().references("teams.id").onDelete("cascade"))
    // Who caused the row (the member who rendered, bought or moved credits); null once their account is gone.
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind IN ('charge', 'refund', 'purchase', 'admin', 'transfer')`))
    .addColumn("amount", t.int, (col) => col.notNull().check(sql`amount <> 0`))
    .addColumn("job_id", "text")
    .addColumn("reference", "text")
    .addColumn("reason", "text")
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("team_credit_ledger_team_idx").on("team_credit_ledger").columns(["team_id", "created_at"]).execute();
  await sql`CREATE UNIQUE INDEX team_credit_ledger_job_kind_uq ON team_credit_ledger (job_id, kind) WHERE job_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX team_credit_ledger_reference_uq ON team_credit_ledger (kind, reference) WHERE reference IS NOT NULL`.execute(
    db,
  );

  // Credits each member used in a team per month (UTC; year * 12 + month - 1), counted in the statement
  // that charges, only while under the member's cap: a cap holds under parallel renders.
  await db.schema
    .createTable("team_member_usage")
    .addColumn("team_id", "text", (col) => col.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("month", t.int, (col) => col.notNull())
    .addColumn("used", t.int, (col) => col.notNull().check(sql`used >= 0`))
    .addPrimaryKeyConstraint("team_member_usage_pk", ["team_id", "user_id", "month"])
    .execute();

  await db.schema
    .createTable("team_activity")
    .addColumn("id", t.int, t.autoId)
    .addColumn("team_id", "text", (col) => col.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("actor_id", "text", (col) => col.references("users.id").onDelete("set null"))
    // The actor's name when it happened (the log stays readable after they leave or delete their account).
    .addColumn("actor_name", "text", (col) => col.notNull())
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("details", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("team_activity_team_idx").on("team_activity").columns(["team_id", "id"]).execute();

  // A purchase made while a team was the buyer's space credits the team (null: the buyer, also once the team is gone).
  await db.schema
    .alterTable("credit_purchases")
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("set null"))
    .execute();

  // Who made a render's share link (any member of its team may): recorded with the link.
  await db.schema
    .alterTable("render_jobs")
    .addColumn("shared_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .execute();

  for (const table of ["projects", "uploads", "render_jobs"]) {
    await db.schema
      .alterTable(table)
      .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
      .execute();
    await db.schema.createIndex(`${table}_team_idx`).on(table).columns(["team_id", "created_at"]).execute();
  }

  // credit_ledger with 'transfer' among its kinds: rebuilt, rows and indexes kept.
  await db.schema
    .createTable("credit_ledger_new")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind IN ('grant', 'charge', 'refund', 'purchase', 'admin', 'transfer')`))
    .addColumn("amount", t.int, (col) => col.notNull().check(sql`amount <> 0`))
    .addColumn("job_id", "text")
    .addColumn("reference", "text")
    .addColumn("reason", "text")
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await sql`INSERT INTO credit_ledger_new (id, user_id, kind, amount, job_id, reference, reason, created_at)
    SELECT id, user_id, kind, amount, job_id, reference, reason, created_at FROM credit_ledger`.execute(db);
  await db.schema.dropTable("credit_ledger").execute();
  await db.schema.alterTable("credit_ledger_new").renameTo("credit_ledger").execute();
  await db.schema.createIndex("credit_ledger_user_idx").on("credit_ledger").columns(["user_id", "created_at"]).execute();
  await sql`CREATE UNIQUE INDEX credit_ledger_job_kind_uq ON credit_ledger (job_id, kind) WHERE job_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX credit_ledger_reference_uq ON credit_ledger (kind, reference) WHERE reference IS NOT NULL`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM credit_ledger WHERE kind = 'transfer'`.execute(db);
  await db.schema.alterTable("credit_purchases").dropColumn("team_id").execute();
  await db.schema.alterTable("render_jobs").dropColumn("shared_by").execute();
  for (const table of ["render_jobs", "uploads", "projects"]) {
    await db.schema.dropIndex(`${table}_team_idx`).execute();
    await db.schema.alterTable(table).dropColumn("team_id").execute();
  }
  for (const table of [
    "team_activity",
    "team_member_usage",
    "team_credit_ledger",
    "current_spaces",
    "team_invitations",
    "team_members",
    "teams",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
