/**
 * Client review links (issue 28, decision 073): a designer sends a client a link to a project's
 * pictures; the client comments on each picture and approves it or asks for changes, without an account.
 * - review_links: only a SHA-256 of the token is kept; the project (and its team, if any), who made it,
 *   an optional label, the chosen renders (JSON array of job ids; NULL: all the project's renders), the
 *   "Draft" watermark choice, the language of the link's maker (their mails), expiry and revocation.
 * - review_comments: plain text (at most 2,000 characters), the name the client gave, and the client's
 *   address (the per-address limit on a link's comments).
 * - review_decisions: each approval or request for changes of a picture; the latest is its state.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("review_links")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("token_hash", t.bytes, (col) => col.notNull().unique())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("label", "text")
    .addColumn("project_name", "text", (col) => col.notNull())
    .addColumn("job_ids", "text")
    .addColumn("watermark", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("language", "text", (col) => col.notNull().defaultTo("en"))
    .addColumn("expires_at", t.int, (col) => col.notNull())
    .addColumn("revoked_at", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("review_links_project_idx").on("review_links").columns(["project_id", "created_at"]).execute();

  await db.schema
    .createTable("review_comments")
    .addColumn("id", t.int, t.autoId)
    .addColumn("link_id", "text", (col) => col.notNull().references("review_links.id").onDelete("cascade"))
    .addColumn("job_id", "text", (col) => col.notNull())
    .addColumn("author_name", "text", (col) => col.notNull())
    .addColumn("text", "text", (col) => col.notNull())
    .addColumn("client_address", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("review_comments_link_idx")
    .on("review_comments")
    .columns(["link_id", "client_address", "created_at"])
    .execute();

  await db.schema
    .createTable("review_decisions")
    .addColumn("id", t.int, t.autoId)
    .addColumn("link_id", "text", (col) => col.notNull().references("review_links.id").onDelete("cascade"))
    .addColumn("job_id", "text", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull().check(sql`state IN ('approved', 'changes-requested')`))
    .addColumn("author_name", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("review_decisions_link_idx").on("review_decisions").columns(["link_id", "job_id", "id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["review_decisions", "review_comments", "review_links"]) await db.schema.dropTable(table).execute();
}
