/**
 * Self-test details in the admin's language (issue 17): a server check's finding travels as texts
 * (key + parameters) with its English; the browser translates the texts and writes sizes and
 * durations its own way. English word for word as the server writes it.
 */
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { checkDetailText, selfTestItemDetail, selfTestItemMessage, selfTestSummary } from "../../src/client/lib/selfTestText";
import { MESSAGES } from "../../src/shared/messages";
import {
  SELF_TEST_REPORTS,
  SELF_TEST_STEPS,
  SELF_TEST_TEXTS,
  checkText,
  englishCheckText,
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
    // A plural text is one entry here ({ one, other }) and its forms in the translations (key_one, key_other).
    const english: Record<string, string> = {};
    for (const [key, text] of Object.entries(SELF_TEST_TEXTS)) {
      if (typeof text === "string") english[key] = text;
      else Object.assign(english, { [`${key}_one`]: text.one, [`${key}_other`]: text.other });
    }
    expect(details("en")).toEqual(english);
    expect(translations.en.selfTest).toMatchObject({ steps: SELF_TEST_STEPS });
    const reports = translations.en.selfTest as Record<string, Record<string, string>>;
    for (const [name, text] of Object.entries(SELF_TEST_REPORTS)) {
      expect(
        reports.reports![name] ??
          (translations.en.serverMessages as Record<string, string>)[name === "accessDenied" ? "adminRequired" : name],
      ).toBe(text);
    }
    const base = (keys: string[]) => [...new Set(keys.map((key) => key.replace(/_(one|many|other)$/, "")))].sort();
    for (const language of ["es", "fr"] as const) {
      expect(base(Object.keys(details(language)))).toEqual(Object.keys(SELF_TEST_TEXTS).sort());
      const steps = (translations[language].selfTest as Record<string, Record<string, string>>).steps!;
      expect(Object.keys(steps).sort()).toEqual(Object.keys(SELF_TEST_STEPS).sort());
    }
  });

  it("writes the suite's own notes in English by English's plural rule, with steps, moments and the server's messages", () => {
    expect(englishCheckText(checkText("profileRow", { email: "a@b.c", count: 1 }))).toBe("1 row: a@b.c, 1 credit");
    expect(englishCheckText(checkText("profileRow", { email: "a@b.c", count: 0 }))).toBe("1 row: a@b.c, 0 credits");
    expect(englishCheckText(checkText("stepError", { step: "project-crud", error: MESSAGES.internalError }))).toBe(
      `Project error: ${MESSAGES.internalError}`,
    );
    expect(englishCheckText(checkText("browserSession", { endsAt: Date.UTC(2026, 10, 23, 9, 30) }))).toBe(
      "Browser session, ends 2026-11-23T09:30:00.000Z",
    );
    expect(englishCheckText(checkText("rendersWaiting", { count: 2, waitedMs: 11 * 60_000, free: 2, slots: 2 }))).toBe(
      "2 renders have waited 11 min while the render workers have 2 of 2 slots free",
    );
    // An outside answer is cut to what a stored run keeps.
    expect((checkText("errorReturned", { error: "x".repeat(5000) }).params!.error as string).length).toBe(1000);
  });

  it("shows the suite's own notes in Spanish and French: plurals, step names, dates and the server's messages translated", () => {
    const es = t("es");
    const fr = t("fr");
    expect(checkDetailText([checkText("profileRow", { email: "a@b.c", count: 1 })], es, "es")).toBe("1 fila: a@b.c, 1 crédito");
    expect(checkDetailText([checkText("routeProtected", { answer: MESSAGES.notAuthenticated, count: 3 })], fr, "fr")).toBe(
      `Visiteur refusé (« ${(translations.fr.serverMessages as Record<string, string>).notAuthenticated} ») ; l'utilisateur connecté reçoit une réponse (3 projets)`,
    );
    const failed = { status: "failed", message: `Error: Project error: ${MESSAGES.internalError}` };
    const texts = [checkText("stepError", { step: "project-crud", error: MESSAGES.internalError })];
    expect(selfTestItemMessage({ ...failed, texts }, es, "es")).toBe(
      `Error: Error en proyecto: ${(translations.es.serverMessages as Record<string, string>).internalError}`,
    );
    const ends = Date.UTC(2026, 10, 23, 9, 30);
    expect(checkDetailText([checkText("rememberedSession", { endsAt: ends })], fr, "fr")).toBe(
      `Session mémorisée, se termine le ${new Intl.DateTimeFormat("fr", { dateStyle: "medium", timeStyle: "short" }).format(ends)}`,
    );
    // What was found under a report of the spec: the suite's finding translated, the server's message translated.
    const mismatch = { detail: "the session is not among the user's sessions", detailTexts: [checkText("sessionNotListed")] };
    expect(selfTestItemDetail(mismatch, fr, "fr")).toBe("la session ne figure pas parmi les sessions de l'utilisateur");
    expect(selfTestItemDetail({ detail: MESSAGES.notAuthenticated }, es, "es")).toBe(
      (translations.es.serverMessages as Record<string, string>).notAuthenticated,
    );
    // No text of the suite is left in English in Spanish or French (a test id, a path or a server's own words aside).
    for (const key of Object.keys(SELF_TEST_TEXTS) as Array<keyof typeof SELF_TEST_TEXTS>) {
      if (key === "checkError" || key === "engineSettingRefused" || key === "roles") continue;
      const english = englishCheckText(checkText(key, { count: 2 }));
      for (const language of ["es", "fr"])
        expect(checkDetailText([checkText(key, { count: 2 })], t(language), language), key).not.toBe(english);
    }
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

describe("a run's summary (issue 27)", () => {
  it("counts warnings, with their plurals, in every language; a run without any keeps the spec's two counts", () => {
    const one = { passed: 11, warnings: 1, failed: 0 };
    const two = { passed: 10, warnings: 2, failed: 1 };
    expect(selfTestSummary(one, t("en"))).toBe("11 passed, 1 with a warning, 0 failed");
    expect(selfTestSummary(two, t("en"))).toBe("10 passed, 2 with warnings, 1 failed");
    expect(selfTestSummary(one, t("es"))).toBe("11 superadas, 1 con advertencia, 0 fallidas");
    expect(selfTestSummary(two, t("es"))).toBe("10 superadas, 2 con advertencias, 1 fallida");
    expect(selfTestSummary(one, t("fr"))).toBe("11 réussis, 1 avec avertissement, 0 échoué");
    expect(selfTestSummary(two, t("fr"))).toBe("10 réussis, 2 avec avertissements, 1 échoué");
    expect(selfTestSummary({ passed: 12, warnings: 0, failed: 0 }, t("en"))).toBe("12 passed, 0 failed");
  });
});
