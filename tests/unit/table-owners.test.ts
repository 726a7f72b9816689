/**
 * One home per table (decision 054): every table (src/server/db/schema.ts, db/migrations) is queried
 * only by the module that owns it; other modules call the owner's functions. dependency-cruiser sees
 * imports, not query strings, so this test reads the source of src/server: query builders naming a
 * table (selectFrom, insertInto, updateTable, deleteFrom, the joins, with), sql.table/sql.ref, and raw
 * SQL (sql`...` templates and .prepare("...") text) naming one after FROM, JOIN, INTO or UPDATE, or
 * qualifying a column with it. A query built on a table name held in a variable is not seen.
 *
 * TABLE_OWNERS is the map. An owner is a file, or a folder (ending in "/") for a module that is one.
 * `also` lists the other files that still query the table, each with why:
 * - "exception": kept on purpose, e.g. a join another module's table needs on a hot path, or a column
 *   another module keeps (the credit balance); the reason says why.
 * This test also fails when an exception is no longer used, so the map stays true.
 * The render module's tables were checked by tests/unit/render-tables.test.ts; its cases are below.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

type Status = "exception";

interface Home {
  /** The file, or the module's folder ("src/server/render/"), that owns the table. */
  owner: string;
  /** Other files that query the table, and why. */
  also?: Record<string, { status: Status; reason: string }>;
}

const ACCOUNTS = "src/server/services/accounts.ts";
const SESSIONS = "src/server/auth/sessions.ts";
const LOCKOUT = "src/server/auth/lockout.ts";
const TWO_FACTOR = "src/server/auth/two-factor.ts";
const CREDITS = "src/server/services/credits.ts";
const PAYMENTS = "src/server/services/payments.ts";
const RENDER = "src/server/render/";

