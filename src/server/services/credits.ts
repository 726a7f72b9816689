/**
 * Credits: every change is a ledger row written in the same transaction as the balance it
 * changes, so profiles.credits_remaining always equals the sum of the user's ledger rows.
 * A job is charged once and refunded at most once: the unique index (job_id, kind) decides,
 * even when two refunds race.
 */
import type { Transaction } from "kysely";
import { CREDITS } from "../../shared/constants";
import type { AppDatabase } from "../db/client";
import { forUpdate } from "../db/locking";
import { olderThan, periodIndex } from "../db/sql-helpers";
import type { CreditKind, Database, TeamCreditKind } from "../db/schema";
import { generateSecureRandomString } from "../auth/tokens";
import { DomainError } from "../errors";
import type { Payer, RenderModule } from "../render";
import type { SpacesModule } from "../spaces";
import { monthIndexOf } from "../../shared/months";
import { roleMay } from "../../shared/teams";
import { personalSpaceKey, recordSpaceEvent, teamSpaceKey } from "../space-events";

type Db = AppDatabase | Transaction<Database>;

/**
 * The free credits (sign-up grants) among the user's balance, counted as the last ones spent: so
 * an account that must keep them spends only what it bought or was given by an admin.
 */
export async function freeCreditsHeld(db: Db, userId: string): Promise<number> {
  const granted = await db
    .selectFrom("credit_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("total"))
    .where("user_id", "=", userId)
    .where("kind", "=", "grant")
    .executeTakeFirstOrThrow();
  return Math.max(0, Math.min(await creditBalance(db, userId), Number(granted.total)));
}

async function addLedgerRow(
  db: Db,
  row: {
    userId: string;
    kind: CreditKind;
    amount: number;
    jobId?: string | null;
    reference?: string | null;
    reason?: string | null;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto("credit_ledger")
    .values({
      id: generateSecureRandomString(),
      user_id: row.userId,
      kind: row.kind,
      amount: row.amount,
      job_id: row.jobId ?? null,
      reference: row.reference ?? null,
      reason: row.reason ?? null,
      created_at: row.now,
    })
    .execute();
}

/**
 * A balance that went down, recorded for those who watch it (credits.low webhooks: decision 098).
 * Called after the balance's update, in its transaction: the balance read is the one the change left.
 */
async function recordDecrease(db: Db, space: { userId: string } | { teamId: string }, change: number, now: number) {
  const [owner, teamId, balance] =
    "teamId" in space
      ? [teamSpaceKey(space.teamId), space.teamId, await teamCreditBalance(db, space.teamId)]
      : [personalSpaceKey(space.userId), null, await creditBalance(db, space.userId)];
  await recordSpaceEvent(db, owner, { type: "credits.decreased", teamId, balance, change }, now);
}

/** Adds credits (sign-up grant, purchase, admin adjustment). Call inside a transaction. */
export async function grantCredits(
  db: Db,
  userId: string,
  amount: number,
  kind: Exclude<CreditKind, "charge" | "refund">,
  now: number,
  details: { reference?: string; reason?: string } = {},
): Promise<void> {
  await addLedgerRow(db, { userId, kind, amount, now, ...details });
  await db
    .updateTable("profiles")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "+", amount), updated_at: now }))
    .where("user_id", "=", userId)
    .execute();
  if (amount < 0) await recordDecrease(db, { userId }, amount, now);
}

/**
 * Takes the credit of one render; at zero it refuses with the domain error "notEnoughCredits". With
 * keepFreeCredits (an unconfirmed account on an engine that bills each render) the free credits stay
 * untouched, and "freeCreditsNeedConfirmation" says they were all it had (the balance would do, but
 * only with credits the account may not spend yet). Call inside the transaction that creates the job.
 */
