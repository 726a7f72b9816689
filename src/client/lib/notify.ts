/**
 * Toasts raised by parts of the first load (sign-out, the confirmation link, resending the mail):
 * sonner, friendlyError and the texts beyond the first part are not in the first load (issue 15),
 * so the toast is shown once they are here. Sonner keeps toasts raised before its Toaster (in
 * AppExtras) is mounted and shows them when it is. Parts loaded later import sonner directly.
 */
import { texts } from "../i18n";
import type * as NotifyKit from "./notifyKit";

type Kit = typeof NotifyKit;

/** Shows a toast once sonner and the texts are loaded; `show` runs then, so its texts are found. */
export function notify(show: (kit: Kit) => void): void {
  void Promise.all([import("./notifyKit"), texts(["rest"])]).then(([kit]) => show(kit));
}
