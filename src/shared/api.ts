/**
 * The public REST API (issue 31, decision 094): its version, its keys' scopes and limits, and the
 * schemas of what /developers sends. The server's routes and the OpenAPI document read them here.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";

/** Where the API lives; its OpenAPI document is at `${API_BASE}/openapi.json`. */
export const API_BASE = "/api/v1";

/** The longest a request may wait for its renders to end (?wait=). */
export const API_WAIT_MAX_SECONDS = 30;

/** The most items one page of a list holds (?limit=). */
export const API_PAGE_MAX = 100;

/** What a key may do. */
export const API_SCOPES = ["renders:write", "renders:read", "projects", "credits:read", "webhooks"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_KEYS = {
  nameMax: 60,
  /** Keys a space may keep (revoked ones do not count). */
  perSpaceMax: 20,
  expiryDaysMax: 365,
  /** The start of every key, so that scanners and people can tell what it is. */
  tokenPrefix: "rck_",
  /** last_used_at is written at most this often per key. */
  lastUsedEveryMs: 60_000,
} as const;

export const createApiKeyInputSchema = z.object({
  name: z.string().trim().min(1, { error: MESSAGES.apiKeyNameInvalid }).max(API_KEYS.nameMax, { error: MESSAGES.apiKeyNameInvalid }),
  scopes: z
    .array(z.enum(API_SCOPES))
    .min(1, { error: MESSAGES.apiKeyScopesRequired })
    .refine((scopes) => new Set(scopes).size === scopes.length, { error: MESSAGES.apiKeyScopesRequired }),
  /** Days until it stops working; null: it does not expire. */
  expiresInDays: z
    .number()
    .int({ error: MESSAGES.apiKeyExpiryInvalid })
    .min(1, { error: MESSAGES.apiKeyExpiryInvalid })
    .max(API_KEYS.expiryDaysMax, { error: MESSAGES.apiKeyExpiryInvalid })
    .nullable(),
  /** The team the key works in (Owner and Admin only); null: the personal space. */
  teamId: z.string().min(1).max(64).nullable(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInputSchema>;

/** A key as lists show it: never its secret. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  teamId: string | null;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** The one shape of every API error. */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "What went wrong, for programs: invalid, unauthenticated, forbidden, not-found…" }),
      message: z.string().meta({ description: "What went wrong, for people (English)" }),
    }),
  })
  .meta({ id: "Error" });
