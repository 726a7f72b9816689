/**
 * A self-test item's message in the interface language: what a check found travels as texts
 * (selfTest.details.<key> with parameters, src/shared/self-test-checks.ts) next to its English;
 * sizes, durations, moments, step names and the server's messages are written here, the reader's
 * way. An item without texts (a run recorded before they existed) keeps its message.
 */
import { readMessage } from "../../shared/messages";
import { SELF_TEST_ERROR_PREFIX, SELF_TEST_REPORTS, type SelfTestText } from "../../shared/self-test-checks";
import { formatBytes } from "./format";

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h" with the admin page's own units. */
function period(ms: number, t: Translate): string {
  if (ms < 1000 && ms !== 0) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return t("admin.system.uptimeMinutes", { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : t("admin.system.uptimeHours", { hours, minutes: minutes % 60 });
  return t("admin.system.uptimeDays", { days: Math.floor(hours / 24), hours: hours % 24 });
}

/** One parameter, the reader's way (the kinds are listed at SERVER_CHECK_TEXTS). */
function paramText(name: string, value: string | number, t: Translate, language: string): string | number {
  if (typeof value === "number") {
    if (name.endsWith("Bytes")) return formatBytes(value, language);
    if (name.endsWith("Ms")) return period(value, t);
    if (name.endsWith("At")) return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(value);
    return value;
  }
  if (name === "step") return t(`selfTest.steps.${value}`, { defaultValue: value });
  const message = readMessage(value);
  return message ? t(`serverMessages.${message.key}`, message.params) : value;
}

/** A check's texts, translated and joined as the English joins them. */
export function checkDetailText(texts: readonly SelfTestText[], t: Translate, language: string): string {
  return texts
    .map(({ key, params = {} }) => {
      const shown: Record<string, string | number> = {};
      for (const [name, value] of Object.entries(params)) shown[name] = paramText(name, value, t, language);
      return t(`selfTest.details.${key}`, shown);
    })
    .join("; ");
}

/** A report text of spec section 8 or a server message, translated; anything else as it is. */
function reportText(text: string, t: Translate): string {
  const report = (Object.keys(SELF_TEST_REPORTS) as Array<keyof typeof SELF_TEST_REPORTS>).find((name) => SELF_TEST_REPORTS[name] === text);
  const known = readMessage(text);
  if (known) return t(`serverMessages.${known.key}`, known.params);
  return report ? t(`selfTest.reports.${report}`) : text;
}

/** What was found under a report of spec section 8 (the server's answer, or the suite's finding). */
export function selfTestItemDetail(item: { detail?: string; detailTexts?: readonly SelfTestText[] }, t: Translate, language: string) {
  if (item.detailTexts?.length) return checkDetailText(item.detailTexts, t, language);
  return item.detail ? reportText(item.detail, t) : item.detail;
}

/**
 * What an item says under its name: its texts translated ("Error: ..." when it failed); else its
 * message, with a report text of the spec or a server message translated; else the message as it is.
 */
export function selfTestItemMessage(
  item: { status: string; message?: string; texts?: readonly SelfTestText[] },
  t: Translate,
  language: string,
): string | undefined {
  if (item.texts?.length) {
    const detail = checkDetailText(item.texts, t, language);
    return item.status === "failed" ? t("selfTest.errorDetail", { detail }) : detail;
  }
  if (!item.message) return item.message;
  if (item.message.startsWith(SELF_TEST_ERROR_PREFIX)) {
    const rest = item.message.slice(SELF_TEST_ERROR_PREFIX.length);
    const shown = reportText(rest, t);
    return shown === rest ? item.message : t("selfTest.errorDetail", { detail: shown });
  }
  return reportText(item.message, t);
}

/**
 * A run's counts as one line, "11 passed, 1 with a warning, 0 failed": the same words for the run
 * just made and for the recorded runs of /admin, so a run with warnings never reads as "12 passed,
 * 0 failed". Plurals come from i18next's count in every language.
 */
export function selfTestSummary(counts: { passed: number; warnings: number; failed: number }, t: Translate): string {
  return t(counts.warnings > 0 ? "selfTest.summaryWarnings" : "selfTest.summary", {
    passed: counts.passed,
    warnings: counts.warnings,
    failed: counts.failed,
  });
}
