/**
 * `npm run admin -- grant ROLE EMAIL | revoke ROLE EMAIL | list`: roles on the database under
 * DATA_DIR (the server may be running: SQLite handles both).
 */
import { openDatabase } from "../src/server/db/client";
import { migrateToLatest } from "../src/server/db/migrate";
import { EnvError, parseEnv } from "../src/server/env";
import { ROLE_PATTERN } from "../src/shared/constants";
import { findAccountByEmail } from "../src/server/services/accounts";
import { grantRole, listRoleHolders, revokeRole } from "../src/server/services/roles";

const USAGE = `Usage:
  npm run admin -- grant <role> <email>    give an account a role (e.g. grant admin ana@example.com)
  npm run admin -- revoke <role> <email>   take a role away
  npm run admin -- list                    every account that has a role`;

async function main(args: string[]): Promise<number> {
  const [command, role, email] = args;
  if (command !== "list" && ((command !== "grant" && command !== "revoke") || !role || !email)) {
    console.error(USAGE);
    return 2;
  }
  const env = parseEnv();
  const db = openDatabase(env.DATABASE_FILE);
  try {
    await migrateToLatest(db);
    if (command === "list") {
      const rows = await listRoleHolders(db);
      if (rows.length === 0)
        console.info("No account has a role yet. Make the first admin with: npm run admin -- grant admin you@example.com");
      for (const row of rows)
        console.info(`${row.role.padEnd(12)} ${row.email}  (since ${new Date(row.since).toISOString().slice(0, 10)})`);
      return 0;
    }
    if (!ROLE_PATTERN.test(role!)) {
      console.error(`"${role}" is not a role name: lower-case letters, digits, "-" and "_", at most 50.`);
      return 2;
    }
    const user = await findAccountByEmail(db, email!);
    if (!user) {
      console.error(`No account with the e-mail ${email}. Sign up first, then run this again.`);
      return 1;
    }
    if (command === "grant") {
      const added = await grantRole(db, user.id, role!, Date.now());
      console.info(added ? `${user.email} now has the role "${role}".` : `${user.email} already has the role "${role}".`);
    } else {
      const removed = await revokeRole(db, user.id, role!);
      console.info(removed ? `${user.email} no longer has the role "${role}".` : `${user.email} did not have the role "${role}".`);
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof EnvError ? error.message : error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
