/**
 * How much may be uploaded and kept. Visitors (not signed in) have daily byte budgets, per visitor
 * and per client address, so anonymous uploads cannot fill the disk; an account has a storage
 * quota over its photos and renders (USER_STORAGE_QUOTA_MB). Both count the bytes as stored.
 */
import { sql } from "kysely";
import type { MessageName } from "../../../shared/messages";
import type { Transaction } from "kysely";
import type { AppDatabase } from "../../db/client";
import type { Database } from "../../db/schema";
import { DomainError } from "../../errors";
import type { RenderContext } from "../context";

type Db = AppDatabase | Transaction<Database>;

const MB = 1_048_576;
const DAY_MS = 86_400_000;

const dayOf = (now: number) => Math.floor(now / DAY_MS);
const subjects = (visitorId: string, address: string) => [`visitor:${visitorId}`, `address:${address}`] as const;

/**
 * Takes the bytes from today's budgets of the visitor and of their address, both or neither;
 * the refusal's message when either would go over.
 */
export async function takeVisitorUploadBudget(
  deps: Pick<RenderContext, "db" | "clock" | "env">,
  visitorId: string,
  address: string,
  bytes: number,
): Promise<MessageName | null> {
  const day = dayOf(deps.clock.now());
  const [visitor, network] = subjects(visitorId, address);
  // Add first, then check the totals the additions return, in one transaction that a refusal rolls
  // back: the row an addition locks makes a concurrent upload of the same visitor or address wait for
  // this one's outcome, on PostgreSQL as on SQLite, so two uploads cannot both take the last of a budget.
  try {
    await deps.db.transaction().execute(async (trx) => {
      if ((await addToBudget(trx, visitor, day, bytes)) > deps.env.VISITOR_UPLOAD_MB_PER_DAY * MB) {
        throw new BudgetSpent("uploadVisitorBudgetSpent");
      }
      if ((await addToBudget(trx, network, day, bytes)) > deps.env.ADDRESS_UPLOAD_MB_PER_DAY * MB) {
        throw new BudgetSpent("uploadAddressBudgetSpent");
      }
    });
    return null;
  } catch (error) {
    if (error instanceof BudgetSpent) return error.refusal;
    throw error;
  }
}

/** Rolls the budget transaction back with the refusal's message. */
class BudgetSpent extends Error {
  constructor(readonly refusal: MessageName) {
    super(refusal);
  }
}

/** Gives the bytes back when the upload was not kept after all (storing it failed). */
export async function returnVisitorUploadBudget(
  deps: Pick<RenderContext, "db" | "clock">,
  visitorId: string,
  address: string,
  bytes: number,
): Promise<void> {
  const day = dayOf(deps.clock.now());
  for (const subject of subjects(visitorId, address)) await addToBudget(deps.db, subject, day, -bytes);
}

/** Adds to (or, negative, takes from) a day's total, never below 0; returns the new total. */
async function addToBudget(db: Db, subject: string, day: number, bytes: number): Promise<number> {
  const total = sql<number>`upload_budgets.bytes + ${bytes}`;
  const row = await db
    .insertInto("upload_budgets")
    .values({ subject, day, bytes: Math.max(0, bytes) })
    .onConflict((conflict) =>
      conflict.columns(["subject", "day"]).doUpdateSet({ bytes: sql`CASE WHEN ${total} < 0 THEN 0 ELSE ${total} END` }),
    )
    .returning("bytes")
    .executeTakeFirstOrThrow();
  return row.bytes;
}

/** Yesterday's totals are kept (a day just begun still sees them in tests of "tomorrow"); older ones go. */
export async function forgetOldUploadBudgets(deps: Pick<RenderContext, "db" | "clock">): Promise<number> {
  const result = await deps.db
    .deleteFrom("upload_budgets")
    .where("day", "<", dayOf(deps.clock.now()) - 1)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Bytes of the account's photos and of the files made for its renders and edits. */
export async function storageUsed(db: Db, userId: string): Promise<number> {
  const uploads = await db
    .selectFrom("uploads")
    .select((eb) => eb.fn.sum<number | null>("bytes").as("bytes"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const renders = await db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.sum<number | null>("stored_bytes").as("bytes"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(uploads.bytes ?? 0) + Number(renders.bytes ?? 0);
}

/**
 * Bytes of every account's and visitor's photos and of the files made for their renders and edits,
 * as the rows record them: the status pages' total when the files are in a bucket (decision 076).
 * Listing exports, the studio logo and the example pictures have no byte count in the database.
 */
export async function storageUsedByAll(db: Db): Promise<number> {
  const uploads = await db
    .selectFrom("uploads")
    .select((eb) => eb.fn.sum<number | null>("bytes").as("bytes"))
    .executeTakeFirstOrThrow();
  const renders = await db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.sum<number | null>("stored_bytes").as("bytes"))
    .executeTakeFirstOrThrow();
  return Number(uploads.bytes ?? 0) + Number(renders.bytes ?? 0);
}

/**
 * Refuses what would store more for an account whose files reach its quota: an upload of `adding`
 * bytes that would go over, or a render, edit or upscale once the quota is reached (its size is
 * not known before it is made).
 */
export async function ensureStorageLeft(deps: Pick<RenderContext, "db" | "env">, userId: string, adding = 0): Promise<void> {
  const quota = storageQuota(deps.env);
  if (quota === null) return;
  const used = await storageUsed(deps.db, userId);
  if (adding > 0 ? used + adding > quota : used >= quota) throw new DomainError("forbidden", "storageQuotaFull");
}

/** The account's storage quota in bytes; null when there is none. */
export function storageQuota(env: RenderContext["env"]): number | null {
  return env.USER_STORAGE_QUOTA_MB > 0 ? env.USER_STORAGE_QUOTA_MB * MB : null;
}
