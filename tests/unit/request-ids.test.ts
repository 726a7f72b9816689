/**
 * Request ids (http/operations.ts) are cut from a pool of random bytes (decision 046): still 12
 * base64url characters, and no id comes twice, across refills of the pool.
 */
import { describe, expect, it } from "vitest";
import { newRequestId } from "../../src/server/http/operations";

describe("request ids", () => {
  it("are 12 random base64url characters, all different across several refills of the pool", () => {
    const ids = Array.from({ length: 2000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
