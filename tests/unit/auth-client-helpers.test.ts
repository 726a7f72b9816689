import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { challengeFromHash } from "../../src/client/lib/authLinks";
import { fieldErrorsOf, firstFieldError, serverFieldErrors } from "../../src/client/lib/formErrors";
import { lockMinutes, sameEmail, showsAttemptsBanner } from "../../src/client/lib/lockout";
import { DEFAULT_AFTER_SIGN_IN, safeReturnPath, takeReturnTo } from "../../src/client/lib/returnTo";
import { signInSchema, signUpSchema, VALIDATION_MESSAGES } from "../../src/shared/auth-schemas";
import { STORAGE_KEYS } from "../../src/shared/constants";

describe("lockout display (spec sections 8 and 9)", () => {
  it("shows the server's minutes, or 15 when unknown", () => {
    expect(lockMinutes(7)).toBe(7);
    expect(lockMinutes(0.2)).toBe(1);
    expect(lockMinutes(0)).toBe(15);
    expect(lockMinutes(undefined)).toBe(15);
    expect(lockMinutes(Number.NaN)).toBe(15);
  });

  it("shows the attempts-remaining banner at 1 to 4 attempts only", () => {
    expect([0, 1, 2, 3, 4, 5].map(showsAttemptsBanner)).toEqual([false, true, true, true, true, false]);
    expect(showsAttemptsBanner(null)).toBe(false);
  });

  it("treats an address the same whatever its case or surrounding spaces", () => {
    expect(sameEmail(" Ana@Example.com", "ana@example.com ")).toBe(true);
    expect(sameEmail("ana@example.com", "bob@example.com")).toBe(false);
  });
});

describe("form errors (spec section 5)", () => {
  it("sign-in shows only the first problem", () => {
    const result = signInSchema.safeParse({ email: "", password: "" });
    expect(result.success).toBe(false);
    expect(firstFieldError(result.error!)).toEqual({ field: "email", message: VALIDATION_MESSAGES.emailRequired });
  });

  it("sign-up shows one message per field", () => {
    const result = signUpSchema.safeParse({ email: "nope", password: "short", fullName: "X" });
    expect(fieldErrorsOf(result.error!)).toEqual({
      email: VALIDATION_MESSAGES.emailInvalid,
      password: VALIDATION_MESSAGES.passwordTooShort,
      fullName: VALIDATION_MESSAGES.nameTooShort,
    });
  });

  it("reads the server's flattened zod errors from a tRPC error", () => {
    const flattened = z.flattenError(signUpSchema.safeParse({ email: "a@b.co", password: "lowercase1", fullName: "Ana" }).error!);
    const error = Object.assign(new Error("validation"), { data: { code: "BAD_REQUEST", zodError: flattened } });
    expect(serverFieldErrors(error)).toEqual({ password: VALIDATION_MESSAGES.passwordNeedsUppercase });
    expect(serverFieldErrors(new Error("User already registered"))).toBeNull();
    expect(serverFieldErrors(Object.assign(new Error("x"), { data: { zodError: null } }))).toBeNull();
  });
});

describe("returnTo after sign-in (spec section 4)", () => {
  afterEach(() => vi.unstubAllGlobals());

  function stubSessionStorage(initial: Record<string, string>) {
    const store = new Map(Object.entries(initial));
    vi.stubGlobal("sessionStorage", {
      getItem: (key: string) => store.get(key) ?? null,
      removeItem: (key: string) => void store.delete(key),
    });
    return store;
  }

  it("goes to the stored page once, then to the dashboard", () => {
    const store = stubSessionStorage({ [STORAGE_KEYS.returnTo]: "/settings" });
    expect(takeReturnTo()).toBe("/settings");
    expect(store.has(STORAGE_KEYS.returnTo)).toBe(false);
    expect(takeReturnTo()).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(DEFAULT_AFTER_SIGN_IN).toBe("/dashboard");
  });

  it("never leaves the site, and never loops back to /auth", () => {
    for (const unsafe of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      "/auth",
      "/auth?reset=true",
    ]) {
      expect(safeReturnPath(unsafe), unsafe).toBeNull();
    }
    expect(safeReturnPath("/teams")).toBe("/teams");
  });

  it("falls back to the dashboard when storage is unavailable", () => {
    vi.stubGlobal("sessionStorage", {
      getItem: () => {
        throw new Error("denied");
      },
      removeItem: () => undefined,
    });
    expect(takeReturnTo()).toBe(DEFAULT_AFTER_SIGN_IN);
  });
});

describe("account links", () => {
  it("reads the two-factor challenge of a Google sign-in from the fragment", () => {
    expect(challengeFromHash("#twoFactorChallenge=abc.def")).toBe("abc.def");
    expect(challengeFromHash("#twoFactorChallenge=a%2Bb")).toBe("a+b");
    expect(challengeFromHash("")).toBeNull();
    expect(challengeFromHash("#other=1")).toBeNull();
  });
});