export async function chargeForJob(
  db: Db,
  userId: string,
  jobId: string,
  now: number,
  options: { keepFreeCredits?: boolean } = {},
): Promise<void> {
  const kept = options.keepFreeCredits ? await freeCreditsHeld(db, userId) : 0;
  const charged = await db
    .updateTable("profiles")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "-", CREDITS.perRender), updated_at: now }))
    .where("user_id", "=", userId)
    .where("credits_remaining", ">=", CREDITS.perRender + kept)
    .executeTakeFirst();
  if (Number(charged.numUpdatedRows) !== 1) {
    if (kept > 0 && (await creditBalance(db, userId)) >= CREDITS.perRender)
      throw new DomainError("payment-required", "freeCreditsNeedConfirmation");
    throw new DomainError("payment-required", "notEnoughCredits");
  }
  await addLedgerRow(db, { userId, kind: "charge", amount: -CREDITS.perRender, jobId, now });
  await recordDecrease(db, { userId }, -CREDITS.perRender, now);
}

/** Gives a failed job's credit back, once; false when it was refunded already. Call inside the transaction that marks the job failed. */
export async function refundJob(db: Db, userId: string, jobId: string, now: number, reason: string): Promise<boolean> {
  const inserted = await db
    .insertInto("credit_ledger")
    .values({
      id: generateSecureRandomString(),
      user_id: userId,
      kind: "refund",
      amount: CREDITS.perRender,
      job_id: jobId,
      reference: null,
      reason,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(["job_id", "kind"]).where("job_id", "is not", null).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
  await db
    .updateTable("profiles")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "+", CREDITS.perRender), updated_at: now }))
    .where("user_id", "=", userId)
    .execute();
  return true;
}

/** The user's credits now (0 without a profile). */
export async function creditBalance(db: Db, userId: string): Promise<number> {
  const profile = await db.selectFrom("profiles").select("credits_remaining").where("user_id", "=", userId).executeTakeFirst();
  return profile?.credits_remaining ?? 0;
}

/**
 * The balance, locked until the transaction ends (decision 080): for a change decided on the
 * balance read (an admin's adjustment), which a concurrent one must not decide on the same figure.
 */
export async function lockedCreditBalance(trx: Transaction<Database>, userId: string): Promise<number> {
  const profile = await forUpdate(
    trx,
    trx.selectFrom("profiles").select("credits_remaining").where("user_id", "=", userId),
  ).executeTakeFirst();
  return profile?.credits_remaining ?? 0;
}

/** The balance the ledger explains (for checks and the admin page). */
export async function ledgerBalance(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("credit_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("total"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * What the user's renders took from the ledger and what failed (or canceled) renders gave back, per
 * period: periods start at `starts` (ascending), the last one ends before `end`. Charges and refunds
 * only; purchases, grants and admin changes are not use.
 */
export async function creditUseByPeriod(db: Db, userId: string, starts: readonly number[], end: number) {
  const periods = starts.map(() => ({ charged: 0, refunded: 0, refunds: 0 }));
  if (starts.length === 0) return periods;
  const rows = await db
    .selectFrom("credit_ledger")
    .select((eb) => [
      periodIndex("created_at", starts).as("period"),
      "kind",
      eb.fn.sum<number>("amount").as("total"),
      eb.fn.countAll<number>().as("count"),
    ])
    .where("user_id", "=", userId)
    .where("kind", "in", ["charge", "refund"])
    .where("created_at", ">=", starts[0]!)
    .where("created_at", "<", end)
    .groupBy(["period", "kind"])
    .execute();
  for (const row of rows) {
    const period = periods[Number(row.period)];
    if (!period) continue;
    if (row.kind === "charge") period.charged = -Number(row.total);
    else {
      period.refunded = Number(row.total);
      period.refunds = Number(row.count);
    }
  }
  return periods;
}

/**
 * Takes back the credits of a refunded purchase, once per reference (e.g. "<checkout session>:refund"),
 * as a negative "purchase" ledger row. Credits already spent cannot be taken: it takes what is left,
 * never going below zero, and the ledger row records exactly what was taken (nothing at all when the
 * balance is zero, since a ledger row is never 0). Returns the credits taken; 0 also when this
 * reference was reversed already. Call inside the transaction that marks the purchase refunded.
 */
export async function reversePurchaseCredits(
  db: Db,
  userId: string,
  credits: number,
  now: number,
  details: { reference: string; reason?: string },
): Promise<number> {
  const profile = await db.selectFrom("profiles").select("credits_remaining").where("user_id", "=", userId).executeTakeFirst();
  const take = Math.min(credits, Math.max(0, profile?.credits_remaining ?? 0));
  if (take <= 0) return 0;
  const inserted = await db
    .insertInto("credit_ledger")
    .values({
      id: generateSecureRandomString(),
      user_id: userId,
      kind: "purchase",
      amount: -take,
      job_id: null,
      reference: details.reference,
      reason: details.reason ?? null,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(["kind", "reference"]).where("reference", "is not", null).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return 0;
  const taken = await db
    .updateTable("profiles")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "-", take), updated_at: now }))
    .where("user_id", "=", userId)
    .where("credits_remaining", ">=", take)
    .executeTakeFirst();
  // The balance moved between the read and the write (another connection): undo by failing the transaction.
  if (Number(taken.numUpdatedRows) !== 1) throw new Error("The credit balance changed while a purchase was being reversed");
  await recordDecrease(db, { userId }, -take, now);
  return take;
}

