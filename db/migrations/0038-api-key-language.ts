/**
 * The language of an API key (issue 31, decision 096): its maker's interface language when it was
 * made, in which the API words its errors' messages. Keys made before speak English.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("api_keys")
    .addColumn("language", "text", (col) =>
      col
        .notNull()
        .defaultTo("en")
        .check(sql`language IN ('en', 'es', 'fr')`),
    )
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("api_keys").dropColumn("language").execute();
}
