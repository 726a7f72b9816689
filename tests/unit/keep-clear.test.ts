/**
 * The floating help button's spot on a phone (issue 17): it stays in its corner when nothing is
 * there, rises past what sits in its corner to the lowest free spot, and has no spot (it fades out
 * of the way) when content fills the whole right edge up to the highest it may go.
 */
import { describe, expect, it } from "vitest";
import { liftToKeepClear, type Box } from "../../src/client/components/help/keepClear";

const button: Box = { left: 326, right: 374, top: 780, bottom: 828 };
const box = (top: number, bottom: number, left = 16, right = 374): Box => ({ top, bottom, left, right });

describe("where the help button stands on a phone", () => {
  it("stays in its corner when nothing is under it (content to its left does not count)", () => {
    expect(liftToKeepClear(button, [], 380)).toBe(0);
    expect(liftToKeepClear(button, [box(700, 840, 16, 300)], 380)).toBe(0);
    expect(liftToKeepClear(button, [box(600, 760)], 380)).toBe(0);
  });

  it("rises past a field in its corner to the lowest free spot, keeping 8 px clear", () => {
    // A field from 770 to 810: the button (48 px + 8 px each side) fits above it, its bottom at 762.
    const lift = liftToKeepClear(button, [box(770, 810)], 380)!;
    expect(lift).toBeGreaterThan(0);
    expect(button.bottom - lift + 8).toBeLessThanOrEqual(770);
    expect(button.bottom - lift + 8).toBeGreaterThan(766);
    // A gap too small between two fields is skipped.
    const skipped = liftToKeepClear(button, [box(770, 810), box(700, 740)], 380)!;
    expect(button.bottom - skipped + 8).toBeLessThanOrEqual(700);
  });

  it("has no spot when content fills the right edge up to the highest it may go", () => {
    expect(liftToKeepClear(button, [box(300, 840)], 380)).toBeNull();
  });
});