const TABLE_OWNERS: Record<string, Home> = {
  users: {
    owner: ACCOUNTS,
    also: {
      [SESSIONS]: {
        status: "exception",
        reason:
          "validateSessionWithUser runs on every request: the session and its (enabled) user are read in one " +
          "prepared statement (decisions 044 and 046), not a second lookup through accounts.",
      },
    },
  },
  profiles: {
    owner: ACCOUNTS,
    also: {
      [CREDITS]: {
        status: "exception",
        reason:
          "profiles.credits_remaining is the credit ledger's running balance: grantCredits, chargeForJob, refundJob " +
          "and reversePurchaseCredits change it in the statement that checks it (credits_remaining >= 1) and in the " +
          "transaction of their ledger row, and creditBalance reads it. Going through an accounts function would " +
          "split that guarded update from its ledger row; the column is the ledger's, the rest of the row accounts'.",
      },
    },
  },
  user_identities: { owner: ACCOUNTS },
  email_tokens: { owner: ACCOUNTS },
  two_factor_challenges: { owner: ACCOUNTS },
  two_factor_failures: { owner: ACCOUNTS },
  sessions: { owner: SESSIONS },
  login_attempts: { owner: LOCKOUT },
  two_factor: { owner: TWO_FACTOR },
  backup_codes: { owner: TWO_FACTOR },
  user_roles: { owner: "src/server/services/roles.ts" },
  projects: { owner: "src/server/services/projects.ts" },
  mail_outbox: { owner: "src/server/mail/mailer.ts" },
  credit_ledger: { owner: CREDITS },
  team_credit_ledger: { owner: CREDITS },
  team_member_usage: { owner: CREDITS },
  credit_purchases: { owner: PAYMENTS },
  stripe_events: { owner: PAYMENTS },
  payment_holds: { owner: PAYMENTS },
  credit_packages: { owner: PAYMENTS },
  analytics_events: { owner: "src/server/services/analytics.ts" },
  self_test_runs: { owner: "src/server/services/self-test-runs.ts" },
  admin_audit: { owner: "src/server/services/admin.ts" },
  teams: {
    owner: "src/server/spaces/",
    also: {
      [CREDITS]: {
        status: "exception",
        reason:
          "teams.credits_remaining is the team ledger's running balance (decision 070), as profiles.credits_remaining is " +
          "the user's: the team's charge, refund, purchase, move and adjustment change it in the statement that checks it " +
          "and in the transaction of their team_credit_ledger row.",
      },
    },
  },
  team_members: {
    owner: "src/server/spaces/",
    also: {
      [SESSIONS]: {
        status: "exception",
        reason:
          "validateSessionWithUser reads the space the user works in within its one prepared statement (decisions 044 " +
          "and 070): the current space joined with the membership, so a removed member is back in their own space on " +
          "their next request without a second lookup through the spaces module.",
      },
    },
  },
  team_invitations: { owner: "src/server/spaces/" },
  current_spaces: {
    owner: "src/server/spaces/",
    also: {
      [SESSIONS]: {
        status: "exception",
        reason:
          "validateSessionWithUser reads the space the user works in within its one prepared statement (decisions 044 " +
          "and 070): the current space joined with the membership, so a removed member is back in their own space on " +
          "their next request without a second lookup through the spaces module.",
      },
    },
  },
  team_activity: { owner: "src/server/spaces/" },
  clients: { owner: "src/server/clients/" },
  project_clients: { owner: "src/server/clients/" },
  review_links: { owner: "src/server/review/" },
  review_comments: { owner: "src/server/review/" },
  review_decisions: { owner: "src/server/review/" },
  uploads: { owner: RENDER },
  render_jobs: { owner: RENDER },
  render_events: { owner: RENDER },
  render_edits: { owner: RENDER },
  render_workers: { owner: RENDER },
  render_sets: { owner: RENDER },
  visitor_demo_renders: { owner: RENDER },
  upload_budgets: { owner: RENDER },
  webhook_receipts: { owner: RENDER },
  listing_exports: { owner: "src/server/listing/" },
  listing_videos: { owner: "src/server/listing/" },
  backups: { owner: "src/server/backup/" },
  housekeeping_runs: { owner: "src/server/housekeeping/" },
  scheduled_runs: { owner: "src/server/coordination/" },
  rate_counts: { owner: "src/server/coordination/" },
  studio_settings: { owner: "src/server/settings/" },
  measure_references: { owner: "src/server/measures/" },
  room_measures: { owner: "src/server/measures/" },
  api_keys: { owner: "src/server/api/" },
  api_idempotency: { owner: "src/server/api/" },
  webhook_endpoints: { owner: "src/server/webhooks/" },
  webhook_deliveries: { owner: "src/server/webhooks/" },
  webhook_attempts: { owner: "src/server/webhooks/" },
  webhook_cursor: { owner: "src/server/webhooks/" },
  space_events: { owner: "src/server/space-events/" },
  api_render_slots: { owner: "src/server/api/" },
  api_usage: { owner: "src/server/api/" },
  custom_styles: { owner: "src/server/styles/" },
  publications: { owner: "src/server/community/" },
  publication_likes: { owner: "src/server/community/" },
  publication_saves: { owner: "src/server/community/" },
  community_follows: { owner: "src/server/community/" },
  publication_reports: { owner: "src/server/community/" },
  publishing_blocks: { owner: "src/server/community/" },
  portfolios: { owner: "src/server/community/" },
  marketplace_listings: { owner: "src/server/marketplace/" },
  marketplace_listing_facets: { owner: "src/server/marketplace/" },
  marketplace_listing_styles: { owner: "src/server/marketplace/" },
  marketplace_listing_examples: { owner: "src/server/marketplace/" },
  marketplace_installs: { owner: "src/server/marketplace/" },
};

interface SourceFile {
  file: string;
  source: string;
}

interface Query {
  file: string;
  table: string;
  /** How it names the table: `selectFrom`, `leftJoin`, `sql` (raw SQL), ... */
  how: string;
}

const BUILDERS = [
  "selectFrom",
  "insertInto",
  "replaceInto",
  "updateTable",
  "deleteFrom",
  "mergeInto",
  "innerJoin",
  "leftJoin",
  "rightJoin",
  "fullJoin",
  "crossJoin",
  "with",
];

