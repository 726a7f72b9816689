/**
 * Light and dark themes. Without a stored choice the theme follows the system (and its changes);
 * the toggle (and Settings) store an explicit choice on the device; Settings can go back to the system. public/theme-init.js applies it before paint.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { STORAGE_KEYS } from "../shared/constants";

export type Theme = "light" | "dark";
/** What the user chose: a theme, or following the system ("system", nothing stored). */
export type ThemePreference = Theme | "system";

interface ThemeState {
  theme: Theme;
  toggleTheme(): void;
  preference: ThemePreference;
  setPreference(preference: ThemePreference): void;
}

const ThemeContext = createContext<ThemeState | null>(null);
const systemQuery = () => window.matchMedia("(prefers-color-scheme: dark)");
/** The build-time pre-render has no window: it renders the light theme (the page's colours follow the class theme-init.js sets). */
const systemIsDark = () => typeof window !== "undefined" && systemQuery().matches;

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEYS.theme);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoice] = useState<Theme | null>(storedTheme);
  const [system, setSystem] = useState<Theme>(() => (systemIsDark() ? "dark" : "light"));
  const theme = choice ?? system;

  useEffect(() => {
    const query = systemQuery();
    const onChange = () => setSystem(query.matches ? "dark" : "light");
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    document.documentElement.classList.toggle("dark", theme === "dark");
  }, [theme]);

  const toggleTheme = useCallback(() => {
    const next: Theme = theme === "dark" ? "light" : "dark";
    setChoice(next);
    try {
      localStorage.setItem(STORAGE_KEYS.theme, next);
    } catch {
      // Without storage the choice lasts for this visit only.
    }
  }, [theme]);

  const setPreference = useCallback((preference: ThemePreference) => {
    setChoice(preference === "system" ? null : preference);
    try {
      if (preference === "system") localStorage.removeItem(STORAGE_KEYS.theme);
      else localStorage.setItem(STORAGE_KEYS.theme, preference);
    } catch {
      // Without storage the choice lasts for this visit only.
    }
  }, []);

  const value = useMemo(
    () => ({ theme, toggleTheme, preference: choice ?? ("system" as const), setPreference }),
    [theme, toggleTheme, choice, setPreference],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error("useTheme must be used inside ThemeProvider");
  return state;
}
