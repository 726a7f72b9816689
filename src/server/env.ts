/**
 * Every environment variable the server reads, in one zod schema parsed once at boot.
 * Every variable has an embedded default so a fresh clone runs with none set.
 * A bad value stops the process with a message naming the variable and what it expects.
 */
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { parseStorageUrl, STORAGE_URL_EXPECTED } from "./storage/location";

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

/** Express's names for address ranges ("trust proxy" accepts them). */
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
/** An IP address, or one with a /prefix (a subnet of proxies). */
function isProxyAddress(entry: string): boolean {
  const [address = "", prefix, extra] = entry.split("/");
  if (extra !== undefined || isIP(address) === 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128));
}

export const RENDER_PROVIDERS = ["local", "comfyui", "replicate", "openai"] as const;
export type RenderProviderName = (typeof RENDER_PROVIDERS)[number];

/** A task's engines, in the order they are tried: ENGINES_RENDER=openai,comfyui (issue 30). */
const engineList = (task: string) =>
  z
    .string()
    .transform((text) => text.split(",").map((name) => name.trim()))
    .pipe(
      z
        .array(z.enum(RENDER_PROVIDERS, { error: `expected engines for ${task} among ${RENDER_PROVIDERS.join(", ")}, comma-separated` }))
        .min(1)
        .refine((list) => new Set(list).size === list.length, { error: "expected each engine at most once" }),
    )
    .optional();

/** What one process does: serve the app (web), render (worker), or both (all, one box). */
export const ROLES = ["web", "worker", "all"] as const;
export type Role = (typeof ROLES)[number];

/** ComfyUI's upscale model unless COMFYUI_UPSCALE_MODEL says otherwise ("none": no upscaler). */
export const COMFYUI_DEFAULT_UPSCALE_MODEL = "RealESRGAN_x4plus.pth";
export const COMFYUI_NO_UPSCALE_MODEL = "none";

