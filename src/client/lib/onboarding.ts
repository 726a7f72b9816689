/**
 * The onboarding overlay's state machine (spec section 4): steps 0 to 4; Next and Previous within
 * them; Skip (or Escape) sets the completed flag and closes at once; Get Started on the last step
 * sets the flag, shows a check, and closes after ONBOARDING.completionDelayMs. It opens by itself
 * ONBOARDING.autoOpenDelayMs after a signed-in user loads a page, unless the flag is stored.
 *
 * The reducer is pure; createOnboarding() adds the timers and the stored flag around it, and the
 * overlay component subscribes to it.
 *
 * Where the flag is kept (decision 068): for a signed-in user on the account (`account`), so that a
 * tour finished on one browser does not open on another; the device's flag of earlier versions is
 * still read (a browser where the tour was finished before does not show it again) but no longer
 * written for an account. Without an account (a visitor) the device's flag is the only one.
 */
import { ONBOARDING, STORAGE_KEYS } from "../../shared/constants";

export const LAST_STEP = ONBOARDING.steps - 1;

export type OnboardingStatus = "closed" | "open" | "completing";
/** How the last tour ended, so the overlay can move on (the landing page goes to /upload). */
export type OnboardingOutcome = "completed" | "skipped";

export interface OnboardingState {
  status: OnboardingStatus;
  step: number;
  outcome: OnboardingOutcome | null;
}

export type OnboardingAction =
  | { type: "open" }
  | { type: "next" }
  | { type: "previous" }
  | { type: "goTo"; step: number }
  | { type: "skip" }
  | { type: "getStarted" }
  | { type: "completed" };

export const initialOnboardingState: OnboardingState = { status: "closed", step: 0, outcome: null };

const clampStep = (step: number) => Math.min(LAST_STEP, Math.max(0, Math.trunc(step)));

export function onboardingReducer(state: OnboardingState, action: OnboardingAction): OnboardingState {
  switch (action.type) {
    case "open":
      return state.status === "closed" ? { status: "open", step: 0, outcome: null } : state;
    case "next":
      return state.status === "open" ? { ...state, step: clampStep(state.step + 1) } : state;
    case "previous":
      return state.status === "open" ? { ...state, step: clampStep(state.step - 1) } : state;
    case "goTo":
      return state.status === "open" ? { ...state, step: clampStep(action.step) } : state;
    case "skip":
      return state.status === "open" ? { ...state, status: "closed", outcome: "skipped" } : state;
    case "getStarted":
      return state.status === "open" && state.step === LAST_STEP ? { ...state, status: "completing" } : state;
    case "completed":
      return state.status === "completing" ? { ...state, status: "closed", outcome: "completed" } : state;
  }
}

/** Whether the tour opens by itself: for a signed-in user who has not completed or skipped it. */
export function shouldAutoOpen({ signedIn, completed }: { signedIn: boolean; completed: boolean }): boolean {
  return signedIn && !completed;
}

/** The part of localStorage the flag needs (injected in tests). */
export type FlagStorage = Pick<Storage, "getItem" | "setItem">;

function defaultStorage(): FlagStorage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // Storage refused (some private modes).
  }
}

export function readCompletedFlag(storage: FlagStorage | null = defaultStorage()): boolean {
  try {
    return storage?.getItem(STORAGE_KEYS.onboardingCompleted) === "true";
  } catch {
    return false;
  }
}

export function writeCompletedFlag(storage: FlagStorage | null = defaultStorage()): void {
  try {
    storage?.setItem(STORAGE_KEYS.onboardingCompleted, "true");
  } catch {
    // Unavailable storage: the tour then stays closed for this visit only (see createOnboarding).
  }
}

/** The flag kept on the signed-in user's account (auth.session's onboardingDone, account.finishOnboarding). */
export interface AccountFlag {
  done(): boolean;
  /** Stores it; a failure leaves the tour closed for this visit only. */
  markDone(): void;
}

export interface OnboardingOptions {
  storage?: FlagStorage | null;
  account?: AccountFlag;
  /** Called when the tour ends, after the overlay has closed. */
  onFinish?(outcome: OnboardingOutcome): void;
}

export interface Onboarding {
  getState(): OnboardingState;
  subscribe(listener: () => void): () => void;
  dispatch(action: OnboardingAction): void;
  /**
   * Opens the tour after ONBOARDING.autoOpenDelayMs when shouldAutoOpen says so; returns what
   * cancels it (the user signed out, or the page went away).
   */
  scheduleAutoOpen(signedIn: boolean): () => void;
  /** Ends the timers (the overlay unmounted). */
  dispose(): void;
}

export function createOnboarding({ storage = defaultStorage(), account, onFinish }: OnboardingOptions = {}): Onboarding {
  let state = initialOnboardingState;
  const listeners = new Set<() => void>();
  let completionTimer: ReturnType<typeof setTimeout> | undefined;
  // Remembers the end of the tour for this visit even when storage refuses the flag.
  let finishedThisVisit = false;

  const finished = () => finishedThisVisit || !!account?.done() || readCompletedFlag(storage);
  const setFlag = () => {
    finishedThisVisit = true;
    if (account) account.markDone();
    else writeCompletedFlag(storage);
  };

  function dispatch(action: OnboardingAction): void {
    const previous = state;
    state = onboardingReducer(state, action);
    if (state === previous) return;
    if (state.status === "completing" && previous.status !== "completing") {
      // Get Started: the flag is set at once, the check shows, and the tour ends after the delay.
      setFlag();
      completionTimer = setTimeout(() => {
        completionTimer = undefined;
        dispatch({ type: "completed" });
      }, ONBOARDING.completionDelayMs);
    }
    if (state.outcome === "skipped" && previous.outcome !== "skipped") setFlag();
    for (const listener of listeners) listener();
    if (state.status === "closed" && previous.status !== "closed" && state.outcome) onFinish?.(state.outcome);
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch,
    scheduleAutoOpen(signedIn) {
      if (!shouldAutoOpen({ signedIn, completed: finished() })) return () => undefined;
      const timer = setTimeout(() => {
        // Checked again: another tab may have finished the tour meanwhile.
        if (!finished()) dispatch({ type: "open" });
      }, ONBOARDING.autoOpenDelayMs);
      return () => clearTimeout(timer);
    },
    dispose() {
      if (completionTimer) clearTimeout(completionTimer);
      completionTimer = undefined;
    },
  };
}
