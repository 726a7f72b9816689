/**
 * Self-test details in the admin's language (issue 17): a server check's finding travels as texts
 * (key + parameters) with its English; the browser translates the texts and writes sizes and
 * durations its own way. English word for word as the server writes it.
 */
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { checkDetailText, selfTestItemMessage } from "../../src/client/lib/selfTestText";
import { MESSAGES } from "../../src/shared/messages";
import {
  SELF_TEST_REPORTS,
  SERVER_CHECK_TEXTS,
  checkText,
  englishCheckDetail,
  failedWith,
  warningWith,
} from "../../src/shared/self-test-checks";

const i18n = i18next.createInstance();
await i18n.init({
  resources: { en: { translation: translations.en }, es: { translation: translations.es }, fr: { translation: translations.fr } },
  lng: "en",
  interpolation: { escapeValue: false },
});
const t = (language: string) => i18n.getFixedT(language);

describe("self-test details", () => {
  it("has every check text in English word for word as the server writes it, and in es and fr", () => {
    const details = (language: "en" | "es" | "fr") => (translations[language].selfTest as Record<string, Record<string, string>>).details!;
    expect(details("en")).toEqual(SERVER_CHECK_TEXTS);
    const reports = translations.en.selfTest as Record<string, Record<string, string>>;
    for (const [name, text] of Object.entries(SELF_TEST_REPORTS)) {
      expect(
        reports.reports![name] ??
          (translations.en.serverMessages as Record<string, string>)[name === "accessDenied" ? "adminRequired" : name],
      ).toBe(text);
    }
    expect(Object.keys(details("es")).sort()).toEqual(Object.keys(SERVER_CHECK_TEXTS).sort());
    expect(Object.keys(details("fr")).sort()).toEqual(Object.keys(SERVER_CHECK_TEXTS).sort());
  });

  it("writes the English the command line shows, with sizes and durations", () => {
    const backups = warningWith(
      checkText("backupFailed", { error: "EACCES" }),
      checkText("lastBackup", { ageMs: 3 * 3_600_000, sizeBytes: 1536 }),
      checkText("backupSchedule", { everyMs: 6 * 3_600_000, dir: "/backups", keep: 2 }),
    );
    expect(backups.detail).toBe("the last backup failed (EACCES); last backup 3 h ago (1.5 KiB); every 6 h into /backups, keeping 2");
    expect(englishCheckDetail([checkText("noAnswer", { service: "OpenAI", waitMs: 5000 })])).toBe("OpenAI did not answer within 5 s");
  });

  it("shows a check's finding in Spanish and French, an outside service's words as they are", () => {
    const found = [
      checkText("lastBackup", { ageMs: 26 * 3_600_000, sizeBytes: 1536 }),
      checkText("backupSchedule", { everyMs: 6 * 3_600_000, dir: "/backups", keep: 2 }),
    ];
    expect(checkDetailText(found, t("fr"), "fr")).toBe(
      "dernière sauvegarde il y a 1 j 2 h (1,5 KB); toutes les 6 h dans /backups, en gardant 2",
    );
    expect(checkDetailText(found, t("es"), "es")).toBe("última copia hace 1 d 2 h (1,5 KB); cada 6 h en /backups, conservando 2");
    const failed = failedWith(checkText("unreachable", { service: "Replicate", error: "fetch failed (connect ECONNREFUSED)" }));
    const item = { status: "failed", message: `Error: Render provider error: ${failed.detail}`, texts: failed.texts };
    expect(selfTestItemMessage(item, t("es"), "es")).toBe("Error: No se pudo contactar con Replicate: fetch failed (connect ECONNREFUSED)");
    expect(selfTestItemMessage(item, t("fr"), "fr")).toBe("Erreur : Impossible de joindre Replicate : fetch failed (connect ECONNREFUSED)");
    // The spec's report texts and the server's messages are translated; the suite's own English stays.
    expect(selfTestItemMessage({ status: "failed", message: "Error: AI render validation failed" }, t("fr"), "fr")).toBe(
      "Erreur : La validation du rendu par IA a échoué",
    );
    expect(selfTestItemMessage({ status: "warning", message: MESSAGES.stripeNotConfigured }, t("es"), "es")).toBe(
      (translations.es.serverMessages as Record<string, string>).stripeNotConfigured,
    );
    expect(selfTestItemMessage({ status: "failed", message: "Error: Storage error: upload answered HTTP 500" }, t("fr"), "fr")).toBe(
      "Error: Storage error: upload answered HTTP 500",
    );
  });
});
