/**
 * The product with the keyboard alone (issue 17, WCAG 2.1.1 and 2.4.7), on a desktop (light) and a
 * phone (dark): a visitor's free render (Try Without Signup, the file chosen through the Choose
 * file button, a style, Render), the help drawer opened and closed with Escape, the theme and the
 * language switched, signing up and signing in. Only Tab, Shift+Tab, arrows, Space, Enter, Escape
 * and typing; at every stop the focused element must show a focus indicator (an outline, or a ring
 * drawn with box-shadow).
 */
import path from "node:path";
import type { BrowserContext, FileChooser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { PASSWORD, uniqueEmail } from "../helpers/render";
import { describeBrowser, launchPage, screenshot, waitForRender } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 10_000, ...options });

interface Focused {
  /** What the focused element is: tag, role, name. */
  label: string;
  /** Why it shows no focus indicator, or null when it shows one. */
  missing: string | null;
}

/** The focused element and whether it shows a focus indicator. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { label: "body", missing: "nothing is focused" };
    const labelled = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null;
    const name = (element.getAttribute("aria-label") ?? labelled ?? element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 50);
    const role = element.getAttribute("role") ?? (element instanceof HTMLInputElement && element.type === "radio" ? "radio" : null);
    const label = `<${element.tagName.toLowerCase()}${role ? ` role=${role}` : ""}> "${name}"`;
    const computed = getComputedStyle(element);
    const outline =
      computed.outlineStyle !== "none" && parseFloat(computed.outlineWidth) > 0 && computed.outlineColor !== "rgba(0, 0, 0, 0)";
    if (outline) return { label, missing: null };
    // A ring drawn with box-shadow: a layer with no offset and no blur, spread out, in a colour one can see
    // (a plain drop shadow, which the element has unfocused too, does not count).
    const ring = computed.boxShadow.split(/,(?![^(]*\))/).some((layer) => {
      const match = /[a-z]+\(([^)]*)\)\s+(-?[\d.]+)px\s+(-?[\d.]+)px\s+([\d.]+)px\s+([\d.]+)px/.exec(layer.trim());
      if (!match) return false;
      const alpha = match[1]!.includes("/") ? match[1]!.split("/")[1] : match[1]!.split(",")[3];
      return (
        match[2] === "0" &&
        match[3] === "0" &&
        match[4] === "0" &&
        parseFloat(match[5]!) >= 1 &&
        (alpha === undefined || parseFloat(alpha) > 0)
      );
    });
    if (ring) return { label, missing: null };
    return { label, missing: `${label} shows no focus indicator (outline none, box-shadow ${computed.boxShadow})` };
  });
}

describeBrowser("every flow with the keyboard alone, with a visible focus ring", () => {
  let server: TestServer;
  let browser: BrowserContext | undefined;
  let photo: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    photo = path.join(makeTempDir("rc-keyboard-"), "room.jpg");
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#d6cfc2" } })
      .composite([{ input: Buffer.from(`<svg width="1200" height="900"><rect y="640" width="1200" height="260" fill="#8b6b4a"/></svg>`) }])
      .jpeg()
      .toFile(photo);
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    { device: "desktop", width: 1366, height: 900, theme: "light" },
    { device: "phone", width: 390, height: 844, theme: "dark" },
  ] as const)(
    "renders, opens help, switches theme and language, signs up and in ($device, $theme)",
    async ({ device, width, height, theme }) => {
      const opened = await launchPage({ width, height, colorScheme: theme });
      browser = opened.browser;
      const { page, problems } = opened;
      const missing: string[] = [];
      const visited: string[] = [];

      /** Presses `key` (Tab by default) until the focused element's label matches; checks the focus ring at every stop. */
      async function tabTo(pattern: RegExp, key = "Tab", limit = 80): Promise<void> {
        for (let step = 0; step < limit; step++) {
          await page.keyboard.press(key);
          const now = await focused(page);
          visited.push(now.label);
          // Past the last element the focus leaves the page for a moment (the browser's own controls).
          if (now.missing && now.label !== "body") missing.push(`${new URL(page.url()).pathname}: ${now.missing}`);
          if (pattern.test(now.label)) return;
        }
        throw new Error(`${pattern} not reached with ${key} on ${page.url()}; last stops: ${visited.slice(-12).join(" | ")}`);
      }
      async function expectRing(): Promise<void> {
        const now = await focused(page);
        if (now.missing) missing.push(`${new URL(page.url()).pathname}: ${now.missing}`);
      }

      // A visitor's free render, from the landing page.
      await page.goto(`${server.url}/`);
      await poll(() => page.getByRole("link", { name: "Try Without Signup" }).first().isVisible()).toBe(true);
      await tabTo(/Try Without Signup/);
      await page.keyboard.press("Enter");
      await poll(() => new URL(page.url()).pathname).toBe("/upload");
      await tabTo(/Choose file/);
      // The page is pre-rendered: Enter does nothing until its code has loaded, so it is pressed again if need be.
      let chooser: FileChooser | undefined;
      for (let attempt = 0; attempt < 5 && !chooser; attempt++) {
        [chooser] = await Promise.all([
          page.waitForEvent("filechooser", { timeout: 4_000 }).catch(() => undefined),
          page.keyboard.press("Enter"),
        ]);
      }
      if (!chooser) throw new Error("Enter on Choose file opened no file chooser");
      await chooser.setFiles(photo);
      await poll(() => page.getByTestId("uploaded-picture").isVisible(), { timeout: 20_000 }).toBe(true);
      await tabTo(/role=radio/);
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Space");
      await expectRing();
      await poll(() => page.getByRole("radio", { checked: true }).count()).toBe(1);
      await screenshot(page, `keyboard-style-${device}-${theme}`);
      await tabTo(/^<button> "Render"$/);
      await page.keyboard.press("Enter");
      await waitForRender(page, { timeoutMs: 30_000 });

      // The help drawer: opened from the keyboard, closed with Escape, the focus back on the button.
      await tabTo(/Help & Support/);
      await page.keyboard.press("Enter");
      const drawer = page.getByRole("dialog", { name: "Help & Support" });
      await poll(() => drawer.isVisible()).toBe(true);
      await page.keyboard.press("Tab");
      await expectRing();
      await page.keyboard.press("Escape");
      await poll(() => drawer.isVisible()).toBe(false);
      await poll(async () => (await focused(page)).label).toMatch(/Help & Support/);
      await expectRing();

      // The theme.
      const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
      const wasDark = await dark();
      await page.keyboard.press("Escape");
      await page.evaluate(() => window.scrollTo(0, 0));
      await tabTo(/Switch to (dark|light) theme/, "Shift+Tab", 200);
      await page.keyboard.press("Enter");
      await poll(dark).toBe(!wasDark);
      await expectRing();

      // The language: the desktop menu, or the phone's menu and its language buttons.
      if (device === "desktop") {
        await tabTo(/English/, "Shift+Tab");
        await page.keyboard.press("Enter");
        await poll(() => page.getByRole("menu").isVisible()).toBe(true);
        // The menu's code arrives on first use; opened by the keyboard, it starts on its first item.
        await poll(async () => (await focused(page)).label).toMatch(/English/);
        await expectRing();
        await tabTo(/Español/, "ArrowDown", 5);
      } else {
        await tabTo(/Open menu|menu/i);
        await page.keyboard.press("Enter");
        await tabTo(/Español/);
      }
      await page.keyboard.press("Enter");
      await poll(() => page.evaluate(() => document.documentElement.lang)).toBe("es");
      await screenshot(page, `keyboard-language-${device}-${theme}`);
      // Back to English, the same way.
      if (device === "desktop") {
        await tabTo(/Español/, "Shift+Tab", 5).catch(() => tabTo(/Español/));
        await page.keyboard.press("Enter");
        await poll(() => page.getByRole("menu").isVisible()).toBe(true);
        await tabTo(/English/, "Home", 2);
        await page.keyboard.press("Enter");
      } else {
        await tabTo(/English/, "Shift+Tab", 10);
        await page.keyboard.press("Enter");
      }
      await poll(() => page.evaluate(() => document.documentElement.lang)).toBe("en");

      // Sign up, then sign in, from the navigation bar's Sign In.
      await page.goto(`${server.url}/`);
      await poll(() => page.getByRole("link", { name: "Try Without Signup" }).first().isVisible()).toBe(true);
      if (device === "phone") {
        await tabTo(/Open menu|menu/i);
        await page.keyboard.press("Enter");
      }
      await tabTo(/^<a> "Sign In"$/);
      await page.keyboard.press("Enter");
      await poll(() => new URL(page.url()).pathname).toBe("/auth");
      await tabTo(/role=tab> "Sign In"/);
      await page.keyboard.press("ArrowRight");
      await poll(() => page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
      await expectRing();
      const email = uniqueEmail();
      await tabTo(/^<input> "Full Name"$/i);
      await page.keyboard.type("Kim Keyboard");
      await tabTo(/^<input> "Email"$/i);
      await page.keyboard.type(email);
      await tabTo(/^<input> "Password"$/);
      await page.keyboard.type(PASSWORD);
      await tabTo(/Create Account/);
      await page.keyboard.press("Enter");
      await poll(() => page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
      // The address is filled in: the password, then Sign In.
      await tabTo(/^<input> "Password"$/);
      await page.keyboard.type(PASSWORD);
      await tabTo(/^<button> "Sign In"$/);
      await page.keyboard.press("Enter");
      await poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/dashboard");
      await screenshot(page, `keyboard-dashboard-${device}-${theme}`);

      expect([...new Set(missing)]).toEqual([]);
      expect(problems).toEqual([]);
    },
    180_000,
  );
});
