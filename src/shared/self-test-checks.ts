/**
 * What the self-test suite and the server share: the names of the checks only the server can make
 * about its own machine (selfTest.check, admin only), the limits they apply, and the report texts
 * of spec section 8, word for word.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";

/**
 * Checks of the box the server runs on (src/server/services/system-checks.ts):
 * - database-integrity: SQLite `PRAGMA quick_check` is "ok" and `PRAGMA foreign_key_check` finds nothing.
 * - disk-space: the file system of DATA_DIR has at least DISK_SPACE_LIMITS free (both rules).
 * - mail-transport: SMTP_URL's server answers (nodemailer verify, 5 s); without SMTP_URL the built-in outbox passes.
 * - render-provider: the engine is reachable with its key (Replicate GET /v1/account, OpenAI GET /v1/models/<model>, 5 s);
 *   the offline Preview engine passes.
 * - render-queue: no render waits longer than RENDER_QUEUE_LIMITS.maxWaitMs while the worker has a free slot,
 *   and none runs longer than RENDER_DEADLINE_MS + RENDER_QUEUE_LIMITS.runningMarginMs.
 * - backups: with BACKUP_DIR set, the last backup is at most twice BACKUP_EVERY old (a warning otherwise,
 *   or when the last attempt failed); without it, passes and says backups are not scheduled.
 * - storage-write: a small file is written to, read from and removed from the project-uploads bucket
 *   (the storage test asks for it to explain a failed upload).
 */
export const SERVER_CHECKS = [
  "backups",
  "database-integrity",
  "disk-space",
  "mail-transport",
  "render-provider",
  "render-queue",
  "storage-write",
] as const;
export type ServerCheckName = (typeof SERVER_CHECKS)[number];

export interface ServerCheckResult {
  ok: boolean;
  /** ok, but something for the admin to look at (the item shows as a warning). */
  warning?: boolean;
  /** What was found, for people (English). */
  detail: string;
}

export const checkPassed = (detail: string): ServerCheckResult => ({ ok: true, detail });
export const checkFailed = (detail: string): ServerCheckResult => ({ ok: false, detail });
export const checkWarning = (detail: string): ServerCheckResult => ({ ok: true, warning: true, detail });

const GIB = 1024 ** 3;

/** Free space of DATA_DIR's file system: failing below 1 GiB, or below 5% of the disk. */
export const DISK_SPACE_LIMITS = { minFreeBytes: GIB, minFreeFraction: 0.05 } as const;

/** A render is stuck when it waited 10 minutes with a slot free, or runs 1 minute past its deadline. */
export const RENDER_QUEUE_LIMITS = { maxWaitMs: 10 * 60_000, runningMarginMs: 60_000 } as const;

/** How long a check waits for an outside service (SMTP, the render engine's API). */
export const OUTSIDE_SERVICE_TIMEOUT_MS = 5000;

/** The self-test reports of spec section 8, word for word. */
export const SELF_TEST_REPORTS = {
  aiRenderValidationFailed: "AI render validation failed",
  stripeNotConfigured: MESSAGES.stripeNotConfigured,
  profileNotFound: "User profile not found",
  profileNotCreated: "Profile not created automatically",
  sessionMismatch: "Session/user state mismatch",
  accessDenied: MESSAGES.adminRequired,
} as const;

/** The toast at the end of a run (spec section 4). */
export const SELF_TEST_COMPLETE = { system: "Testing Complete", auth: "Authentication Testing Complete" } as const;

/** A failed item's message is this prefix and the report (spec section 4: "Error: ..."). */
export const SELF_TEST_ERROR_PREFIX = "Error: ";

/** A finished run as the suite reports it for the history (selfTest.recordRun). */
export const selfTestItemSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  status: z.enum(["pending", "running", "passed", "warning", "failed"]),
  message: z.string().max(2000).optional(),
  detail: z.string().max(2000).optional(),
  durationMs: z.number().min(0).max(86_400_000).optional(),
});

export const selfTestRunSchema = z
  .object({
    suite: z.enum(["system", "auth"]),
    /** Who ran it; the browser's Quick Admin bar leaves it out. */
    source: z.enum(["browser", "cli"]).default("browser"),
    items: z.array(selfTestItemSchema).min(1).max(50),
    startedAt: z.number().int().min(0),
    finishedAt: z.number().int().min(0),
  })
  .refine((run) => run.finishedAt >= run.startedAt, { error: "finishedAt is before startedAt", path: ["finishedAt"] });

export type SelfTestRunItem = z.infer<typeof selfTestItemSchema>;
export type SelfTestRunInput = z.infer<typeof selfTestRunSchema>;
