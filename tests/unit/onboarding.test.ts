/**
 * The onboarding state machine (spec section 4): steps 0-4 with Next and Previous kept in bounds,
 * Skip setting the completed flag, Get Started setting it, showing the check and completing after
 * 1.5 s, and the auto-open one second after a signed-in user loads a page without the flag.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createOnboarding,
  initialOnboardingState,
  LAST_STEP,
  onboardingReducer,
  readCompletedFlag,
  shouldAutoOpen,
  type FlagStorage,
  type OnboardingAction,
  type OnboardingState,
} from "../../src/client/lib/onboarding";
import { ONBOARDING, STORAGE_KEYS } from "../../src/shared/constants";

function memoryStorage(initial: Record<string, string> = {}): FlagStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = String(value);
    },
  };
}

const run = (actions: OnboardingAction[], from: OnboardingState = initialOnboardingState) => actions.reduce(onboardingReducer, from);
const open = run([{ type: "open" }]);

describe("onboardingReducer", () => {
  it("starts closed and opens on the first step", () => {
    expect(initialOnboardingState).toEqual({ status: "closed", step: 0, outcome: null });
    expect(open).toEqual({ status: "open", step: 0, outcome: null });
    expect(ONBOARDING.steps).toBe(5);
    expect(LAST_STEP).toBe(4);
  });

  it("walks with Next and Previous within steps 0 to 4", () => {
    expect(run([{ type: "previous" }], open).step).toBe(0);
    expect(run([{ type: "next" }], open).step).toBe(1);
    expect(run([{ type: "next" }, { type: "next" }, { type: "previous" }], open).step).toBe(1);
    const end = run(
      Array.from({ length: 9 }, () => ({ type: "next" }) as const),
      open,
    );
    expect(end.step).toBe(4);
    expect(end.status).toBe("open");
    expect(run([{ type: "goTo", step: 3 }], open).step).toBe(3);
    expect(run([{ type: "goTo", step: 99 }], open).step).toBe(4);
    expect(run([{ type: "goTo", step: -2 }], open).step).toBe(0);
  });

  it("ignores steps while closed", () => {
    expect(run([{ type: "next" }, { type: "getStarted" }, { type: "skip" }])).toBe(initialOnboardingState);
  });

  it("skips from any step", () => {
    expect(run([{ type: "next" }, { type: "skip" }], open)).toEqual({ status: "closed", step: 1, outcome: "skipped" });
  });

  it("gets started only on the last step, then completes", () => {
    expect(run([{ type: "getStarted" }], open).status).toBe("open");
    const last = run([{ type: "goTo", step: 4 }], open);
    const completing = run([{ type: "getStarted" }], last);
    expect(completing.status).toBe("completing");
    // While the check shows, nothing else moves it.
    expect(run([{ type: "previous" }, { type: "skip" }, { type: "next" }], completing)).toBe(completing);
    expect(run([{ type: "completed" }], completing)).toEqual({ status: "closed", step: 4, outcome: "completed" });
    expect(run([{ type: "completed" }], last)).toBe(last);
  });

  it("opens again on the first step", () => {
    const skipped = run([{ type: "next" }, { type: "next" }, { type: "skip" }], open);
    expect(run([{ type: "open" }], skipped)).toEqual({ status: "open", step: 0, outcome: null });
  });
});

describe("shouldAutoOpen", () => {
  it("opens for a signed-in user without the flag only", () => {
    expect(shouldAutoOpen({ signedIn: true, completed: false })).toBe(true);
    expect(shouldAutoOpen({ signedIn: true, completed: true })).toBe(false);
    expect(shouldAutoOpen({ signedIn: false, completed: false })).toBe(false);
    expect(shouldAutoOpen({ signedIn: false, completed: true })).toBe(false);
  });
});

describe("createOnboarding", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("auto-opens one second after a signed-in user loads a page", () => {
    const onboarding = createOnboarding({ storage: memoryStorage() });
    onboarding.scheduleAutoOpen(true);
    vi.advanceTimersByTime(ONBOARDING.autoOpenDelayMs - 1);
    expect(onboarding.getState().status).toBe("closed");
    vi.advanceTimersByTime(1);
    expect(onboarding.getState()).toEqual({ status: "open", step: 0, outcome: null });
  });

  it("does not open for a visitor, nor when the flag is stored, nor once canceled", () => {
    const visitor = createOnboarding({ storage: memoryStorage() });
    visitor.scheduleAutoOpen(false);
    const done = createOnboarding({ storage: memoryStorage({ [STORAGE_KEYS.onboardingCompleted]: "true" }) });
    done.scheduleAutoOpen(true);
    const leaving = createOnboarding({ storage: memoryStorage() });
    const cancel = leaving.scheduleAutoOpen(true);
    vi.advanceTimersByTime(500);
    cancel();
    vi.advanceTimersByTime(5000);
    expect([visitor, done, leaving].map((onboarding) => onboarding.getState().status)).toEqual(["closed", "closed", "closed"]);
  });

  it("does not open when another tab finished the tour during the delay", () => {
    const storage = memoryStorage();
    const onboarding = createOnboarding({ storage });
    onboarding.scheduleAutoOpen(true);
    storage.setItem(STORAGE_KEYS.onboardingCompleted, "true");
    vi.advanceTimersByTime(ONBOARDING.autoOpenDelayMs);
    expect(onboarding.getState().status).toBe("closed");
  });

  it("sets the flag on Skip and reports it", () => {
    const storage = memoryStorage();
    const onFinish = vi.fn();
    const onboarding = createOnboarding({ storage, onFinish });
    onboarding.dispatch({ type: "open" });
    onboarding.dispatch({ type: "next" });
    expect(readCompletedFlag(storage)).toBe(false);
    onboarding.dispatch({ type: "skip" });
    expect(storage.data[STORAGE_KEYS.onboardingCompleted]).toBe("true");
    expect(onFinish).toHaveBeenCalledExactlyOnceWith("skipped");
    expect(onboarding.getState().status).toBe("closed");
    // And it does not come back on the next page load.
    const next = createOnboarding({ storage });
    next.scheduleAutoOpen(true);
    vi.advanceTimersByTime(10_000);
    expect(next.getState().status).toBe("closed");
  });

  it("Get Started sets the flag and shows the check, then completes after 1.5 s", () => {
    const storage = memoryStorage();
    const onFinish = vi.fn();
    const listener = vi.fn();
    const onboarding = createOnboarding({ storage, onFinish });
    onboarding.subscribe(listener);
    onboarding.dispatch({ type: "open" });
    for (let step = 0; step < LAST_STEP; step++) onboarding.dispatch({ type: "next" });
    onboarding.dispatch({ type: "getStarted" });
    expect(onboarding.getState().status).toBe("completing");
    expect(storage.data[STORAGE_KEYS.onboardingCompleted]).toBe("true");
    vi.advanceTimersByTime(ONBOARDING.completionDelayMs - 1);
    expect(onboarding.getState().status).toBe("completing");
    expect(onFinish).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onboarding.getState()).toEqual({ status: "closed", step: 4, outcome: "completed" });
    expect(onFinish).toHaveBeenCalledExactlyOnceWith("completed");
    expect(listener).toHaveBeenCalledTimes(1 + LAST_STEP + 2);
  });

  it("stays closed for the visit when storage refuses the flag", () => {
    const refusing: FlagStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const onboarding = createOnboarding({ storage: refusing });
    onboarding.dispatch({ type: "open" });
    onboarding.dispatch({ type: "skip" });
    onboarding.scheduleAutoOpen(true);
    vi.advanceTimersByTime(5000);
    expect(onboarding.getState().status).toBe("closed");
  });

  it("stops its completion timer when disposed", () => {
    const onFinish = vi.fn();
    const onboarding = createOnboarding({ storage: memoryStorage(), onFinish });
    onboarding.dispatch({ type: "open" });
    onboarding.dispatch({ type: "goTo", step: LAST_STEP });
    onboarding.dispatch({ type: "getStarted" });
    onboarding.dispose();
    vi.advanceTimersByTime(5000);
    expect(onFinish).not.toHaveBeenCalled();
  });
  describe("with the flag on the account (decision 068)", () => {
    function account(done = false) {
      const flag = { stored: done, marks: 0 };
      return { flag, account: { done: () => flag.stored, markDone: () => ((flag.stored = true), flag.marks++) } };
    }

    it("opens when the account has not finished it, and not when it has", () => {
      const fresh = createOnboarding({ storage: memoryStorage(), account: account().account });
      fresh.scheduleAutoOpen(true);
      const finished = createOnboarding({ storage: memoryStorage(), account: account(true).account });
      finished.scheduleAutoOpen(true);
      vi.advanceTimersByTime(ONBOARDING.autoOpenDelayMs);
      expect([fresh, finished].map((onboarding) => onboarding.getState().status)).toEqual(["open", "closed"]);
    });

    it("stores Skip and Get Started on the account, not on the device", () => {
      for (const ending of ["skip", "getStarted"] as const) {
        const storage = memoryStorage();
        const { flag, account: onAccount } = account();
        const onboarding = createOnboarding({ storage, account: onAccount });
        onboarding.dispatch({ type: "open" });
        onboarding.dispatch({ type: "goTo", step: LAST_STEP });
        onboarding.dispatch({ type: ending });
        expect(flag).toEqual({ stored: true, marks: 1 });
        expect(storage.data).toEqual({});
      }
    });

    it("stays closed for the visit when the account did not hear it, and on a device that finished it before", () => {
      const deaf = { done: () => false, markDone: () => undefined };
      const onboarding = createOnboarding({ storage: memoryStorage(), account: deaf });
      onboarding.dispatch({ type: "open" });
      onboarding.dispatch({ type: "skip" });
      onboarding.scheduleAutoOpen(true);
      const earlier = createOnboarding({ storage: memoryStorage({ [STORAGE_KEYS.onboardingCompleted]: "true" }), account: deaf });
      earlier.scheduleAutoOpen(true);
      vi.advanceTimersByTime(5000);
      expect([onboarding, earlier].map((tour) => tour.getState().status)).toEqual(["closed", "closed"]);
    });
  });
});
