/**
 * A sign-out the user asked for ends on the home page (spec §2, §8), in this order: the screens
 * show the visitor first, then the app goes home. Going home first would render the home page
 * (and its account parts) for a moment as the signed-out account, whose queries the server then
 * refuses (401). While the app is on its way home, a protected page shows nothing and does not
 * send the visitor to /auth.
 */
let waiting: Array<() => void> | null = null;

/** Starts the way home; resolves once every screen shows the visitor (see visitorShown). */
export function beginSignOutHome(): Promise<void> {
  const list = (waiting ??= []);
  return new Promise((resolve) => list.push(resolve));
}

/** Whether a sign-out is on its way home (ProtectedRoute then leaves the address alone). */
export function signingOutHome(): boolean {
  return waiting !== null;
}

/** Called by the auth event reactions once the screens show the visitor. */
export function visitorShown(): void {
  for (const resolve of waiting ?? []) resolve();
}

/** The app is home: protected pages send visitors to /auth again. */
export function endSignOutHome(): void {
  waiting = null;
}
