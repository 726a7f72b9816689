/**
 * The help drawer's frequently asked questions (spec section 2): the eleven categories in their
 * order, the entries of each (their texts live in the help area's translations under
 * help.faq.<category>.<entry>.{q,a}), and the search over the texts of the language shown.
 */
import { AUTH, CREDITS, UPLOAD } from "../../shared/constants";
import { AR_MEASURE_TOLERANCE_CM } from "../../shared/measures";
import { engineTextKey } from "./engineCopy";
import { currentStudio } from "./studio";

export const FAQ_CATEGORIES = [
  "gettingStarted",
  "upload",
  "rendering",
  "credits",
  "projects",
  "teams",
  "billing",
  "troubleshooting",
  "mobile",
  "account",
  "licensing",
] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];

/** The entries of each category, in the order they are shown. */
export const FAQ_ENTRIES: Record<FaqCategory, readonly string[]> = {
  gettingStarted: ["whatIs", "freeDemo", "signUp", "languages"],
  upload: ["formats", "size", "floorPlans", "privacy"],
  rendering: ["howLong", "styles", "engine", "downloads"],
  credits: ["howMany", "perRender", "expire", "failed"],
  projects: ["what", "delete", "share"],
  teams: ["available", "roles", "clients"],
  billing: ["buy", "refunds", "packages"],
  troubleshooting: ["renderFailed", "poorResult", "uploadRefused", "signIn"],
  mobile: ["phone", "ar", "tips"],
  account: ["twoFactor", "password", "deleteData", "theme"],
  licensing: ["free", "commercial", "ownership"],
};

/** One entry as shown: its texts already in the current language. */
export interface FaqEntry {
  /** "<category>.<entry>", stable across languages. */
  id: string;
  category: FaqCategory;
  categoryLabel: string;
  question: string;
  answer: string;
  /** Words people type for it that its texts may not hold ("2FA", "MFA"): searched, not shown. */
  keywords: string;
}

export interface FaqGroup {
  category: FaqCategory;
  label: string;
  entries: FaqEntry[];
}

/** The values the FAQ texts interpolate: the product's constants, never repeated in the texts. */
export function faqTextValues(supportEmail: string, product = currentStudio().name) {
  return {
    // The studio's own name (a renamed studio is renamed in its help too).
    product,
    email: supportEmail,
    freeCredits: currentStudio().signUpCredits,
    perRender: CREDITS.perRender,
    refundDays: CREDITS.refundWindowDays,
    demoRenders: CREDITS.visitorDemoRenders,
    maxMb: Math.round(UPLOAD.maxBytes / (1024 * 1024)),
    minSide: UPLOAD.minSide,
    maxAspect: UPLOAD.maxAspect,
    lockAttempts: AUTH.maxFailedAttempts,
    lockMinutes: AUTH.lockoutMinutes,
    resetHours: Math.round(AUTH.passwordResetValidityMs / 3_600_000),
    // How close a measure made in AR came in our emulated test room (decision 092).
    arCm: AR_MEASURE_TOLERANCE_CM,
  };
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * Every entry, in category order, with the texts `t` gives for the language shown. An answer that
 * depends on the engine (is it AI, how long it takes) is the one for this server's engine: the
 * Preview engine's unless `isAi` (engineCopy's rule).
 */
export function buildFaqEntries(t: Translate, supportEmail: string, isAi?: boolean, product?: string): FaqEntry[] {
  const values = faqTextValues(supportEmail, product);
  return FAQ_CATEGORIES.flatMap((category) => {
    const categoryLabel = t(`help.categories.${category}`);
    return FAQ_ENTRIES[category].map((entry) => ({
      id: `${category}.${entry}`,
      category,
      categoryLabel,
      question: t(`help.faq.${category}.${entry}.q`, values),
      answer: t(engineTextKey(`help.faq.${category}.${entry}.a`, isAi), values),
      keywords: t(`help.faq.${category}.${entry}.k`, { defaultValue: "" }),
    }));
  });
}

/** Lower case without accents: "Créditos" and "creditos" both read "creditos". */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLocaleLowerCase();
}

/**
 * The entries matching a search term, in their order: every word of the term must appear in the
 * question, the answer, the category name or the entry's keywords (short forms such as "2FA"),
 * ignoring case (and accents). A blank term matches every entry.
 */
export function searchFaqs(entries: readonly FaqEntry[], term: string): FaqEntry[] {
  const words = foldForSearch(term).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  return entries.filter((entry) => {
    const haystack = foldForSearch(`${entry.question}\n${entry.answer}\n${entry.categoryLabel}\n${entry.keywords}`);
    return words.every((word) => haystack.includes(word));
  });
}

/** The entries by category, in category order; categories without entries are left out. */
export function groupFaqs(entries: readonly FaqEntry[]): FaqGroup[] {
  return FAQ_CATEGORIES.map((category) => ({
    category,
    label: entries.find((entry) => entry.category === category)?.categoryLabel ?? category,
    entries: entries.filter((entry) => entry.category === category),
  })).filter((group) => group.entries.length > 0);
}
