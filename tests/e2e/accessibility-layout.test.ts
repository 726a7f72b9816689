/**
 * Layout on a phone (390 × 844, issue 17): the floating help button never covers content. At every
 * scroll position it keeps clear of the French sign-up form's fields, their messages and the
 * password strength meter ("Faible"), and of the landing page's hero picture; toasts are placed so
 * they do not sit on it. Overlaps are measured with getBoundingClientRect (text by its line boxes).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, useBrowsers, screenshotViewport } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const PHONE = { width: 390, height: 844 } as const;
const DESKTOP = { width: 1366, height: 900 } as const;
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });

/**
 * What the help button covers now, among the content `selector` names (elements whose text is
 * measured line by line when `text`): one line each, empty when it covers nothing. A button that
 * has faded out of the way covers nothing.
 */
async function covered(page: Page, targets: { selector: string; text?: boolean }[]): Promise<string[]> {
  // The button arrives with the shell's later parts, after the page's first paint.
  await page.getByTestId("help-button").waitFor({ state: "attached" });
  return page.evaluate(async (targets) => {
    // The button measures the page in a frame after the scroll, then moves or fades (CSS transitions):
    // read it once two frames and its transitions have passed twice with it in the same place.
    const button = document.querySelector<HTMLElement>("[data-testid=help-button]");
    if (!button) return ["no help button"];
    let before = "";
    for (let round = 0; round < 30; round++) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await Promise.all(button.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
      const box = button.getBoundingClientRect();
      const now = `${box.top} ${box.left} ${getComputedStyle(button).opacity}`;
      if (now === before) break;
      before = now;
    }
    if (getComputedStyle(button).opacity === "0") return [];
    const own = button.getBoundingClientRect();
    const found: string[] = [];
    const overlaps = (rect: DOMRect) =>
      rect.width > 0 && rect.height > 0 && rect.left < own.right && rect.right > own.left && rect.top < own.bottom && rect.bottom > own.top;
    for (const { selector, text } of targets) {
      for (const element of document.querySelectorAll(selector)) {
        const rects: DOMRect[] = [];
        if (text) {
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent?.trim() || node.parentElement?.closest(".sr-only")) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            rects.push(...range.getClientRects());
          }
        } else rects.push(element.getBoundingClientRect());
        if (rects.some(overlaps))
          found.push(`${selector} "${(element.textContent ?? "").trim().slice(0, 40)}" at scroll ${Math.round(scrollY)}`);
      }
    }
    return found;
  }, targets);
}

/** Scrolls from the top to the bottom of the page in steps, collecting what the button covers at each. */
async function coveredWhileScrolling(page: Page, targets: { selector: string; text?: boolean }[], name: string): Promise<string[]> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  const found: string[] = [];
  let step = 0;
  for (let y = 0; y <= height + 30; y += 30, step++) {
    await page.evaluate((top) => scrollTo(0, top), y);
    found.push(...(await covered(page, targets)));
    if (step % 8 === 0) await screenshotViewport(page, `${name}-scroll-${y}`);
  }
  return found;
}