// Teams (decision 070): the same guarantees for a team's balance, with the member who caused each row.

async function addTeamLedgerRow(
  db: Db,
  row: {
    teamId: string;
    userId: string | null;
    kind: TeamCreditKind;
    amount: number;
    jobId?: string | null;
    reference?: string | null;
    reason?: string | null;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto("team_credit_ledger")
    .values({
      id: generateSecureRandomString(),
      team_id: row.teamId,
      user_id: row.userId,
      kind: row.kind,
      amount: row.amount,
      job_id: row.jobId ?? null,
      reference: row.reference ?? null,
      reason: row.reason ?? null,
      created_at: row.now,
    })
    .execute();
}

/** The team's credits now (0 for no such team). */
export async function teamCreditBalance(db: Db, teamId: string): Promise<number> {
  const team = await db.selectFrom("teams").select("credits_remaining").where("id", "=", teamId).executeTakeFirst();
  return team?.credits_remaining ?? 0;
}

/** The team's balance, locked until the transaction ends (as lockedCreditBalance). */
export async function lockedTeamCreditBalance(trx: Transaction<Database>, teamId: string): Promise<number> {
  const team = await forUpdate(trx, trx.selectFrom("teams").select("credits_remaining").where("id", "=", teamId)).executeTakeFirst();
  return team?.credits_remaining ?? 0;
}

/** The balance the team's ledger explains. */
export async function teamLedgerBalance(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom("team_credit_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("total"))
    .where("team_id", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Takes one render's credit from the team, counting it against the member's monthly cap: the cap's
 * count and the balance each change only in a statement that checks them, in the job's transaction.
 */
async function chargeTeamForJob(db: Db, payer: Extract<Payer, { teamId: string }>, jobId: string, now: number): Promise<void> {
  const month = monthIndexOf(now);
  if (payer.monthlyCap !== null) {
    const counted = await db
      .insertInto("team_member_usage")
      .values({ team_id: payer.teamId, user_id: payer.userId, month, used: CREDITS.perRender })
      .onConflict((conflict) =>
        conflict
          .columns(["team_id", "user_id", "month"])
          .doUpdateSet((eb) => ({ used: eb("team_member_usage.used", "+", CREDITS.perRender) }))
          .where("team_member_usage.used", "<=", payer.monthlyCap! - CREDITS.perRender),
      )
      .executeTakeFirst();
    if (payer.monthlyCap < CREDITS.perRender || Number(counted.numInsertedOrUpdatedRows ?? 0) !== 1) {
      throw new DomainError("payment-required", "teamMonthlyCapReached", { params: { cap: payer.monthlyCap } });
    }
  } else {
    await db
      .insertInto("team_member_usage")
      .values({ team_id: payer.teamId, user_id: payer.userId, month, used: CREDITS.perRender })
      .onConflict((conflict) =>
        conflict
          .columns(["team_id", "user_id", "month"])
          .doUpdateSet((eb) => ({ used: eb("team_member_usage.used", "+", CREDITS.perRender) })),
      )
      .execute();
  }
  const charged = await db
    .updateTable("teams")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "-", CREDITS.perRender), updated_at: now }))
    .where("id", "=", payer.teamId)
    .where("credits_remaining", ">=", CREDITS.perRender)
    .executeTakeFirst();
  if (Number(charged.numUpdatedRows) !== 1) throw new DomainError("payment-required", "teamNotEnoughCredits");
  await addTeamLedgerRow(db, { teamId: payer.teamId, userId: payer.userId, kind: "charge", amount: -CREDITS.perRender, jobId, now });
  await recordDecrease(db, { teamId: payer.teamId }, -CREDITS.perRender, now);
}

