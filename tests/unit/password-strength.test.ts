import { describe, expect, it } from "vitest";
import { PASSWORD_CRITERIA, passwordStrength } from "../../src/shared/auth-schemas";

describe("password strength meter (spec section 5)", () => {
  it("has the five criteria: 8+ characters, lowercase, uppercase, number, special character", () => {
    expect(PASSWORD_CRITERIA.map((criterion) => criterion.id)).toEqual(["length", "lowercase", "uppercase", "number", "special"]);
  });

  it.each([
    ["", 0, "weak"],
    ["abc", 1, "weak"],
    ["abcDEF", 2, "weak"],
    ["abcdefgh1", 3, "medium"], // length, lowercase, number
    ["abcDEF1", 3, "medium"], // 7 characters: lowercase, uppercase, number
    ["abcdEFGH", 3, "medium"], // length, lowercase, uppercase
    ["abcdEFG1", 4, "strong"],
    ["abc DEF 1", 5, "strong"], // a space is a special character
    ["Abcdefg1!", 5, "strong"],
  ] as const)("%j meets %i criteria: %s", (password, met, strength) => {
    expect(passwordStrength(password)).toEqual({ met, strength });
  });

  it("counts exactly 8 characters as long enough, 7 as not", () => {
    expect(PASSWORD_CRITERIA[0].test("a".repeat(8))).toBe(true);
    expect(PASSWORD_CRITERIA[0].test("a".repeat(7))).toBe(false);
  });
});
