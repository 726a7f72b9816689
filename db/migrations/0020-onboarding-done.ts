/**
 * The onboarding tour, finished (completed or skipped) on the account rather than on one browser
 * (issue 27, decision 068): when, in Unix milliseconds; null until then. Accounts module.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema.alterTable("users").addColumn("onboarding_done_at", t.int).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("onboarding_done_at").execute();
}
