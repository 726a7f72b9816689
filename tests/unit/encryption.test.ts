import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSecretBox, loadAppSecret } from "../../src/server/auth/encryption";
import { parseEnv } from "../../src/server/env";
import { makeTempDir } from "../helpers/test-env";

describe("secrets at rest", () => {
  it("round-trips, uses a fresh IV each time, and refuses tampered or foreign data", () => {
    const box = createSecretBox("x".repeat(32));
    const secret = new Uint8Array([1, 2, 3, 4, 5]);
    const sealed = box.encrypt(secret);
    expect(box.decrypt(sealed)).toEqual(secret);
    expect(box.encrypt(secret)).not.toBe(sealed);
    const [version, iv, body, tag] = sealed.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    // Refused by the authentication tag, not by some other failure.
    const unauthenticated = "Unsupported state or unable to authenticate data";
    expect(() => box.decrypt([version, iv, flipped.toString("base64url"), tag].join("."))).toThrow(unauthenticated);
    expect(() => createSecretBox("y".repeat(32)).decrypt(sealed)).toThrow(unauthenticated);
  });

  it("generates an owner-only app secret into DATA_DIR once, and prefers APP_SECRET", () => {
    const dataDir = makeTempDir();
    const env = parseEnv({ DATA_DIR: dataDir });
    const first = loadAppSecret(env);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadAppSecret(env)).toBe(first);
    expect(fs.statSync(path.join(dataDir, "app-secret")).mode & 0o777).toBe(0o600);
    expect(loadAppSecret(parseEnv({ DATA_DIR: dataDir, APP_SECRET: "z".repeat(40) }))).toBe("z".repeat(40));
  });
});
