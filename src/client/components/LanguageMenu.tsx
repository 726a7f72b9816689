/**
 * The navigation bar's language button. Radix's menu (with its positioning library, ~15 KB gzip)
 * is not part of the first load: it is fetched when the pointer or the keyboard's focus reaches the
 * button, and takes the button's place, open, on the first click.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../i18n";
import { LanguageButton } from "./LanguageButton";

const loadMenu = () => import("./LanguageMenuRadix");
type Menu = Awaited<ReturnType<typeof loadMenu>>["default"];

export function LanguageMenu() {
  const { t } = useTranslation(); // re-renders this button when the language changes
  const [menu, setMenu] = useState<{ component: Menu; byKeyboard: boolean } | null>(null);
  // Loaded by the click, it opens at once; from then on Radix's trigger handles the clicks.
  if (menu) return <menu.component defaultOpen focusFirstItem={menu.byKeyboard} />;
  return (
    <LanguageButton
      label={t("nav.language")}
      language={currentLanguage()}
      aria-haspopup="menu"
      // Only fetched when the pointer passes or the keyboard arrives: swapping the button then could swallow the click that follows.
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      // A click without a pointer (detail 0) is Enter or Space: the menu then opens on its first item, as Radix's own trigger does.
      onClick={(event) => {
        const byKeyboard = event.detail === 0;
        void loadMenu().then((module) => setMenu({ component: module.default, byKeyboard }));
      }}
    />
  );
}