/** The tables: the keys of schema.ts's Database, and every table a migration creates. */
function tablesOf(schema: string, migrations: string[]): string[] {
  const database = /export interface Database \{([^}]*)\}/.exec(schema)?.[1] ?? "";
  const fromSchema = [...database.matchAll(/^\s*(\w+):/gm)].map((match) => match[1]!);
  const fromMigrations = migrations.flatMap((source) => [...source.matchAll(/\bcreateTable\(\s*"(\w+)"/g)].map((match) => match[1]!));
  // A table built under a temporary name and renamed (a rebuild: 0022's credit_ledger) is not a table of its own.
  const renamedAway = new Set(
    migrations.flatMap((source) => [...source.matchAll(/\balterTable\(\s*"(\w+)"\s*\)\s*\.renameTo\(/g)].map((match) => match[1]!)),
  );
  return [...new Set([...fromSchema, ...fromMigrations])].filter((table) => !renamedAway.has(table)).sort();
}

/** Every place in the file that queries one of the tables. */
function queriesIn({ file, source }: SourceFile, tables: readonly string[]): Query[] {
  const names = tables.join("|");
  const found: Query[] = [];
  const builder = new RegExp(`\\b(${BUILDERS.join("|")})\\(\\s*\\[?\\s*"(${names})[". ]`, "g");
  for (const match of source.matchAll(builder)) found.push({ file, table: match[2]!, how: match[1]! });
  for (const match of source.matchAll(new RegExp(`\\bsql\\.(table|ref)\\(\\s*"(${names})[".]`, "g"))) {
    found.push({ file, table: match[2]!, how: `sql.${match[1]}` });
  }
  // Raw SQL: a table after FROM, JOIN, INTO or UPDATE, or qualifying a column; the template's ${...} are code, not SQL.
  const raw = new RegExp(`\\b(?:from|join|into|update)\\s+["\`]?(${names})\\b|\\b(${names})\\.[a-z_*]`, "gi");
  const texts = [
    ...[...source.matchAll(/\bsql(?:<[^`]*?>)?`([^`]*)`/g)].map((match) => ({ how: "sql", text: match[1]! })),
    ...[...source.matchAll(/\.prepare\(\s*(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((match) => ({ how: "prepare", text: match[2]! })),
  ];
  for (const { how, text } of texts) {
    for (const match of text.replace(/\$\{[^}]*\}/g, "?").matchAll(raw)) {
      found.push({ file, table: (match[1] ?? match[2]!).toLowerCase(), how });
    }
  }
  return found;
}

const isOwner = (file: string, owner: string) => (owner.endsWith("/") ? file.startsWith(owner) : file === owner);

/** "file: how("table")" for every query of a table by a file that neither owns it nor is listed in `also`. */
function violations(files: SourceFile[], owners: Record<string, Home>): string[] {
  const tables = Object.keys(owners);
  return files.flatMap((file) =>
    queriesIn(file, tables)
      .filter(({ table }) => {
        const home = owners[table]!;
        return !isOwner(file.file, home.owner) && !(home.also && file.file in home.also);
      })
      .map(({ table, how }) => `${file.file}: ${how}("${table}")`),
  );
}

/** "table: file" for every `also` entry whose file no longer queries the table. */
function unusedExceptions(files: SourceFile[], owners: Record<string, Home>): string[] {
  const tables = Object.keys(owners);
  const used = new Set(files.flatMap((file) => queriesIn(file, tables).map(({ table }) => `${table}: ${file.file}`)));
  return Object.entries(owners).flatMap(([table, home]) =>
    Object.keys(home.also ?? {})
      .map((file) => `${table}: ${file}`)
      .filter((entry) => !used.has(entry)),
  );
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function read(dir: string): SourceFile[] {
  return sourceFiles(dir).map((file) => ({ file: file.split(path.sep).join("/"), source: fs.readFileSync(file, "utf8") }));
}

const server = read("src/server");
const tables = tablesOf(
  fs.readFileSync("src/server/db/schema.ts", "utf8"),
  read("db/migrations").map(({ source }) => source),
);

describe("table owners (decision 054)", () => {
  it("gives every table one owner, and names no table that does not exist", () => {
    expect(tables.length).toBeGreaterThan(30);
    expect(tables.filter((table) => !TABLE_OWNERS[table])).toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("names owners and exceptions that exist in src/server", () => {
    const files = new Set(server.map(({ file }) => file));
    const homes = Object.values(TABLE_OWNERS).flatMap((home) => [home.owner, ...Object.keys(home.also ?? {})]);
    expect(homes.filter((home) => !(home.endsWith("/") ? server.some(({ file }) => file.startsWith(home)) : files.has(home)))).toEqual([]);
  });

  it("has each table queried only by its owner, and the listed exceptions", () => {
    expect(server.length).toBeGreaterThan(50);
    expect(violations(server, TABLE_OWNERS)).toEqual([]);
  });

  it("lists only exceptions still in use", () => {
    expect(unusedExceptions(server, TABLE_OWNERS)).toEqual([]);
  });

  it("finds planted queries by a non-owner, in builders and raw SQL, and a table without an owner", () => {
    const planted: SourceFile[] = [
      { file: "src/server/services/admin.ts", source: `await trx.deleteFrom("sessions").where("user_id", "=", id).execute();` },
      { file: "src/server/services/analytics.ts", source: `db\n  .selectFrom(\n    "users"\n  )` },
      { file: "src/server/services/roles.ts", source: `db.selectFrom("user_roles").innerJoin("users as u", "u.id", "user_id")` },
      {
        file: "src/server/services/other.ts",
        source: "sql<{ n: number }>`SELECT count(*) AS n FROM credit_ledger WHERE ${user.id} = user_id`",
      },
      { file: "src/server/http/x.ts", source: 'join.on("l.email", "=", sql<string>`lower(users.email)`)' },
      { file: "src/server/backup/x.ts", source: `sqlite.prepare("DELETE FROM sessions WHERE id = ?")` },
      { file: "src/server/services/y.ts", source: `db.selectFrom(sql.table("projects"))` },
      // The owner, an exception, another table's name inside a longer one, and code inside ${...}: not reported.
      { file: "src/server/auth/sessions.ts", source: `db.deleteFrom("sessions"); db.innerJoin("users", "users.id", "sessions.user_id")` },
      { file: "src/server/render/queue.ts", source: `db.updateTable("render_jobs").set({ recoveries: sql\`recoveries + 1\` })` },
      { file: "src/server/services/z.ts", source: 'db.selectFrom("uploads_archive"); sql`SELECT ${users.length}`' },
    ];
    expect(violations(planted, TABLE_OWNERS)).toEqual([
      `src/server/services/admin.ts: deleteFrom("sessions")`,
      `src/server/services/analytics.ts: selectFrom("users")`,
      `src/server/services/roles.ts: innerJoin("users")`,
      `src/server/services/other.ts: sql("credit_ledger")`,
      `src/server/http/x.ts: sql("users")`,
      `src/server/backup/x.ts: prepare("sessions")`,
      `src/server/services/y.ts: sql.table("projects")`,
    ]);
    expect(tablesOf("export interface Database {\n  users: UsersTable;\n}", [`db.schema.createTable("wishlists")`])).toEqual([
      "users",
      "wishlists",
    ]);
    const withoutOwner = tablesOf("export interface Database {\n  users: UsersTable;\n  wishlists: WishlistsTable;\n}", []);
    expect(withoutOwner.filter((table) => !TABLE_OWNERS[table])).toEqual(["wishlists"]);
  });

  it("finds an exception no longer used", () => {
    const owners: Record<string, Home> = {
      users: { owner: ACCOUNTS, also: { [SESSIONS]: { status: "exception", reason: "one statement" } } },
    };
    expect(unusedExceptions([{ file: SESSIONS, source: `db.selectFrom("sessions")` }], owners)).toEqual([`users: ${SESSIONS}`]);
    expect(unusedExceptions([{ file: SESSIONS, source: `db.innerJoin("users", "users.id", "x")` }], owners)).toEqual([]);
  });
});

// Formerly tests/unit/render-tables.test.ts: the render module owns its tables, none of them is queried outside it.
describe("render tables", () => {
  const RENDER_TABLES = ["uploads", "render_jobs", "render_events", "visitor_demo_renders"];
  const renderOnly = Object.fromEntries(RENDER_TABLES.map((table) => [table, TABLE_OWNERS[table]!]));

  it("are queried only inside src/server/render", () => {
    expect(Object.values(renderOnly).map((home) => home.owner)).toEqual(RENDER_TABLES.map(() => RENDER));
    expect(server.length).toBeGreaterThan(50);
    expect(violations(server, renderOnly)).toEqual([]);
  });

  it("a planted query outside render is found, one inside is not", () => {
    const planted = [
      { file: "src/server/services/projects.ts", source: `await db.selectFrom("render_jobs").selectAll().execute();` },
      { file: "src/server/trpc/routers/admin.ts", source: `db.leftJoin("uploads as u", "u.id", "x.upload_id")` },
      { file: "src/server/render/jobs/library.ts", source: `await db.updateTable("render_jobs").set({}).execute();` },
      { file: "src/server/services/other.ts", source: `db.selectFrom("uploads_archive")` },
    ];
    expect(violations(planted, renderOnly)).toEqual([
      `src/server/services/projects.ts: selectFrom("render_jobs")`,
      `src/server/trpc/routers/admin.ts: leftJoin("uploads")`,
    ]);
  });
});
