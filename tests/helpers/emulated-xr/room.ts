/** What the emulated AR phone's test and its page script share (tests/helpers/emulated-xr.ts). */
export interface EmulatedArOptions {
  /** Without: the device supports no hit-test, and immersive-ar sessions that require it are refused. */
  hitTest: boolean;
  /** Without: the hit test has no environment to meet (IWER then refuses hit-test sources). */
  room: boolean;
}

/** The room: 4 m wide (x from -2 to 2), 3 m deep (z from -1.5 to 1.5), its back wall (z = -1.5) 2.5 m high. */
export const ROOM = { width: 4, depth: 3, height: 2.5 } as const;
