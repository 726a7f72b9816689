/**
 * What the self-test suite and the server share: the names of the checks only the server can make
 * about its own machine (selfTest.check, admin only), the limits they apply, and the report texts
 * of spec section 8, word for word.
 */
import { z } from "zod";
import { MESSAGES, englishMessage, readMessage } from "./messages";

/**
 * Checks of the box the server runs on (src/server/services/system-checks.ts):
 * - database-integrity: SQLite `PRAGMA quick_check` is "ok" and `PRAGMA foreign_key_check` finds nothing.
 * - disk-space: the file system of DATA_DIR has at least DISK_SPACE_LIMITS free (both rules).
 * - mail-transport: SMTP_URL's server answers (nodemailer verify, 5 s); without SMTP_URL the built-in outbox passes.
 * - render-provider: the engine is reachable with its key (Replicate GET /v1/account, OpenAI GET /v1/models/<model>, 5 s);
 *   the offline Preview engine passes.
 * - render-queue: no render waits longer than RENDER_QUEUE_LIMITS.maxWaitMs while the render workers alive
 *   (on any instance: seen within RENDER_LEASE_MS) have a free slot, or while none is alive; none runs longer
 *   than RENDER_DEADLINE_MS + RENDER_QUEUE_LIMITS.runningMarginMs; no worker alive is a warning.
 * - backups: a warning when no backup was ever taken; with BACKUP_DIR set, the last backup is at most twice
 *   BACKUP_EVERY old (a warning otherwise, or when the last attempt failed); without it, a backup taken by
 *   hand passes and the check says backups are not scheduled.
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
 * selfTest.details.<key> in the reader's language. Parameters each side writes its own way:
 * - a number whose name ends in "Bytes" is a size, in "Ms" a duration, in "At" a moment (ms since 1970);
 * - "step" is a test's id, written as its step's name (SELF_TEST_STEPS, selfTest.steps.<id>);
 * - a text that is a server message (MESSAGES, or a keyed one) is that message.
 * Other parameters (paths, hosts, an outside service's own error) are shown as they are. A text with
 * a "count" has its plural forms ({ one, other } here, key_one/key_other... in the translations).
 */
export const SERVER_CHECK_TEXTS = {
  integrityOk: "quick_check ok, no foreign key violations",
  integrityProblems: "quick_check found problems ({{count}} in all): {{problems}}",
  postgresIntegrityOk: "PostgreSQL: every index valid, every constraint checked",
  postgresIntegrityProblems: "PostgreSQL found problems ({{count}} in all): {{problems}}",
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
  upscaleModelInstalled: "upscale model {{model}} installed",
  upscaleModelMissing:
    "the upscale model {{model}} is not in ComfyUI's models/upscale_models: upscales fail until the file is there or another is chosen (COMFYUI_UPSCALE_MODEL, /admin → Studio)",
  noDevice: "{{service}} answered /system_stats without a device",
  noAnswer: "{{service}} did not answer within {{waitMs}}",
  unreachable: "{{service}} could not be reached: {{error}}",
  engineNotChecked: "{{engine}} engine (not checked)",
  backupsUnscheduled: "backups are not scheduled (BACKUP_DIR is not set; npm run backup DIR takes one)",
  backupsScheduledElsewhere: "backups are scheduled by another instance (BACKUP_DIR is not set on this one)",
  lastBackup: "last backup {{ageMs}} ago ({{sizeBytes}})",
  noBackupYet: "no backup yet",
  backupSchedule: "every {{everyMs}} into {{dir}}, keeping {{keep}}",
  backupFailed: "the last backup failed ({{error}})",
  backupOverdue: "older than twice the schedule (every {{everyMs}} into {{dir}}, keeping {{keep}})",
  backupsDatabaseOnly: "backups hold the database only: the files stay in {{location}}, backed up with the object store's own tools",
  storageMismatch: "a file written to the uploads bucket did not read back the same",
  storageWritable: "{{bucket}} is writable",
  checkError: "{{error}}",
  rendersOverdue: {
    one: "{{count}} render has been running for {{runningMs}}, past the {{deadlineMs}} deadline",
    other: "{{count}} renders have been running for {{runningMs}}, past the {{deadlineMs}} deadline",
  },
  rendersWaiting: {
    one: "{{count}} render has waited {{waitedMs}} while the render workers have {{free}} of {{slots}} slots free",
    other: "{{count}} renders have waited {{waitedMs}} while the render workers have {{free}} of {{slots}} slots free",
  },
  rendersWaitingNoWorker: {
    one: "{{count}} render has waited {{waitedMs}} and no render worker is running (none seen in the last {{windowMs}}): start one (ROLE=worker or ROLE=all)",
    other:
      "{{count}} renders have waited {{waitedMs}} and no render worker is running (none seen in the last {{windowMs}}): start one (ROLE=worker or ROLE=all)",
  },
  noRenderWorker:
    "no render worker is running (none seen in the last {{windowMs}}): renders wait until one starts (ROLE=worker or ROLE=all)",
  renderWorkers: { one: "{{count}} render worker running", other: "{{count}} render workers running" },
  queueState: "{{waiting}} waiting, {{rendering}} rendering, {{active}} of {{slots}} slots busy",
  queueStateOldest: "{{waiting}} waiting, {{rendering}} rendering, {{active}} of {{slots}} slots busy, oldest waiting {{oldestMs}}",
} as const;

