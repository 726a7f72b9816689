/**
 * API keys of the public REST API (issue 31, decision 094): each belongs to a space (a user's
 * personal space, or a team when team_id is set) and was made by a user. The secret is shown once;
 * only its SHA-256 hash is kept. `prefix` is the key's public part, shown in lists and used to find
 * the key. Revoked keys stay (revoked_at) so that the list and the usage can still name them.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("prefix", "text", (col) => col.notNull().unique())
    .addColumn("secret_hash", "text", (col) => col.notNull())
    .addColumn("scopes", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("expires_at", t.int)
    .addColumn("last_used_at", t.int)
    .addColumn("revoked_at", t.int)
    .execute();
  await db.schema.createIndex("api_keys_by_space").on("api_keys").columns(["user_id", "team_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_keys").execute();
}
