/**
 * The help drawer of spec section 2: a side sheet "Help & Support" (Radix Dialog: focus held
 * inside, Escape closes, focus returns to the opener) with the FAQ search, the User Guide and
 * Email Support tiles, the frequently asked questions (one accordion per category, or a flat list
 * of matches with their category) and "Contact Support" at its foot. Whatever opens it goes
 * through lib/helpDrawer (the floating button, the footer's Help Center link).
 */
import * as Accordion from "@radix-ui/react-accordion";
import * as Dialog from "@radix-ui/react-dialog";
import * as ScrollArea from "@radix-ui/react-scroll-area";
import { BookOpen, ChevronDown, ExternalLink, Mail, Search, SearchX, X } from "lucide-react";
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useEngine } from "../../hooks/useEngine";
import { buildFaqEntries, groupFaqs, searchFaqs, type FaqEntry } from "../../lib/faq";
import { setHelpDrawerOpen, useHelpDrawerOpen } from "../../lib/helpDrawer";
import { useStudio } from "../../lib/studio";
import { mailtoHref, useSupportEmail } from "../landing/support";
import { EmailAddress } from "../EmailAddress";
import { buttonClass } from "../ui/buttons";

export function HelpDrawer() {
  const { t } = useTranslation();
  const open = useHelpDrawerOpen();
  const supportEmail = useSupportEmail();
  const [term, setTerm] = useState("");
  const deferredTerm = useDeferredValue(term);
  const searchInput = useRef<HTMLInputElement>(null);
  // Whatever opened the drawer (the floating button, the footer link) gets the focus back.
  const opener = useRef<HTMLElement | null>(null);

  // A new opening starts with an empty search.
  useEffect(() => {
    if (!open) setTerm("");
  }, [open]);

  return (
    <Dialog.Root open={open} onOpenChange={setHelpDrawerOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40 backdrop-blur-[2px] transition-opacity duration-200 starting:opacity-0 motion-reduce:transition-none" />
        <Dialog.Content
          className={
            "fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col border-l border-slate-200 bg-white shadow-2xl focus:outline-none " +
            "transition-transform duration-300 ease-out starting:translate-x-full motion-reduce:transition-none " +
            "dark:border-slate-800 dark:bg-slate-900"
          }
          onOpenAutoFocus={(event) => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            // With a mouse or keyboard, straight into the search; on a touch screen the keyboard
            // would cover half the sheet, so the focus goes to the sheet's first control instead.
            if (window.matchMedia("(pointer: fine)").matches && searchInput.current) {
              event.preventDefault();
              searchInput.current.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
            opener.current = null;
          }}
          data-testid="help-drawer"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 pt-5 pb-4 dark:border-slate-800">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold">{t("help.title")}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("help.subtitle")}</Dialog.Description>
            </div>
            <Dialog.Close className={`${buttonClass.icon} -mt-1 -mr-2`} aria-label={t("common.close")}>
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>

          <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-5 py-4">
            <div className="relative">
              <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
              <input
                ref={searchInput}
                type="search"
                value={term}
                onChange={(event) => setTerm(event.target.value)}
                placeholder={t("help.searchPlaceholder")}
                aria-label={t("help.searchLabel")}
                className={
                  "block w-full rounded-md border border-slate-300 bg-white py-2 pr-9 pl-9 text-base text-slate-900 shadow-sm placeholder:text-slate-400 " +
                  "focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none sm:text-sm " +
                  "dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-500 [&::-webkit-search-cancel-button]:hidden"
                }
                data-testid="help-search"
              />
              {term ? (
                <button
                  type="button"
                  className="absolute top-1/2 right-1.5 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded text-slate-500 hover:bg-slate-100 hover:text-slate-800 dark:hover:bg-slate-800 dark:hover:text-white"
                  aria-label={t("help.clearSearch")}
                  onClick={() => setTerm("")}
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              ) : null}
            </div>

            <div className="grid grid-cols-2 gap-3">
              <Tile
                href="/guide"
                newTab
                icon={<BookOpen className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
                title={t("help.userGuide")}
                hint={{ text: t("help.userGuideHint") }}
                testId="help-user-guide"
              />
              <Tile
                href={mailtoHref(supportEmail)}
                icon={<Mail className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
                title={t("help.emailSupport")}
                hint={{ email: supportEmail }}
                testId="help-email-support"
              />
            </div>

            <section aria-labelledby="help-faq-title">
              <h3 id="help-faq-title" className="mb-2 text-sm font-semibold tracking-wide text-slate-900 dark:text-slate-100">
                {t("help.faqTitle")}
              </h3>
              <FaqList term={deferredTerm} supportEmail={supportEmail} />
            </section>
          </div>

          <div className="border-t border-slate-200 bg-slate-50 px-5 py-4 dark:border-slate-800 dark:bg-slate-950/40">
            <p className="text-sm font-medium">{t("help.stillNeedHelp")}</p>
            <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{t("help.contactHint", { email: supportEmail })}</p>
            <a href={mailtoHref(supportEmail)} className={`${buttonClass.primary} mt-3 w-full`} data-testid="help-contact-support">
              <Mail className="size-4" aria-hidden="true" />
              {t("help.contactSupport")}
            </a>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Tile({
  href,
  newTab,
  icon,
  title,
  hint,
  testId,
}: {
  href?: string;
  newTab?: boolean;
  icon: ReactNode;
  title: string;
  /** Under the title; an e-mail address wraps at its "@" and dots, never inside a word. */
  hint: { text: string } | { email: string };
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <a
      href={href}
      target={newTab ? "_blank" : undefined}
      rel={newTab ? "noopener noreferrer" : undefined}
      className={
        "group flex min-w-0 flex-col gap-1.5 rounded-xl border border-slate-200 bg-white p-3 text-left shadow-sm transition-colors " +
        "hover:border-brand-500 hover:bg-brand-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-brand-500 dark:hover:bg-brand-700/15"
      }
      data-testid={testId}
    >
      <span className="flex items-center justify-between">
        {icon}
        {newTab ? <ExternalLink className="size-3.5 text-slate-400" aria-hidden="true" /> : null}
      </span>
      <span className="text-sm font-semibold">
        {title}
        {newTab ? <span className="sr-only"> {t("help.newTab")}</span> : null}
      </span>
      {"email" in hint ? (
        <span className="text-xs text-slate-600 dark:text-slate-400" title={hint.email}>
          <EmailAddress address={hint.email} />
        </span>
      ) : (
        <span className="line-clamp-2 text-xs [overflow-wrap:anywhere] text-slate-600 dark:text-slate-400" title={hint.text}>
          {hint.text}
        </span>
      )}
    </a>
  );
}

function CategoryBadge({ label }: { label: string }) {
  return (
    <span
      className="inline-flex shrink-0 items-center rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-100 ring-inset dark:bg-brand-700/25 dark:text-brand-100 dark:ring-brand-700/50"
      data-testid="faq-badge"
    >
      {label}
    </span>
  );
}

function FaqList({ term, supportEmail }: { term: string; supportEmail: string }) {
  const { t, i18n } = useTranslation();
  // The texts of the language shown: the search reads what the user reads.
  const language = i18n.language;
  const { isAi } = useEngine();
  // The texts name the studio: a rename shows at once.
  const { name } = useStudio();
  const entries = useMemo(() => (language ? buildFaqEntries(t, supportEmail, isAi, name) : []), [t, supportEmail, language, isAi, name]);
  const searching = term.trim() !== "";
  const matches = useMemo(() => searchFaqs(entries, term), [entries, term]);
  const viewport = useRef<HTMLDivElement>(null);

  // Each new search shows its first match.
  useEffect(() => {
    viewport.current?.scrollTo({ top: 0 });
  }, [term]);

  return (
    <>
      <p className="sr-only" role="status">
        {searching ? (matches.length ? t("help.resultCount", { count: matches.length }) : t("help.noResults", { term: term.trim() })) : ""}
      </p>
      <ScrollArea.Root
        className="h-[400px] overflow-hidden rounded-xl border border-slate-200 dark:border-slate-800"
        type="auto"
        data-testid="faq-scroll-area"
      >
        <ScrollArea.Viewport ref={viewport} className="size-full">
          {!searching ? (
            <div className="divide-y divide-slate-200 dark:divide-slate-800">
              {groupFaqs(entries).map((group) => (
                <section
                  key={group.category}
                  aria-labelledby={`faq-cat-${group.category}`}
                  className="px-3 py-3"
                  data-testid={`faq-category-${group.category}`}
                >
                  <h4
                    id={`faq-cat-${group.category}`}
                    className="mb-1 text-xs font-semibold tracking-wider text-brand-700 uppercase dark:text-brand-100"
                  >
                    {group.label}
                  </h4>
                  <Accordion.Root type="single" collapsible data-testid="faq-accordion">
                    {group.entries.map((entry) => (
                      <FaqItem key={entry.id} entry={entry} />
                    ))}
                  </Accordion.Root>
                </section>
              ))}
            </div>
          ) : matches.length ? (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="faq-results">
              {matches.map((entry) => (
                <li key={entry.id} className="space-y-1.5 px-3 py-3" data-testid="faq-result">
                  <CategoryBadge label={entry.categoryLabel} />
                  <p className="text-sm font-medium" data-testid="faq-question">
                    {entry.question}
                  </p>
                  <p className="text-sm leading-relaxed text-slate-600 dark:text-slate-400" data-testid="faq-answer">
                    {entry.answer}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <div className="flex h-full flex-col items-center justify-center gap-2 px-6 py-10 text-center" data-testid="faq-no-results">
              <SearchX className="size-8 text-slate-400" aria-hidden="true" />
              <p className="font-medium break-words [overflow-wrap:anywhere]">{t("help.noResults", { term: term.trim() })}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{t("help.noResultsHint")}</p>
            </div>
          )}
        </ScrollArea.Viewport>
        <ScrollArea.Scrollbar orientation="vertical" className="flex w-2.5 touch-none p-0.5 select-none">
          <ScrollArea.Thumb className="relative flex-1 rounded-full bg-slate-300 dark:bg-slate-700" />
        </ScrollArea.Scrollbar>
      </ScrollArea.Root>
    </>
  );
}

function FaqItem({ entry }: { entry: FaqEntry }) {
  return (
    <Accordion.Item value={entry.id} className="border-b border-slate-100 last:border-b-0 dark:border-slate-800/70" data-testid="faq-item">
      <Accordion.Header asChild>
        <h5>
          <Accordion.Trigger
            className={
              "group flex w-full items-start justify-between gap-3 rounded py-2.5 text-left text-sm font-medium text-slate-800 " +
              "hover:text-brand-700 dark:text-slate-100 dark:hover:text-brand-100"
            }
          >
            {entry.question}
            <ChevronDown
              className="mt-0.5 size-4 shrink-0 text-slate-400 transition-transform group-data-[state=open]:rotate-180 motion-reduce:transition-none"
              aria-hidden="true"
            />
          </Accordion.Trigger>
        </h5>
      </Accordion.Header>
      <Accordion.Content className="pb-3 text-sm leading-relaxed text-slate-600 dark:text-slate-400">{entry.answer}</Accordion.Content>
    </Accordion.Item>
  );
}
