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

/** Toasts sit above the Quick Admin bar when it is shown. */
function ThemedToaster({ aboveBar }: { aboveBar: boolean }) {
  const { theme } = useTheme();
  const { t } = useTranslation();
  const offset = aboveBar ? { bottom: 64 } : undefined;
  return (
    <Toaster
      theme={theme}
      visibleToasts={TOASTS.visible}
      duration={TOASTS.durationMs}
      offset={offset}
      mobileOffset={offset}
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
