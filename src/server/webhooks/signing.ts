/**
 * Standard Webhooks signatures (decision 095; https://www.standardwebhooks.com): the secret is
 * "whsec_" and base64 of random bytes; the signature is "v1," and base64 of the HMAC-SHA256, keyed
 * with those bytes, of "<webhook-id>.<webhook-timestamp>.<body>", the timestamp in Unix seconds.
 */
import { createHmac, randomBytes } from "node:crypto";
import { WEBHOOKS } from "../../shared/webhooks";

export function newSigningSecret(): string {
  return `${WEBHOOKS.secretPrefix}${randomBytes(32).toString("base64")}`;
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOKS.secretPrefix.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}
