/**
 * Credits: every change is a ledger row written in the same transaction as the balance it
 * changes, so profiles.credits_remaining always equals the sum of the user's ledger rows.
 * A job is charged once and refunded at most once: the unique index (job_id, kind) decides,
 * even when two refunds race.
 */
import type { Transaction } from "kysely";
import { CREDITS } from "../../shared/constants";
import type { AppDatabase } from "../db/client";
import { periodIndex } from "../db/sql-helpers";
import type { CreditKind, Database } from "../db/schema";
import { generateSecureRandomString } from "../auth/tokens";
import { DomainError } from "../errors";

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
  return take;
}

/**
 * The ledger as the render module uses it (its CreditLedger port, src/server/render/context.ts):
 * charges and refunds run inside the render's own transaction, so a job and its credit commit together.
 */
export const renderCreditLedger = {
  balance: creditBalance,
  freeCreditsHeld,
  chargeForJob,
  refundJob,
  useByPeriod: creditUseByPeriod,
};
