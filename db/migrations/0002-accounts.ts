/**
 * Accounts: sessions (Lucia's scheme: only a hash of the secret is stored), per-email lockout,
 * single-use e-mail tokens (confirmation, password reset), the built-in mail outbox, and
 * two-factor secrets, backup codes and pending sign-in challenges.
 * Shipped: never edit this file; add a new one instead.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("secret_hash", t.bytes, (col) => col.notNull())
    .addColumn("persistent", t.int, (col) => col.notNull().check(sql`persistent IN (0, 1)`))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("last_active_at", t.int, (col) => col.notNull())
    .addColumn("expires_at", t.int, (col) => col.notNull())
    .addColumn("user_agent", "text")
    .addColumn("ip_address", "text")
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("login_attempts")
    .addColumn("email", "text", (col) => col.primaryKey())
    .addColumn("failed_count", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("locked_until", t.int)
    .addColumn("last_failed_at", t.int)
    .addColumn("last_ip_address", "text")
    .addColumn("last_user_agent", "text")
    .addColumn("updated_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("email_tokens")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (col) => col.notNull().check(sql`purpose IN ('confirm_email', 'reset_password')`))
    .addColumn("token_hash", t.bytes, (col) => col.notNull().unique())
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("expires_at", t.int, (col) => col.notNull())
    .addColumn("used_at", t.int)
    .execute();
  await db.schema.createIndex("email_tokens_user_idx").on("email_tokens").columns(["user_id", "purpose"]).execute();

  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("text_body", "text", (col) => col.notNull())
    .addColumn("html_body", "text")
    .addColumn("transport", "text", (col) => col.notNull().check(sql`transport IN ('outbox', 'smtp')`))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("sent_at", t.int)
    .addColumn("error", "text")
    .execute();

  await db.schema
    .createTable("two_factor")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret_encrypted", "text", (col) => col.notNull())
    .addColumn("enabled_at", t.int)
    .addColumn("last_used_step", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("backup_codes")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", t.bytes, (col) => col.notNull())
    .addColumn("used_at", t.int)
    .execute();
  await db.schema.createIndex("backup_codes_user_idx").on("backup_codes").column("user_id").execute();

  await db.schema
    .createTable("two_factor_challenges")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("secret_hash", t.bytes, (col) => col.notNull())
    .addColumn("remember_me", t.int, (col) => col.notNull())
    .addColumn("failed_count", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("expires_at", t.int, (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "two_factor_challenges",
    "backup_codes",
    "two_factor",
    "mail_outbox",
    "email_tokens",
    "login_attempts",
    "sessions",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
