/**
 * What the first paint does not show, loaded after it (issue 15): the Quick Admin bar, the help
 * drawer, the onboarding tour and the toaster (sonner replays toasts raised before it listens).
 * The bar reads tRPC's queries: it comes with the data layer, for a signed-in user only.
 */
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Toaster } from "sonner";
import { TOASTS } from "../shared/constants";
import { HelpCenter } from "./components/help/HelpCenter";
import { lazyWithData } from "./lazy";
import { OnboardingOverlay } from "./components/onboarding/OnboardingOverlay";
import { useTheme } from "./theme";

const QuickAdminBar = lazyWithData<object>(() =>
  import("./components/admin/QuickAdminBar").then((module) => ({ default: module.QuickAdminBar })),
);

/**
 * Toasts sit above the floating help button (HelpButton.tsx: 3 rem tall, 1 rem from the bottom on a
 * phone and 1.5 rem on a larger screen, 4.25 rem above the Quick Admin bar when that is shown), so
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

export default function AppExtras({ signedIn }: { signedIn: boolean }) {
  return (
    <>
      {signedIn ? (
        <Suspense fallback={null}>
          <QuickAdminBar />
        </Suspense>
      ) : null}
      <HelpCenter />
      <OnboardingOverlay />
      <ThemedToaster aboveBar={signedIn} />
    </>
  );
}
