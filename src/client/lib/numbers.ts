/**
 * Numbers as the interface language writes them, cheaply. A page's first Intl.NumberFormat costs
 * about 12 ms on a desktop (ICU's number formatting, once per page; several times that on a phone),
 * and the landing page writes numbers while it hydrates (the sign-up credits in its texts): a whole
 * number from 0 to 999 is written plainly in every interface language (Latin digits, no grouping,
 * tests/unit/numbers.test.ts), so it needs no formatter; the others get one per language and
 * precision, made once (decision 056).
 */
const formatters = new Map<string, Intl.NumberFormat>();

export function formatNumber(language: string, value: number, fractionDigits = 0): string {
  if (Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
  const key = `${language}:${fractionDigits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(language, { maximumFractionDigits: fractionDigits });
    formatters.set(key, formatter);
  }
  return formatter.format(value);
}
