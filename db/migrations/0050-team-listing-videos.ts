/**
 * Listing videos of a team's project are the team's (decision 112): listing_videos.team_id, the team
 * whose project the video shows (null: a personal project). Every current member sees such a video;
 * its author, the team's Owner and Admins manage it. Deleting the team removes the row. Videos made
 * before this migration take their project's team.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("listing_videos")
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .execute();
  await sql`UPDATE listing_videos SET team_id = (SELECT team_id FROM projects WHERE projects.id = listing_videos.project_id)`.execute(db);
  await db.schema.createIndex("listing_videos_team_idx").on("listing_videos").columns(["team_id", "user_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listing_videos_team_idx").execute();
  await db.schema.alterTable("listing_videos").dropColumn("team_id").execute();
}
