/**
 * The navigation bar's language button. Radix's menu (with its positioning library, ~15 KB gzip)
 * is not part of the first load: it is fetched when the pointer reaches the button (or on a click) and
 * then takes its place (open at once when it was the click that fetched it).
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../i18n";
import { LanguageButton } from "./LanguageButton";

const loadMenu = () => import("./LanguageMenuRadix");
type Menu = Awaited<ReturnType<typeof loadMenu>>["default"];

export function LanguageMenu() {
  const { t } = useTranslation(); // re-renders this button when the language changes
  // The loaded menu, and whether it opens at once (it was loaded by a click, not by the pointer passing).
  const [menu, setMenu] = useState<{ component: Menu; open: boolean } | null>(null);
  if (menu) return <menu.component defaultOpen={menu.open} />;
  const load = (open: boolean) =>
    void loadMenu().then((module) => setMenu((current) => (current && !open ? current : { component: module.default, open })));
  return (
    <LanguageButton
      label={t("nav.language")}
      language={currentLanguage()}
      aria-haspopup="menu"
      onPointerEnter={() => load(false)}
      onClick={() => load(true)}
    />
  );
}
