import { describe, expect, it } from "vitest";
import {
  EXTEND_INTERVAL_MS,
  IDLE_WARNING_LEAD_MS,
  idleState,
  minutesLeft,
  nextCheckInMs,
  shouldExtend,
} from "../../src/client/lib/idleSession";
import { AUTH } from "../../src/shared/constants";

const MINUTE = 60_000;
/** A session whose last activity was at t0: the server's deadline is t0 + 30 minutes. */
const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const deadline = t0 + AUTH.idleTimeoutMs;

describe("idle session timing (spec sections 4 and 9)", () => {
  it("warns 5 minutes before the end, that is at 25 minutes", () => {
    expect(IDLE_WARNING_LEAD_MS).toBe(5 * MINUTE);
    expect(idleState(t0 + 25 * MINUTE - 1, deadline).phase).toBe("active");
    expect(idleState(t0 + 25 * MINUTE, deadline)).toEqual({ phase: "warning", msUntilExpiry: 5 * MINUTE });
  });

  it("ends at 30 minutes", () => {
    expect(idleState(t0 + 30 * MINUTE - 1, deadline).phase).toBe("warning");
    expect(idleState(t0 + 30 * MINUTE, deadline)).toEqual({ phase: "expired" });
    expect(idleState(t0 + 3 * 60 * MINUTE, deadline)).toEqual({ phase: "expired" });
  });

  it("does nothing for a remember-me session (no idle deadline)", () => {
    expect(idleState(t0, null)).toEqual({ phase: "off" });
    expect(nextCheckInMs(idleState(t0, null))).toBeNull();
  });

  it("schedules the next look at the start of the next phase", () => {
    expect(nextCheckInMs(idleState(t0, deadline))).toBe(25 * MINUTE);
    expect(nextCheckInMs(idleState(t0 + 10 * MINUTE, deadline))).toBe(15 * MINUTE);
    expect(nextCheckInMs(idleState(t0 + 27 * MINUTE, deadline))).toBe(3 * MINUTE);
    expect(nextCheckInMs(idleState(deadline, deadline))).toBeNull();
  });

  it("follows the server's deadline, wherever it moved", () => {
    const extended = t0 + 20 * MINUTE + AUTH.idleTimeoutMs;
    expect(idleState(t0 + 29 * MINUTE, extended)).toEqual({ phase: "active", msUntilWarning: 16 * MINUTE });
  });

  it("says 5 minutes when the warning is due, and never less than 1", () => {
    expect(minutesLeft(5 * MINUTE)).toBe(5);
    expect(minutesLeft(5 * MINUTE - 20)).toBe(5); // a timer that fires a little late
    expect(minutesLeft(61_000)).toBe(2);
    expect(minutesLeft(10)).toBe(1);
  });
});

describe("extending on activity", () => {
  const base = { now: t0 + 5 * MINUTE, idleExpiresAt: deadline, lastExtendAt: null, pending: false };

  it("extends on the first activity", () => {
    expect(shouldExtend(base)).toBe(true);
  });

  it("at most once per activity interval of the server (a minute)", () => {
    expect(EXTEND_INTERVAL_MS).toBe(AUTH.activityUpdateIntervalMs);
    expect(shouldExtend({ ...base, lastExtendAt: base.now - EXTEND_INTERVAL_MS + 1 })).toBe(false);
    expect(shouldExtend({ ...base, lastExtendAt: base.now - EXTEND_INTERVAL_MS })).toBe(true);
  });

  it("not while an extension is on its way", () => {
    expect(shouldExtend({ ...base, pending: true })).toBe(false);
  });

  it("still during the warning: activity keeps the session", () => {
    expect(shouldExtend({ ...base, now: t0 + 27 * MINUTE, lastExtendAt: t0 })).toBe(true);
  });

  it("never after the deadline (activity does not revive an expired session) nor for remember-me", () => {
    expect(shouldExtend({ ...base, now: deadline })).toBe(false);
    expect(shouldExtend({ ...base, idleExpiresAt: null })).toBe(false);
  });
});
