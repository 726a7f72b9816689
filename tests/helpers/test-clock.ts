import type { Clock } from "../../src/server/clock";

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 22, 9, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const MINUTE = 60_000;
export const DAY = 86_400_000;
