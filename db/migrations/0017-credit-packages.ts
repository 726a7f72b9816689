/**
 * Credit packages an admin creates, edits and retires (issue 16), seeded with the three packages
 * the product shipped with (their names stay translated until an admin names them). A purchase
 * keeps the credits and price it was sold at (credit_purchases), whatever the package becomes.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("credit_packages")
    .addColumn("id", "text", (col) => col.primaryKey())
    // Null: the interface shows its translated default name (the seeded packages).
    .addColumn("name", "text")
    .addColumn("credits", t.int, (col) => col.notNull().check(sql`credits > 0`))
    .addColumn("price_cents", t.int, (col) => col.notNull().check(sql`price_cents > 0`))
    .addColumn("currency", "text", (col) => col.notNull().check(sql`currency IN ('usd', 'eur')`))
    .addColumn("licence", "text", (col) => col.notNull().check(sql`licence IN ('personal', 'commercial')`))
    .addColumn("position", t.int, (col) => col.notNull())
    .addColumn("retired_at", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();
  const now = Date.now();
  await db
    .insertInto("credit_packages")
    .values([
      {
        id: "starter",
        name: null,
        credits: 25,
        price_cents: 900,
        currency: "usd",
        licence: "personal",
        position: 1,
        created_at: now,
        updated_at: now,
      },
      {
        id: "pro",
        name: null,
        credits: 100,
        price_cents: 2900,
        currency: "usd",
        licence: "commercial",
        position: 2,
        created_at: now,
        updated_at: now,
      },
      {
        id: "studio",
        name: null,
        credits: 500,
        price_cents: 9900,
        currency: "usd",
        licence: "commercial",
        position: 3,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("credit_packages").execute();
}
