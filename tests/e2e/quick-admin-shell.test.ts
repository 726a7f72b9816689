/**
 * The Quick Admin bar's shell costs a customer nothing (issue 27, item 3), on a phone (390 px) and
 * a desktop (1366 px), light and dark, in English, Spanish and French. A signed-in non-admin has no
 * bar: no fixed strip at the bottom of the screen, no room kept for one, the help button in its own
 * corner; one small "Quick System Testing" control in the footer's flow, which covers no content
 * and does not touch the help button, opens the panel with "Access denied. Admin privileges
 * required." An admin keeps the bar as it was: the whole width at the bottom, the help button
 * above it, "Full Admin Dashboard", the self-tests.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import type { Language } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 10_000, ...options });

const LOCALES: Record<Language, string> = { en: "en-US", es: "es-ES", fr: "fr-FR" };
const cases = [
  { width: 390, height: 844, theme: "light", language: "en" },
  { width: 390, height: 844, theme: "dark", language: "es" },
  { width: 1366, height: 900, theme: "light", language: "fr" },
  { width: 1366, height: 900, theme: "dark", language: "en" },
] as const;

/** A text of the interface in `language`, by its key. */
function text(language: Language, key: string): string {
  const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], translations[language]);
  if (typeof value !== "string") throw new Error(`no text ${key} in ${language}`);
  return value;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box, gap = 0) =>
  a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;

/** Fixed or sticky elements in the lower half of the screen that run (nearly) its whole width: a strip. */
function bottomStrips(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => {
        const style = getComputedStyle(element);
        if (style.position !== "fixed" && style.position !== "sticky") return false;
        const box = element.getBoundingClientRect();
        return box.width >= window.innerWidth * 0.9 && box.height > 0 && box.top > window.innerHeight / 2;
      })
      .map((element) => element.outerHTML.slice(0, 120)),
  );
}

/** The control's position in the page's flow: neither it nor any box around it is fixed, sticky or absolute. */
function inFlow(control: Locator) {
  return control.evaluate((element) => {
    const positions: string[] = [];
    for (let node: Element | null = element; node && node !== document.body; node = node.parentElement)
      positions.push(getComputedStyle(node).position);
    return positions.every((position) => position === "static" || position === "relative");
  });
}

/** Visible content elements (outside the control and the boxes around it) whose box meets the control's. */
function contentUnder(control: Locator) {
  return control.evaluate((element) => {
    const own = element.getBoundingClientRect();
    const selector = "a, button, input, select, textarea, img, svg, p, h1, h2, h3, h4, li, label, span, figure, video, canvas";
    return (
      [...document.querySelectorAll(selector)]
        // A notification passing by (the sign-in's toast) may cover anything for its few seconds.
        .filter((other) => !element.contains(other) && !other.contains(element) && !other.closest("[data-sonner-toaster]"))
        .filter((other) => {
          const box = other.getBoundingClientRect();
          if (box.width === 0 || box.height === 0 || getComputedStyle(other).visibility === "hidden") return false;
          return box.left < own.right && own.left < box.right && box.top < own.bottom && own.top < box.bottom;
        })
        .map((other) => other.outerHTML.slice(0, 120))
    );
  });
}