export const envSchema = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"], {
      error: "expected one of development, production, test",
    })
    .default("production"),
  PORT: z.coerce
    .number({ error: "expected a port number between 0 and 65535" })
    .int({ error: "expected a port number between 0 and 65535" })
    .min(0, { error: "expected a port number between 0 and 65535" })
    .max(65535, { error: "expected a port number between 0 and 65535" })
    .default(3000),
  HOST: z.string().min(1, { error: "expected a host name or address to listen on" }).default("0.0.0.0"),
  DATA_DIR: z.string().min(1, { error: "expected a directory path for the database and stored images" }).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/i, {
      error: "expected a PostgreSQL connection URL, e.g. postgres://user:password@db.example.com:5432/roomcanvas",
    })
    .optional(),
  STORAGE_URL: z
    .string()
    .refine((value) => parseStorageUrl(value) !== null, { error: STORAGE_URL_EXPECTED })
    .optional(),
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error: "expected the http(s) address of the S3-compatible store, e.g. https://s3.eu-central-003.backblazeb2.com or http://minio:9000",
    })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "expected the bucket's region, e.g. eu-west-1 (auto or us-east-1 for most other stores)" })
    .default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1, { error: "expected the access key id of a key that may read and write the bucket" }).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1, { error: "expected the secret of the access key S3_ACCESS_KEY_ID names" }).optional(),
  S3_FORCE_PATH_STYLE: z.stringbool({ error: "expected true or false" }).optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "expected the absolute http(s) URL users reach the app at, e.g. https://studio.example.com" })
    .optional(),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, context): false | number | string[] => {
      const text = value.trim().toLowerCase();
      if (text === "false" || text === "" || text === "0") return false;
      // "true" once trusted every X-Forwarded-For entry, which a client can make up: now one proxy hop.
      if (text === "true") return 1;
      if (/^\d+$/.test(text)) return Number(text);
      const entries = text.split(",").map((entry) => entry.trim());
      if (entries.every((entry) => PROXY_NAMES.has(entry) || isProxyAddress(entry))) return entries;
      context.addIssue({
        code: "custom",
        message: "expected false, the number of proxies in front of the app (e.g. 1), or their addresses (e.g. loopback, 10.0.0.0/8)",
      });
      return z.NEVER;
    }),
  ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((list) =>
      list
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  SUPPORT_EMAIL: z.email({ error: "expected an e-mail address, e.g. support@example.com" }).default("support@roomcanvas.local"),
  STUDIO_NAME: z
    .string()
    .trim()
    .min(1, { error: "expected the studio's name, 1 to 60 characters" })
    .max(60, { error: "expected the studio's name, 1 to 60 characters" })
    .optional(),
  SIGNUP_FREE_CREDITS: z.coerce
    .number({ error: "expected a whole number of free credits for a new account, 0 to 1000" })
    .int({ error: "expected a whole number of free credits for a new account, 0 to 1000" })
    .min(0, { error: "expected a whole number of free credits for a new account, 0 to 1000" })
    .max(1000, { error: "expected a whole number of free credits for a new account, 0 to 1000" })
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  LOG_FORMAT: z.enum(["json", "pretty"], { error: "expected json or pretty" }).default("json"),
  METRICS_TOKEN: z.string().min(16, { error: "expected a random token of at least 16 characters (e.g. openssl rand -hex 24)" }).optional(),
  APP_SECRET: z.string().min(32, { error: "expected a random secret of at least 32 characters (e.g. openssl rand -base64 32)" }).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1, { error: "expected the OAuth client ID from Google Cloud Console" }).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1, { error: "expected the OAuth client secret from Google Cloud Console" }).optional(),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: "expected an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587" })
    .optional(),
  MAIL_FROM: z
    .string()
    .min(3, { error: "expected a sender address, e.g. RoomCanvas <no-reply@example.com>" })
    .default("RoomCanvas <no-reply@roomcanvas.local>"),
  REQUIRE_EMAIL_VERIFICATION: z.stringbool({ error: "expected true or false" }).default(false),
  WEBHOOKS_ALLOW_LOOPBACK: z.stringbool({ error: "expected true or false" }).default(false),
  API_REQUESTS_PER_MINUTE: z.coerce
    .number({ error: "expected a whole number of requests per minute, at least 1" })
    .int({ error: "expected a whole number of requests per minute, at least 1" })
    .min(1, { error: "expected a whole number of requests per minute, at least 1" })
    .default(120),
  API_RENDERS_AT_ONCE: z.coerce
    .number({ error: "expected a whole number of renders, at least 1" })
    .int({ error: "expected a whole number of renders, at least 1" })
    .min(1, { error: "expected a whole number of renders, at least 1" })
    .default(10),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: "expected a whole number of requests per minute, at least 1" })
    .int({ error: "expected a whole number of requests per minute, at least 1" })
    .min(1, { error: "expected a whole number of requests per minute, at least 1" })
    .default(20),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: "expected a number of milliseconds" })
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected a number of milliseconds" })
    .default(10_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce
    .number({ error: "expected a number of milliseconds, 100 to 120000" })
    .int({ error: "expected a whole number of milliseconds" })
    .min(100, { error: "expected a number of milliseconds, 100 to 120000" })
    .max(120_000, { error: "expected a number of milliseconds, 100 to 120000" })
    .default(10_000),
  HTTP_BODY_MIN_BYTES_PER_SECOND: z.coerce
    .number({ error: "expected a whole number of bytes per second, at least 100" })
    .int({ error: "expected a whole number of bytes per second, at least 100" })
    .min(100, { error: "expected a whole number of bytes per second, at least 100" })
    .default(5_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: "expected a whole number of connections per client address, at least 1" })
    .int({ error: "expected a whole number of connections per client address, at least 1" })
    .min(1, { error: "expected a whole number of connections per client address, at least 1" })
    .default(64),
  ROLE: z.enum(ROLES, { error: `expected one of ${ROLES.join(", ")}` }).default("all"),
  RENDER_PROVIDER: z.enum(RENDER_PROVIDERS, { error: `expected one of ${RENDER_PROVIDERS.join(", ")}` }).default("local"),
  ENGINES_RENDER: engineList("renders"),
  ENGINES_STAGE: engineList("staging"),
  ENGINES_DECLUTTER: engineList("decluttering"),
  ENGINES_EXTERIOR: engineList("exteriors"),
  ENGINES_EDIT: engineList("edits"),
  ENGINES_UPSCALE: engineList("upscales"),
  RENDER_CONCURRENCY: z.coerce
    .number({ error: "expected a whole number of renders at once, 1 to 32" })
    .int({ error: "expected a whole number of renders at once, 1 to 32" })
    .min(1, { error: "expected a whole number of renders at once, 1 to 32" })
    .max(32, { error: "expected a whole number of renders at once, 1 to 32" })
    .default(2),
  RENDER_DEADLINE_MS: z.coerce
    .number({ error: "expected a number of milliseconds, at least 1000" })
    .int({ error: "expected a whole number of milliseconds" })
    .min(1000, { error: "expected a number of milliseconds, at least 1000" })
    .default(120_000),
  RENDER_LEASE_MS: z.coerce
    .number({ error: "expected a number of milliseconds, 1000 to 3600000" })
    .int({ error: "expected a whole number of milliseconds" })
    .min(1000, { error: "expected a number of milliseconds, 1000 to 3600000" })
    .max(3_600_000, { error: "expected a number of milliseconds, 1000 to 3600000" })
    .default(60_000),
  PROJECTS_PER_USER_MAX: z.coerce
    .number({ error: "expected a whole number of projects per user, at least 1" })
    .int({ error: "expected a whole number of projects per user, at least 1" })
    .min(1, { error: "expected a whole number of projects per user, at least 1" })
    .default(1000),
  ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY: z.coerce
    .number({ error: "expected a whole number of analytics events per client address per day" })
    .int({ error: "expected a whole number of analytics events per client address per day" })
    .min(0, { error: "expected a whole number of analytics events per client address per day" })
    .default(5000),
  ANALYTICS_RETENTION_DAYS: z.coerce
    .number({ error: "expected a whole number of days, at least 1" })
    .int({ error: "expected a whole number of days, at least 1" })
    .min(1, { error: "expected a whole number of days, at least 1" })
    .default(180),
  VISITOR_UPLOAD_MB_PER_DAY: z.coerce
    .number({ error: "expected a whole number of megabytes, at least 1" })
    .int({ error: "expected a whole number of megabytes, at least 1" })
    .min(1, { error: "expected a whole number of megabytes, at least 1" })
    .default(100),
  ADDRESS_UPLOAD_MB_PER_DAY: z.coerce
    .number({ error: "expected a whole number of megabytes, at least 1" })
    .int({ error: "expected a whole number of megabytes, at least 1" })
    .min(1, { error: "expected a whole number of megabytes, at least 1" })
    .default(500),
  USER_STORAGE_QUOTA_MB: z.coerce
    .number({ error: "expected a whole number of megabytes (0 = no quota)" })
    .int({ error: "expected a whole number of megabytes (0 = no quota)" })
    .min(0, { error: "expected a whole number of megabytes (0 = no quota)" })
    .default(5120),
  DISK_FREE_FLOOR_MB: z.coerce
    .number({ error: "expected a whole number of megabytes" })
    .int({ error: "expected a whole number of megabytes" })
    .min(0, { error: "expected a whole number of megabytes" })
    .default(1024),
  BACKUP_DIR: z.string().min(1, { error: "expected a directory path for backups" }).optional(),
  BACKUP_KEY_FILE: z.string().min(1, { error: "expected the path of the backup key file" }).optional(),
  BACKUP_EVERY: z
    .string()
    .regex(/^[1-9]\d*(m|h|d)$/, { error: "expected a period such as 30m, 6h or 1d (minutes, hours or days; at least 5m)" })
    .transform((value) => Number(value.slice(0, -1)) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[value.at(-1) as "m" | "h" | "d"])
    .refine((ms) => ms >= 5 * 60_000, { error: "expected a period such as 30m, 6h or 1d (minutes, hours or days; at least 5m)" })
    .default(86_400_000),
  BACKUP_KEEP: z.coerce
    .number({ error: "expected a whole number of backups to keep, at least 1" })
    .int({ error: "expected a whole number of backups to keep, at least 1" })
    .min(1, { error: "expected a whole number of backups to keep, at least 1" })
    .default(7),
  NEW_ACCOUNTS_PER_ADDRESS_PER_DAY: z.coerce
    .number({ error: "expected a whole number of new accounts per client address per day, at least 1" })
    .int({ error: "expected a whole number of new accounts per client address per day, at least 1" })
    .min(1, { error: "expected a whole number of new accounts per client address per day, at least 1" })
    .default(20),
  EVENT_STREAMS_PER_OWNER: z.coerce
    .number({ error: "expected a whole number of open event streams per user or visitor, at least 1" })
    .int({ error: "expected a whole number of open event streams per user or visitor, at least 1" })
    .min(1, { error: "expected a whole number of open event streams per user or visitor, at least 1" })
    .default(20),
  EVENT_STREAMS_TOTAL: z.coerce
    .number({ error: "expected a whole number of open event streams in all, at least 1" })
    .int({ error: "expected a whole number of open event streams in all, at least 1" })
    .min(1, { error: "expected a whole number of open event streams in all, at least 1" })
    .default(2000),
  DEMO_RENDERS_PER_IP_PER_DAY: z.coerce
    .number({ error: "expected a whole number of free demo renders per address per day" })
    .int({ error: "expected a whole number of free demo renders per address per day" })
    .min(0, { error: "expected a whole number of free demo renders per address per day" })
    .default(3),
  COMFYUI_URL: z
    .url({ protocol: /^https?$/, error: "expected the http(s) address of the ComfyUI server, e.g. http://gpu-box:8188" })
    .optional(),
  COMFYUI_TOKEN: z.string().min(1, { error: "expected a token the proxy in front of ComfyUI accepts" }).optional(),
  COMFYUI_WORKFLOW_DIR: z.string().min(1, { error: "expected a directory of exported API-format workflows" }).optional(),
  COMFYUI_CHECKPOINT: z
    .string()
    .min(1, { error: "expected a checkpoint file name known to ComfyUI" })
    .default("sd_xl_base_1.0.safetensors"),
  COMFYUI_CONTROLNET_DEPTH: z
    .string()
    .min(1, { error: "expected a depth ControlNet file name known to ComfyUI" })
    .default("controlnet-depth-sdxl-1.0.safetensors"),
  COMFYUI_CONTROLNET_LINES: z
    .string()
    .min(1, { error: "expected a line (MLSD/lineart) ControlNet file name known to ComfyUI" })
    .default("controlnet-mlsd-sdxl-1.0.safetensors"),
  COMFYUI_INPAINT_CHECKPOINT: z
    .string()
    .min(1, { error: "expected an inpainting checkpoint file name known to ComfyUI" })
    .default("sd_xl_base_1.0_inpainting_0.1.safetensors"),
  // "none" turns ComfyUI's upscaler off (an empty value means unset, as for every variable).
  COMFYUI_UPSCALE_MODEL: z
    .string()
    .regex(/^[^/\\].{0,199}$/, { error: 'expected an upscale model file name known to ComfyUI (models/upscale_models), or "none"' })
    .default(COMFYUI_DEFAULT_UPSCALE_MODEL),
  COMFYUI_UPSCALE_REFINE: z.stringbool({ error: "expected true or false" }).default(false),
  REPLICATE_API_TOKEN: z.string().min(1, { error: "expected the API token from replicate.com/account/api-tokens" }).optional(),
  REPLICATE_MODEL: z
    .string()
    .regex(/^[\w.-]+\/[\w.-]+(:[0-9a-f]{64})?$/, { error: "expected owner/name or owner/name:version, e.g. adirik/interior-design" })
    .default("adirik/interior-design"),
  REPLICATE_API_URL: z
    .url({ protocol: /^https?$/, error: "expected the http(s) base URL of the Replicate API" })
    .default("https://api.replicate.com"),
  REPLICATE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, { error: "expected the signing secret from Replicate (whsec_...)" })
    .optional(),
  OPENAI_API_KEY: z.string().min(1, { error: "expected an OpenAI API key" }).optional(),
  OPENAI_MODEL: z.string().min(1, { error: "expected an image model name, e.g. gpt-image-1" }).default("gpt-image-1"),
  OPENAI_API_URL: z
    .url({ protocol: /^https?$/, error: "expected the http(s) base URL of the OpenAI API" })
    .default("https://api.openai.com"),
  ADMIN_EMAILS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ error: "expected a comma-separated list of e-mail addresses" })))
    .default([]),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, { error: "expected a Stripe secret key (sk_test_... or sk_live_...)" })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, { error: "expected the webhook signing secret from Stripe (whsec_...)" })
    .optional(),
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: "expected the http(s) base URL of the Stripe API" })
    .default("https://api.stripe.com"),
});

