/**
 * Secrets are hashed with Node's SHA-256 since decision 046 (before: @oslojs/crypto's): the hashes
 * stored by earlier versions (sessions, mail tokens, recovery codes) must still match.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { describe, expect, it } from "vitest";
import { createIdAndSecret, hashSecret, secretMatches } from "../../src/server/auth/tokens";

describe("secret hashes", () => {
  it.each(["", "abcdefghijklmnopqrstuvwx", "ÄBCD-ÉFGH", "🙂".repeat(40)])("hashes %j as before", (secret) => {
    expect(Buffer.from(hashSecret(secret)).equals(Buffer.from(sha256(new TextEncoder().encode(secret))))).toBe(true);
  });

  it("matches a secret against its stored hash, and nothing else", () => {
    const { secret, secretHash } = createIdAndSecret();
    expect(secretMatches(secret, secretHash)).toBe(true);
    expect(secretMatches(secret, Buffer.from(secretHash))).toBe(true);
    expect(secretMatches(`${secret}x`, secretHash)).toBe(false);
    expect(secretMatches(secret, secretHash.subarray(0, 16))).toBe(false);
    expect(secretMatches(secret, new Uint8Array(32))).toBe(false);
  });
});
