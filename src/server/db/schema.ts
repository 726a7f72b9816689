/**
 * Types of the SQLite tables as Kysely sees them. Times are Unix milliseconds (INTEGER);
 * JSON columns are TEXT holding JSON. Keep in step with db/migrations.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { JobStatus, RenderMode, StructureStrength } from "../../shared/render";
import type { InputMode, RoomType } from "../../shared/styles";
import type { StyleKey } from "../../shared/custom-styles";
import type { EditPreset, JobKind } from "../../shared/edits";
import type { PaintSurface } from "../../shared/paint";

/** A column the database fills in on insert and that is never updated. */
type CreatedAt = ColumnType<number, number | undefined, never>;

export interface UsersTable {
  id: string;
  email: string;
  email_confirmed_at: number | null;
  confirmation_sent_at: number | null;
  password_hash: string | null;
  disabled_at: number | null;
  /** When the onboarding tour was completed or skipped (decision 068); null until then. */
  onboarding_done_at: number | null;
  created_at: CreatedAt;
  updated_at: number;
}

export interface ProfilesTable {
  user_id: string;
  email: string;
  full_name: string;
  credits_remaining: Generated<number>;
  created_at: CreatedAt;
  updated_at: number;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
  created_at: CreatedAt;
}

export interface ProjectsTable {
  id: string;
  /** Its creator; in a team project, the member who made it. */
  user_id: string;
  /** The team whose space holds it (decision 070); null: the creator's personal project. */
  team_id: string | null;
  name: string;
  project_type: string;
  /** JSON object */
  settings: string;
  created_at: CreatedAt;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  secret_hash: Uint8Array;
  persistent: number;
  created_at: CreatedAt;
  last_active_at: number;
  expires_at: number;
  user_agent: string | null;
  ip_address: string | null;
}

export interface LoginAttemptsTable {
  /** lower-cased */
  email: string;
  failed_count: number;
  locked_until: number | null;
  last_failed_at: number | null;
  last_ip_address: string | null;
  last_user_agent: string | null;
  updated_at: number;
}

export type EmailTokenPurpose = "confirm_email" | "reset_password";

export interface EmailTokensTable {
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  token_hash: Uint8Array;
  created_at: CreatedAt;
  expires_at: number;
  used_at: number | null;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  transport: "outbox" | "smtp";
  created_at: CreatedAt;
  sent_at: number | null;
  error: string | null;
}

export interface TwoFactorTable {
  user_id: string;
  secret_encrypted: string;
  enabled_at: number | null;
  last_used_step: number | null;
  created_at: CreatedAt;
}

export interface BackupCodesTable {
  id: string;
  user_id: string;
  code_hash: Uint8Array;
  used_at: number | null;
}

export interface TwoFactorChallengesTable {
  id: string;
  user_id: string;
  secret_hash: Uint8Array;
  remember_me: number;
  failed_count: Generated<number>;
  created_at: CreatedAt;
  expires_at: number;
}

/** One wrong second-factor code of an account (the account-wide limit counts the last hour's). */
/** Bytes uploaded per visitor and per client address and day (the visitors' daily upload budgets). */
export interface UploadBudgetsTable {
  /** "visitor:<id>" or "address:<client address>". */
  subject: string;
  /** Days since 1970-01-01, UTC. */
  day: number;
  bytes: number;
}

export interface TwoFactorFailuresTable {
  id: Generated<number>;
  user_id: string;
  created_at: number;
}

export interface UserIdentitiesTable {
  provider: "google";
  provider_user_id: string;
  user_id: string;
  email: string;
  created_at: CreatedAt;
}

export type CreditKind = "grant" | "charge" | "refund" | "purchase" | "admin" | "transfer";

export interface CreditLedgerTable {
  id: string;
  user_id: string;
  kind: CreditKind;
  /** Positive adds credits, negative takes them. */
  amount: number;
  job_id: string | null;
  /** An outside id that must count once (a payment event). */
  reference: string | null;
  reason: string | null;
  created_at: CreatedAt;
}

export interface UploadsTable {
  id: string;
  user_id: string | null;
  visitor_id: string | null;
  /** The team whose space holds it (its project's team); user_id is then its author. */
  team_id: string | null;
  project_id: string | null;
  mode: InputMode;
  room_type: RoomType;
  format: "jpeg" | "png";
  original_key: string;
  thumb_key: string;
  width: number;
  height: number;
  bytes: number;
  created_at: CreatedAt;
}

