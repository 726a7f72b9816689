import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Check } from "lucide-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../../shared/constants";
import { chooseLanguage, currentLanguage } from "../i18n";
import { LanguageButton } from "./LanguageButton";

/**
 * The language menu of the navigation bar: en English, es Español, fr Français (LanguageMenu loads it
 * on first use). Opened by the keyboard before it was loaded, Radix has not seen that key, so the
 * first opening puts the focus on the first item itself (focusFirstItem).
 */
export default function LanguageMenuRadix({
  defaultOpen = false,
  focusFirstItem = false,
}: {
  defaultOpen?: boolean;
  focusFirstItem?: boolean;
}) {
  const { t } = useTranslation(); // re-renders this menu when the language changes
  const active = currentLanguage();
  const content = useRef<HTMLDivElement>(null);
  const firstItemOnOpen = useRef(focusFirstItem);
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>
        <LanguageButton label={t("nav.language")} language={active} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={content}
          // Radix focuses the menu itself when it opens; the first time, move on to the first item.
          onFocus={(event) => {
            if (!firstItemOnOpen.current || event.target !== event.currentTarget) return;
            firstItemOnOpen.current = false;
            content.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
          }}
          align="end"
          sideOffset={6}
          className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {SUPPORTED_LANGUAGES.map((language) => (
            <DropdownMenu.Item
              key={language}
              lang={language}
              onSelect={() => void chooseLanguage(language)}
              className="flex cursor-pointer items-center justify-between gap-3 rounded px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500 data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
            >
              {LANGUAGE_NAMES[language]}
              {language === active ? <Check className="size-4 text-brand-600" aria-hidden="true" /> : null}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
