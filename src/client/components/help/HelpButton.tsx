/**
 * The floating round help button (spec section 2), bottom right of every page. For a signed-in
 * user it sits above the Quick Admin bar, and under the bar's panel when that is opened; toasts
 * (sonner, far higher in the stack) always show over it.
 */
import { CircleHelp } from "lucide-react";
import { useTranslation } from "react-i18next";
import { openHelpDrawer, useHelpDrawerOpen } from "../../lib/helpDrawer";
import { useSession } from "../../hooks/useSession";

/** `onIntent`: the pointer or the keyboard reached the button (the drawer's code may be fetched). */
export function HelpButton({ onIntent }: { onIntent?: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const open = useHelpDrawerOpen();
  // The Quick Admin bar is 3 rem tall (plus its border): the button keeps 1 rem above it.
  const position = user ? "bottom-[4.25rem]" : "bottom-4 sm:bottom-6";
  return (
    <button
      type="button"
      onClick={openHelpDrawer}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      aria-label={t("help.button")}
      aria-haspopup="dialog"
      aria-expanded={open}
      title={t("help.button")}
      className={
        `fixed right-4 z-30 inline-flex size-12 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg shadow-brand-900/25 ` +
        `ring-4 ring-white/70 transition hover:bg-brand-700 hover:shadow-xl active:scale-95 sm:right-6 dark:ring-slate-950/70 dark:hover:bg-brand-500 ${position}`
      }
      data-testid="help-button"
    >
      <CircleHelp className="size-6" aria-hidden="true" />
    </button>
  );
}