/** "Apply to the whole project": one style, one seed, optionally a reference picture, over a project's photos. */
export interface RenderSetsTable {
  id: string;
  project_id: string;
  user_id: string | null;
  /** A built-in style or a custom style's id (each job keeps the custom style's snapshot). */
  style: StyleKey;
  render_mode: RenderMode;
  seed: number | null;
  reference_job_id: string | null;
  created_at: number;
}

export interface RenderJobsTable {
  id: string;
  user_id: string | null;
  visitor_id: string | null;
  /** The team whose space holds it (its project's team): charged to the team; user_id is its author. */
  team_id: string | null;
  /** Who made its share link (null: no link, or made before teams). */
  shared_by: string | null;
  project_id: string | null;
  upload_id: string;
  /**
   * The design style rendered. An edit carries the style of the render it descends from, or ""
   * when it was made from the photo itself (the column is NOT NULL since 0005).
   */
  style: StyleKey | "";
  /** A custom style's content as the render used it (JSON StyleSnapshot); null for a built-in style. */
  style_snapshot: string | null;
  /** "render", or "edit" (the modification studio; its link, mask and instruction in render_edits). */
  kind: Generated<JobKind>;
  room_type: RoomType;
  mode: InputMode;
  note: string | null;
  provider: string;
  /** The request id of the HTTP request that asked for it (log lines of its rendering carry it). */
  request_id: string | null;
  status: JobStatus;
  /** What was taken (1 per style; 0 for a visitor's free demo), and what a failure gives back. */
  credits_charged: number;
  attempts: Generated<number>;
  /** How often a restart found this job running and put it back in the queue. */
  recoveries: Generated<number>;
  /** The instance id of the worker that claimed it last (kept when it ends; null while queued). */
  claimed_by: string | null;
  /** While running: until when (ms) the claim holds unless the worker renews it (null: nobody holds one). */
  lease_until: number | null;
  /** How often it was claimed: each claim adds one, and the worker's writes check it (decision 077). */
  claims: Generated<number>;
  /** The queue's order (insertion order), filled by the database: an identity on PostgreSQL, a trigger on SQLite. */
  queue_seq: Generated<number>;
  percent: number | null;
  error: string | null;
  model: string | null;
  input_key: string | null;
  result_key: string | null;
  medium_key: string | null;
  thumb_key: string | null;
  /** The result at the original photo's resolution, made on first download. */
  high_key: string | null;
  result_width: number | null;
  result_height: number | null;
  render_mode: Generated<RenderMode>;
  structure: Generated<StructureStrength>;
  /** The seed the user asked for (re-render with this seed); null lets the engine or worker choose. */
  requested_seed: number | null;
  /** The seed the engine used, when it has seeds. */
  seed: number | null;
  model_version: string | null;
  /** The exact prompt sent to the engine. */
  prompt: string | null;
  /** JSON of the engine parameters sent. */
  parameters: string | null;
  engine_started_at: number | null;
  engine_finished_at: number | null;
  /** 0..1: how much of the room's lines the result kept. */
  structure_score: number | null;
  /**
   * The job's number among its photo's versions in the studio (the photo is v1): given once, when
   * it becomes a version (an edit when queued, a render when it succeeds), never recomputed.
   */
  version_number: number | null;
  /** Which variation of its request it is (1-based), of variation_count; null for one picture. */
  variation: number | null;
  variation_count: number | null;
  /** An AI upscale to the photo's size, made on request. */
  upscaled_key: string | null;
  upscaled_width: number | null;
  upscaled_height: number | null;
  upscale_model: string | null;
  /** The engine that made the upscale (null: made before this was recorded, by the render's own engine). */
  upscale_provider: string | null;
  /** The engine's own id of the work ("replicate:<prediction id>"), once accepted: a worker taking the job over follows it (migration 0033). */
  engine_work_id: string | null;
  /** The set it was asked for with ("Apply to the whole project"); null for a render asked for alone. */
  set_id: string | null;
  /** Why another engine than the upscale task's first made it (a keyed message, decision 088); null when the first did. */
  upscale_fallback_reason: Generated<string | null>;
  /** Why another engine than the task's first made this render (a keyed message, decision 088); null when the first did. */
  fallback_reason: Generated<string | null>;
  /** Bytes of the files made for this job (input, results, an edit's mask, an upscale): counted in the owner's storage quota. */
  stored_bytes: Generated<number>;
  share_token: string | null;
  shared_in_gallery_at: number | null;
  created_at: CreatedAt;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

export interface RenderEditsTable {
  job_id: string;
  /** The version the edit was made from; null = the photo itself. */
  parent_job_id: string | null;
  /** The painted region, a greyscale PNG at the studio picture's size: white = change. */
  mask_key: string;
  instruction: string;
  preset: EditPreset | null;
  /** A paint edit's colour, #rrggbb (issue 33); null on other edits. */
  paint_colour: string | null;
  /** What a paint edit's colour is noted under in the project's list; null on other edits. */
  paint_surface: PaintSurface | null;
}

export interface RenderEventsTable {
  id: Generated<number>;
  job_id: string;
  /** "u:<user id>" or "v:<visitor id>" */
  owner: string;
  type: string;
  /** JSON of the RenderEvent */
  payload: string;
  created_at: CreatedAt;
}

export interface VisitorDemoRendersTable {
  visitor_id: string;
  ip_address: string;
  job_id: string;
  created_at: CreatedAt;
}

export interface CreditPurchasesTable {
  id: string;
  /** Who bought. */
  user_id: string;
  /** The team credited (bought while it was the buyer's space); null: the buyer. */
  team_id: string | null;
  package_id: string;
  credits: number;
  amount_cents: number;
  currency: string;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  status: "pending" | "paid" | "refunded" | "expired";
  created_at: CreatedAt;
  paid_at: number | null;
  refunded_at: number | null;
}

/**
 * A paid Checkout Session whose amount or currency differs from its package (payments service):
 * not credited until an admin decides. The purchase stays 'pending' meanwhile.
 */
export interface PaymentHoldsTable {
  purchase_id: string;
  checkout_session_id: string;
  payment_intent_id: string | null;
  /** What Stripe says was paid; NULL when the session carried no amount. */
  paid_amount_cents: number | null;
  paid_currency: string | null;
  created_at: number;
  /** Both NULL while the hold is open. */
  resolved_at: number | null;
  resolution: PaymentHoldResolution | null;
  /** The admin who credited or dismissed it (NULL for a refund, or once that account is gone). */
  resolved_by: string | null;
}

export type PaymentHoldResolution = "credited" | "dismissed" | "refunded";

export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: CreatedAt;
}

