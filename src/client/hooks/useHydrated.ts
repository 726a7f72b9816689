import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and while React hydrates the pre-rendered HTML, true from then on (and at
 * once in a page rendered in the browser): markup that depends on the device (the stored theme)
 * must match the pre-rendered HTML during hydration, or React reports a mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
