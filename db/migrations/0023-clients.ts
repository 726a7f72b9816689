/**
 * Clients (issue 28, decision 072): the people a studio works for, kept per space.
 * - clients: a team's (team_id set) or a personal space's (team_id null, user_id its keeper) client,
 *   with name, e-mail, phone, address and notes (spec section 5's rules, checked by the shared schema);
 *   exactly one of team_id and user_id is set. created_by is the member who added it.
 * - project_clients: the client a project is for, one per project. A table of its own (not a column of
 *   projects, which services/projects.ts owns); a project's or a client's deletion removes the link.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("clients")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("address", "text")
    .addColumn("notes", "text")
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .addCheckConstraint("clients_one_space", sql`(team_id IS NULL) <> (user_id IS NULL)`)
    .execute();
  await db.schema.createIndex("clients_team_idx").on("clients").columns(["team_id", "name"]).execute();
  await db.schema.createIndex("clients_user_idx").on("clients").columns(["user_id", "name"]).execute();

  await db.schema
    .createTable("project_clients")
    .addColumn("project_id", "text", (col) => col.primaryKey().references("projects.id").onDelete("cascade"))
    .addColumn("client_id", "text", (col) => col.notNull().references("clients.id").onDelete("cascade"))
    .addColumn("linked_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("project_clients_client_idx").on("project_clients").column("client_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("project_clients").execute();
  await db.schema.dropTable("clients").execute();
}
