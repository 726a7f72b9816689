/**
 * Roles (spec sections 3 and 6): rows of user_roles; "admin" opens the Quick Admin bar and /admin.
 * Granted by `npm run admin -- grant admin EMAIL`, by an admin in /admin, or by ADMIN_EMAILS at start-up.
 * Owns user_roles; accounts are found through the accounts service (decision 054).
 */
import { ADMIN_ROLE } from "../../shared/constants";
import type { AppDatabase } from "../db/client";
import type { Infra } from "../infra";
import { accountsInEmailOrder, findAccountByEmail } from "./accounts";

export async function listRoles(db: AppDatabase, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("user_roles").select("role").where("user_id", "=", userId).orderBy("role").execute();
  return rows.map((row) => row.role);
}

/** The roles of several users in one statement (the admin's user list), each list sorted; users without roles are left out. */
export async function listRolesOf(db: AppDatabase, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const roles = new Map<string, string[]>();
  if (userIds.length === 0) return roles;
  const rows = await db.selectFrom("user_roles").select(["user_id", "role"]).where("user_id", "in", userIds).orderBy("role").execute();
  for (const row of rows) roles.set(row.user_id, [...(roles.get(row.user_id) ?? []), row.role]);
  return roles;
}

/** true when the role was added (false: the user had it already). */
export async function grantRole(db: AppDatabase, userId: string, role: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto("user_roles")
    .values({ user_id: userId, role, created_at: now })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function revokeRole(db: AppDatabase, userId: string, role: string): Promise<boolean> {
  const result = await db.deleteFrom("user_roles").where("user_id", "=", userId).where("role", "=", role).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countAdmins(db: AppDatabase): Promise<number> {
  const row = await db
    .selectFrom("user_roles")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", ADMIN_ROLE)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** At start-up: ADMIN_EMAILS become admins (those with accounts), and a fresh install says how to make the first one. */
export async function applyAdminEmails(deps: Pick<Infra, "db" | "env" | "log" | "clock">): Promise<void> {
  for (const email of deps.env.ADMIN_EMAILS) {
    const user = await findAccountByEmail(deps.db, email);
    if (!user) {
      deps.log.warn(
        `ADMIN_EMAILS: no account for ${email} yet; sign up with it, then restart (or run: npm run admin -- grant admin ${email})`,
      );
      continue;
    }
    if (await grantRole(deps.db, user.id, ADMIN_ROLE, deps.clock.now())) deps.log.info(`ADMIN_EMAILS: ${email} is now an admin`);
  }
  if ((await countAdmins(deps.db)) === 0) {
    deps.log.info(
      "No admin yet. Sign up, then make yourself admin with: npm run admin -- grant admin you@example.com (or set ADMIN_EMAILS and restart)",
    );
    // Without SMTP the confirmation mail waits in the outbox, which only an admin reads in /admin.
    if (!deps.env.SMTP_URL)
      deps.log.info(
        "Mail is not set up (SMTP_URL), so mails wait in the outbox. Read yours, with its confirmation link, with: npm run admin -- mail you@example.com (or confirm your address with: npm run admin -- confirm you@example.com)",
      );
  }
}

/** Every account that holds a role, by e-mail, each account's roles in name order (the admin CLI's list). */
export async function listRoleHolders(db: AppDatabase): Promise<Array<{ email: string; role: string; since: number }>> {
  const rows = await db.selectFrom("user_roles").select(["user_id", "role", "created_at"]).orderBy("role").execute();
  const rolesOf = new Map<string, typeof rows>();
  for (const row of rows) rolesOf.set(row.user_id, [...(rolesOf.get(row.user_id) ?? []), row]);
  const accounts = await accountsInEmailOrder(db, [...rolesOf.keys()]);
  return accounts.flatMap((account) =>
    (rolesOf.get(account.id) ?? []).map((row) => ({ email: account.email, role: row.role, since: row.created_at })),
  );
}

export async function hasRole(db: AppDatabase, userId: string, role: string): Promise<boolean> {
  const row = await db.selectFrom("user_roles").select("role").where("user_id", "=", userId).where("role", "=", role).executeTakeFirst();
  return row !== undefined;
}

export function createRolesService(db: AppDatabase, clock: Pick<Infra["clock"], "now">) {
  return {
    list: (userId: string) => listRoles(db, userId),
    listOf: (userIds: readonly string[]) => listRolesOf(db, userIds),
    has: (userId: string, role: string) => hasRole(db, userId, role),
    isAdmin: (userId: string) => hasRole(db, userId, ADMIN_ROLE),
    grant: (userId: string, role: string) => grantRole(db, userId, role, clock.now()),
    revoke: (userId: string, role: string) => revokeRole(db, userId, role),
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
