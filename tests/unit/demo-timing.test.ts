/** The demo dialog's auto-play (spec sections 4 and 9), driven with fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_STEP_DURATIONS_MS } from "../../src/shared/constants";
import { createDemoPlayer, demoReducer, type DemoAction, type DemoPlayer, type DemoState } from "../../src/client/lib/demoPlayback";

describe("the demo's step durations", () => {
  it("are the spec's 3000, 2000, 3000 and 4000 ms", () => {
    expect(DEMO_STEP_DURATIONS_MS).toEqual([3000, 2000, 3000, 4000]);
  });
});

describe("demoReducer", () => {
  const reduce = (state: DemoState, action: DemoAction) => demoReducer(state, action, 4);

  it("starts at the first step, playing", () => {
    expect(reduce({ step: 2, playing: false }, { type: "start" })).toEqual({ step: 0, playing: true });
  });

  it("advances while playing, and after the last step stops at the first", () => {
    expect(reduce({ step: 1, playing: true }, { type: "elapsed" })).toEqual({ step: 2, playing: true });
    expect(reduce({ step: 3, playing: true }, { type: "elapsed" })).toEqual({ step: 0, playing: false });
  });

  it("ignores a late timer once paused", () => {
    const paused = { step: 1, playing: false };
    expect(reduce(paused, { type: "elapsed" })).toBe(paused);
  });

  it("goes to a clicked step and stops, keeping the step in range", () => {
    expect(reduce({ step: 0, playing: true }, { type: "goTo", step: 2 })).toEqual({ step: 2, playing: false });
    expect(reduce({ step: 0, playing: true }, { type: "goTo", step: 9 })).toEqual({ step: 3, playing: false });
    expect(reduce({ step: 2, playing: true }, { type: "goTo", step: -1 })).toEqual({ step: 0, playing: false });
  });

  it("toggles, plays, pauses and stops", () => {
    expect(reduce({ step: 2, playing: false }, { type: "toggle" })).toEqual({ step: 2, playing: true });
    expect(reduce({ step: 2, playing: true }, { type: "toggle" })).toEqual({ step: 2, playing: false });
    expect(reduce({ step: 2, playing: false }, { type: "play" })).toEqual({ step: 2, playing: true });
    expect(reduce({ step: 2, playing: true }, { type: "pause" })).toEqual({ step: 2, playing: false });
    expect(reduce({ step: 2, playing: true }, { type: "stop" })).toEqual({ step: 0, playing: false });
  });
});

describe("createDemoPlayer with fake timers", () => {
  let player: DemoPlayer;
  const step = () => player.getState().step;
  const playing = () => player.getState().playing;

  beforeEach(() => {
    vi.useFakeTimers();
    player = createDemoPlayer();
  });
  afterEach(() => {
    player.dispatch({ type: "stop" });
    vi.useRealTimers();
  });

  it("does nothing until started", () => {
    vi.advanceTimersByTime(60_000);
    expect(player.getState()).toEqual({ step: 0, playing: false });
  });

  it("auto-plays, advancing by each step's own duration, then stops and resets to the first step", () => {
    player.dispatch({ type: "start" });
    expect(player.getState()).toEqual({ step: 0, playing: true });

    // Step 1 lasts 3000 ms.
    vi.advanceTimersByTime(2999);
    expect(step()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(step()).toBe(1);

    // Step 2 lasts 2000 ms.
    vi.advanceTimersByTime(1999);
    expect(step()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(step()).toBe(2);

    // Step 3 lasts 3000 ms.
    vi.advanceTimersByTime(2999);
    expect(step()).toBe(2);
    vi.advanceTimersByTime(1);
    expect(step()).toBe(3);

    // Step 4 lasts 4000 ms, then playback stops at the first step.
    vi.advanceTimersByTime(3999);
    expect(player.getState()).toEqual({ step: 3, playing: true });
    vi.advanceTimersByTime(1);
    expect(player.getState()).toEqual({ step: 0, playing: false });

    // And stays there.
    vi.advanceTimersByTime(60_000);
    expect(player.getState()).toEqual({ step: 0, playing: false });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops when a step's dot is clicked, and Play resumes from that step for its full duration", () => {
    player.dispatch({ type: "start" });
    vi.advanceTimersByTime(1500);
    player.dispatch({ type: "goTo", step: 2 });
    expect(player.getState()).toEqual({ step: 2, playing: false });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(player.getState()).toEqual({ step: 2, playing: false });

    player.dispatch({ type: "toggle" });
    expect(playing()).toBe(true);
    vi.advanceTimersByTime(2999);
    expect(step()).toBe(2);
    vi.advanceTimersByTime(1);
    expect(player.getState()).toEqual({ step: 3, playing: true });
    vi.advanceTimersByTime(4000);
    expect(player.getState()).toEqual({ step: 0, playing: false });
  });

  it("pauses and resumes with the toggle (Play/Pause), restarting the paused step's time", () => {
    player.dispatch({ type: "start" });
    vi.advanceTimersByTime(3000);
    expect(step()).toBe(1);
    vi.advanceTimersByTime(1000);
    player.dispatch({ type: "toggle" });
    expect(player.getState()).toEqual({ step: 1, playing: false });
    vi.advanceTimersByTime(10_000);
    expect(step()).toBe(1);

    player.dispatch({ type: "toggle" });
    vi.advanceTimersByTime(1999);
    expect(step()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(player.getState()).toEqual({ step: 2, playing: true });
  });

  it("plays again from the first step after playback ended", () => {
    player.dispatch({ type: "start" });
    vi.advanceTimersByTime(3000 + 2000 + 3000 + 4000);
    expect(player.getState()).toEqual({ step: 0, playing: false });
    player.dispatch({ type: "play" });
    vi.advanceTimersByTime(3000);
    expect(player.getState()).toEqual({ step: 1, playing: true });
  });

  it("tells subscribers of each change, and forgets its timer when stopped (the dialog closed)", () => {
    const seen: number[] = [];
    const unsubscribe = player.subscribe(() => seen.push(step()));
    player.dispatch({ type: "start" });
    vi.advanceTimersByTime(5000);
    player.dispatch({ type: "stop" });
    expect(seen).toEqual([0, 1, 2, 0]);
    expect(vi.getTimerCount()).toBe(0);
    unsubscribe();
    player.dispatch({ type: "start" });
    expect(seen).toHaveLength(4);
  });
});
