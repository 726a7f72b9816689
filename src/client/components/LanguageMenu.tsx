import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Check, Globe } from "lucide-react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../../shared/constants";
import { chooseLanguage, currentLanguage } from "../i18n";

/** The language menu of the navigation bar: en English, es Español, fr Français. */
export function LanguageMenu() {
  const { t } = useTranslation(); // re-renders this menu when the language changes
  const active = currentLanguage();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={t("nav.language")}
        className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <Globe className="size-4" aria-hidden="true" />
        <span>{LANGUAGE_NAMES[active]}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {SUPPORTED_LANGUAGES.map((language) => (
            <DropdownMenu.Item
              key={language}
              lang={language}
              onSelect={() => void chooseLanguage(language)}
              className="flex cursor-pointer items-center justify-between gap-3 rounded px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
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