export type EnvName = keyof z.infer<typeof envSchema>;

export type Env = z.infer<typeof envSchema> & {
  /** The SQLite file under DATA_DIR (the embedded default). */
  DATABASE_FILE: string;
  /** The database the app opens: DATABASE_URL when set, else DATABASE_FILE. */
  DATABASE: string;
  /** The variables the environment really set (not defaulted): a setting they cover shows "set by the environment" in /admin. */
  SET_IN_ENVIRONMENT: ReadonlySet<EnvName>;
};

/** The engine part of the environment: the render module builds its engine from it (the settings module may fill it in). */
export type EngineEnv = Pick<
  Env,
  | "RENDER_PROVIDER"
  | "REPLICATE_API_TOKEN"
  | "REPLICATE_MODEL"
  | "OPENAI_API_KEY"
  | "OPENAI_MODEL"
  | "COMFYUI_URL"
  | "COMFYUI_TOKEN"
  | "COMFYUI_UPSCALE_MODEL"
  | "COMFYUI_UPSCALE_REFINE"
  | "REPLICATE_API_URL"
  | "OPENAI_API_URL"
  | "ENGINES_RENDER"
  | "ENGINES_STAGE"
  | "ENGINES_DECLUTTER"
  | "ENGINES_EXTERIOR"
  | "ENGINES_EDIT"
  | "ENGINES_UPSCALE"
