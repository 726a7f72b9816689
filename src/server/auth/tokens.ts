/**
 * Random identifiers and secrets, and their hashes (Lucia's building blocks). SHA-256 and the
 * constant-time comparison are Node's (native; every request checks its session: decision 046).
 */
import { hash, timingSafeEqual } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";

/** 24 characters of base32 = 120 bits from the CSPRNG (Lucia's generateSecureRandomString). */
export function generateSecureRandomString(): string {
  const bytes = new Uint8Array(15);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** SHA-256 of the secret's UTF-8 bytes. */
export function hashSecret(secret: string): Uint8Array {
  return hash("sha256", secret, "buffer");
}

export function secretMatches(secret: string, storedHash: Uint8Array): boolean {
  const hash = hashSecret(secret);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}

/** A token "<id>.<secret>": the id finds the row, the secret proves possession. */
export function createIdAndSecret(): { id: string; secret: string; token: string; secretHash: Uint8Array } {
  const id = generateSecureRandomString();
  const secret = generateSecureRandomString();
  return { id, secret, token: `${id}.${secret}`, secretHash: hashSecret(secret) };
}

export function splitToken(token: string): { id: string; secret: string } | null {
  const parts = token.split(".");
  if (parts.length !== 2 || !parts[0] || !parts[1] || parts[0].length > 64 || parts[1].length > 64) return null;
  return { id: parts[0], secret: parts[1] };
}
