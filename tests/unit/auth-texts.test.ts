/** The English texts of spec sections 5 and 8 on the account screens, word for word, as rendered. */
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";

const { en, es, fr } = translations;
import { AUTH } from "../../src/shared/constants";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: "en",
    resources: { en: { translation: en }, es: { translation: es }, fr: { translation: fr } },
    interpolation: { escapeValue: false },
  });
});
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);

describe("account texts (spec sections 2, 5 and 8)", () => {
  it("has the failure toast titles", () => {
    expect(
      ["signUpFailed", "signInFailed", "resetFailed", "resendFailed", "googleSignInFailed", "signOutFailed"].map((key) =>
        t(`toasts.${key}`),
      ),
    ).toEqual([
      "Sign up failed",
      "Sign in failed",
      "Password reset failed",
      "Failed to resend confirmation",
      "Google sign in failed",
      "Sign out failed",
    ]);
  });

  it("has the success toasts", () => {
    expect(t("toasts.accountCreated")).toBe("Account created successfully!");
    expect(t("toasts.accountCreatedDescription")).toBe(
      "Please check your email and click the confirmation link to complete your registration.",
    );
    expect(t("toasts.resetSent")).toBe("Password reset sent");
    expect(t("toasts.resetSentDescription")).toBe("Please check your email for password reset instructions.");
    expect(t("toasts.confirmationSent")).toBe("Confirmation email sent");
    expect(t("toasts.confirmationSentDescription")).toBe("Please check your inbox for the verification link.");
    expect(t("toasts.signedOut")).toBe("Signed out");
    expect(t("toasts.signedOutDescription")).toBe("You have been successfully signed out.");
    expect(t("toasts.verificationSuccessful")).toBe("Verification successful");
    expect(t("toasts.verificationSuccessfulDescription")).toBe("You have been signed in.");
    expect(t("toasts.backupCodeAccepted")).toBe("Backup code accepted");
  });

  it("has the lockout toasts and banners", () => {
    expect(t("toasts.accountLocked")).toBe("Account locked");
    expect(t("toasts.invalidCredentials")).toBe("Invalid credentials");
    expect(t("auth.lock.title")).toBe("Account temporarily locked");
    expect(t("auth.lock.tryAgainIn", { count: AUTH.lockoutMinutes })).toBe("Try again in 15 minutes");
    expect(t("auth.lock.tryAgainIn", { count: 1 })).toBe("Try again in 1 minute");
    expect(t("auth.lock.attemptsRemaining", { count: 4 })).toBe("4 attempts remaining");
    expect(t("auth.lock.attemptsRemaining", { count: 1 })).toBe("1 attempt remaining");
  });

  it("has the session toasts", () => {
    expect(t("session.expiringSoon")).toBe("Session expiring soon");
    expect(t("session.expiringSoonDescription", { count: 5 })).toBe("Your session will expire in 5 minutes due to inactivity");
    expect(t("session.expired")).toBe("Session expired");
    expect(t("session.expiredDescription")).toBe("You have been signed out due to inactivity.");
    expect(t("session.extended")).toBe("Session extended");
  });

  it("has the auth page's labels", () => {
    expect(t("auth.rememberMe", { days: AUTH.rememberMeDays })).toBe("Remember me for 30 days");
    expect(t("common.backHome")).toBe("Back to Home");
    expect(t("verifyBanner.resend")).toBe("Resend Email");
    expect(t("verifyBanner.sending")).toBe("Sending...");
    expect([t("auth.strength.weak"), t("auth.strength.medium"), t("auth.strength.strong")]).toEqual(["Weak", "Medium", "Strong"]);
  });

  it.each(["es", "fr"])("renders the plural texts in %s for 1 and for many", async (language) => {
    const other = i18n.cloneInstance({ lng: language });
    for (const key of [
      "auth.lock.tryAgainIn",
      "auth.lock.attemptsRemaining",
      "session.expiringSoonDescription",
      "auth.lock.toastDescription",
    ]) {
      for (const count of [1, 4, 15]) {
        const text = other.t(key, { count });
        expect(text, `${language} ${key} ${count}`).toContain(String(count));
        expect(text).not.toBe(key);
      }
    }
  });
});
