/**
 * Which studio a portfolio presents, and which portfolio page an author the community shows links
 * to (decision 105). Apart from portfolio.ts so the feed can name the pages without a cycle.
 */
import { roleMay } from "../../shared/teams";
import type { Portfolio } from "../db/schema";
import type { CommunityContext } from "./context";

/** The team a portfolio presents, while its owner may still publish for it (a member who left presents nobody). */
export async function presentedStudio(deps: CommunityContext, row: Portfolio): Promise<{ id: string; name: string } | null> {
  if (row.brand_team_id === null) return null;
  if (!roleMay(await deps.spaces.roleIn(row.user_id, row.brand_team_id), "publishWork")) return null;
  const name = (await deps.spaces.names([row.brand_team_id])).get(row.brand_team_id);
  return name === undefined ? null : { id: row.brand_team_id, name };
}

/**
 * The portfolio addresses of authors the community shows: a designer's own visible page, and for a
 * studio the first visible page that presents it (its owner still allowed to).
 */
export async function portfoliosOfAuthors(
  deps: CommunityContext,
  authors: ReadonlyArray<{ kind: "user" | "team"; id: string }>,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const userIds = authors.filter((author) => author.kind === "user").map((author) => author.id);
  const teamIds = authors.filter((author) => author.kind === "team").map((author) => author.id);
  if (userIds.length === 0 && teamIds.length === 0) return found;
  const rows = await deps.db
    .selectFrom("portfolios")
    .selectAll()
    .where("visible", "=", 1)
    .where((eb) =>
      eb.or([
        ...(userIds.length > 0 ? [eb("user_id", "in", userIds)] : []),
        ...(teamIds.length > 0 ? [eb("brand_team_id", "in", teamIds)] : []),
      ]),
    )
    .orderBy("created_at")
    .execute();
  for (const row of rows) {
    if (userIds.includes(row.user_id)) found.set(`user:${row.user_id}`, row.handle);
    const team = row.brand_team_id;
    if (team !== null && teamIds.includes(team) && !found.has(`team:${team}`) && (await presentedStudio(deps, row)) !== null) {
      found.set(`team:${team}`, row.handle);
    }
  }
  return found;
}