/** Gives a team job's credit back once, and gives it back to the member's month it was counted in. */
async function refundTeamJob(db: Db, teamId: string, userId: string | null, jobId: string, now: number, reason: string): Promise<boolean> {
  const inserted = await db
    .insertInto("team_credit_ledger")
    .values({
      id: generateSecureRandomString(),
      team_id: teamId,
      user_id: userId,
      kind: "refund",
      amount: CREDITS.perRender,
      job_id: jobId,
      reference: null,
      reason,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(["job_id", "kind"]).where("job_id", "is not", null).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
  await db
    .updateTable("teams")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "+", CREDITS.perRender), updated_at: now }))
    .where("id", "=", teamId)
    .execute();
  const charge = await db
    .selectFrom("team_credit_ledger")
    .select("created_at")
    .where("job_id", "=", jobId)
    .where("kind", "=", "charge")
    .executeTakeFirst();
  if (userId !== null && charge) {
    await db
      .updateTable("team_member_usage")
      .set((eb) => ({ used: eb("used", "-", CREDITS.perRender) }))
      .where("team_id", "=", teamId)
      .where("user_id", "=", userId)
      .where("month", "=", monthIndexOf(charge.created_at))
      .where("used", ">=", CREDITS.perRender)
      .execute();
  }
  return true;
}

/** Adds credits to a team (a purchase for the team, an admin's adjustment); negative amounts take, never below zero. */
export async function grantTeamCredits(
  db: Db,
  teamId: string,
  userId: string | null,
  amount: number,
  kind: "purchase" | "admin",
  now: number,
  details: { reference?: string; reason?: string } = {},
): Promise<void> {
  const changed = await db
    .updateTable("teams")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "+", amount), updated_at: now }))
    .where("id", "=", teamId)
    .where("credits_remaining", ">=", Math.max(0, -amount))
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new DomainError("invalid", "teamNotEnoughCredits");
  await addTeamLedgerRow(db, { teamId, userId, kind, amount, now, ...details });
  if (amount < 0) await recordDecrease(db, { teamId }, amount, now);
}

/** Takes back a refunded team purchase's credits, once per reference, never below zero (as reversePurchaseCredits). */
export async function reverseTeamPurchaseCredits(
  db: Db,
  teamId: string,
  userId: string | null,
  credits: number,
  now: number,
  details: { reference: string; reason?: string },
): Promise<number> {
  const take = Math.min(credits, Math.max(0, await teamCreditBalance(db, teamId)));
  if (take <= 0) return 0;
  const inserted = await db
    .insertInto("team_credit_ledger")
    .values({
      id: generateSecureRandomString(),
      team_id: teamId,
      user_id: userId,
      kind: "purchase",
      amount: -take,
      job_id: null,
      reference: details.reference,
      reason: details.reason ?? null,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(["kind", "reference"]).where("reference", "is not", null).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return 0;
  const taken = await db
    .updateTable("teams")
    .set((eb) => ({ credits_remaining: eb("credits_remaining", "-", take), updated_at: now }))
    .where("id", "=", teamId)
    .where("credits_remaining", ">=", take)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new Error("The team's credit balance changed while a purchase was being reversed");
  await recordDecrease(db, { teamId }, -take, now);
  return take;
}

/**
 * Moves credits from the user's own balance into the team, both ledgers in one transaction. Free
 * (sign-up) credits move like bought ones: they are the user's to give.
 */
export async function moveCreditsToTeam(db: AppDatabase, userId: string, teamId: string, amount: number, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable("profiles")
      .set((eb) => ({ credits_remaining: eb("credits_remaining", "-", amount), updated_at: now }))
      .where("user_id", "=", userId)
      .where("credits_remaining", ">=", amount)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new DomainError("invalid", "teamCreditMoveTooLarge");
    const reference = `move:${generateSecureRandomString()}`;
    await addLedgerRow(trx, { userId, kind: "transfer", amount: -amount, reference, reason: `to team ${teamId}`, now });
    await recordDecrease(trx, { userId }, -amount, now);
    await trx
      .updateTable("teams")
      .set((eb) => ({ credits_remaining: eb("credits_remaining", "+", amount), updated_at: now }))
      .where("id", "=", teamId)
      .execute();
    await addTeamLedgerRow(trx, { teamId, userId, kind: "transfer", amount, reference, now });
  });
}