describeBrowser("the floating help button keeps clear of content on a phone", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  it.each(["light", "dark"] as const)(
    "keeps clear of the French sign-up form's fields, messages and strength meter (%s)",
    async (theme) => {
      const { page } = await open("/auth?tab=signup", { ...PHONE, colorScheme: theme, locale: "fr-FR" });
      const submit = page.getByRole("button", { name: "Créer un compte", exact: true });
      await poll(() => submit.isVisible()).toBe(true);
      // Every field's message, then a weak password: the meter shows "Faible".
      await submit.click();
      await poll(() => page.locator("[id$=-error]").count()).toBeGreaterThan(1);
      await page.getByLabel("Mot de passe", { exact: true }).fill("abc");
      await poll(() => page.getByTestId("password-strength").textContent()).toContain("Faible");
      await page.getByLabel("Mot de passe", { exact: true }).focus();
      const targets = [
        { selector: "main form input:not([type=hidden])" },
        { selector: "main form button" },
        { selector: "main form [id$=-error]", text: true },
        { selector: "main form label", text: true },
        { selector: "[data-testid=password-strength] [role=meter]" },
        { selector: "[data-testid=password-strength]", text: true },
      ];
      await screenshotViewport(page, `help-button-signup-fr-phone-${theme}`);
      expect(await covered(page, targets)).toEqual([]);
      expect(await coveredWhileScrolling(page, targets, `help-button-signup-fr-phone-${theme}`)).toEqual([]);
    },
    90_000,
  );

  // Once, in the light theme: the themes change colours, not where anything is (the sign-up form above is
  // checked in both, and the landing page's colours in the dark theme by the accessibility test).
  it.each(["light"] as const)(
    "keeps clear of the landing page's hero picture, and stays in its corner where nothing is under it (%s)",
    async (theme) => {
      const { page } = await open("/", { ...PHONE, colorScheme: theme, locale: "fr-FR" });
      const button = page.getByTestId("help-button");
      await poll(() => button.isVisible()).toBe(true);
      await poll(() => page.getByTestId("hero-picture").isVisible()).toBe(true);
      // At the top, nothing sits in its corner: it stays there.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const box = (await button.boundingBox())!;
      expect(box.y + box.height).toBeGreaterThan(PHONE.height - 40);
      const found = await coveredWhileScrolling(
        page,
        [{ selector: "[data-testid=hero-picture]" }, { selector: "main a[href]" }, { selector: "main button" }],
        `help-button-landing-phone-${theme}`,
      );
      expect(found).toEqual([]);
    },
    120_000,
  );

  it("writes the support address in the help drawer's tile without breaking a word, on a phone (issue 27)", async () => {
    const { page, problems } = await open("/", PHONE);
    await page.getByTestId("help-button").click();
    const address = page.getByTestId("help-email-support").locator("span[title]");
    await poll(() => address.isVisible()).toBe(true);
    // The shipped address is longer than the tile is wide: it takes two lines, each holding whole parts.
    const lines = await address.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      const texts: Text[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
      const parts = texts.map((node) => {
        const part = document.createRange();
        part.selectNodeContents(node);
        return { text: node.textContent, lines: new Set([...part.getClientRects()].map((rect) => Math.round(rect.top))).size };
      });
      return { count: tops.size, text: element.textContent, parts };
    });
    expect(lines.text).toBe("support@roomcanvas.local");
    expect(lines.count).toBeGreaterThan(1);
    expect(lines.parts.filter((part) => part.lines > 1)).toEqual([]);
    await screenshotViewport(page, "help-drawer-support-address-phone");
    expect(problems).toEqual([]);
  });

  it.each([
    { device: "phone", viewport: PHONE },
    { device: "desktop", viewport: DESKTOP },
  ] as const)(
    "places a toast where it does not sit on the help button ($device)",
    async ({ device, viewport }) => {
      const { page } = await open("/auth", { ...viewport, locale: "fr-FR" });
      await page.getByLabel("Adresse e-mail").fill("nobody@example.com");
      await page.getByLabel("Mot de passe", { exact: true }).fill("Wrong-Password1");
      await page.getByRole("button", { name: "Se connecter", exact: true }).click();
      const toast = page.locator("[data-sonner-toast]").first();
      await poll(() => toast.isVisible()).toBe(true);
      // Once it has slid in.
      await toast.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
      const help = (await page.getByTestId("help-button").boundingBox())!;
      const placed = (await toast.boundingBox())!;
      await screenshotViewport(page, `help-button-toast-${device}`);
      const apart =
        placed.y + placed.height <= help.y ||
        help.y + help.height <= placed.y ||
        placed.x + placed.width <= help.x ||
        help.x + help.width <= placed.x;
      expect(apart, `toast ${JSON.stringify(placed)} vs help button ${JSON.stringify(help)}`).toBe(true);
    },
    60_000,
  );
});
