/**
 * `npm run admin -- grant ROLE EMAIL | revoke ROLE EMAIL | list | mail [EMAIL] | confirm EMAIL`:
 * roles, the mail outbox and address confirmation on the database under DATA_DIR (the server may
 * be running: SQLite handles both). `mail` and `confirm` are how the first operator of an install
 * without SMTP confirms their own address: there is no admin yet to read /admin's outbox.
 */
import { openDatabase } from "../src/server/db/client";
import { migrateToLatest } from "../src/server/db/migrate";
import { EnvError, parseEnv } from "../src/server/env";
import { ROLE_PATTERN } from "../src/shared/constants";
import { confirmEmailByOperator, findAccountByEmail } from "../src/server/services/accounts";
import { outboxMailsWithBodies } from "../src/server/mail/mailer";
import { grantRole, listRoleHolders, revokeRole } from "../src/server/services/roles";

const USAGE = `Usage:
  npm run admin -- grant <role> <email>    give an account a role (e.g. grant admin ana@example.com)
  npm run admin -- revoke <role> <email>   take a role away
  npm run admin -- list                    every account that has a role
  npm run admin -- mail [email]            the latest mails kept in the outbox (to that address), links included
  npm run admin -- confirm <email>         confirm an account's e-mail address`;

/** How many mails `mail` prints. */
const MAILS_SHOWN = 5;

async function main(args: string[]): Promise<number> {
  const [command, role, email] = args;
  const valid =
    command === "list" ||
    (command === "mail" && args.length <= 2) ||
    (command === "confirm" && args.length === 2) ||
    ((command === "grant" || command === "revoke") && role && email);
  if (!valid) {
    console.error(USAGE);
    return 2;
  }
  const env = parseEnv();
  const db = openDatabase(env.DATABASE);
  try {
    await migrateToLatest(db);
    if (command === "mail" || command === "confirm") {
      const address = args[1];
      const account = address ? await findAccountByEmail(db, address) : undefined;
      if (address && !account) {
        console.error(`No account with the e-mail ${address}. Sign up first, then run this again.`);
        return 1;
      }
      if (command === "confirm") {
        const outcome = await confirmEmailByOperator(db, account!.id, Date.now());
        console.info(outcome === "confirmed" ? `${account!.email} is confirmed.` : `${account!.email} was already confirmed.`);
        return 0;
      }
      const mails = await outboxMailsWithBodies(db, { to: account?.email, limit: MAILS_SHOWN });
      if (mails.length === 0) console.info(account ? `No mail to ${account.email} in the outbox.` : "The outbox is empty.");
      for (const mail of mails.reverse()) {
        console.info(`--- ${new Date(mail.createdAt).toISOString()}  to ${mail.to}\nSubject: ${mail.subject}\n`);
        console.info(
          mail.text ||
            (mail.transport === "smtp"
              ? "(sent by SMTP: its text is not kept)"
              : "(its text was cleared after two days: its links have expired; ask for a new one in the app)"),
        );
        console.info("");
      }
      return 0;
    }
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
