/**
 * The landing page, its demo dialog and the footer in a browser, against the real server: on a
 * 390×844 phone and a 1280×800 desktop, in English and in Spanish. The demo's timing is driven
 * with Playwright's clock. Screenshots of the landing page in light and dark, on both sizes.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations, type TranslationTree } from "../../src/client/i18n/resources";
import { engineTextKey } from "../../src/client/lib/engineCopy";
import { describeBrowser, screenshot, signUpAndSignIn, useBrowsers, screenshotViewport } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";
import { createHttpClient } from "../helpers/trpc-client";

const SUPPORT_EMAIL = "studio-help@example.com";
const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;
const LOCALES = [
  { language: "en", locale: "en-US" },
  { language: "es", locale: "es-ES" },
] as const;
type Language = (typeof LOCALES)[number]["language"];

/** A text of the interface as the client has it, with {{placeholders}} filled. */
function text(language: Language, key: string, values: Record<string, string | number> = {}): string {
  let node: string | TranslationTree | undefined = translations[language];
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`no text ${key} in ${language}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
}

/** The spec's English texts, word for word: the client must hold exactly these. */
const SPEC_ENGLISH: Record<string, string> = {
  "landing.tryWithoutSignup": "Try Without Signup",
  "landing.signUpForMore": "Sign Up for More",
  "home.hero.watchDemo": "Watch Demo",
  "home.hero.goToDashboard": "Go to Dashboard",
  "home.problem.tryItFreeNow": "Try It Free Now",
  "home.problem.studioTime": "2-4 weeks",
  "home.problem.studioCost": "$500-5000",
  "home.audience.homeowners": "Homeowners",
  "home.audience.designers": "Interior Designers",
  "home.audience.agents": "Real Estate Agents",
  "home.audience.viewPricing": "View Pricing",
  "home.cta.startFreeTrial": "Start Free Trial",
  "home.cta.scheduleDemo": "Schedule Demo",
  "home.footer.helpCenter": "Help Center",
  "home.footer.contact": "Contact",
  "footer.rightsReserved": "All rights reserved",
  "demo.title": "{{product}} See How It Works",
  "demo.steps.upload": "Upload Your Space",
  "demo.steps.style": "Choose Your Style",
  "demo.steps.magic": "AI Magic Happens",
  "demo.steps.magicBody": "{{product}} transforms your space in 30 seconds",
  "demo.steps.results": "Beautiful Results",
  "demo.badgeBefore": "BEFORE",
  "demo.badgeAfter": "AFTER - 30 seconds",
  "demo.whyChoose": "Why Choose {{product}}?",
  "demo.reasons.fast": "30-second rendering",
  "demo.reasons.quality": "Photorealistic quality",
  "demo.reasons.easy": "No design experience needed",
  "demo.reasons.price": "Affordable pricing",
};

const STEP_KEYS = ["demo.steps.upload", "demo.steps.style", "demo.steps.magic", "demo.steps.results"] as const;

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });
const path_ = (page: Page) => new URL(page.url()).pathname;

/** A screenshot of what the screen shows (a dialog is fixed to it; a full-page one would crop it oddly). */
it("holds the spec's English texts word for word", () => {
  for (const [key, english] of Object.entries(SPEC_ENGLISH)) {
    expect(text("en", key, { product: "{{product}}" }), key).toBe(english);
  }
  expect(text("en", "demo.title", { product: "RoomCanvas" })).toBe("RoomCanvas See How It Works");
});

describeBrowser("the landing page in a browser", () => {
  let server: TestServer;
  let version: string;

  beforeAll(async () => {
    server = await startTestServer({ SUPPORT_EMAIL, AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    version = (await createHttpClient(server.url).system.info.query()).version;
  });
  afterAll(async () => {
    await server?.stop();
  });

  // launchBrowser keeps the onboarding tour (tested on its own) closed for signed-in users.
  const { launch } = useBrowsers();

  const step = (page: Page) => page.getByTestId("demo-stage").getAttribute("data-step");

  for (const size of SIZES) {
    for (const { language, locale } of LOCALES) {
      // Two of the four pairings (English on a phone, Spanish on a desktop): each language and each
      // width is walked; the screenshots below cover both themes at both widths (CI's time is bounded).
      if ((language === "en") !== (size.name === "phone")) continue;
      const label = `${size.name}-${language}`;
      const tx = (key: string, values: Record<string, string | number> = {}) => text(language, key, { product: "RoomCanvas", ...values });
      /** A text as this server shows it: it runs the Preview engine, so the AI-only words give way to their honest alternatives. */
      const shown = (key: string, values: Record<string, string | number> = {}) => tx(engineTextKey(key, false), values);

      it(`shows a visitor the hero, the sections and their calls to action, and the footer (${label})`, async () => {
        const { page, problems } = await launch({ width: size.width, height: size.height, locale });
        await page.goto(`${server.url}/`);
        await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(tx("landing.title"));

        // The hero's three ways in.
        const tryLink = page.getByRole("link", { name: tx("landing.tryWithoutSignup"), exact: true });
        expect(await tryLink.getAttribute("href")).toBe("/upload");
        expect(await page.getByRole("button", { name: tx("home.hero.watchDemo") }).isVisible()).toBe(true);
        await poll(() => page.getByRole("link", { name: tx("landing.signUpForMore") }).getAttribute("href")).toBe("/auth?tab=signup");
        expect(await page.getByRole("link", { name: tx("home.hero.goToDashboard") }).count()).toBe(0);

        // The stats strip shows what this studio measured, labelled so, and no invented satisfaction score.
        await poll(() => page.getByTestId("stat-renders").locator("dd").first().textContent()).toMatch(/^\d+$/);
        expect(await page.getByTestId("stat-renders").textContent()).toContain(tx("home.stats.measuredHere"));
        expect(await page.getByTestId("stat-time").textContent()).toContain(tx("home.stats.typicalTime"));
        expect(await page.getByText(tx("home.stats.note")).isVisible()).toBe(true);
        expect(await page.locator("body").textContent()).not.toMatch(/98\s?%/);

        // The problem, the solution with the studio's own before/after pairs, the audience.
        for (const key of ["home.problem.studioTime", "home.problem.studioCost"]) {
          expect(await page.getByText(tx(key), { exact: true }).isVisible()).toBe(true);
        }
        expect(await page.getByRole("link", { name: tx("home.problem.tryItFreeNow") }).getAttribute("href")).toBe("/upload");
        await poll(() => page.getByTestId("landing-examples").getByTestId("compare-slider").isVisible()).toBe(true);
        const pictures = page.getByTestId("landing-examples").locator("img");
        expect(await pictures.count()).toBe(2);
        for (const src of await pictures.evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src))) {
          expect(new URL(src).origin).toBe(server.url);
        }
        for (const key of ["home.audience.homeowners", "home.audience.designers", "home.audience.agents"]) {
          expect(await page.getByRole("heading", { name: tx(key) }).isVisible()).toBe(true);
        }
        expect(await page.getByRole("link", { name: tx("home.audience.viewPricing") }).getAttribute("href")).toBe("/pricing");
        expect(await page.getByRole("link", { name: tx("home.cta.startFreeTrial") }).getAttribute("href")).toBe("/auth?tab=signup");
        const schedule = page.getByRole("link", { name: tx("home.cta.scheduleDemo") });
        await poll(() => schedule.getAttribute("href")).toBe(
          `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(tx("home.cta.scheduleDemoSubject"))}`,
        );

        // The footer: Features and Pricing navigate, Contact writes to the support mailbox,
        // "All rights reserved" is plain text for a visitor.
        const footer = page.locator("footer");
        expect(await footer.getByRole("link", { name: tx("nav.features") }).getAttribute("href")).toBe("/features");
        expect(await footer.getByRole("link", { name: tx("nav.pricing") }).getAttribute("href")).toBe("/pricing");
        expect(await footer.getByRole("link", { name: tx("home.footer.contact") }).getAttribute("href")).toBe(`mailto:${SUPPORT_EMAIL}`);
        expect(await footer.getByText(tx("footer.rightsReserved")).isVisible()).toBe(true);
        expect(await footer.getByRole("button", { name: tx("footer.rightsReserved") }).count()).toBe(0);
        expect(await page.getByTestId("build-info").count()).toBe(0);

        await screenshot(page, `landing-${label}-light`);

        // Features navigates in the page.
        await footer.getByRole("link", { name: tx("nav.features") }).click();
        await poll(() => path_(page)).toBe("/features");
        await page.goBack();
        await poll(() => path_(page)).toBe("/");

        // Help Center opens the help drawer, without leaving the page.
        await page
          .locator("footer")
          .getByRole("button", { name: tx("home.footer.helpCenter") })
          .click();
        expect(path_(page)).toBe("/");
        const helpTitle = language === "en" ? "Help & Support" : text(language, "help.title");
        await poll(() => page.getByRole("dialog", { name: helpTitle }).isVisible()).toBe(true);

        expect(problems).toEqual([]);
      });

      it(`plays the demo: auto-advance by each step's duration, Pause, a dot, Escape, Try Without Signup (${label})`, async () => {
        const { page, problems } = await launch({ width: size.width, height: size.height, locale });
        await page.clock.install();
        await page.goto(`${server.url}/`);
        const watch = page.getByRole("button", { name: tx("home.hero.watchDemo") });
        await poll(() => watch.isVisible()).toBe(true);
        // From here on, time moves only when the test says so.
        await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);

        await watch.click();
        const dialog = page.getByRole("dialog", { name: tx("demo.title") });
        await poll(() => dialog.isVisible()).toBe(true);
        expect(await dialog.getByRole("heading", { level: 2 }).textContent()).toBe(tx("demo.title"));
        const playPause = dialog.getByTestId("demo-play-pause");

        // Step 1: the before picture, badge BEFORE; auto-playing.
        expect(await step(page)).toBe("0");
        expect(await dialog.getByTestId("demo-badge").textContent()).toBe(tx("demo.badgeBefore"));
        expect(await playPause.textContent()).toBe(tx("demo.pause"));
        // The step list and the Why Choose panel.
        const list = dialog.getByTestId("demo-step-list").getByRole("listitem");
        expect(await list.allTextContents()).toEqual(STEP_KEYS.map((key) => expect.stringContaining(shown(key))));
        const why = dialog.getByTestId("demo-why");
        expect(await why.getByRole("heading").textContent()).toBe(tx("demo.whyChoose"));
        for (const key of ["demo.reasons.fast", "demo.reasons.quality", "demo.reasons.easy", "demo.reasons.price"]) {
          expect(await why.getByText(shown(key), { exact: true }).isVisible()).toBe(true);
        }
        await screenshotViewport(page, `demo-${label}`);

        // 3000 ms, then step 2: the three style swatches.
        await page.clock.runFor(2990);
        expect(await step(page)).toBe("0");
        await page.clock.runFor(10);
        await poll(() => step(page)).toBe("1");
        expect(await dialog.getByTestId("demo-swatch").allTextContents()).toEqual(
          ["styles.modern", "styles.scandinavian", "styles.industrial"].map((key) => expect.stringContaining(tx(key))),
        );
        await screenshotViewport(page, `demo-styles-${label}`);

        // 2000 ms, then step 3: the spinner and its line.
        await page.clock.runFor(1990);
        expect(await step(page)).toBe("1");
        await page.clock.runFor(10);
        await poll(() => step(page)).toBe("2");
        expect(await dialog.getByTestId("demo-spinner").isVisible()).toBe(true);
        expect(await dialog.getByTestId("demo-stage").textContent()).toContain(shown("demo.steps.magicBody"));
        await screenshotViewport(page, `demo-magic-${label}`);

        // 3000 ms, then step 4: the after picture, badged as the Preview engine's (the spec's "AFTER - 30 seconds" is an AI engine's).
        await page.clock.runFor(2990);
        expect(await step(page)).toBe("2");
        await page.clock.runFor(10);
        await poll(() => step(page)).toBe("3");
        expect(await dialog.getByTestId("demo-badge").textContent()).toBe(shown("demo.badgeAfter"));
        await screenshotViewport(page, `demo-results-${label}`);

        // 4000 ms, then playback stops back at the first step.
        await page.clock.runFor(3990);
        expect(await step(page)).toBe("3");
        await page.clock.runFor(10);
        await poll(() => step(page)).toBe("0");
        await poll(() => playPause.textContent()).toBe(tx("demo.play"));
        await page.clock.runFor(20_000);
        expect(await step(page)).toBe("0");

        // Play resumes; Pause stops where it is.
        await playPause.click();
        await poll(() => playPause.textContent()).toBe(tx("demo.pause"));
        await page.clock.runFor(3000);
        await poll(() => step(page)).toBe("1");
        await playPause.click();
        await poll(() => playPause.textContent()).toBe(tx("demo.play"));
        await page.clock.runFor(20_000);
        expect(await step(page)).toBe("1");

        // A dot jumps to its step and stops playback.
        await playPause.click();
        await poll(() => playPause.textContent()).toBe(tx("demo.pause"));
        const dot = dialog.getByRole("button", { name: tx("demo.goToStep", { step: 4, title: shown("demo.steps.results") }) });
        await dot.click();
        await poll(() => step(page)).toBe("3");
        expect(await dot.getAttribute("aria-current")).toBe("step");
        expect(await playPause.textContent()).toBe(tx("demo.play"));
        await page.clock.runFor(20_000);
        expect(await step(page)).toBe("3");

        // Escape closes it, and the focus goes back to Watch Demo.
        await page.keyboard.press("Escape");
        await poll(() => dialog.count()).toBe(0);
        await page.clock.runFor(50);
        await poll(() => watch.evaluate((element) => element === document.activeElement)).toBe(true);

        // Open again: it starts over, playing; the focus is held inside.
        await page.keyboard.press("Enter");
        await poll(() => dialog.isVisible()).toBe(true);
        expect(await step(page)).toBe("0");
        expect(await playPause.textContent()).toBe(tx("demo.pause"));
        for (let index = 0; index < 12; index++) await page.keyboard.press("Tab");
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

        // Try Without Signup closes it and goes to /upload.
        await dialog.getByRole("link", { name: tx("landing.tryWithoutSignup") }).click();
        await poll(() => path_(page)).toBe("/upload");
        await page.clock.runFor(50);
        await poll(() => page.getByRole("dialog").count()).toBe(0);
        expect(problems).toEqual([]);
      });

      it(`shows a signed-in user Go to Dashboard instead of Sign Up for More, and the build panel under "All rights reserved" (${label})`, async () => {
        const { page, problems } = await launch({ width: size.width, height: size.height, locale });
        // A new user, signed in on the sign-in form (the browser holds the cookie), back on the landing page.
        await signUpAndSignIn(page, server.url, { fullName: "Lena Park", language, to: "/" });

        const dashboard = page.getByRole("link", { name: tx("home.hero.goToDashboard") }).first();
        await poll(() => dashboard.getAttribute("href")).toBe("/dashboard");
        expect(await page.getByRole("link", { name: tx("landing.signUpForMore") }).count()).toBe(0);
        expect(await page.getByRole("link", { name: tx("home.cta.startFreeTrial") }).count()).toBe(0);

        const rights = page.locator("footer").getByRole("button", { name: tx("footer.rightsReserved") });
        expect(await rights.getAttribute("aria-expanded")).toBe("false");
        await rights.click();
        const panel = page.getByTestId("build-info");
        await poll(() => panel.isVisible()).toBe(true);
        expect(await rights.getAttribute("aria-expanded")).toBe("true");
        await poll(() => panel.textContent()).toContain(version);
        await poll(() => panel.textContent()).toContain(tx("home.footer.databaseOk"));
        await poll(() => panel.textContent()).toContain(tx("home.footer.enginePreview", { name: tx("flow.previewEngine") }));
        await screenshot(page, `landing-footer-panel-${label}`);
        await rights.click();
        await poll(() => panel.count()).toBe(0);

        await dashboard.click();
        await poll(() => path_(page)).toBe("/dashboard");
        expect(problems).toEqual([]);
      });
    }

    for (const colorScheme of ["light", "dark"] as const) {
      it(`looks right in the ${colorScheme} theme on a ${size.name} (screenshot)`, async () => {
        const { page, problems } = await launch({ width: size.width, height: size.height, colorScheme });
        await page.goto(`${server.url}/`);
        await poll(() => page.getByTestId("landing-examples").getByTestId("compare-slider").isVisible()).toBe(true);
        await poll(() => page.getByTestId("stat-renders").locator("dd").first().textContent()).toMatch(/^\d+$/);
        expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(colorScheme === "dark");
        // Nothing sticks out sideways on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await screenshot(page, `landing-page-${size.name}-${colorScheme}`);
        await page.getByRole("button", { name: "Watch Demo" }).click();
        await poll(() => page.getByRole("dialog").isVisible()).toBe(true);
        await screenshotViewport(page, `demo-${size.name}-${colorScheme}`);
        expect(problems).toEqual([]);
      });
    }
  }
});
