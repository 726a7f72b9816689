/**
 * The first tables of spec section 3: users with their profiles (credits), roles, projects.
 * Shipped: never edit this file; add 0002-… instead.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("email", t.emailText, (col) => t.caseless(col.notNull().unique()))
    .addColumn("email_confirmed_at", t.int)
    .addColumn("confirmation_sent_at", t.int)
    .addColumn("password_hash", "text")
    .addColumn("disabled_at", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("profiles")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("full_name", "text", (col) => col.notNull())
    .addColumn("credits_remaining", t.int, (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`credits_remaining >= 0`),
    )
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("user_roles")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (col) => col.notNull().check(sql`length(role) BETWEEN 1 AND 50`))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role"])
    .execute();

  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull().check(sql`length(name) BETWEEN 1 AND 100`))
    .addColumn("project_type", "text", (col) => col.notNull().defaultTo("room_rendering"))
    .addColumn("settings", "text", (col) => col.notNull().defaultTo("{}").check(t.isJsonObject("settings")))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("updated_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();

  await db.schema.createIndex("projects_user_id_idx").on("projects").columns(["user_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("projects").execute();
  await db.schema.dropTable("user_roles").execute();
  await db.schema.dropTable("profiles").execute();
  await db.schema.dropTable("users").execute();
}
