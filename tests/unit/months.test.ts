import { describe, expect, it } from "vitest";
import { monthIndexOf, monthIndexStart } from "../../src/shared/months";

describe("month indexes", () => {
  it("number calendar months in UTC, one apart across a year's end, and go back to the month's first moment", () => {
    const lastOfDecember = Date.UTC(2026, 11, 31, 23, 59, 59, 999);
    const firstOfJanuary = Date.UTC(2027, 0, 1);
    expect(monthIndexOf(lastOfDecember)).toBe(2026 * 12 + 11);
    expect(monthIndexOf(firstOfJanuary)).toBe(monthIndexOf(lastOfDecember) + 1);
    expect(monthIndexStart(monthIndexOf(lastOfDecember))).toBe(Date.UTC(2026, 11, 1));
    expect(monthIndexStart(monthIndexOf(firstOfJanuary))).toBe(firstOfJanuary);
  });
});
