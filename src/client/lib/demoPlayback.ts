/**
 * The demo dialog's auto-play (spec section 4): it starts on open, advances by each step's own
 * duration (DEMO_STEP_DURATIONS_MS), and after the last step stops and resets to the first.
 * Clicking a step's dot goes there and stops playback; Play resumes from the step shown, for that
 * step's full duration.
 *
 * demoReducer is pure; createDemoPlayer() adds the one timer around it (setTimeout, so tests drive
 * it with fake timers), and useDemoPlayback() lets a component subscribe to a player.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { DEMO_STEP_DURATIONS_MS } from "../../shared/constants";

export interface DemoState {
  step: number;
  playing: boolean;
}

export type DemoAction =
  /** The dialog opened: first step, playing. */
  | { type: "start" }
  /** The dialog closed: first step, stopped. */
  | { type: "stop" }
  | { type: "play" }
  | { type: "pause" }
  | { type: "toggle" }
  /** A step's dot was clicked: go there and stop. */
  | { type: "goTo"; step: number }
  /** The current step's time is up. */
  | { type: "elapsed" };

export const initialDemoState: DemoState = { step: 0, playing: false };

export function demoReducer(state: DemoState, action: DemoAction, stepCount: number): DemoState {
  const last = stepCount - 1;
  switch (action.type) {
    case "start":
      return { step: 0, playing: true };
    case "stop":
      return state.step === 0 && !state.playing ? state : { step: 0, playing: false };
    case "play":
      return state.playing ? state : { ...state, playing: true };
    case "pause":
      return state.playing ? { ...state, playing: false } : state;
    case "toggle":
      return { ...state, playing: !state.playing };
    case "goTo": {
      const step = Math.min(last, Math.max(0, Math.trunc(action.step)));
      return state.step === step && !state.playing ? state : { step, playing: false };
    }
    case "elapsed":
      if (!state.playing) return state;
      return state.step >= last ? { step: 0, playing: false } : { step: state.step + 1, playing: true };
  }
}

export interface DemoPlayer {
  getState(): DemoState;
  subscribe(listener: () => void): () => void;
  dispatch(action: DemoAction): void;
}

/** A demo's state plus its timer: while playing, the current step's duration runs down. */
export function createDemoPlayer(durations: readonly number[] = DEMO_STEP_DURATIONS_MS): DemoPlayer {
  let state = initialDemoState;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (state.playing) timer = setTimeout(() => dispatch({ type: "elapsed" }), durations[state.step]);
  };

  function dispatch(action: DemoAction): void {
    const next = demoReducer(state, action, durations.length);
    if (next === state) return;
    state = next;
    schedule();
    for (const listener of listeners) listener();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch,
  };
}

/** The demo's step and play state; plays while `open`, and is back at the first step, stopped, once closed. */
export function useDemoPlayback(open: boolean) {
  const [player] = useState(() => createDemoPlayer());
  const state = useSyncExternalStore(player.subscribe, player.getState);
  useEffect(() => {
    if (!open) return;
    player.dispatch({ type: "start" });
    return () => player.dispatch({ type: "stop" });
  }, [open, player]);
  return {
    ...state,
    stepCount: DEMO_STEP_DURATIONS_MS.length,
    durationMs: DEMO_STEP_DURATIONS_MS[state.step] ?? 0,
    toggle: () => player.dispatch({ type: "toggle" }),
    goTo: (step: number) => player.dispatch({ type: "goTo", step }),
  };
}
