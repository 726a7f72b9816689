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

/**
 * What a check found, sentence by sentence, in English (the command line, logs); the browser shows
 * selfTest.details.<key> in the reader's language. A parameter whose name ends in "Bytes" is a size
 * and one ending in "Ms" a duration: each side writes them its own way. Other parameters (paths,
 * hosts, an outside service's own error) are shown as they are.
 */
export const SERVER_CHECK_TEXTS = {
  integrityOk: "quick_check ok, no foreign key violations",
  integrityProblems: "quick_check found problems ({{count}} in all): {{problems}}",
  foreignKeyViolation: "1 foreign key violation: {{violations}}",
  foreignKeyViolations: "{{count}} foreign key violations: {{violations}}",
  diskSpace: "{{freeBytes}} free of {{totalBytes}} ({{percent}}%) at {{dir}}",
  diskSpaceLow: "only {{freeBytes}} free of {{totalBytes}} ({{percent}}%) at {{dir}}; needs at least {{minFreeBytes}} and {{minPercent}}%",
  mailOutbox: "Built-in outbox (set SMTP_URL to send mail)",
  mailAccepted: "SMTP server {{server}} accepted the connection",
  mailFailed: "SMTP server {{server}}: {{error}}",
  previewEngine: "Preview engine (offline)",
  settingMissing: "{{setting}} is not set",
  engineSettingRefused: "{{error}}",
  apiTokenRefused: "{{service}} refused the API token (HTTP {{status}})",
  apiKeyRefused: "{{service}} refused the API key (HTTP {{status}})",
  tokenRefused: "{{service}} refused the token (HTTP {{status}})",
  tokenNeeded: "{{service}} asked for a token (HTTP {{status}}); set {{setting}}",
  serviceAnswered: "{{service}} answered HTTP {{status}}",
  serviceAnsweredWith: "{{service}} answered HTTP {{status}}: {{message}}",
  modelNotOffered: "{{service}} does not offer the model {{model}} to this key (HTTP {{status}})",
  engineReachable: "{{service}} reachable, model {{model}}",
  engineReachableVersion: "{{service}} reachable, model {{model}} (version {{version}})",
  engineReachableAccount: "{{service}} reachable (account {{account}}), model {{model}}",
  engineReachableAccountVersion: "{{service}} reachable (account {{account}}), model {{model}} (version {{version}})",
  modelAvailable: "{{service}} reachable, model {{model}} available",
  gpuReachable: "{{service}} reachable ({{device}}, {{vramBytes}} VRAM free)",
  gpuReachableNoVram: "{{service}} reachable ({{device}}, free VRAM unknown)",
  noDevice: "{{service}} answered /system_stats without a device",
  noAnswer: "{{service}} did not answer within {{waitMs}}",
  unreachable: "{{service}} could not be reached: {{error}}",
  engineNotChecked: "{{engine}} engine (not checked)",
  backupsUnscheduled: "backups are not scheduled (BACKUP_DIR is not set; npm run backup DIR takes one)",
  lastBackup: "last backup {{ageMs}} ago ({{sizeBytes}})",
  noBackupYet: "no backup yet",
  backupSchedule: "every {{everyMs}} into {{dir}}, keeping {{keep}}",
  backupFailed: "the last backup failed ({{error}})",
  backupOverdue: "older than twice the schedule (every {{everyMs}} into {{dir}}, keeping {{keep}})",
  storageMismatch: "a file written to the uploads bucket did not read back the same",
  storageWritable: "{{bucket}} is writable",
  checkError: "{{error}}",
} as const;

export type ServerCheckTextKey = keyof typeof SERVER_CHECK_TEXTS;
export type ServerCheckParams = Record<string, string | number>;
export interface ServerCheckText {
  key: ServerCheckTextKey;
  params?: ServerCheckParams;
}

export const serverCheckTextSchema = z.object({
  key: z.enum(Object.keys(SERVER_CHECK_TEXTS) as [ServerCheckTextKey, ...ServerCheckTextKey[]]),
  params: z.record(z.string().max(64), z.union([z.string().max(1000), z.number()])).optional(),
});

export interface ServerCheckResult {
  ok: boolean;
  /** ok, but something for the admin to look at (the item shows as a warning). */
  warning?: boolean;
  /** What was found, for people (English). */
  detail: string;
  /** The same, as texts the browser translates (absent for a check that only has the English). */
  texts?: ServerCheckText[];
}

/** "3 KiB", "1.2 GiB": a size in English, as the command line shows it. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "3 h", "2 d 4 h", "12 min", "5 s": a duration in English, as the command line shows it. */
export function formatPeriod(ms: number): string {
  if (ms < 60_000) return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return hours % 24 === 0 ? `${hours / 24} d` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** One text with its parameters filled in, `format` writing sizes and durations. */
export function fillCheckText(
  template: string,
  params: ServerCheckParams = {},
  format: { bytes(bytes: number): string; period(ms: number): string } = { bytes: formatBytes, period: formatPeriod },
): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => {
    const value = params[name];
    if (typeof value === "number" && name.endsWith("Bytes")) return format.bytes(value);
    if (typeof value === "number" && name.endsWith("Ms")) return format.period(value);
    return String(value ?? "");
  });
}

/** The English of a check's texts: the sentences joined by "; ". */
export function englishCheckDetail(texts: readonly ServerCheckText[]): string {
  return texts.map((text) => fillCheckText(SERVER_CHECK_TEXTS[text.key], text.params)).join("; ");
}

export const checkText = (key: ServerCheckTextKey, params?: ServerCheckParams): ServerCheckText => (params ? { key, params } : { key });

/** A result with only English (checks that have no texts yet). */
export const checkPassed = (detail: string): ServerCheckResult => ({ ok: true, detail });
export const checkFailed = (detail: string): ServerCheckResult => ({ ok: false, detail });
export const checkWarning = (detail: string): ServerCheckResult => ({ ok: true, warning: true, detail });

/** Results told as texts (the browser translates them), with their English. */
export const passedWith = (...texts: ServerCheckText[]): ServerCheckResult => ({ ok: true, detail: englishCheckDetail(texts), texts });
export const failedWith = (...texts: ServerCheckText[]): ServerCheckResult => ({ ok: false, detail: englishCheckDetail(texts), texts });
export const warningWith = (...texts: ServerCheckText[]): ServerCheckResult => ({
  ok: true,
  warning: true,
  detail: englishCheckDetail(texts),
  texts,
});

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
  /** A server check's finding as texts the browser translates (the message is its English). */
  texts: z.array(serverCheckTextSchema).max(10).optional(),
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