/** The "<Step>" of "<Step> error: <message>", by test id (src/selftest/suite.ts). */
export const SELF_TEST_STEPS = {
  "profile-read": "Profile read",
  "project-crud": "Project",
  "route-protection": "Route protection",
  storage: "Storage",
  "ai-render-validation": "AI render",
  "purchase-credits": "Purchase credits",
  "unknown-function": "Non-existent function",
  "database-integrity": "Database integrity",
  "disk-space": "Disk space",
  "mail-transport": "Mail",
  "render-provider": "Render provider",
  "render-queue": "Render queue",
  backups: "Backups",
  "session-read": "Session read",
  "session-user": "Session",
  "sign-up-existing": "Sign up",
  "sign-in": "Sign in",
  "sign-in-profile": "Profile",
  "roles-read": "Roles read",
} as const;
export type SelfTestId = keyof typeof SELF_TEST_STEPS;

/** What the suite's own checks found (src/selftest/suite.ts), as SERVER_CHECK_TEXTS. */
export const SUITE_CHECK_TEXTS = {
  stepError: "{{step}} error: {{error}}",
  profileRow: { one: "1 row: {{email}}, {{count}} credit", other: "1 row: {{email}}, {{count}} credits" },
  projectDiffers: "Project error: the project read back differs from the one inserted",
  projectNotDeleted: "Project error: the project was still there after it was deleted",
  projectCrudOk: "Inserted (room_rendering), read back and deleted",
  visitorGivenProjects: "Route protection error: a visitor was given the projects",
  routeProtected: {
    one: 'Visitor refused ("{{answer}}"); the signed-in user is answered ({{count}} project)',
    other: 'Visitor refused ("{{answer}}"); the signed-in user is answered ({{count}} projects)',
  },
  uploadRefused: "Storage error: upload answered HTTP {{status}} ({{answer}})",
  storedSizeWrong: "Storage error: stored {{width}}x{{height}}, expected {{size}}x{{size}}",
  storedUnreadable: "Storage error: the stored image could not be read back (HTTP {{status}})",
  storedNotRemoved: "Storage error: the test image was still served after its removal (HTTP {{status}})",
  storageOk: "{{size}}x{{size}} PNG stored, read back and removed",
  validationWorks: '"{{answer}}" (validation works)',
  renderWithoutFieldsAccepted: "a render request without fields was accepted",
  visitorGivenCheckout: "Purchase credits error: a visitor was given a checkout",
  purchaseWithoutPackage: "Purchase credits error: a purchase without a package was accepted",
  stripeCheckedSignedIn: '"{{answer}}" without a user (correct); the Stripe key is checked when signed in',
  stripeConfigured: '"{{answer}}" without a user (correct); Stripe key configured',
  unknownProcedureAnswered: "Non-existent function error: the server answered a procedure that does not exist",
  errorReturned: "Error returned: {{error}}",
  sessionWithoutUser: "Session read (no session with the user: see the next check)",
  rememberedSession: "Remembered session, ends {{endsAt}}",
  browserSession: "Browser session, ends {{endsAt}}",
  userWithoutSession: "a user without a session",
  sessionWithoutItsUser: "a session without a user",
  otherUserSession: "expected {{expected}}, the server's session is {{actual}}",
  sessionChangedUser: "the session changed user during the test",
  sessionNotListed: "the session is not among the user's sessions",
  sessionBelongs: "Session belongs to {{email}}",
  secondAccountAccepted: "Sign up error: a second account was accepted for {{email}}",
  signUpRefused: 'Refused: "{{answer}}" (expected)',
  signedInCurrent: "Signed in as {{email}} (current session)",
  signedInAs: "Signed in as {{email}}",
  twoFactorRequired: "Password accepted; a two-factor code is required (the current session is kept)",
  profileExists: "Profile exists (id only, single row)",
  noRoles: "No roles (not an admin)",
  roles: "Roles: {{roles}}",
  rolesAdmin: "Roles: {{roles}} (admin)",
} as const;