>;

/** The variable that lists each task's engines. */
export const ENGINE_TASK_VARIABLES = {
  render: "ENGINES_RENDER",
  stage: "ENGINES_STAGE",
  declutter: "ENGINES_DECLUTTER",
  exterior: "ENGINES_EXTERIOR",
  edit: "ENGINES_EDIT",
  upscale: "ENGINES_UPSCALE",
} as const satisfies Record<string, EnvName>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment; throws an EnvError listing every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty string means "unset", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const received = source[name];
      return `  ${name}: ${issue.message}${received === undefined ? "" : ` (got "${received}")`}`;
    });
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const missing =
    result.data.RENDER_PROVIDER === "replicate" && !result.data.REPLICATE_API_TOKEN
      ? { name: "REPLICATE_API_TOKEN", what: "a key" }
      : result.data.RENDER_PROVIDER === "openai" && !result.data.OPENAI_API_KEY
        ? { name: "OPENAI_API_KEY", what: "a key" }
        : result.data.RENDER_PROVIDER === "comfyui" && !result.data.COMFYUI_URL
          ? { name: "COMFYUI_URL", what: "the address of the ComfyUI server" }
          : null;
  if (missing) {
    throw new EnvError(
      `Invalid environment configuration:\n  ${missing.name}: expected ${missing.what}, because RENDER_PROVIDER=${result.data.RENDER_PROVIDER} needs one (or unset RENDER_PROVIDER for the offline Preview engine)`,
    );
  }
  if (result.data.DATABASE_URL && !result.data.APP_SECRET) {
    throw new EnvError(
      "Invalid environment configuration:\n  APP_SECRET: expected a random secret of at least 32 characters, because DATABASE_URL is set: every instance sharing the database must decrypt the secrets the others stored (e.g. openssl rand -base64 32)",
    );
  }
  const storageRefusal = storageSettingsRefusal(result.data, present);
  if (storageRefusal) throw new EnvError(`Invalid environment configuration:\n  ${storageRefusal}`);
  const dataDir = path.resolve(result.data.DATA_DIR);
  if (result.data.BACKUP_DIR) {
    const relative = path.relative(dataDir, path.resolve(result.data.BACKUP_DIR));
    if (relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative))) {
      throw new EnvError(
        `Invalid environment configuration:\n  BACKUP_DIR: expected a folder outside DATA_DIR (${dataDir}): a backup kept with the data is lost with it, and a restore needs an empty DATA_DIR`,
      );
    }
  }
  if (result.data.BACKUP_DIR && result.data.BACKUP_KEY_FILE) {
    const relative = path.relative(path.resolve(result.data.BACKUP_DIR), path.resolve(result.data.BACKUP_KEY_FILE));
    if (!relative.startsWith("..") && !path.isAbsolute(relative)) {
      throw new EnvError(
        "Invalid environment configuration:\n  BACKUP_KEY_FILE: expected a file outside BACKUP_DIR: whoever can change the backups must not be able to read the key that proves them genuine",
      );
    }
  }
  const setInEnvironment = new Set((Object.keys(envSchema.shape) as EnvName[]).filter((name) => name in present));
  const databaseFile = path.join(dataDir, "app.db");
  return {
    ...result.data,
    DATA_DIR: dataDir,
    DATABASE_FILE: databaseFile,
    DATABASE: result.data.DATABASE_URL ?? databaseFile,
    SET_IN_ENVIRONMENT: setInEnvironment,
  };
}

