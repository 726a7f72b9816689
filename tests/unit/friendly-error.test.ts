import { describe, expect, it } from "vitest";
import en from "../../src/client/i18n/en.json";
import { errorMessage, friendlyError, friendlyErrorKey, type Translate } from "../../src/client/lib/friendlyError";
import { translateMessage } from "../../src/client/lib/validationMessages";
import { VALIDATION_MESSAGES } from "../../src/shared/auth-schemas";
import { englishMessage, MESSAGES, readMessage } from "../../src/shared/messages";
import { translations } from "../../src/client/i18n/resources";
import { failureMessage } from "../../src/server/render/jobs/worker";

/** English lookups straight from en.json (the client's i18n setup needs a browser). */
const t: Translate = (key) => {
  const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
  if (typeof value !== "string") throw new Error(`no English text for ${key}`);
  return value;
};

describe("friendly error mapping (spec section 8)", () => {
  it.each([
    ["Invalid login credentials", "The email or password you entered is incorrect. Please check and try again."],
    ["Email not confirmed", "Please check your email and click the confirmation link before signing in."],
    ["User already registered", "An account with this email already exists. Please sign in instead."],
    ["Password should be at least 6 characters", "Your password must be at least 6 characters long."],
    ["Invalid email", "Please enter a valid email address."],
    ["Too many requests", "Too many attempts. Please wait a few minutes before trying again."],
    ["Network request failed", "Connection failed. Please check your internet connection and try again."],
  ])("shows %j as the spec's friendly text", (message, shown) => {
    expect(friendlyError(new Error(message), t)).toBe(shown);
  });

  it("maps the server's own constants, so the client and server cannot drift apart", () => {
    expect(friendlyErrorKey(MESSAGES.invalidCredentials)).toBe("friendlyErrors.invalidCredentials");
    expect(friendlyErrorKey(MESSAGES.emailNotConfirmed)).toBe("friendlyErrors.emailNotConfirmed");
    expect(friendlyErrorKey(MESSAGES.userAlreadyRegistered)).toBe("friendlyErrors.userAlreadyRegistered");
    expect(friendlyErrorKey(MESSAGES.tooManyRequests)).toBe("friendlyErrors.tooManyRequests");
  });

  it("matches provider messages with extra punctuation or detail, whatever the case", () => {
    expect(friendlyErrorKey("Password should be at least 6 characters.")).toBe("friendlyErrors.passwordTooShort");
    expect(friendlyErrorKey("AuthApiError: invalid login credentials")).toBe("friendlyErrors.invalidCredentials");
  });

  it.each(["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed", "fetch failed"])(
    "treats the browser's %j as a network failure",
    (message) => {
      expect(friendlyError(new TypeError(message), t)).toBe(en.friendlyErrors.networkFailed);
    },
  );

  it("translates the server's other known messages and the validation messages", () => {
    expect(friendlyError(new Error(MESSAGES.resetLinkInvalid), t)).toBe(en.serverMessages.resetLinkInvalid);
    expect(translateMessage(VALIDATION_MESSAGES.passwordNeedsNumber, t)).toBe(en.validation.passwordNeedsNumber);
    expect(translateMessage(VALIDATION_MESSAGES.codeRequired, t)).toBe("Please enter a verification code");
  });

  it("shows any other message unchanged", () => {
    expect(friendlyError(new Error("Disk quota exceeded"), t)).toBe("Disk quota exceeded");
    expect(friendlyError("plain string", t)).toBe("plain string");
  });

  it("reads the message of anything thrown", () => {
    expect(errorMessage({ message: "from an object" })).toBe("from an object");
    expect(errorMessage(42)).toBe("42");
  });

  it("has an English text for every validation message, word for word", () => {
    for (const [name, text] of Object.entries(VALIDATION_MESSAGES)) {
      expect((en.validation as Record<string, string>)[name], name).toBe(text);
    }
  });
});

describe("render failure reasons (issue 17: no English left in es/fr)", () => {
  const tr = (language: "es" | "fr" | "en"): Translate => {
    const tree = translations[language];
    return (key, params = {}) => {
      const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
      if (typeof value !== "string") throw new Error(`no ${language} text for ${key}`);
      return value.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(params[name]));
    };
  };

  it("shows what the worker stores in the reader's language", () => {
    expect(friendlyError(MESSAGES.renderUploadGone, tr("fr"))).toBe("La photo importée n'est plus disponible");
    expect(friendlyError(MESSAGES.renderEditSourceGone, tr("es"))).toBe("La imagen que querías editar ya no está disponible");
    // The engine's own words (here one that mentions a network failure) inside a translated sentence.
    const stored = failureMessage("Replicate: fetch failed");
    expect(friendlyError(stored, tr("es"))).toBe("El motor de render detuvo este render: Replicate: fetch failed");
    expect(friendlyError(stored, tr("en"))).toBe("The render engine stopped this render: Replicate: fetch failed");
    expect(englishMessage(readMessage(stored)!)).toBe("The render engine stopped this render: Replicate: fetch failed");
    expect(failureMessage(MESSAGES.renderUploadGone)).toBe(MESSAGES.renderUploadGone);
  });

  it("still shows an old row's free English text as it is", () => {
    expect(friendlyError("The render engine refused the request: bad prompt", tr("fr"))).toBe(
      "The render engine refused the request: bad prompt",
    );
    expect(friendlyError('{"not":"a message"}', tr("fr"))).toBe('{"not":"a message"}');
    expect(readMessage('{"key":"constructor","params":{}}')).toBeUndefined();
  });
});
