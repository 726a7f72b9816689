/**
 * The business constants of the product (spec section 9), in one place.
 * Server and client both import from here; never repeat these numbers elsewhere.
 */

export const PRODUCT_NAME = "RoomCanvas";

/** Interface languages, in the order the language menu lists them. */
export const SUPPORTED_LANGUAGES = ["en", "es", "fr"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
/** Each language's name written in that language, as the menu shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
};

/**
 * Cookie copy of the stored language choice: the server picks the pre-rendered landing page's
 * language with it (the browser's Accept-Language otherwise).
 */
export const LANGUAGE_COOKIE = "roomcanvas_language";
/**
 * Performance mark the client sets when the page has loaded and gone idle, and starts loading what
 * the first paint does not show; the landing benchmark counts the first load's scripts up to it.
 */
export const FIRST_LOAD_MARK = "roomcanvas:first-load-done";
/** The DOM event App sends once the pre-rendered page is hydrated (inline/boot.js then replays held clicks; a test checks the name). */
export const HYDRATED_EVENT = "roomcanvas:hydrated";
/** The web app manifest's address (the server makes it from the studio's settings). */
export const MANIFEST_PATH = "/manifest.webmanifest";

/** Keys of the values this product keeps on the device (localStorage). */
export const STORAGE_KEYS = {
  language: "roomcanvas.language",
  theme: "roomcanvas.theme",
  rememberMe: "roomcanvas.rememberMe",
  onboardingCompleted: "roomcanvas.onboardingCompleted",
  /** sessionStorage: where to return after signing in. */
  returnTo: "roomcanvas.returnTo",
  /** "false" when the user switched analytics off (spec section 4: on by default). */
  analyticsEnabled: "roomcanvas.analyticsEnabled",
  /** sessionStorage: the analytics user id (spec section 3). */
  analyticsUserId: "roomcanvas.analyticsUserId",
} as const;

export const MINUTE_MS = 60_000;

/** Data caching of the client's query layer (spec section 7). */
export const QUERY_CACHE = {
  staleTimeMs: 5 * MINUTE_MS,
  gcTimeMs: 10 * MINUTE_MS,
  retry: 1,
  refetchOnWindowFocus: false,
} as const;

/** Response header carrying the server's clock (Unix ms), for timers that run on the device. */
export const SERVER_TIME_HEADER = "x-server-time";
/** Request header carrying the interface language the client shows, so mails match it. */
export const UI_LANGUAGE_HEADER = "x-ui-language";

/** Credits (spec section 9). */
export const CREDITS = {
  perRender: 1,
  signUpGrant: 10,
  visitorDemoRenders: 1,
  refundWindowDays: 30,
} as const;

/** Uploads (spec sections 5 and 9). */
export const UPLOAD = {
  maxBytes: 10 * 1024 * 1024,
  mimeTypes: ["image/jpeg", "image/png"],
  extensions: [".jpg", ".jpeg", ".png"],
  /**
   * Not in the spec (issue 27): the shortest side a picture must have, and how many times longer than
   * it its long side may be. 100 is the spec's own self-test picture (100x100, sent through this route);
   * every camera photo is far larger. 10:1 still takes a phone's full panorama.
   */
  minSide: 100,
  maxAspect: 10,
} as const;

/** Sign-in and sessions (spec section 9). */
export const AUTH = {
  maxFailedAttempts: 5,
  lockoutMinutes: 15,
  idleTimeoutMs: 30 * MINUTE_MS,
  idleWarningMs: 25 * MINUTE_MS,
  idleWarningToastMs: 10_000,
  /** The server records activity at most this often (Lucia's activity check interval). */
  activityUpdateIntervalMs: MINUTE_MS,
  rememberMeDays: 30,
  passwordResetValidityMs: 60 * MINUTE_MS,
  emailConfirmationValidityMs: 24 * 60 * MINUTE_MS,
  /** A confirmation mail is resent at most once a minute per address. */
  resendConfirmationIntervalMs: MINUTE_MS,
  /** How long a sign-in waits for its second factor, and how many wrong codes end it. */
  twoFactorChallengeMs: 10 * MINUTE_MS,
  twoFactorMaxFailures: 5,
  /** Wrong second-factor codes per account within twoFactorLockWindowMs, across sign-ins, before the factor locks. */
  twoFactorAccountMaxFailures: 10,
  /** The window those failures are counted in; the lock lasts until they age out of it. */
  twoFactorLockWindowMs: 60 * MINUTE_MS,
  backupCodeCount: 10,
} as const;

/** Field limits of the forms (spec section 5). */
export const FIELD_LIMITS = {
  emailMax: 255,
  passwordMin: 8,
  passwordMax: 128,
  providerPasswordMin: 6,
  fullNameMin: 2,
  fullNameMax: 100,
  projectNameMax: 100,
  projectDescriptionMax: 500,
  totpCodeLength: 6,
  backupCodeLength: 8,
} as const;

/** Demo dialog and onboarding timings (spec section 9). */
export const DEMO_STEP_DURATIONS_MS = [3000, 2000, 3000, 4000] as const;
export const ONBOARDING = { steps: 5, completionDelayMs: 1500, autoOpenDelayMs: 1000 } as const;

/** Toasts: sonner's defaults are the spec's second toast display. */
export const TOASTS = { visible: 3, durationMs: 4000 } as const;

/** Self-test pauses (spec section 9). */
export const SELF_TEST = { systemPauseMs: 500, authPauseMs: 1000, testImageSize: 100 } as const;

/** Analytics queue flush threshold (spec section 9). */
export const ANALYTICS_FLUSH_THRESHOLD = 10;

/** The storage bucket of uploaded and rendered images (spec section 3). */
export const UPLOAD_BUCKET = "project-uploads";

/** Roles (spec sections 3 and 6): "admin" opens the Quick Admin bar and /admin. */
export const ADMIN_ROLE = "admin";
/** Role names an admin may grant: letters, digits, dashes and underscores, at most 50. */
export const ROLE_PATTERN = /^[a-z][a-z0-9_-]{0,49}$/;

/**
 * Calls in one batched tRPC request ("/trpc/a,b,c"): the app's client sends at most this many
 * (httpBatchLink maxItems) and the server refuses more (one GET with 700 calls once stalled it for 0.7 s).
 */
export const TRPC_MAX_BATCH_CALLS = 25;
