/**
 * /admin → Teams (issue 28): every team on the server, for its admin (the router checks the role),
 * found by its name or a member's address, a page at a time like /admin → Users; each with its
 * balance, member count, when it was made, and its members (name, address, role, monthly cap).
 */
import { containsIgnoringCase } from "../db/sql-helpers";
import type { TeamRole } from "../../shared/teams";
import type { SpacesContext } from "./context";

/** Accounts a search by address looks at, at most (a studio has far fewer; the search stays one statement). */
const EMAIL_MATCHES_MAX = 1000;

const ROLE_ORDER: Record<TeamRole, number> = { owner: 0, admin: 1, member: 2 };

export interface DirectoryMember {
  userId: string;
  name: string;
  email: string;
  role: TeamRole;
  monthlyCap: number | null;
  joinedAt: number;
}

export interface DirectoryTeam {
  id: string;
  name: string;
  credits: number;
  memberCount: number;
  createdAt: number;
  members: DirectoryMember[];
}

/** The teams whose name contains the search, or with a member whose address does; newest first. */
export async function teamDirectory(
  deps: SpacesContext,
  filter: { search?: string; limit: number; offset: number },
): Promise<{ teams: DirectoryTeam[]; total: number }> {
  const search = filter.search?.trim();
  const memberIds = search ? await deps.people.idsByEmailContaining(search, EMAIL_MATCHES_MAX) : [];
  let query = deps.db.selectFrom("teams");
  if (search) {
    query = query.where((eb) =>
      eb.or([
        containsIgnoringCase("teams.name", search),
        ...(memberIds.length > 0
          ? [
              eb.exists(
                eb
                  .selectFrom("team_members as matched")
                  .select("matched.user_id")
                  .whereRef("matched.team_id", "=", "teams.id")
                  .where("matched.user_id", "in", memberIds),
              ),
            ]
          : []),
      ]),
    );
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await query
    .select((eb) => [
      "teams.id",
      "teams.name",
      "teams.credits_remaining",
      "teams.created_at",
      eb
        .selectFrom("team_members as counted")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("counted.team_id", "=", "teams.id")
        .as("members"),
    ])
    .orderBy("teams.created_at", "desc")
    .orderBy("teams.id")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();

  // The page's members in one statement, their names and addresses in one call to accounts.
  const teamIds = rows.map((row) => row.id);
  const memberRows =
    teamIds.length === 0
      ? []
      : await deps.db
          .selectFrom("team_members")
          .select(["team_id", "user_id", "role", "monthly_cap", "joined_at"])
          .where("team_id", "in", teamIds)
          .orderBy("joined_at")
          .orderBy("user_id")
          .execute();
  const people = await deps.people.people(memberRows.map((row) => row.user_id));
  const byTeam = new Map<string, DirectoryMember[]>();
  for (const row of memberRows) {
    const person = people.get(row.user_id);
    const list = byTeam.get(row.team_id) ?? [];
    list.push({
      userId: row.user_id,
      name: person?.name ?? "",
      email: person?.email ?? "",
      role: row.role,
      monthlyCap: row.monthly_cap,
      joinedAt: row.joined_at,
    });
    byTeam.set(row.team_id, list);
  }
  const teams = rows.map((row) => ({
    id: row.id,
    name: row.name,
    credits: row.credits_remaining,
    memberCount: Number(row.members),
    createdAt: row.created_at,
    // The Owner first, then Admins, then Members, each by when they joined (the sort is stable).
    members: (byTeam.get(row.id) ?? []).sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]),
  }));
  return { teams, total: Number(total.n) };
}

/** Whether a team with this id exists (an admin's adjustment of an unknown team is a 404). */
export async function teamExists(deps: Pick<SpacesContext, "db">, teamId: string): Promise<boolean> {
  return (await deps.db.selectFrom("teams").select("id").where("id", "=", teamId).executeTakeFirst()) !== undefined;
}

/** Teams' names by id (the community hub names a studio whose work it shows); unknown ids are left out. */
export async function teamNames(deps: Pick<SpacesContext, "db">, teamIds: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (teamIds.length === 0) return names;
  const rows = await deps.db
    .selectFrom("teams")
    .select(["id", "name"])
    .where("id", "in", [...new Set(teamIds)])
    .execute();
  for (const row of rows) names.set(row.id, row.name);
  return names;
}