/** Every text a self-test item can carry: the server's checks' and the suite's own. */
export const SELF_TEST_TEXTS = { ...SERVER_CHECK_TEXTS, ...SUITE_CHECK_TEXTS } as const;

export type SelfTestTextKey = keyof typeof SELF_TEST_TEXTS;

/** The longest text parameter a stored run keeps (selfTestTextSchema); an outside answer is cut to it. */
export const SELF_TEST_PARAM_MAX = 1000;
/** Server checks speak only their own texts. */
export type ServerCheckTextKey = keyof typeof SERVER_CHECK_TEXTS;
export type SelfTestTextParams = Record<string, string | number>;
export interface SelfTestText {
  key: SelfTestTextKey;
  params?: SelfTestTextParams;
}

export const selfTestTextSchema = z.object({
  key: z.enum(Object.keys(SELF_TEST_TEXTS) as [SelfTestTextKey, ...SelfTestTextKey[]]),
  params: z.record(z.string().max(64), z.union([z.string().max(SELF_TEST_PARAM_MAX), z.number()])).optional(),
});

export interface ServerCheckResult {
  ok: boolean;
  /** ok, but something for the admin to look at (the item shows as a warning). */
  warning?: boolean;
  /** What was found, for people (English). */
  detail: string;
  /** The same, as texts the browser translates (absent for a check that only has the English). */
  texts?: SelfTestText[];
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
  if (ms < 60_000) return ms >= 1000 || ms === 0 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return hours % 24 === 0 ? `${hours / 24} d` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A parameter in English, as the command line shows it (see SERVER_CHECK_TEXTS for the kinds). */
function englishParam(name: string, value: string | number | undefined): string {
  if (typeof value === "number" && name.endsWith("Bytes")) return formatBytes(value);
  if (typeof value === "number" && name.endsWith("Ms")) return formatPeriod(value);
  if (typeof value === "number" && name.endsWith("At")) return new Date(value).toISOString();
  if (name === "step" && typeof value === "string") return (SELF_TEST_STEPS as Record<string, string>)[value] ?? value;
  if (typeof value === "string") {
    const message = readMessage(value);
    if (message) return englishMessage(message);
  }
  return String(value ?? "");
}

/** One text in English with its parameters filled in (the plural form by "count", English's rule). */
export function englishCheckText({ key, params = {} }: SelfTestText): string {
  const text: string | { one: string; other: string } = SELF_TEST_TEXTS[key];
  const template = typeof text === "string" ? text : params.count === 1 ? text.one : text.other;
  return template.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => englishParam(name, params[name]));
}

/** The English of a check's texts: the sentences joined by "; ". */
export function englishCheckDetail(texts: readonly SelfTestText[]): string {
  return texts.map(englishCheckText).join("; ");
}

export const checkText = (key: SelfTestTextKey, params?: SelfTestTextParams): SelfTestText => {
  if (!params) return { key };
  const kept: SelfTestTextParams = {};
  for (const [name, value] of Object.entries(params)) kept[name] = typeof value === "string" ? value.slice(0, SELF_TEST_PARAM_MAX) : value;
  return { key, params: kept };
};

/** Results told as texts (the browser translates them), with their English. */
export const passedWith = (...texts: SelfTestText[]): ServerCheckResult => ({ ok: true, detail: englishCheckDetail(texts), texts });
export const failedWith = (...texts: SelfTestText[]): ServerCheckResult => ({ ok: false, detail: englishCheckDetail(texts), texts });
export const warningWith = (...texts: SelfTestText[]): ServerCheckResult => ({
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
  texts: z.array(selfTestTextSchema).max(10).optional(),
  /** The detail as texts the browser translates (the detail is its English). */
  detailTexts: z.array(selfTestTextSchema).max(10).optional(),
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

/** Counts of a run's items by how they ended (the suite's summary, the recorded run, /admin's history). */
export function summarize(items: readonly { status: string }[]): { passed: number; warnings: number; failed: number; total: number } {
  return {
    passed: items.filter((item) => item.status === "passed").length,
    warnings: items.filter((item) => item.status === "warning").length,
    failed: items.filter((item) => item.status === "failed").length,
    total: items.length,
  };
}
