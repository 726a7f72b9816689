/**
 * Two-factor authentication: TOTP (RFC 6238: 6 digits, 30 s steps, one step of drift either way,
 * each step accepted once) with keys encrypted at rest, and 10 single-use backup codes of 8
 * characters stored as hashes. Times come from the injected clock. Owns the tables two_factor and
 * backup_codes (decision 054). A refused step throws a domain error (already on, wrong code).
 */
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import QRCode from "qrcode";
import { AUTH, FIELD_LIMITS, PRODUCT_NAME } from "../../shared/constants";
import { DomainError } from "../errors";
import type { Infra } from "../infra";

type TwoFactorDeps = Pick<Infra, "db" | "clock" | "secretBox"> & {
  /** The issuer an authenticator app shows (the studio's name, /admin → Studio). */
  issuer?: () => string;
};
import { generateSecureRandomString, hashSecret } from "./tokens";

const STEP_SECONDS = 30;
const DIGITS = FIELD_LIMITS.totpCodeLength;
/** No 0/O, 1/I/L: backup codes are read off paper. */
const BACKUP_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export function totpStep(now: number): number {
  return Math.floor(now / 1000 / STEP_SECONDS);
}

export function totpCode(key: Uint8Array, step: number): string {
  return generateHOTP(key, BigInt(step), DIGITS);
}

/** The step a code matches within ±1 of now, or null. */
function matchingStep(key: Uint8Array, code: string, now: number): number | null {
  const current = totpStep(now);
  const given = new TextEncoder().encode(code);
  for (const step of [current - 1, current, current + 1]) {
    if (constantTimeEqual(new TextEncoder().encode(totpCode(key, step)), given)) return step;
  }
  return null;
}

function generateBackupCode(): string {
  const bytes = new Uint8Array(FIELD_LIMITS.backupCodeLength);
  crypto.getRandomValues(bytes);
  // 31 letters: the modulo bias is tiny for 8 bytes and harmless for single-use, rate-limited codes.
  return [...bytes].map((byte) => BACKUP_ALPHABET[byte % BACKUP_ALPHABET.length]).join("");
}

/** A new key to scan; refused when two-factor is already on (twoFactorAlreadyEnabled). */
export async function beginEnrollment(deps: TwoFactorDeps, user: { id: string; email: string }) {
  const existing = await deps.db.selectFrom("two_factor").select("enabled_at").where("user_id", "=", user.id).executeTakeFirst();
  if (existing?.enabled_at) throw new DomainError("conflict", "twoFactorAlreadyEnabled");
  const key = new Uint8Array(20);
  crypto.getRandomValues(key);
  const sealed = deps.secretBox.encrypt(key);
  await deps.db
    .insertInto("two_factor")
    .values({ user_id: user.id, secret_encrypted: sealed, enabled_at: null, last_used_step: null, created_at: deps.clock.now() })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ secret_encrypted: sealed, last_used_step: null }))
    .execute();
  const uri = createTOTPKeyURI(deps.issuer?.() ?? PRODUCT_NAME, user.email, key, STEP_SECONDS, DIGITS);
  return { secret: encodeBase32UpperCaseNoPadding(key), uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1 }) };
}

/** What a TOTP code was: right (and now used), right but already used (its 30 s are not over), or wrong. */
export type TotpCheck = "accepted" | "used" | "wrong";

/**
 * Checks a TOTP code for the user and, when right, remembers its step so it is never accepted
 * again. Runs in one transaction so two requests cannot both use the same code. A code already
 * used is told apart from a wrong one: the person typed what their app shows, and should wait for
 * the next code rather than doubt their app.
 */
export async function acceptTotp(deps: TwoFactorDeps, userId: string, code: string, requireEnabled: boolean): Promise<TotpCheck> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("two_factor").selectAll().where("user_id", "=", userId).executeTakeFirst();
    if (!row || (requireEnabled && row.enabled_at === null)) return "wrong";
    const step = matchingStep(deps.secretBox.decrypt(row.secret_encrypted), code, deps.clock.now());
    if (step === null) return "wrong";
    if (row.last_used_step !== null && step <= row.last_used_step) return "used";
    // Conditional: of two requests with one code, on PostgreSQL too, only one finds the step unused.
    const used = await trx
      .updateTable("two_factor")
      .set({ last_used_step: step })
      .where("user_id", "=", userId)
      .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? "accepted" : "used";
  });
}

/** The refusal of a code that was not accepted. */
export function refusedCode(check: Exclude<TotpCheck, "accepted">): DomainError {
  return new DomainError("invalid", check === "used" ? "verificationCodeUsed" : "invalidVerificationCode");
}

/** Marks a backup code used; false when unknown or already used. */
export async function acceptBackupCode(deps: TwoFactorDeps, userId: string, code: string): Promise<boolean> {
  const result = await deps.db
    .updateTable("backup_codes")
    .set({ used_at: deps.clock.now() })
    .where("user_id", "=", userId)
    .where("code_hash", "=", hashSecret(code.toUpperCase()))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function replaceBackupCodes(deps: TwoFactorDeps, userId: string): Promise<string[]> {
  const codes = Array.from({ length: AUTH.backupCodeCount }, generateBackupCode);
  await deps.db.deleteFrom("backup_codes").where("user_id", "=", userId).execute();
  await deps.db
    .insertInto("backup_codes")
    .values(codes.map((code) => ({ id: generateSecureRandomString(), user_id: userId, code_hash: hashSecret(code), used_at: null })))
    .execute();
  return codes;
}

/** The first right code turns two-factor on; returns the backup codes to show once. A wrong code is refused. */
export async function confirmEnrollment(deps: TwoFactorDeps, userId: string, code: string): Promise<string[]> {
  const check = await acceptTotp(deps, userId, code, false);
  if (check !== "accepted") throw refusedCode(check);
  await deps.db.updateTable("two_factor").set({ enabled_at: deps.clock.now() }).where("user_id", "=", userId).execute();
  return replaceBackupCodes(deps, userId);
}

/** Turns two-factor off with a right code; a wrong one is refused. */
export async function disableTwoFactor(deps: TwoFactorDeps, userId: string, code: string): Promise<void> {
  const check = await acceptTotp(deps, userId, code, true);
  if (check !== "accepted") throw refusedCode(check);
  await deps.db.deleteFrom("backup_codes").where("user_id", "=", userId).execute();
  await deps.db.deleteFrom("two_factor").where("user_id", "=", userId).execute();
}

export async function twoFactorEnabled(deps: TwoFactorDeps, userId: string): Promise<boolean> {
  const row = await deps.db.selectFrom("two_factor").select("enabled_at").where("user_id", "=", userId).executeTakeFirst();
  return row?.enabled_at != null;
}

export function createTwoFactorService(deps: TwoFactorDeps) {
  return {
    /** A new key to scan; refused when two-factor is already on. */
    beginEnrollment: (user: { id: string; email: string }) => beginEnrollment(deps, user),
    /** Turns two-factor on with a first right code; returns the backup codes (shown once). */
    confirmEnrollment: (userId: string, code: string) => confirmEnrollment(deps, userId, code),
    disable: (userId: string, code: string) => disableTwoFactor(deps, userId, code),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