const S3_SETTINGS = ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;

/** A combination of the storage variables that cannot work, as "NAME: why"; null when they fit. */
function storageSettingsRefusal(data: z.infer<typeof envSchema>, present: Record<string, string | undefined>): string | null {
  if (!data.STORAGE_URL) {
    const stray = S3_SETTINGS.find((name) => name in present);
    return stray
      ? `${stray}: set without STORAGE_URL, so the files would stay under DATA_DIR; set STORAGE_URL=s3://bucket/prefix as well, or unset ${stray}`
      : null;
  }
  if (data.S3_ACCESS_KEY_ID && !data.S3_SECRET_ACCESS_KEY) {
    return "S3_SECRET_ACCESS_KEY: expected the secret of the access key, because S3_ACCESS_KEY_ID is set (or unset both for the SDK's own credentials: AWS_* variables, a profile, the instance's role)";
  }
  if (data.S3_SECRET_ACCESS_KEY && !data.S3_ACCESS_KEY_ID) {
    return "S3_ACCESS_KEY_ID: expected the access key id, because S3_SECRET_ACCESS_KEY is set (or unset both for the SDK's own credentials)";
  }
  return null;
}

/** The documentation of each variable (the full table is docs/configuration.md); a test checks both against the schema. */
export const ENV_DOCS: Record<keyof z.infer<typeof envSchema>, string> = {
  NODE_ENV: "production (default for npm start), development (npm run dev) or test",
  PORT: "HTTP port to listen on (default 3000; 0 picks a free port)",
  HOST: "address to listen on (default 0.0.0.0, every interface)",
  DATA_DIR: "where the SQLite database and stored images live (default ./data; /data in Docker)",
  DATABASE_URL:
    "a PostgreSQL database to use instead of SQLite (postgres://user:password@host:5432/name); needs APP_SECRET. See README, Scaling out",
  STORAGE_URL:
    "keep uploads, renders, logos and exports in an S3-compatible bucket (s3://bucket or s3://bucket/prefix) instead of DATA_DIR/storage; with S3_ENDPOINT, S3_REGION and the S3_* keys. See README, Files on S3-compatible storage",
  S3_ENDPOINT: "with STORAGE_URL: the address of an S3-compatible store other than AWS (http(s)://host:port); unset, AWS S3",
  S3_REGION: "with STORAGE_URL: the bucket's region (default us-east-1, which most other stores accept)",
  S3_ACCESS_KEY_ID:
    "with STORAGE_URL: the access key id (with S3_SECRET_ACCESS_KEY); unset both, the AWS SDK's own chain (AWS_* variables, a profile, the instance's role)",
  S3_SECRET_ACCESS_KEY: "with STORAGE_URL: the secret of S3_ACCESS_KEY_ID",
  S3_FORCE_PATH_STYLE:
    "with STORAGE_URL: true addresses objects as endpoint/bucket/key instead of bucket.endpoint/key (default true with S3_ENDPOINT, false on AWS)",
  PUBLIC_URL: "the URL users reach the app at; used for links in e-mails and listing QR codes, and secure cookies behind HTTPS",
  ALLOWED_HOSTS:
    "without PUBLIC_URL: the host names (host or host:port, comma-separated) mailed links and listing QR codes may point at; by default only the address the server was started for",
  TRUST_PROXY:
    "how many reverse proxies stand in front of the app and set X-Forwarded-For / X-Forwarded-Proto (e.g. 1; true means 1), or their addresses (loopback, 10.0.0.0/8, ...); default false",
  SUPPORT_EMAIL: "the support mailbox shown in help and the footer (also settable in /admin → Studio; the variable wins)",
  STUDIO_NAME:
    "the studio's name shown in the interface, page titles, mails and the web app manifest instead of RoomCanvas (also settable in /admin → Studio; the variable wins)",
  SIGNUP_FREE_CREDITS: "free credits a new account receives (default 10; also settable in /admin → Studio; the variable wins)",
  LOG_LEVEL: "debug, info (default), warn, error or silent",
  LOG_FORMAT: "json (default: one JSON object per line, with a requestId on request lines) or pretty (coloured lines for a terminal)",
  METRICS_TOKEN: "the Bearer token Prometheus sends to scrape GET /metrics (unset: /metrics answers 404). At least 16 characters",
  APP_SECRET: "key for secrets encrypted at rest (two-factor keys); unset, one is generated into DATA_DIR/app-secret on first start",
  GOOGLE_CLIENT_ID:
    "OAuth client ID for Google sign-in (with GOOGLE_CLIENT_SECRET; unset, the button says Google sign-in is not configured)",
  GOOGLE_CLIENT_SECRET: "OAuth client secret for Google sign-in; the redirect URI to register is <PUBLIC_URL>/auth/google/callback",
  SMTP_URL:
    "SMTP server for outgoing mail; unset, mail goes to the built-in outbox (stored in the database; read it in /admin or with npm run admin -- mail)",
  MAIL_FROM: "sender of outgoing mail (default RoomCanvas <no-reply@roomcanvas.local>)",
  REQUIRE_EMAIL_VERIFICATION: "true refuses sign-in until the e-mail address is confirmed (default false: signed in, with a banner)",
  WEBHOOKS_ALLOW_LOOPBACK:
    "true lets webhooks go to this machine (127.0.0.0/8, ::1), over http too: for local development and tests; never private networks (default false)",
  API_REQUESTS_PER_MINUTE:
    "requests allowed per minute per API key on /api/v1, across instances (default 120); past it 429 with Retry-After",
  API_RENDERS_AT_ONCE:
    "renders and edits one API key may have queued or running at once, across instances (default 10); past it 429 with Retry-After",
  AUTH_RATE_LIMIT_PER_MINUTE: "sign-in, sign-up, reset and resend requests allowed per minute per client address, per action (default 20)",
  SHUTDOWN_TIMEOUT_MS: "how long in-flight requests may finish after SIGTERM before connections are cut (default 10000)",
  HTTP_HEADERS_TIMEOUT_MS:
    "how long a client may take to send a request's headers, and the window its body's minimum rate is measured over (default 10000)",
  HTTP_BODY_MIN_BYTES_PER_SECOND:
    "the slowest a request body may arrive, measured over each HTTP_HEADERS_TIMEOUT_MS; slower, it is answered 408 and closed (default 5000)",
  HTTP_MAX_CONNECTIONS_PER_ADDRESS:
    "connections one client address may hold open at once; more are answered 429 and closed. A trusted proxy (TRUST_PROXY) is not capped (default 64)",
  RENDER_PROVIDER:
    "render engine: local (default: the offline Preview engine, colour and tone grading, not AI), comfyui (a studio's own GPU box), replicate or openai",
  ENGINES_RENDER:
    "the engines that render (redesign), in the order tried, e.g. openai,comfyui: one that is down is skipped for the next (default: RENDER_PROVIDER; also in /admin → Studio, where the variable wins). Each needs its own settings (key, URL)",
  ENGINES_STAGE: "the engines that stage an empty room, in the order tried (as ENGINES_RENDER)",
  ENGINES_DECLUTTER: "the engines that declutter a room, in the order tried (as ENGINES_RENDER)",
  ENGINES_EXTERIOR:
    "the engines that work on photos of a house from outside (blue sky, twilight, garden), in the order tried (as ENGINES_RENDER)",
  ENGINES_EDIT: "the engines that make region edits (the modification studio), in the order tried (as ENGINES_RENDER)",
  ENGINES_UPSCALE: "the engines that upscale a render to the photo's size, in the order tried (as ENGINES_RENDER)",
  ROLE: "what this process does: all (default: serves the app and renders, one box), web (serves the app, never renders) or worker (renders; serves only GET /healthz). See README, Render workers and leases",
  RENDER_CONCURRENCY: "renders worked on at once by this process's worker (default 2)",
  RENDER_LEASE_MS:
    "how long a worker's claim on a render lasts unless renewed (renewed every quarter of it while the render runs); a worker that dies leaves its renders to another after this (default 60000)",
  PROJECTS_PER_USER_MAX: "projects one user may have (default 1000)",
  ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY: "analytics events stored per client address per day; the rest are dropped (default 5000)",
  ANALYTICS_RETENTION_DAYS: "days analytics events are kept (default 180)",
  VISITOR_UPLOAD_MB_PER_DAY: "megabytes of pictures one visitor (not signed in) may upload per day (default 100)",
  ADDRESS_UPLOAD_MB_PER_DAY: "megabytes of pictures visitors from one client address may upload per day, all together (default 500)",
  USER_STORAGE_QUOTA_MB: "megabytes of photos and renders one account may keep (default 5120; 0 = no quota)",
  DISK_FREE_FLOOR_MB:
    "free disk space to keep: below it, visitors' unclaimed demo pictures are removed, oldest first, and every writer (uploads, renders, edits, upscales, listing exports, backups) waits (default 1024)",
  BACKUP_DIR:
    "where the server writes its scheduled backups (unset: no schedule; `npm run backup DIR` still works). Not inside DATA_DIR; best on another disk",
  BACKUP_KEY_FILE:
    "the backup key that signs every backup's manifest (default DATA_DIR/backup-key, generated on the first backup; never inside a backup). `npm run restore` needs it: keep a copy off this machine",
  BACKUP_EVERY: "how often the server backs itself up when BACKUP_DIR is set: 30m, 6h, 1d… (default 1d, at least 5m)",
  BACKUP_KEEP: "how many backups in BACKUP_DIR are kept; older ones are removed after each new one (default 7)",
  NEW_ACCOUNTS_PER_ADDRESS_PER_DAY:
    "accounts that may be created from one client address per day (default 20; each self-test run makes one)",
  EVENT_STREAMS_PER_OWNER: "live render-event streams one user or visitor may hold open, e.g. browser tabs (default 20)",
  EVENT_STREAMS_TOTAL: "live render-event streams open on the server in all (default 2000)",
  RENDER_DEADLINE_MS: "how long one render may take, retries included, before it fails and its credit is returned (default 120000)",
  DEMO_RENDERS_PER_IP_PER_DAY:
    "free demo renders per client address per day, on top of one per visitor (default 3: a household or office behind one address; also in /admin → Studio, where the variable wins)",
  COMFYUI_URL: "address of the studio's ComfyUI server, e.g. http://gpu-box:8188 (needed when RENDER_PROVIDER=comfyui)",
  COMFYUI_TOKEN: "sent as a Bearer token to ComfyUI, for a box behind an authenticating proxy (optional)",
  COMFYUI_WORKFLOW_DIR:
    "a directory of your own API-format workflows (restyle.json, stage.json, inpaint.json, upscale.json, upscale-refine.json) with the same placeholders; unset, the shipped ones are used",
  COMFYUI_CHECKPOINT: "the Stable Diffusion checkpoint file the workflows load (default sd_xl_base_1.0.safetensors)",
  COMFYUI_CONTROLNET_DEPTH: "the depth ControlNet file that holds the room's shape (default controlnet-depth-sdxl-1.0.safetensors)",
  COMFYUI_CONTROLNET_LINES:
    "the line (MLSD) ControlNet file that holds walls and windows straight (default controlnet-mlsd-sdxl-1.0.safetensors)",
  COMFYUI_INPAINT_CHECKPOINT: "the inpainting checkpoint for targeted edits (default sd_xl_base_1.0_inpainting_0.1.safetensors)",
  COMFYUI_UPSCALE_MODEL:
    "the upscale model file (in ComfyUI's models/upscale_models) that brings a finished render to the photo's size, e.g. 4x-UltraSharp.pth (default RealESRGAN_x4plus.pth; \"none\": no AI upscale on ComfyUI)",
  COMFYUI_UPSCALE_REFINE:
    "true adds a light img2img pass (denoise 0.2, COMFYUI_CHECKPOINT) after ComfyUI's upscale, for crisper detail; slower (default false)",
  REPLICATE_API_TOKEN: "Replicate API token (needed when RENDER_PROVIDER=replicate)",
  REPLICATE_MODEL:
    "Replicate render preset, owner/name or owner/name:version (default adirik/interior-design; the presets are listed in docs/decisions/033-replicate-presets.md); a model without a preset is refused at start",
  REPLICATE_API_URL: "Replicate API base URL (default https://api.replicate.com)",
  REPLICATE_WEBHOOK_SECRET:
    "Replicate webhook signing secret (whsec_...); with PUBLIC_URL set, Replicate calls <PUBLIC_URL>/webhooks/replicate instead of being polled as often",
  OPENAI_API_KEY: "OpenAI API key (needed when RENDER_PROVIDER=openai)",
  OPENAI_MODEL: "OpenAI image model for edits (default gpt-image-1)",
  OPENAI_API_URL: "OpenAI API base URL (default https://api.openai.com)",
  ADMIN_EMAILS: "comma-separated e-mail addresses granted the admin role at start-up (when their accounts exist)",
  STRIPE_SECRET_KEY: 'Stripe secret key for credit purchases (Stripe Checkout); unset, buying answers "Stripe secret key not configured"',
  STRIPE_WEBHOOK_SECRET: "signing secret of the Stripe webhook endpoint <PUBLIC_URL>/webhooks/stripe (needed to grant purchased credits)",
  STRIPE_API_URL: "Stripe API base URL (default https://api.stripe.com)",
};
