/**
 * Whether the help drawer is open, shared by whatever opens it (the floating help button, the
 * footer's Help Center link) and the drawer itself.
 */
import { useSyncExternalStore } from "react";

let open = false;
const listeners = new Set<() => void>();

export function setHelpDrawerOpen(next: boolean): void {
  if (open === next) return;
  open = next;
  for (const listener of listeners) listener();
}

export const openHelpDrawer = () => setHelpDrawerOpen(true);

export function useHelpDrawerOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
  );
}
