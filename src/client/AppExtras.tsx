/**
 * What the first paint does not show, loaded after it (issue 15): the Quick Admin bar, the help
 * button, the onboarding tour and the toaster (sonner replays toasts raised before it listens).
 * The bar reads tRPC's queries: it comes with the data layer, for an admin only. The tour
 * (Radix Dialog and its texts) is fetched only for a signed-in user who has not finished it, and the
 * help drawer when the button is reached for (issue 25: a visitor's landing page does not carry them).
 */
import { Suspense, useEffect, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { Toaster } from "sonner";
import { TOASTS } from "../shared/constants";
import { HelpCenter } from "./components/help/HelpCenter";
import { withTexts } from "./i18n";
import { lazyWithData } from "./lazy";
import { useSession } from "./hooks/useSession";
import { readCompletedFlag } from "./lib/onboarding";
import { useTheme } from "./theme";

const loadOnboarding = withTexts(() => import("./components/onboarding/OnboardingOverlay"));

/**
 * The onboarding tour for a signed-in user who has not completed or skipped it (the only one it
 * opens for by itself). No Suspense: its fallback is revealed on a timer, which a paused clock (the
 * tour's tests) would hold; the module is set in state once loaded, and the tour schedules its own
 * opening from there.
 */
function Onboarding() {
  const [overlay, setOverlay] = useState<{ component: ComponentType } | null>(null);
  // Finished on the account (decision 068), or on this browser before the account kept it.
  const done = !!useSession().user?.onboardingDone || readCompletedFlag();
  useEffect(() => {
    if (done) return;
    let live = true;
    void loadOnboarding().then((module) => {
      if (live) setOverlay({ component: module.OnboardingOverlay });
    });
    return () => {
      live = false;
    };
  }, [done]);
  return overlay ? <overlay.component /> : null;
}

const QuickAdminBar = lazyWithData<object>(() =>
  import("./components/admin/QuickAdminBar").then((module) => ({ default: module.QuickAdminBar })),
);

/**
 * Toasts sit above the floating help button (HelpButton.tsx: 3 rem tall, 1 rem from the bottom on a
 * phone and 1.5 rem on a larger screen, 4.25 rem above an admin's Quick Admin bar), so
 * they never cover it, nor it them.
 */
const TOAST_BOTTOM = { phone: 16 + 48 + 12, desktop: 24 + 48 + 12, aboveBar: 68 + 48 + 12 };

function ThemedToaster({ aboveBar }: { aboveBar: boolean }) {
  const { theme } = useTheme();
  const { t } = useTranslation();
  return (
    <Toaster
      theme={theme}
      visibleToasts={TOASTS.visible}
      duration={TOASTS.durationMs}
      offset={{ bottom: aboveBar ? TOAST_BOTTOM.aboveBar : TOAST_BOTTOM.desktop }}
      mobileOffset={{ bottom: aboveBar ? TOAST_BOTTOM.aboveBar : TOAST_BOTTOM.phone }}
      richColors
      closeButton
      // sonner's own English ("Notifications alt+T", "Close toast") in the interface language.
      containerAriaLabel={t("common.notifications")}
      toastOptions={{ closeButtonAriaLabel: t("common.closeNotification") }}
    />
  );
}

/** `admin`: the signed-in user is an admin, who has the Quick Admin bar (a non-admin has a small control in the footer). */
export default function AppExtras({ signedIn, admin }: { signedIn: boolean; admin: boolean }) {
  return (
    <>
      {admin ? (
        <Suspense fallback={null}>
          <QuickAdminBar />
        </Suspense>
      ) : null}
      <HelpCenter />
      {signedIn ? <Onboarding /> : null}
      <ThemedToaster aboveBar={admin} />
    </>
  );
}
