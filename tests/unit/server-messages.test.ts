/**
 * The server's messages in the user's language (decision 096): the server bundles the client's
 * texts that hold serverMessages; a file with serverMessages the server does not list would leave
 * its messages in English on the API, so this fails until it is listed.
 */
import { describe, expect, it } from "vitest";
import { keyedMessage, MESSAGES } from "../../src/shared/messages";
import { localMessage, localText, SERVER_MESSAGE_FILES } from "../../src/server/i18n/server-messages";

const files = import.meta.glob<{ serverMessages?: Record<string, string> }>(
  ["../../src/client/i18n/*.json", "../../src/client/i18n/areas/*/*.json"],
  {
    eager: true,
    import: "default",
  },
);

describe("server messages in three languages", () => {
  it("lists every client text file that holds serverMessages, in each language", () => {
    const holding = Object.entries(files)
      .filter(([, texts]) => texts.serverMessages !== undefined)
      .map(([file]) => file.replace("../../src/client/i18n/", ""));
    expect(holding.length).toBeGreaterThan(10);
    const listed = Object.values(SERVER_MESSAGE_FILES).flatMap((byFile) => Object.keys(byFile));
    expect(holding.filter((file) => !listed.includes(file))).toEqual([]);
    for (const [language, byFile] of Object.entries(SERVER_MESSAGE_FILES)) {
      for (const file of Object.keys(byFile)) expect(file.endsWith(`${language}.json`), file).toBe(true);
    }
  });

  it("words a known message in Spanish and French with its parameters, English otherwise", () => {
    expect(localText(MESSAGES.notFound, "es")).toBe("No encontrado");
    expect(localText(MESSAGES.apiKeyInvalid, "fr")).toMatch(/^Cette clé d'API/);
    expect(localText(MESSAGES.apiKeyInvalid, "en")).toBe(MESSAGES.apiKeyInvalid);
    expect(localText(keyedMessage("apiRendersAtOnce", { max: 3 }), "es")).toMatch(/^Esta clave de API tiene 3 renders en curso/);
    expect(localMessage({ key: "apiScopeMissing", params: { scope: "projects" } }, "en")).toBe(
      "This API key lacks the scope this needs: projects",
    );
    // A text that is not a server message (a schema's own words) stays as it is.
    expect(localText("Invalid input: expected number", "fr")).toBe("Invalid input: expected number");
  });

  it("has a Spanish and a French text for every message the API sends", () => {
    const apiMessages = (Object.keys(MESSAGES) as Array<keyof typeof MESSAGES>).filter((name) => /^api|^idempotency/.test(name));
    expect(apiMessages.length).toBeGreaterThan(8);
    for (const name of apiMessages) {
      for (const language of ["es", "fr"] as const) {
        expect(localMessage({ key: name, params: {} }, language), `${name} in ${language}`).not.toBe(
          localMessage({ key: name, params: {} }, "en"),
        );
      }
    }
  });
});