/** The team's ledger, newest first (a page of at most `limit` rows). */
export async function teamLedger(db: Db, teamId: string, limit: number) {
  const rows = await db
    .selectFrom("team_credit_ledger")
    .select(["id", "user_id", "kind", "amount", "job_id", "reason", "created_at"])
    .where("team_id", "=", teamId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    amount: row.amount,
    jobId: row.job_id,
    reason: row.reason,
    at: row.created_at,
  }));
}

/** A ledger row as a page of the ledger shows it (the API's GET /credits/ledger). */
export interface LedgerEntry {
  id: string;
  kind: CreditKind | TeamCreditKind;
  amount: number;
  jobId: string | null;
  reason: string | null;
  createdAt: number;
}

/**
 * A page of the payer's ledger (a user's own, or a team's), newest first: `limit` rows after `before`
 * (the last row of the page before: keyset on time and id, stable while rows are added).
 */
export async function creditLedgerPage(
  db: Db,
  payer: Pick<Payer, "userId" | "teamId">,
  page: { limit: number; before?: { createdAt: number; id: string } },
): Promise<LedgerEntry[]> {
  const { before } = page;
  const rows =
    payer.teamId !== null
      ? await db
          .selectFrom("team_credit_ledger")
          .select(["id", "kind", "amount", "job_id", "reason", "created_at"])
          .where("team_id", "=", payer.teamId)
          .$if(before !== undefined, (query) => query.where(olderThan(before!)))
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.limit)
          .execute()
      : await db
          .selectFrom("credit_ledger")
          .select(["id", "kind", "amount", "job_id", "reason", "created_at"])
          .where("user_id", "=", payer.userId)
          .$if(before !== undefined, (query) => query.where(olderThan(before!)))
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.limit)
          .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    jobId: row.job_id,
    reason: row.reason,
    createdAt: row.created_at,
  }));
}

/** Per member and month (UTC, from `fromMonth`): credits charged and refunded in the team, and refunds. */
export async function teamCreditUse(db: Db, teamId: string, since: number) {
  const rows = await db
    .selectFrom("team_credit_ledger")
    .select(["user_id", "kind", "created_at", "amount"])
    .where("team_id", "=", teamId)
    .where("kind", "in", ["charge", "refund"])
    .where("created_at", ">=", since)
    .execute();
  const use = new Map<string, { userId: string | null; month: number; charged: number; refunded: number; refunds: number }>();
  for (const row of rows) {
    const month = monthIndexOf(row.created_at);
    const key = `${row.user_id ?? ""}:${month}`;
    const entry = use.get(key) ?? { userId: row.user_id, month, charged: 0, refunded: 0, refunds: 0 };
    if (row.kind === "charge") entry.charged -= row.amount;
    else {
      entry.refunded += row.amount;
      entry.refunds += 1;
    }
    use.set(key, entry);
  }
  return [...use.values()];
}

/** What a member used of their cap this month. */
export async function usedThisMonth(db: Db, teamId: string, userIds: readonly string[], now: number): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  if (userIds.length === 0) return used;
  const rows = await db
    .selectFrom("team_member_usage")
    .select(["user_id", "used"])
    .where("team_id", "=", teamId)
    .where("month", "=", monthIndexOf(now))
    .where("user_id", "in", [...userIds])
    .execute();
  for (const row of rows) used.set(row.user_id, row.used);
  return used;
}

/**
 * The ledger as the render module uses it (its CreditLedger port, src/server/render/context.ts):
 * charges and refunds run inside the render's own transaction, so a job and its credit commit together.
 */
