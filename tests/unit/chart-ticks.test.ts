/**
 * The admin charts' y axis (issue 17): counts get grid lines on whole numbers only (a top of 5 used
 * to put a line labelled "3" at 2.5); other values keep 0, the middle and the top.
 */
import { describe, expect, it } from "vitest";
import { axisTicks, niceMax } from "../../src/client/components/admin/Charts";

describe("the admin charts' y-axis ticks", () => {
  it("puts every tick of a count axis on a whole number, for every top the charts can have", () => {
    for (let value = 1; value <= 10_000; value++) {
      const max = niceMax(value);
      const ticks = axisTicks(max, true);
      expect(ticks.every((tick) => Number.isInteger(tick))).toBe(true);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBe(max);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });

  it("splits the tops whose middle is not whole into whole steps", () => {
    expect(axisTicks(5, true)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(axisTicks(1, true)).toEqual([0, 1]);
    expect(axisTicks(2, true)).toEqual([0, 1, 2]);
    expect(axisTicks(10, true)).toEqual([0, 5, 10]);
    expect(axisTicks(50, true)).toEqual([0, 25, 50]);
  });

  it("keeps 0, the middle and the top for values that are not counts (durations, percentages)", () => {
    expect(axisTicks(5)).toEqual([0, 2.5, 5]);
    expect(axisTicks(2000)).toEqual([0, 1000, 2000]);
  });
});
