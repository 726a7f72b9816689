/**
 * API keys (issue 31, decision 094). A key is "rck_<prefix>_<secret>": the prefix finds the row and
 * is shown in lists; only the SHA-256 of the secret is kept, compared in constant time (Lucia's
 * scheme for sessions). The secret is shown once, when the key is made. A key works in the space it
 * was made for: its maker's personal space, or a team where its maker may manage developer settings
 * (Owner, Admin); it stops working when revoked, when it expires, or when its maker leaves the team.
 */
import { API_KEYS, API_SCOPES, type ApiKeyView, type ApiScope, type CreateApiKeyInput } from "../../shared/api";
import { MINUTE_MS, type Language } from "../../shared/constants";
import { generateSecureRandomString, hashSecret, secretMatches } from "../auth/tokens";
import type { ExpressionBuilder } from "kysely";
import type { ApiKey, Database } from "../db/schema";
import { DomainError, notFound } from "../errors";
import { userOwner, type Owner } from "../render";
import type { ApiContext } from "./context";

/** Who a valid key acts for, and what it may do. */
export interface ApiCaller {
  keyId: string;
  userId: string;
  teamId: string | null;
  owner: Owner;
  scopes: readonly ApiScope[];
  /** Its maker's language when it was made: the language of the API's messages (decision 096). */
  language: Language;
}

const TOKEN = /^rck_([a-z2-7]{12})_([a-z2-7]{24,64})$/;

function scopesOf(row: ApiKey): ApiScope[] {
  return (JSON.parse(row.scopes) as string[]).filter((scope): scope is ApiScope => (API_SCOPES as readonly string[]).includes(scope));
}

/** Keys of one space: a personal space's are its user's; a team's, every Owner's and Admin's. */
export const inSpace = (userId: string, teamId: string | null) => (eb: ExpressionBuilder<Database, "api_keys">) =>
  teamId === null ? eb.and([eb("user_id", "=", userId), eb("team_id", "is", null)]) : eb("team_id", "=", teamId);

function view(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: `${API_KEYS.tokenPrefix}${row.prefix}`,
    scopes: scopesOf(row),
    teamId: row.team_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** The space's keys, newest first (revoked ones too, marked). A team's keys: Owner and Admin only. */
export async function listApiKeys(deps: ApiContext, userId: string, teamId: string | null): Promise<ApiKeyView[]> {
  if (teamId !== null) await deps.spaces.requireRight(userId, teamId, "manageDevelopers");
  const rows = await deps.db
    .selectFrom("api_keys")
    .selectAll()
    .where(inSpace(userId, teamId))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(view);
}

/** Makes a key; its whole token (with the secret) is in the answer, and nowhere else ever again. */
export async function createApiKey(
  deps: ApiContext,
  userId: string,
  input: CreateApiKeyInput,
  language: Language,
): Promise<{ key: ApiKeyView; token: string }> {
  if (input.teamId !== null) await deps.spaces.requireRight(userId, input.teamId, "manageDevelopers");
  const now = deps.clock.now();
  const prefix = generateSecureRandomString().slice(0, 12);
  const secret = generateSecureRandomString() + generateSecureRandomString();
  const row: ApiKey = {
    id: generateSecureRandomString(),
    user_id: userId,
    team_id: input.teamId,
    name: input.name,
    prefix,
    secret_hash: Buffer.from(hashSecret(secret)).toString("hex"),
    scopes: JSON.stringify(API_SCOPES.filter((scope) => input.scopes.includes(scope))),
    created_at: now,
    expires_at: input.expiresInDays === null ? null : now + input.expiresInDays * 24 * 60 * MINUTE_MS,
    last_used_at: null,
    revoked_at: null,
    language,
  };
  await deps.db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("revoked_at", "is", null)
      .where(inSpace(userId, input.teamId))
      .executeTakeFirstOrThrow();
    if (Number(count) >= API_KEYS.perSpaceMax) throw new DomainError("conflict", "tooManyApiKeys");
    await trx.insertInto("api_keys").values(row).execute();
  });
  return { key: view(row), token: `${API_KEYS.tokenPrefix}${prefix}_${secret}` };
}

/** Revokes a key of the space at once (a second revoke changes nothing). */
export async function revokeApiKey(deps: ApiContext, userId: string, keyId: string): Promise<ApiKeyView> {
  const row = await deps.db.selectFrom("api_keys").selectAll().where("id", "=", keyId).executeTakeFirst();
  if (!row) throw notFound();
  if (row.team_id === null ? row.user_id !== userId : (await deps.spaces.roleIn(userId, row.team_id)) === null) throw notFound();
  if (row.team_id !== null) await deps.spaces.requireRight(userId, row.team_id, "manageDevelopers");
  if (row.revoked_at !== null) return view(row);
  const now = deps.clock.now();
  await deps.db.updateTable("api_keys").set({ revoked_at: now }).where("id", "=", keyId).where("revoked_at", "is", null).execute();
  return view({ ...row, revoked_at: now });
}

/**
 * The caller a bearer token stands for, or null (unknown, revoked, expired, its maker left the team,
 * or an admin disabled its maker's account: a disabled account acts through no door).
 */
export async function authenticateApiKey(deps: ApiContext, token: string): Promise<ApiCaller | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, prefix, secret] = match as unknown as [string, string, string];
  const row = await deps.db.selectFrom("api_keys").selectAll().where("prefix", "=", prefix).executeTakeFirst();
  if (!row || !secretMatches(secret, Buffer.from(row.secret_hash, "hex"))) return null;
  const now = deps.clock.now();
  if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
  if (row.team_id !== null && (await deps.spaces.roleIn(row.user_id, row.team_id)) === null) return null;
  if (await deps.accounts.isDisabled(row.user_id)) return null;
  // When it was last used, to the minute: one write a minute at most per key.
  if (row.last_used_at === null || now - row.last_used_at >= API_KEYS.lastUsedEveryMs) {
    await deps.db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", row.id).execute();
  }
  return {
    keyId: row.id,
    userId: row.user_id,
    teamId: row.team_id,
    owner: userOwner(row.user_id, row.team_id),
    scopes: scopesOf(row),
    language: row.language,
  };
}
