/**
 * The account screens in a browser against the real server: the /auth page (tabs, per-field and
 * first-only errors, strength meter, lockout banners), the confirmation mail's link, the
 * verification banner, Sign Out, returnTo, the two-factor view and the idle session.
 * The server's clock and the browser's are the same movable clock, so 25 and 30 minutes pass at once.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { totpCode, totpStep } from "../../src/server/auth/two-factor";
import { AUTH } from "../../src/shared/constants";
import { describeBrowser, requestsOf, screenshot, signUp, useBrowsers, type PageRequests } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";
import { firstLink, startSmtpServer } from "../helpers/smtp";
import { createBrowserLikeClient } from "../helpers/trpc-client";

/** Real time plus whatever the test fast-forwarded, for the server (the browser gets the same jumps). */
let offset = 0;
const clock = { now: () => Date.now() + offset };

const PASSWORD = "Correct-Horse1";
let counter = 0;
const newEmail = () => `client${++counter}.${Date.now()}@example.com`;

describeBrowser("account screens in a browser", () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
  });
  afterEach(() => {
    offset = 0;
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const { open } = useBrowsers(() => server.url);

  /** What each page with a fake clock asked the server for, followed from before it loads. */
  const requestsByPage = new WeakMap<Page, PageRequests>();
  /** The URLs each page has loaded (a lazily loaded part is known by its file). */
  const loadedByPage = new WeakMap<Page, string[]>();

  /** Playwright's clock on the page, before it loads: time flows as usual; fastForward() makes it jump (see skip()). */
  async function fakeClock(page: Page): Promise<void> {
    requestsByPage.set(page, requestsOf(page));
    const loaded: string[] = [];
    loadedByPage.set(page, loaded);
    page.on("requestfinished", (request) => loaded.push(request.url()));
    await page.clock.install();
    await page.clock.resume();
  }

  /**
   * Moves the server's clock and the page's by `ms`. The two cannot jump at once, so first nothing
   * may be in flight: an answer arriving between the jumps would carry the server's new time to a
   * page still at the old one, and the page would take its clock to be 25 minutes off the
   * server's (lib/serverClock) and warn or sign out at the wrong time.
   */
  async function skip(page: Page, ms: number): Promise<void> {
    // The idle timers arrive with a part loaded after the page (SessionEffects): started after a jump,
    // they would count from the new time. On a busy machine that part may still be on its way.
    await expect.poll(() => loadedByPage.get(page)!.some((url) => /\/IdleSession-[\w-]+\.js$/.test(url))).toBe(true);
    await requestsByPage.get(page)!.quiet();
    offset += ms;
    await page.clock.fastForward(ms);
  }

  const nav = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });
  const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
  const visible = (page: Page, text: string | RegExp) => page.getByText(text).first().isVisible();

  async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
  }

  it("signs up with per-field errors and the strength meter, confirms by mail, shows the banner until then, and signs out", async () => {
    const { page, problems } = await open("/auth");
    await expect.poll(() => page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => visible(page, "Back to Home")).toBe(true);
    await expect.poll(() => visible(page, "Google sign-in is not configured on this server.")).toBe(true);
    await expect.poll(() => visible(page, "Remember me for 30 days")).toBe(true);
    await screenshot(page, "auth-sign-in");

    await page.getByRole("tab", { name: "Sign In" }).press("ArrowRight");
    await expect.poll(() => page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
    await page.getByLabel("Full Name").fill("X");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("abc");
    await expect.poll(() => page.getByRole("meter").getAttribute("aria-valuetext")).toBe("Weak");
    await page.getByRole("button", { name: "Create Account" }).click();
    for (const message of [
      "Name must be at least 2 characters",
      "Please enter a valid email address",
      "Password must be at least 8 characters",
    ]) {
      await expect.poll(() => visible(page, message)).toBe(true);
    }
    await expect.poll(() => page.getByLabel("Full Name").getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "auth-sign-up-errors");

    const email = newEmail();
    await page.getByLabel("Full Name").fill("Ana Lima");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("abcdefG1");
    await expect.poll(() => page.getByRole("meter").getAttribute("aria-valuetext")).toBe("Strong");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect.poll(() => toast(page, "Account created successfully!").isVisible()).toBe(true);
    // Cleared, and on to signing in with the address filled in.
    await expect.poll(() => page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe(email);

    await page.getByLabel("Password", { exact: true }).fill("abcdefG1");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    const banner = page.getByTestId("email-verification-banner");
    await expect.poll(() => banner.textContent()).toContain(email);
    await screenshot(page, "dashboard-unverified");

    // The sign-up mail went out a moment ago: resending is refused for a minute, said kindly.
    await banner.getByRole("button", { name: "Resend Email" }).click();
    await expect.poll(() => toast(page, "Failed to resend confirmation").isVisible()).toBe(true);
    await expect.poll(() => visible(page, "Too many attempts. Please wait a few minutes before trying again.")).toBe(true);

    const mail = await smtp.waitForMail(email);
    await page.goto(firstLink(mail.text));
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe("/");
    await expect.poll(() => toast(page, "Email confirmed").isVisible()).toBe(true);
    await nav(page).getByRole("link", { name: "Dashboard" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    await expect.poll(() => visible(page, "Dashboard")).toBe(true);
    expect(await banner.count()).toBe(0);

    await nav(page).getByRole("button", { name: "Sign Out" }).click();
    await expect.poll(() => toast(page, "Signed out").isVisible()).toBe(true);
    await expect.poll(() => visible(page, "You have been successfully signed out.")).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
    await expect.poll(() => nav(page).getByRole("link", { name: "Sign In" }).isVisible()).toBe(true);
    // The refused resend above answers 429 on purpose; Chromium may log that response. Nothing else may fail.
    expect(problems.filter((problem) => !/status of 429/.test(problem))).toEqual([]);
  });

  it("shows only the first sign-in error, then the attempts banners, then the lock", async () => {
    const email = newEmail();
    await signUp(server.url, { email });
    const { page, problems } = await open("/auth");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect.poll(() => visible(page, "Email is required")).toBe(true);
    expect(await page.getByText("Password is required").count()).toBe(0);

    for (let attempt = 1; attempt < AUTH.maxFailedAttempts; attempt += 1) {
      await signIn(page, email, "Wrong-password1");
      const left = AUTH.maxFailedAttempts - attempt;
      await expect.poll(() => visible(page, `${left} ${left === 1 ? "attempt" : "attempts"} remaining`)).toBe(true);
    }
    await expect.poll(() => toast(page, "Invalid credentials").first().isVisible()).toBe(true);
    await expect.poll(() => visible(page, "The email or password you entered is incorrect. Please check and try again.")).toBe(true);
    await screenshot(page, "auth-attempts-remaining");

    await signIn(page, email, "Wrong-password1");
    await expect.poll(() => toast(page, "Account locked").isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole("alert").filter({ hasText: "Account temporarily locked" }).textContent())
      .toContain(`Try again in ${AUTH.lockoutMinutes} minutes`);
    await expect.poll(() => page.getByRole("button", { name: "Sign In", exact: true }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByLabel("Password", { exact: true }).isDisabled()).toBe(true);
    await screenshot(page, "auth-locked");

    // The lock is the address's: another one may sign in.
    await page.getByLabel("Email").fill(newEmail());
    await expect.poll(() => page.getByRole("button", { name: "Sign In", exact: true }).isDisabled()).toBe(false);
    // A fresh page asks the server first (validate-login) and blocks the form at once.
    await page.reload();
    await signIn(page, email);
    await expect.poll(() => visible(page, "Account temporarily locked")).toBe(true);
    expect(problems).toEqual([]);
  });

  it("returns to the protected page that sent the visitor to sign in", async () => {
    const email = newEmail();
    await signUp(server.url, { email });
    const { page, problems } = await open("/teams");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/auth");
    await signIn(page, email);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/teams");
    // Read once: /auth now goes to the dashboard.
    await page.goto(`${server.url}/auth`);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    expect(problems).toEqual([]);
  });

  it("asks for the second factor, checks its shape on the device, and accepts a backup code", async () => {
    const email = newEmail();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana Lima" });
    await client.auth.signIn.mutate({ email, password: PASSWORD, rememberMe: false });
    const enrollment = await client.twoFactor.beginEnrollment.mutate({ password: PASSWORD });
    const key = decodeBase32IgnorePadding(enrollment.secret);
    const { backupCodes } = await client.twoFactor.confirmEnrollment.mutate({ code: totpCode(key, totpStep(clock.now())) });

    const { page, problems } = await open("/auth", { width: 390, height: 844, colorScheme: "dark" });
    await signIn(page, email);
    await expect.poll(() => page.getByRole("heading", { name: "Two-factor authentication" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => visible(page, "Please enter a verification code")).toBe(true);
    await page.getByLabel("Authentication code").fill("123");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => visible(page, "Invalid verification code")).toBe(true);
    await screenshot(page, "auth-two-factor-phone-dark");

    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(backupCodes[0]!.toLowerCase());
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => toast(page, "Backup code accepted").isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    expect(problems).toEqual([]);
  });

  it("enrolls two-factor in /settings from the shown secret, then signs in with a generated code and with a backup code", async () => {
    const email = newEmail();
    await signUp(server.url, { email });
    const { page, problems } = await open("/auth");
    await signIn(page, email);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    await page.goto(`${server.url}/settings`);
    // The password is asked again first: a wrong one is refused under its field.
    const setUp = page.getByRole("button", { name: "Set up two-factor authentication" });
    await page.getByLabel("Your password", { exact: true }).fill("Not-The-Password1");
    await setUp.click();
    await expect.poll(() => visible(page, "Your current password is incorrect")).toBe(true);
    expect(await page.getByTestId("totp-secret").count()).toBe(0);
    await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
    await setUp.click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    await expect.poll(() => page.getByRole("img", { name: /QR code/ }).isVisible()).toBe(true);
    await screenshot(page, "settings-two-factor-enrol");
    const key = decodeBase32IgnorePadding(secret);
    await page.getByLabel("6-digit code").fill(totpCode(key, totpStep(clock.now())));
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect.poll(() => toast(page, "Two-factor authentication enabled").isVisible()).toBe(true);
    const codes = (await page.getByTestId("backup-codes").locator("li").allTextContents()).map((code) => code.trim());
    expect(codes).toHaveLength(10);
    await screenshot(page, "settings-backup-codes");
    await page.getByRole("button", { name: "I have saved my backup codes" }).click();
    await expect.poll(() => visible(page, "Two-factor authentication is on")).toBe(true);
    await expect.poll(() => page.getByTestId("session-list").locator("li").count()).toBe(1);

    // Sign out, then in again with a code from the "authenticator" (the next 30-second step).
    await nav(page).getByRole("button", { name: "Sign Out" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
    offset += 30_000;
    await page.goto(`${server.url}/auth`);
    await signIn(page, email);
    await page.getByLabel("Authentication code").fill(totpCode(key, totpStep(clock.now())));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => toast(page, "Verification successful").isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");

    await nav(page).getByRole("button", { name: "Sign Out" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
    await page.goto(`${server.url}/auth`);
    await signIn(page, email);
    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(codes[3]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => toast(page, "Backup code accepted").isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    // Only the wrong password's refusal, which the browser logs as a failed request.
    expect(problems.filter((problem) => !/status of 400 .*twoFactor\.beginEnrollment/.test(problem))).toEqual([]);
  });

  it("warns at 25 idle minutes, extends on request, and signs out at 30", async () => {
    const email = newEmail();
    await signUp(server.url, { email });
    const { page, problems } = await open("/auth", { beforeLoad: fakeClock });
    await signIn(page, email);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");

    await skip(page, AUTH.idleWarningMs);
    await expect.poll(() => toast(page, "Session expiring soon").isVisible()).toBe(true);
    await expect.poll(() => visible(page, "Your session will expire in 5 minutes due to inactivity")).toBe(true);
    await screenshot(page, "idle-warning");
    await toast(page, "Session expiring soon").getByRole("button", { name: "Stay signed in" }).click();
    await expect.poll(() => toast(page, "Session extended").isVisible()).toBe(true);

    // Nothing more happens until a full idle timeout after the extension.
    await skip(page, AUTH.idleTimeoutMs);
    await expect.poll(() => toast(page, "Session expired").isVisible()).toBe(true);
    await expect.poll(() => visible(page, "You have been signed out due to inactivity.")).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/auth");
    await expect.poll(() => nav(page).getByRole("link", { name: "Sign In" }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("keeps a remember-me session without idle warnings, and shows Dashboard and Sign Out in the phone menu", async () => {
    const email = newEmail();
    await signUp(server.url, { email });
    const { page, problems } = await open("/auth", { beforeLoad: fakeClock, width: 390, height: 844 });
    await page.getByLabel("Remember me for 30 days").check();
    await signIn(page, email);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
    await skip(page, AUTH.idleTimeoutMs + 60_000);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.locator("#mobile-menu");
    await expect.poll(() => menu.getByRole("link", { name: "Dashboard" }).isVisible()).toBe(true);
    await expect.poll(() => menu.getByRole("button", { name: "Sign Out" }).isVisible()).toBe(true);
    expect(
      await page
        .locator("[data-sonner-toast]")
        .filter({ hasText: /Session/ })
        .count(),
    ).toBe(0);
    await screenshot(page, "menu-phone-signed-in");
    await menu.getByRole("button", { name: "Sign Out" }).click();
    await expect.poll(() => toast(page, "Signed out").isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });
});