describeBrowser("the Quick Admin bar's shell in a browser", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { launch } = useBrowsers(() => server.url);

  it.each(cases)(
    "gives a non-admin one small control in the footer that covers nothing, and Access denied ($width px, $theme, $language)",
    async ({ width, height, theme, language }) => {
      const member = await signedInClient(server.url);
      const { page, problems } = await launch({ width, height, colorScheme: theme, locale: LOCALES[language] });
      await signIn(page, server.url, member.email, { language });
      const control = page.getByTestId("quick-admin-control");
      const help = page.getByTestId("help-button");
      await poll(() => control.count()).toBe(1);
      await poll(() => help.isVisible()).toBe(true);
      // The dashboard itself, not its loading screen: the content the control must not cover.
      await poll(() => page.locator("main h1").isVisible()).toBe(true);

      // No bar, no strip at the bottom of the screen, no room kept for one.
      expect(await page.getByTestId("quick-admin-bar").count()).toBe(0);
      expect(await bottomStrips(page)).toEqual([]);
      const padding = await page.evaluate(() => getComputedStyle(document.querySelector("#root > div")!).paddingBottom);
      expect(parseFloat(padding)).toBe(0);
      // The help button in its own corner, as for a visitor (1 rem from the bottom on a phone, 1.5 rem
      // on a desktop; on a phone it may rise past content there, keepClear.ts), not above a bar.
      expect(await help.evaluate((element) => getComputedStyle(element).bottom)).toBe(width < 640 ? "16px" : "24px");
      await screenshot(page, `quick-admin-shell-member-dashboard-${width}-${theme}-${language}`);

      // One small control, in the page's flow: it covers no content, and nothing covers it.
      expect(await control.textContent()).toBe(text(language, "quickAdmin.toggle"));
      expect(await inFlow(control)).toBe(true);
      await control.scrollIntoViewIfNeeded();
      const box = (await control.boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(40);
      expect(box.width).toBeLessThan(Math.min(width / 2, 260));
      expect(await contentUnder(control)).toEqual([]);
      expect(
        await control.evaluate((element) => {
          const own = element.getBoundingClientRect();
          const top = document.elementFromPoint(own.left + own.width / 2, own.top + own.height / 2);
          // A notification passing by (the sign-in's toast) may cover anything for its few seconds.
          if (!top || element.contains(top) || top.closest("[data-sonner-toaster]")) return "the control";
          return top.outerHTML.slice(0, 160);
        }),
      ).toBe("the control");
      // Not beside the help button (8 px apart at least), here at the end of the page, nor at its very bottom.
      const helpBox = (await help.boundingBox())!;
      expect(overlaps(box, helpBox, 8)).toBe(false);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await poll(async () => overlaps((await control.boundingBox())!, (await help.boundingBox())!, 8)).toBe(false);

      // It opens the panel: the spec's message, in the user's language.
      await control.click();
      const panel = page.getByTestId("quick-admin-panel");
      await poll(() => panel.getByTestId("access-denied").textContent()).toBe(text(language, "admin.accessDenied"));
      if (language === "en") expect(await panel.getByTestId("access-denied").textContent()).toBe(MESSAGES.adminRequired);
      expect(await control.getAttribute("aria-expanded")).toBe("true");
      expect(await panel.getByTestId("self-test-item").count()).toBe(0);
      await control.scrollIntoViewIfNeeded();
      await screenshot(page, `quick-admin-shell-member-denied-${width}-${theme}-${language}`);
      await control.click();
      await poll(() => panel.count()).toBe(0);

      // The landing page too: the control in the footer, no strip.
      await page.goto(`${server.url}/`);
      await poll(() => control.count()).toBe(1);
      await poll(() => page.locator("main h1").isVisible()).toBe(true);
      expect(await contentUnder(control)).toEqual([]);
      expect(await page.getByTestId("quick-admin-bar").count()).toBe(0);
      expect(await bottomStrips(page)).toEqual([]);
      expect(problems).toEqual([]);
    },
    60_000,
  );

  it.each(cases)(
    "keeps the whole bar for an admin ($width px, $theme, $language)",
    async ({ width, height, theme, language }) => {
      const { page, problems } = await launch({ width, height, colorScheme: theme, locale: LOCALES[language] });
      await signIn(page, server.url, admin.email, { language });
      const bar = page.getByTestId("quick-admin-bar");
      await poll(() => bar.isVisible()).toBe(true);
      expect(await page.getByTestId("quick-admin-control").count()).toBe(0);

      // Fixed along the bottom, the whole width; the page keeps room for it; the help button above it.
      const barBox = (await bar.boundingBox())!;
      expect(barBox.x).toBe(0);
      expect(barBox.width).toBe(width);
      expect(Math.round(barBox.y + barBox.height)).toBe(height);
      const padding = await page.evaluate(() => getComputedStyle(document.querySelector("#root > div")!).paddingBottom);
      expect(parseFloat(padding)).toBeGreaterThanOrEqual(48);
      const help = (await page.getByTestId("help-button").boundingBox())!;
      expect(help.y + help.height).toBeLessThanOrEqual(barBox.y);
      expect(await bar.getByRole("button", { name: text(language, "quickAdmin.toggle") }).isVisible()).toBe(true);
      expect(await bar.getByRole("link", { name: text(language, "quickAdmin.fullDashboard") }).isVisible()).toBe(true);

      await bar.getByRole("button", { name: text(language, "quickAdmin.toggle") }).click();
      const panel = page.getByTestId("quick-admin-panel");
      await poll(() => panel.getByRole("tab", { name: text(language, "selfTest.systemTab") }).isVisible()).toBe(true);
      expect(await panel.getByTestId("access-denied").count()).toBe(0);
      await screenshot(page, `quick-admin-shell-admin-${width}-${theme}-${language}`);
      expect(problems).toEqual([]);
    },
    60_000,
  );
});