export const renderCreditLedger = {
  /** The payer's credits now: the team's when the job is a team's. */
  balance: (db: Db, payer: Pick<Payer, "userId" | "teamId">) =>
    payer.teamId !== null ? teamCreditBalance(db, payer.teamId) : creditBalance(db, payer.userId),
  freeCreditsHeld,
  chargeForJob: (db: Db, payer: Payer, jobId: string, now: number, options: { keepFreeCredits?: boolean } = {}) =>
    payer.teamId !== null ? chargeTeamForJob(db, payer, jobId, now) : chargeForJob(db, payer.userId, jobId, now, options),
  refundJob: (db: Db, payer: Pick<Payer, "userId" | "teamId">, jobId: string, now: number, reason: string) =>
    payer.teamId !== null
      ? refundTeamJob(db, payer.teamId, payer.userId, jobId, now, reason)
      : refundJob(db, payer.userId, jobId, now, reason),
  useByPeriod: creditUseByPeriod,
};

/** How many of the team ledger's newest rows the team page shows. */
const TEAM_LEDGER_ROWS = 100;
/** How many months of use per member the team page shows. */
const TEAM_USE_MONTHS = 6;

/**
 * The team's credits as its page shows them (decision 070): the balance to every member; the ledger,
 * each member's use per month and their caps to the Owner and Admins; a Member sees their own use.
 * Moving personal credits in is for the Owner and Admins.
 */
export function createTeamCreditsService(
  deps: { db: AppDatabase; clock: { now(): number } },
  spaces: Pick<SpacesModule, "requireRight" | "membersOf" | "record" | "roleIn">,
  render: Pick<RenderModule, "teamWorkByMonth">,
) {
  return {
    async overview(userId: string, teamId: string) {
      const role = await spaces.requireRight(userId, teamId, "work");
      const now = deps.clock.now();
      const balance = await teamCreditBalance(deps.db, teamId);
      const members = await spaces.membersOf(teamId);
      const used = await usedThisMonth(
        deps.db,
        teamId,
        members.map((member) => member.userId),
        now,
      );
      const mine = { used: used.get(userId) ?? 0, cap: members.find((member) => member.userId === userId)?.monthlyCap ?? null };
      if (!roleMay(role, "manageCredits")) return { role, balance, mine, members: null, ledger: null, use: null };
      const date = new Date(now);
      const since = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - (TEAM_USE_MONTHS - 1), 1);
      // Per member and month: what they asked for (renders, edits) and what it cost and gave back.
      const [credits, work] = await Promise.all([teamCreditUse(deps.db, teamId, since), render.teamWorkByMonth(teamId, since)]);
      const use = new Map<
        string,
        { userId: string | null; month: number; renders: number; edits: number; charged: number; refunded: number; refunds: number }
      >();
      const entry = (userId: string | null, month: number) => {
        const key = `${userId ?? ""}:${month}`;
        let found = use.get(key);
        if (!found) use.set(key, (found = { userId, month, renders: 0, edits: 0, charged: 0, refunded: 0, refunds: 0 }));
        return found;
      };
      for (const row of work) Object.assign(entry(row.userId, row.month), { renders: row.renders, edits: row.edits });
      for (const row of credits)
        Object.assign(entry(row.userId, row.month), { charged: row.charged, refunded: row.refunded, refunds: row.refunds });
      return {
        role,
        balance,
        mine,
        members: members.map((member) => ({ ...member, usedThisMonth: used.get(member.userId) ?? 0 })),
        ledger: await teamLedger(deps.db, teamId, TEAM_LEDGER_ROWS),
        use: [...use.values()].sort((a, b) => b.month - a.month || (a.userId ?? "").localeCompare(b.userId ?? "")),
      };
    },

    /** Moves credits from the caller's own balance into the team (Owner or Admin). */
    async moveIn(userId: string, teamId: string, amount: number) {
      await spaces.requireRight(userId, teamId, "manageCredits");
      await moveCreditsToTeam(deps.db, userId, teamId, amount, deps.clock.now());
      await spaces.record(teamId, userId, "creditsMoved", { credits: amount });
      return { balance: await teamCreditBalance(deps.db, teamId), personal: await creditBalance(deps.db, userId) };
    },
  };
}

export type TeamCreditsService = ReturnType<typeof createTeamCreditsService>;
