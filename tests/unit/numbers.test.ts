/**
 * Numbers without a formatter (decision 056): every interface language writes a whole number from 0
 * to 999 plainly, so lib/numbers.ts writes those itself and makes no Intl.NumberFormat while the
 * landing page hydrates; the rest as Intl writes them. The texts' {{count, number}} goes through it.
 */
import { describe, expect, it, vi } from "vitest";
import { formatNumber } from "../../src/client/lib/numbers";
import i18n, { startI18n } from "../../src/client/i18n";
import { SUPPORTED_LANGUAGES } from "../../src/shared/constants";

describe("formatNumber", () => {
  it.each(SUPPORTED_LANGUAGES)("writes numbers as Intl does in %s", (language) => {
    const intl = (value: number, digits = 0) => new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
    for (let value = 0; value < 1000; value += 1) expect(formatNumber(language, value)).toBe(intl(value));
    for (const value of [1000, 1234, 86_420_975, -1, -999, 0.5, 12.25, 999.5]) {
      expect(formatNumber(language, value)).toBe(intl(value));
      expect(formatNumber(language, value, 1)).toBe(intl(value, 1));
    }
  });

  it("is what the texts' {{count, number}} writes, with no formatter for a small number", async () => {
    await startI18n("fr");
    const many = `${new Intl.NumberFormat("fr").format(12345)} crédits gratuits`;
    const made = vi.spyOn(Intl, "NumberFormat");
    expect(i18n.t("common.counts.freeCredits", { count: 10 })).toBe("10 crédits gratuits");
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    expect(i18n.t("common.counts.freeCredits", { count: 12345 })).toBe(many);
  });
});
