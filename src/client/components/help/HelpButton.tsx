/**
 * The floating round help button (spec section 2), bottom right of every page. For an admin it
 * sits above the Quick Admin bar, and under the bar's panel when that is opened; toasts
 * (sonner, far higher in the stack) are placed above it (AppExtras). On a phone it keeps clear of
 * content (keepClear.ts): it rises past what sits in its corner, or fades out when nothing is free.
 */
import { CircleHelp } from "lucide-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { openHelpDrawer, useHelpDrawerOpen } from "../../lib/helpDrawer";
import { useSession } from "../../hooks/useSession";
import { useKeepClear } from "./keepClear";

/** `onIntent`: the pointer or the keyboard reached the button (the drawer's code may be fetched). */
export function HelpButton({ onIntent }: { onIntent?: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const open = useHelpDrawerOpen();
  // An admin's Quick Admin bar is 3 rem tall (plus its border): the button keeps 1 rem above it.
  const position = user?.admin ? "bottom-[4.25rem]" : "bottom-4 sm:bottom-6";
  const ref = useRef<HTMLButtonElement>(null);
  const { lift, hidden } = useKeepClear(ref);
  // Out of the way, it still comes back when the keyboard reaches it.
  const away = hidden ? "pointer-events-none opacity-0 focus-visible:pointer-events-auto focus-visible:opacity-100" : "";
  return (
    <button
      ref={ref}
      type="button"
      onClick={openHelpDrawer}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      aria-label={t("help.button")}
      aria-haspopup="dialog"
      aria-expanded={open}
      title={t("help.button")}
      className={
        `fixed right-4 z-30 inline-flex size-12 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg shadow-brand-700/25 ` +
        `ring-4 ring-white/70 transition hover:bg-brand-700 hover:shadow-xl active:scale-95 sm:right-6 dark:ring-slate-950/70 dark:hover:bg-brand-500 ${position} ${away}`
      }
      style={lift ? { translate: `0 -${lift}px` } : undefined}
      data-lift={lift}
      data-away={hidden || undefined}
      data-testid="help-button"
    >
      <CircleHelp className="size-6" aria-hidden="true" />
    </button>
  );
}
