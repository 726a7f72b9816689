/**
 * Encryption at rest for secrets the server must read back (TOTP keys): AES-256-GCM with a key
 * derived from APP_SECRET, or from a random secret generated into DATA_DIR on first start.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "../env";

export interface SecretBox {
  encrypt(plain: Uint8Array): string;
  decrypt(sealed: string): Uint8Array;
}

/** APP_SECRET, else DATA_DIR/app-secret (created with owner-only permissions when missing). */
export function loadAppSecret(env: Env): string {
  if (env.APP_SECRET) return env.APP_SECRET;
  const file = path.join(env.DATA_DIR, "app-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(32).toString("base64url");
    fs.mkdirSync(env.DATA_DIR, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

export function createSecretBox(appSecret: string): SecretBox {
  const key = createHash("sha256").update(`roomcanvas:secret-box:${appSecret}`).digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return `v1.${iv.toString("base64url")}.${body.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}`;
    },
    decrypt(sealed) {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== "v1" || !iv || !body || !tag) throw new Error("unreadable sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]));
    },
  };
}
