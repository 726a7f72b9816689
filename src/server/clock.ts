/** Injected time source, so timeouts and expiries are tested without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
