import { afterEach, describe, expect, it, vi } from "vitest";
import { recordServerTime, serverNow } from "../../src/client/lib/serverClock";

afterEach(() => {
  vi.useRealTimers();
});

describe("the server's clock seen from the device", () => {
  it("follows the server-time header of the last response, so a wrong device clock does not move deadlines", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 22, 9, 0, 0));
    // The device is 7 minutes ahead of the server.
    recordServerTime(String(Date.UTC(2026, 10, 22, 8, 53, 0)));
    expect(serverNow()).toBe(Date.UTC(2026, 10, 22, 8, 53, 0));
    vi.advanceTimersByTime(60_000);
    expect(serverNow()).toBe(Date.UTC(2026, 10, 22, 8, 54, 0));
  });

  it("ignores a missing or unreadable header", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 22, 9, 0, 0));
    recordServerTime(String(Date.UTC(2026, 10, 22, 9, 0, 0)));
    recordServerTime(null);
    recordServerTime("not a date");
    expect(serverNow()).toBe(Date.UTC(2026, 10, 22, 9, 0, 0));
  });
});