export interface AnalyticsEventsTable {
  id: Generated<number>;
  category: string;
  action: string;
  label: string | null;
  value: number | null;
  /** JSON object */
  metadata: string | null;
  user_id: string | null;
  session_id: string;
  occurred_at: number;
  received_at: CreatedAt;
}

export interface SelfTestRunsTable {
  id: string;
  user_id: string | null;
  suite: string;
  source: "browser" | "cli";
  passed: number;
  failed: number;
  /** JSON array of the items */
  results: string;
  started_at: number;
  finished_at: number;
}

export interface AdminAuditTable {
  id: Generated<number>;
  admin_user_id: string | null;
  action: string;
  target_user_id: string | null;
  /** JSON object */
  details: string | null;
  created_at: CreatedAt;
}

/** A credit package on sale, or retired (payments service). */
export interface CreditPackagesTable {
  id: string;
  /** Null: the interface's translated default name (the seeded packages). */
  name: string | null;
  credits: number;
  price_cents: number;
  currency: "usd" | "eur";
  licence: "personal" | "commercial";
  position: number;
  retired_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One section of the operator's settings (settings module): a JSON object. */
export interface StudioSettingsTable {
  section: "brand" | "free-credits" | "engine" | "paint";
  value: string;
  updated_at: number;
}

/** A webhook delivery already accepted, by its webhook-id (render module: replays are ignored). */
export interface WebhookReceiptsTable {
  webhook_id: string;
  received_at: number;
}

/** One housekeeping pass (housekeeping module). */
export interface HousekeepingRunsTable {
  id: string;
  trigger: "schedule" | "admin";
  started_at: number;
  finished_at: number | null;
  /** JSON: counts removed, by kind. */
  removed: string;
  /** JSON: error messages, by step. */
  errors: string;
}

/** A scheduled run claimed by one instance (coordination module, decision 078). */
export interface ScheduledRunsTable {
  name: string;
  claimed_by: string;
  claim_id: string;
  claimed_at: number;
  held_until: number;
}

/** A render worker seen alive: its row is written at start and every quarter of its lease (render module, decision 085). */
export interface RenderWorkersTable {
  instance_id: string;
  slots: number;
  started_at: number;
  seen_at: number;
}

/** A count per key within a window that starts with the first count (coordination module, decision 078). */
export interface RateCountsTable {
  key: string;
  count: number;
  window_ends_at: number;
}

/** One backup taken by the schedule, an admin or `npm run backup` (backup module). */
export interface BackupsTable {
  id: string;
  trigger: "schedule" | "admin" | "command";
  started_at: number;
  finished_at: number | null;
  file: string | null;
  bytes: number | null;
  files: number | null;
  error: string | null;
}

/** A listing export: the render with its disclosure, and the public page /l/<code> (listing module). */
export interface ListingExportsTable {
  id: string;
  code: string;
  /** NULL once the user, the render or the project is deleted: the public page then answers 404. */
  user_id: string | null;
  job_id: string | null;
  project_id: string | null;
  disclosure: string;
  language: "en" | "es" | "fr";
  public_url: string;
  /** NULL once the files are removed. */
  picture_key: string | null;
  original_key: string | null;
  altered_key: string | null;
  width: number;
  height: number;
  original_width: number;
  original_height: number;
  file_name: string;
  created_at: CreatedAt;
  revoked_at: number | null;
}

/** A project's listing video (listing module, issue 33). */
export interface ListingVideosTable {
  id: string;
  user_id: string;
  project_id: string;
  /** JSON: the renders shown, in order. */
  job_ids: string;
  format: "landscape" | "portrait";
  seconds: number;
  language: "en" | "es" | "fr";
  status: "queued" | "making" | "succeeded" | "failed" | "canceled";
  /** 0..1 while making. */
  progress: Generated<number>;
  error: string | null;
  file_key: string | null;
  bytes: number | null;
  width: number | null;
  height: number | null;
  frames: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** 1: shown on the public pages of the project's listing exports (one video per project). */
  on_listing_pages: Generated<number>;
  /** The team whose project it shows (its members see it); null for a personal project. */
  team_id: string | null;
}

export type TeamRole = "owner" | "admin" | "member";

export interface TeamsTable {
  id: string;
  name: string;
  /** The running balance of team_credit_ledger. */
  credits_remaining: Generated<number>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: number;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: TeamRole;
  /** Credits the member may use per calendar month (UTC); null: no cap. */
  monthly_cap: number | null;
  joined_at: number;
}

export interface TeamInvitationsTable {
  id: string;
  team_id: string;
  email: string;
  role: Exclude<TeamRole, "owner">;
  token_hash: Uint8Array;
  language: "en" | "es" | "fr" | null;
  invited_by: string | null;
  created_at: number;
  sent_at: number;
  send_count: Generated<number>;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

export interface CurrentSpacesTable {
  user_id: string;
  team_id: string;
  updated_at: number;
}

export type TeamCreditKind = "charge" | "refund" | "purchase" | "admin" | "transfer";

export interface TeamCreditLedgerTable {
  id: string;
  team_id: string;
  /** The member who caused the row; null once their account is deleted. */
  user_id: string | null;
  kind: TeamCreditKind;
  amount: number;
  job_id: string | null;
  reference: string | null;
  reason: string | null;
  created_at: CreatedAt;
}

export interface TeamMemberUsageTable {
  team_id: string;
  user_id: string;
  /** year * 12 + month - 1 (UTC): src/shared/months.ts. */
  month: number;
  used: number;
}

export interface TeamActivityTable {
  id: Generated<number>;
  team_id: string;
  actor_id: string | null;
  actor_name: string;
  action: string;
  /** JSON object: what the action names (member, role, credits...). */
  details: Generated<string>;
  created_at: number;
}

/** A client of a team (team_id) or of a personal space (user_id, its keeper): exactly one is set. */
export interface ClientsTable {
  id: string;
  team_id: string | null;
  user_id: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  notes: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** The client a project is for (one per project). */
export interface ProjectClientsTable {
  project_id: string;
  client_id: string;
  linked_at: number;
}

/** What the user marked of known size on a photo (decision 089): JSON of a MeasureReference. */
export interface MeasureReferencesTable {
  upload_id: string;
  reference: string;
  updated_by: string | null;
  updated_at: number;
}

/** A length measured in a project (decision 089): on a photo (points are fractions of it) or, later, in AR. */
export interface RoomMeasuresTable {
  id: string;
  project_id: string | null;
  upload_id: string | null;
  source: "photo" | "ar";
  kind: string;
  /** JSON: {"a": {x, y}, "b": {x, y}} for a photo. */
  points: string;
  /** Measured in space (AR); NULL for a photo, whose length comes from its reference. */
  length_cm: number | null;
  label: Generated<string>;
  created_by: string | null;
  created_at: number;
}

/** Client review links (decision 073): only a SHA-256 of the token is kept. */
export interface ReviewLinksTable {
  id: string;
  token_hash: Uint8Array;
  project_id: string;
  team_id: string | null;
  created_by: string | null;
  label: string | null;
  /** The project's name when the link was made (the public page's title without a label). */
  project_name: string;
  /** JSON array of the job ids shown; NULL: every finished render of the project. */
  job_ids: string | null;
  /** 1: pictures not yet approved carry a "Draft" watermark. */
  watermark: Generated<number>;
  /** The language of the link's maker (the decision mails). */
  language: Generated<"en" | "es" | "fr">;
  expires_at: number;
  revoked_at: number | null;
  created_at: CreatedAt;
}

export interface ReviewCommentsTable {
  id: Generated<number>;
  link_id: string;
  job_id: string;
  author_name: string;
  /** Plain text, at most 2,000 characters; shown escaped. */
  text: string;
  /** The commenting client's address (the per-address limit). */
  client_address: string;
  created_at: number;
}

export interface ReviewDecisionsTable {
  id: Generated<number>;
  link_id: string;
  job_id: string;
  state: "approved" | "changes-requested";
  author_name: string;
  created_at: number;
}

/** API keys of the public REST API (migration 0034, decision 094); owned by the api module. */
export interface ApiKeysTable {
  id: string;
  /** Who made it; the key acts for this user (and, with team_id, in that team). */
  user_id: string;
  team_id: string | null;
  name: string;
  /** The key's public part, shown in lists and used to find it. */
  prefix: string;
  /** SHA-256 of the secret part, hex. */
  secret_hash: string;
  /** JSON array of scopes. */
  scopes: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
  /** Its maker's interface language when it was made: the language of the API's messages to it. */
  language: Generated<"en" | "es" | "fr">;
}

/** First answers to POSTs sent with an Idempotency-Key (migration 0035); owned by the api module. */
/** Renders running at once per API key: one row per render or edit ordered, open until it ends (decision 096). */
export interface ApiRenderSlotsTable {
  id: string;
  api_key_id: string;
  /** Null while the render is being made (the slot is taken first). */
  job_id: string | null;
  created_at: number;
  ended_at: number | null;
}

export interface ApiIdempotencyTable {
  api_key_id: string;
  idempotency_key: string;
  /** SHA-256 of the method, path and body, hex. */
  request_hash: string;
  /** Null while the first request is being answered. */
  status: number | null;
  response: string | null;
  created_at: number;
}

/** A webhook endpoint of a space (decision 095): its secret sealed with APP_SECRET. */
export interface WebhookEndpointsTable {
  id: string;
  user_id: string;
  team_id: string | null;
  /** The space's event key: "u:<user>" or "t:<team>". */
  owner: string;
  url: string;
  description: Generated<string>;
  /** JSON array of event names. */
  events: string;
  secret: string;
  /** The language of its maker when made (the mail saying it was turned off). */
  language: Generated<"en" | "es" | "fr">;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: "owner" | "failing" | null;
  /** credits.low is sent when the space's balance falls below this (null: the event was never asked for). */
  credits_low_below: number | null;
}

/** What happened in a space besides a render's progress (decision 098): append-only, id ordered. */
export interface SpaceEventsTable {
  id: Generated<number>;
  /** The space's event key: "u:<user>" or "t:<team>". */
  owner: string;
  type: string;
  payload: string;
  created_at: number;
}

/** The outbox: one event for one endpoint, sent in seq order per endpoint (decision 095). */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  /** The webhook-id header: the same on every try. */
  id: string;
  endpoint_id: string;
  /** The render event it comes from ("render:<id>"); null for test events and redeliveries. */
  event_key: string | null;
  type: string;
  /** The body sent, exactly. */
  payload: string;
  status: "pending" | "succeeded" | "failed";
  created_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  finished_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  at: number;
  status: number | null;
  error: string | null;
  answer: string | null;
  duration_ms: number;
}

export interface WebhookCursorTable {
  name: string;
  last_id: number;
}

/** Requests per API key and UTC day (migration 0040, decision 097); owned by the api module. */
export interface ApiUsageTable {
  api_key_id: string;
  /** The UTC day, "2026-11-27". */
  day: string;
  requests: number;
  /** Renders ordered (one per style and variation). */
  renders: number;
  /** Answers 400–499. */
  client_errors: number;
  /** Answers 500–599. */
  server_errors: number;
}

/**
 * A style of a space's own (decision 100): a team's (team_id) or a personal space's (user_id, its
 * keeper); exactly one is set. Owned by src/server/styles.
 */
export interface CustomStylesTable {
  /** "cs_" and 24 letters or digits. */
  id: string;
  team_id: string | null;
  user_id: string | null;
  /** Who made it (null once their account is gone: a team's style stays the team's). */
  created_by: string | null;
  name: string;
  description: string;
  avoid: Generated<string>;
  /** JSON array of "#rrggbb". */
  palette: string;
  tone: string;
  /** The reference picture: a metadata-free JPEG at most CUSTOM_STYLES.referenceLongEdge a side. */
  reference: Uint8Array | null;
  reference_width: number | null;
  reference_height: number | null;
  created_at: number;
  updated_at: number;
}

/** A render its owner published in the community hub (decision 102). Owned by src/server/community. */
export interface PublicationsTable {
  /** "pub_" and random letters or digits. */
  id: string;
  job_id: string;
  /** Who published it (for a team's render, the member who did). */
  user_id: string;
  /** The team whose render it is (its studio); null for a personal render. */
  team_id: string | null;
  title: string;
  /** PUBLICATION_LAYOUTS. */
  layout: string;
  /** 1: the publisher's name (a team's: the studio's) is shown. */
  show_name: Generated<number>;
  /** The render's style key (built-in id or a custom style's id) and a custom style's name. */
  style: string;
  style_name: string | null;
  room_type: string;
  /** The metadata-free copies; null until made (the gallery's renders moved by migration 0044). */
  before_key: string | null;
  after_key: string | null;
  like_count: Generated<number>;
  published_at: number;
  hidden_at: number | null;
  hidden_by: string | null;
}

export interface PublicationReactionsTable {
  publication_id: string;
  user_id: string;
  created_at: number;
}

export interface CommunityFollowsTable {
  follower_id: string;
  target_kind: "user" | "team";
  target_id: string;
  created_at: number;
}

export interface PublicationReportsTable {
  id: string;
  publication_id: string;
  reporter_id: string;
  reason: string;
  note: Generated<string>;
  created_at: number;
  resolved_at: number | null;
  /** "dismissed" or "hidden". */
  resolution: string | null;
  resolved_by: string | null;
}

export interface PublishingBlocksTable {
  user_id: string;
  blocked_by: string | null;
  created_at: number;
}

/** A user's portfolio page, /p/<handle> (decision 105). Owned by src/server/community. */
export interface PortfoliosTable {
  user_id: string;
  /** Lower case (portfolioHandleSchema). */
  handle: string;
  display_name: string;
  headline: Generated<string>;
  /** JSON: [{ label, url }]. */
  links: Generated<string>;
  contact_email: Generated<string>;
  contact_phone: Generated<string>;
  /** The team the page presents; null: the user alone. */
  brand_team_id: string | null;
  /** 1: public. */
  visible: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** A listing of the marketplace (decision 104): a team's or a personal space's, exactly one set. Owned by src/server/marketplace. */
export interface MarketplaceListingsTable {
  /** "ml_" and 24 letters or digits. */
  id: string;
  team_id: string | null;
  user_id: string | null;
  /** Its author (null once their account is gone: a team's listing stays the team's). */
  created_by: string | null;
  title: string;
  version: number;
  /** Spaces that installed it, each once. */
  install_count: number;
  /** A metadata-free JPEG, at most MARKETPLACE.pictureLongEdge a side. */
  cover: Uint8Array;
  cover_width: number;
  cover_height: number;
  published_at: number;
  updated_at: number;
}

/** "tone:<tone>" and "room:<room type>" of a listing. */
export interface MarketplaceListingFacetsTable {
  listing_id: string;
  facet: string;
}

/** A listing's copy of a style, as published (the author's style may change or go later). */
export interface MarketplaceListingStylesTable {
  listing_id: string;
  position: number;
  source_style_id: string;
  name: string;
  description: string;
  avoid: string;
  /** JSON array of "#rrggbb". */
  palette: string;
  tone: string;
  reference: Uint8Array | null;
  reference_width: number | null;
  reference_height: number | null;
}

/** A listing's example: a copy of one of the author's renders, a metadata-free JPEG. */
export interface MarketplaceListingExamplesTable {
  listing_id: string;
  position: number;
  room_type: string;
  picture: Uint8Array;
  width: number;
  height: number;
}

/** One space's install of a listing: the version it has and the copies it made. */
export interface MarketplaceInstallsTable {
  id: string;
  listing_id: string;
  /** "u:<user id>" or "t:<team id>": one install per space. */
  space_key: string;
  team_id: string | null;
  user_id: string | null;
  installed_by: string | null;
  version: number;
  /** A newer version the space chose not to take. */
  kept_version: number | null;
  /** JSON array of the copies' custom style ids, in the listing's order. */
  style_ids: string;
  installed_at: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  user_roles: UserRolesTable;
  projects: ProjectsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  email_tokens: EmailTokensTable;
  mail_outbox: MailOutboxTable;
  two_factor: TwoFactorTable;
  backup_codes: BackupCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  user_identities: UserIdentitiesTable;
  credit_ledger: CreditLedgerTable;
  uploads: UploadsTable;
  render_jobs: RenderJobsTable;
  render_sets: RenderSetsTable;
  render_events: RenderEventsTable;
  render_edits: RenderEditsTable;
  render_workers: RenderWorkersTable;
  two_factor_failures: TwoFactorFailuresTable;
  upload_budgets: UploadBudgetsTable;
  visitor_demo_renders: VisitorDemoRendersTable;
  credit_purchases: CreditPurchasesTable;
  stripe_events: StripeEventsTable;
  payment_holds: PaymentHoldsTable;
  analytics_events: AnalyticsEventsTable;
  self_test_runs: SelfTestRunsTable;
  admin_audit: AdminAuditTable;
  listing_exports: ListingExportsTable;
  listing_videos: ListingVideosTable;
  backups: BackupsTable;
  housekeeping_runs: HousekeepingRunsTable;
  credit_packages: CreditPackagesTable;
  studio_settings: StudioSettingsTable;
  webhook_receipts: WebhookReceiptsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_invitations: TeamInvitationsTable;
  current_spaces: CurrentSpacesTable;
  team_credit_ledger: TeamCreditLedgerTable;
  team_member_usage: TeamMemberUsageTable;
  team_activity: TeamActivityTable;
  clients: ClientsTable;
  project_clients: ProjectClientsTable;
  review_links: ReviewLinksTable;
  review_comments: ReviewCommentsTable;
  review_decisions: ReviewDecisionsTable;
  scheduled_runs: ScheduledRunsTable;
  rate_counts: RateCountsTable;
  measure_references: MeasureReferencesTable;
  room_measures: RoomMeasuresTable;
  api_keys: ApiKeysTable;
  api_idempotency: ApiIdempotencyTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_cursor: WebhookCursorTable;
  space_events: SpaceEventsTable;
  api_render_slots: ApiRenderSlotsTable;
  api_usage: ApiUsageTable;
  custom_styles: CustomStylesTable;
  publications: PublicationsTable;
  publication_likes: PublicationReactionsTable;
  publication_saves: PublicationReactionsTable;
  community_follows: CommunityFollowsTable;
  publication_reports: PublicationReportsTable;
  publishing_blocks: PublishingBlocksTable;
  portfolios: PortfoliosTable;
  marketplace_listings: MarketplaceListingsTable;
  marketplace_listing_facets: MarketplaceListingFacetsTable;
  marketplace_listing_styles: MarketplaceListingStylesTable;
  marketplace_listing_examples: MarketplaceListingExamplesTable;
  marketplace_installs: MarketplaceInstallsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
export type Project = Selectable<ProjectsTable>;
export type Client = Selectable<ClientsTable>;
export type CustomStyle = Selectable<CustomStylesTable>;
export type Publication = Selectable<PublicationsTable>;
export type Portfolio = Selectable<PortfoliosTable>;
export type RoomMeasure = Selectable<RoomMeasuresTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type NewProject = Insertable<ProjectsTable>;
export type Upload = Selectable<UploadsTable>;
export type RenderJob = Selectable<RenderJobsTable>;
