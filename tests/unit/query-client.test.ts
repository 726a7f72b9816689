import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../src/client/trpc";

describe("client data caching (spec section 7)", () => {
  it("keeps data fresh 5 minutes, retains it 10, retries once, never refetches on focus", () => {
    expect(createQueryClient().getDefaultOptions().queries).toMatchObject({
      staleTime: 5 * 60_000,
      gcTime: 10 * 60_000,
      retry: 1,
      refetchOnWindowFocus: false,
    });
  });
});
