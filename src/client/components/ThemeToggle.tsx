import { Moon, Sun } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../hooks/useHydrated";
import { useTheme } from "../theme";

export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme: chosen, toggleTheme } = useTheme();
  // As pre-rendered (light) while hydrating; the page's colours already follow the stored theme.
  const theme = useHydrated() ? chosen : "light";
  const label = theme === "dark" ? t("nav.switchToLight") : t("nav.switchToDark");
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={label}
      title={label}
      data-theme={theme}
      className="inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      {theme === "dark" ? <Sun className="size-5" aria-hidden="true" /> : <Moon className="size-5" aria-hidden="true" />}
    </button>
  );
}
