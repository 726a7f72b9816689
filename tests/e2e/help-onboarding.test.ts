/**
 * The help drawer and the onboarding overlay in a browser, on a phone (390×844) and a desktop
 * (1366×800), in English and in Spanish: the sheet with its title, subtitle, tiles and one
 * accordion per category, the FAQ search (only matching entries, each with its category; the
 * no-results text), Escape; the tour opening by itself for a signed-in user, Next / Previous with
 * "Step N of 5", saying what the app does (no AR scanning, no accuracy figures: decision 068), Get
 * Started completing after 1.5 s (page.clock) and staying done on reload, Skip on the landing page
 * going to /upload, Escape counting as Skip; finished on the account, so that another browser
 * (a fresh context) signed in to it does not open it again, while a new account there sees it.
 * Screenshots in light and dark.
 */
import i18next, { type TFunction } from "i18next";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { buildFaqEntries, FAQ_CATEGORIES, foldForSearch, searchFaqs, type FaqEntry } from "../../src/client/lib/faq";
import { ONBOARDING, STORAGE_KEYS, type Language } from "../../src/shared/constants";
import { AR_MEASURE_TOLERANCE_CM, PHOTO_MEASURE_FIGURES } from "../../src/shared/measures";
import { describeBrowser, signIn, signUpAndSignIn, useBrowsers, screenshotViewport } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const SUPPORT_EMAIL = "help@studio.example";
const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 10_000, ...options });

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 800 } } as const;
const LOCALES: Record<"en" | "es", string> = { en: "en-US", es: "es-ES" };
/** Each device is seen in both themes: English light, Spanish dark. */
const THEME: Record<"en" | "es", "light" | "dark"> = { en: "light", es: "dark" };
const SEARCH_TERM: Record<"en" | "es", string> = { en: "credits", es: "créditos" };

const texts = {} as Record<Language, TFunction>;
const faqs = {} as Record<Language, FaqEntry[]>;

const cases = (["en", "es"] as const).flatMap((language) => (["phone", "desktop"] as const).map((device) => ({ language, device })));
/** Two of the four pairings: each language and each width is walked (CI's time is bounded). */
const twoCases = cases.filter(({ language, device }) => (language === "en") === (device === "phone"));

describeBrowser("the help drawer and the onboarding overlay in a browser", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", SUPPORT_EMAIL });
    for (const language of ["en", "es", "fr"] as const) {
      const instance = i18next.createInstance();
      await instance.init({
        lng: language,
        resources: { [language]: { translation: translations[language] } },
        interpolation: { escapeValue: false },
      });
      texts[language] = instance.t as TFunction;
      faqs[language] = buildFaqEntries(instance.t as TFunction, SUPPORT_EMAIL);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { launch } = useBrowsers();

  const path_ = (page: Page) => new URL(page.url()).pathname;
  const storedFlag = (page: Page) => page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.onboardingCompleted);
  /** When the account finished the tour (decision 068), or null. */
  const accountFlag = async (email: string) =>
    (await server.deps.db.selectFrom("users").select("onboarding_done_at").where("email", "=", email).executeTakeFirstOrThrow())
      .onboarding_done_at;
  /** What a step says: no AR scanning and no accuracy figures, which the app has not. */
  const expectTruthful = async (page: Page) => {
    const said = (await page.getByTestId("onboarding").textContent()) ?? "";
    // No figure but the ones our tests measured (photo measuring, decision 089; AR, decision 092): never the spec's "70 %" / "95 % with AR".
    const measured = Object.values(PHOTO_MEASURE_FIGURES).map(String);
    for (const [, figure] of said.matchAll(/(\d+)\s?%/g)) expect(measured).toContain(figure);
    for (const [, figure] of said.matchAll(/±(\d+)\s?cm/g)) expect(figure).toBe(String(AR_MEASURE_TOLERANCE_CM));
  };
  const focusInside = (page: Page, testId: string) =>
    page.evaluate(
      (id) => !!document.activeElement && !!document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement),
      testId,
    );

  it.each(twoCases)(
    "opens the help drawer, searches the FAQ and closes with Escape ($language, $device)",
    async ({ language, device }) => {
      const t = texts[language];
      const theme = THEME[language];
      const { page, problems } = await launch({ ...VIEWPORTS[device], locale: LOCALES[language], colorScheme: theme });
      await page.goto(`${server.url}/`);

      const button = page.getByRole("button", { name: t("help.button"), exact: true });
      await poll(() => button.isVisible()).toBe(true);
      // Bottom right, round, inside the viewport (on a phone it may have risen to keep clear of the content under its corner).
      const box = (await button.boundingBox())!;
      const lift = Number(await button.getAttribute("data-lift"));
      expect(box.x + box.width).toBeGreaterThan(VIEWPORTS[device].width - 40);
      expect(box.y + box.height + lift).toBeGreaterThan(VIEWPORTS[device].height - 40);
      expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORTS[device].height);
      await button.click();

      const drawer = page.getByRole("dialog", { name: t("help.title") });
      await poll(() => drawer.isVisible()).toBe(true);
      expect(await drawer.getByRole("heading", { name: t("help.title") }).textContent()).toBe(
        language === "en" ? "Help & Support" : "Ayuda y soporte",
      );
      expect(await drawer.getByText(t("help.subtitle")).isVisible()).toBe(true);
      if (language === "en")
        expect(await drawer.getByText("Find answers to common questions or contact our support team").isVisible()).toBe(true);
      const search = drawer.getByRole("searchbox");
      expect(await search.getAttribute("placeholder")).toBe(language === "en" ? "Search for help..." : t("help.searchPlaceholder"));
      expect(await focusInside(page, "help-drawer")).toBe(true);

      // The tiles: the guide in a new tab, and mail to the support mailbox.
      const guide = drawer.getByTestId("help-user-guide");
      expect(await guide.textContent()).toContain(t("help.userGuide"));
      expect(await guide.getAttribute("href")).toBe("/guide");
      expect(await guide.getAttribute("target")).toBe("_blank");
      const mail = drawer.getByTestId("help-email-support");
      expect(await mail.textContent()).toContain(t("help.emailSupport"));
      await poll(() => mail.getAttribute("href")).toBe(`mailto:${SUPPORT_EMAIL}`);
      const contact = drawer.getByRole("link", { name: t("help.contactSupport") });
      expect(await contact.getAttribute("href")).toBe(`mailto:${SUPPORT_EMAIL}`);

      // The FAQ: its title, the 400 px scroll area, one accordion per category, in order.
      expect(await drawer.getByRole("heading", { name: t("help.faqTitle"), exact: true }).isVisible()).toBe(true);
      const area = drawer.getByTestId("faq-scroll-area");
      expect(Math.round((await area.boundingBox())!.height)).toBe(400);
      expect(await drawer.getByTestId("faq-accordion").count()).toBe(FAQ_CATEGORIES.length);
      const headings = await drawer.locator("[data-testid^=faq-category-] h4").allTextContents();
      expect(headings).toEqual(FAQ_CATEGORIES.map((category) => t(`help.categories.${category}`)));
      expect(await drawer.getByTestId("faq-item").count()).toBe(faqs[language].length);
      // A question opens its answer, and closes it again.
      const first = faqs[language][0]!;
      const question = drawer.getByRole("button", { name: first.question, exact: true });
      expect(await question.getAttribute("aria-expanded")).toBe("false");
      await question.click();
      await poll(() => drawer.getByText(first.answer).isVisible()).toBe(true);
      expect(await question.getAttribute("aria-expanded")).toBe("true");
      await screenshotViewport(page, `help-drawer-${language}-${device}-${theme}`);
      await question.click();
      await poll(() => question.getAttribute("aria-expanded")).toBe("false");

      // A term: a flat list of the matching entries only, each with its category.
      const term = SEARCH_TERM[language];
      await search.fill(term);
      const expected = searchFaqs(faqs[language], term);
      expect(expected.length).toBeGreaterThan(3);
      expect(expected.length).toBeLessThan(faqs[language].length);
      const results = drawer.getByTestId("faq-result");
      await poll(() => results.count()).toBe(expected.length);
      expect(await drawer.getByTestId("faq-accordion").count()).toBe(0);
      expect(await drawer.getByTestId("faq-question").allTextContents()).toEqual(expected.map((entry) => entry.question));
      expect(await drawer.getByTestId("faq-badge").allTextContents()).toEqual(expected.map((entry) => entry.categoryLabel));
      for (const text of await results.allTextContents()) expect(foldForSearch(text)).toContain(foldForSearch(term));
      // Case does not matter.
      await search.fill(term.toUpperCase());
      await poll(() => results.count()).toBe(expected.length);
      await screenshotViewport(page, `help-drawer-search-${language}-${device}-${theme}`);

      await search.fill("zzz");
      await poll(() => drawer.getByTestId("faq-no-results").isVisible()).toBe(true);
      expect(await results.count()).toBe(0);
      const noResults = await drawer.getByTestId("faq-no-results").textContent();
      expect(noResults).toContain(t("help.noResults", { term: "zzz" }));
      expect(noResults).toContain(t("help.noResultsHint"));
      if (language === "en") {
        expect(noResults).toContain('No results found for "zzz"');
        expect(noResults).toContain("Try different keywords or contact support");
      }
      await screenshotViewport(page, `help-drawer-no-results-${language}-${device}-${theme}`);

      // Escape closes it and gives the focus back to the button; it opens again with an empty search.
      await page.keyboard.press("Escape");
      await poll(() => drawer.isVisible()).toBe(false);
      await poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
      await button.click();
      await poll(() => drawer.isVisible()).toBe(true);
      expect(await drawer.getByRole("searchbox").inputValue()).toBe("");
      await page.keyboard.press("Escape");
      await poll(() => drawer.isVisible()).toBe(false);

      // The footer's Help Center opens the same drawer (it shares the open state).
      if (language === "en") {
        const helpCenter = page.getByRole("contentinfo").getByRole("button", { name: "Help Center" });
        await helpCenter.click();
        await poll(() => drawer.isVisible()).toBe(true);
        await page.keyboard.press("Escape");
        await poll(() => drawer.isVisible()).toBe(false);
        await poll(() => helpCenter.evaluate((element) => element === document.activeElement)).toBe(true);
      }
      expect(problems).toEqual([]);
    },
    60_000,
  );

  it.each(twoCases)(
    "opens the tour for a signed-in user, walks it and completes it after 1.5 s ($language, $device)",
    async ({ language, device }) => {
      const t = texts[language];
      const theme = THEME[language];
      const { page, problems } = await launch({ ...VIEWPORTS[device], locale: LOCALES[language], colorScheme: theme, onboarding: true });
      await page.clock.install();
      const email = await signUpAndSignIn(page, server.url, { language });

      const tour = page.getByTestId("onboarding");
      const stepText = page.getByTestId("onboarding-step");
      const next = page.getByRole("button", { name: t("onboarding.next"), exact: true });
      const previous = page.getByRole("button", { name: t("onboarding.previous"), exact: true });
      await poll(() => tour.isVisible()).toBe(true);
      expect(await page.getByRole("dialog").count()).toBe(1);
      expect(await stepText.textContent()).toBe(t("onboarding.stepOf", { step: 1, total: 5 }));
      if (language === "en") expect(await stepText.textContent()).toBe("Step 1 of 5");
      expect(await page.getByRole("progressbar", { name: t("onboarding.progressLabel") }).getAttribute("aria-valuenow")).toBe("20");
      expect(await page.getByTestId("onboarding-title").textContent()).toBe(t("onboarding.welcome.title", { product: "RoomCanvas" }));
      // The Preview engine's words (it is not AI).
      expect(await page.getByRole("dialog").getByText(t("onboarding.preview.welcomeBody")).isVisible()).toBe(true);
      await expectTruthful(page);
      await screenshotViewport(page, `onboarding-step1-${language}-${device}-${theme}`);
      expect(await page.getByRole("button", { name: t("onboarding.skip") }).isVisible()).toBe(true);
      expect(await previous.isVisible()).toBe(false);
      expect(await focusInside(page, "onboarding")).toBe(true);
      // The focus stays in the tour.
      for (let press = 0; press < 12; press++) await page.keyboard.press("Tab");
      expect(await focusInside(page, "onboarding")).toBe(true);

      await next.click();
      await poll(() => stepText.textContent()).toBe(t("onboarding.stepOf", { step: 2, total: 5 }));
      // The spec's recommended step: a good photo, and how well the studio measures a room from it.
      expect(await page.getByTestId("onboarding-title").textContent()).toBe(t("onboarding.photo.title"));
      expect(await page.getByTestId("onboarding-badge").textContent()).toBe(
        language === "en" ? "Recommended" : t("onboarding.recommended"),
      );
      expect(await page.getByTestId("onboarding-photo-note").textContent()).toBe(
        t("onboarding.photo.note", { product: "RoomCanvas", ...PHOTO_MEASURE_FIGURES, arCm: AR_MEASURE_TOLERANCE_CM }),
      );
      await expectTruthful(page);
      await screenshotViewport(page, `onboarding-step2-${language}-${device}-${theme}`);

      await next.click();
      await poll(() => stepText.textContent()).toBe(t("onboarding.stepOf", { step: 3, total: 5 }));
      expect(await page.getByTestId("onboarding-title").textContent()).toBe(t("onboarding.howItWorks.title"));
      expect(await page.getByTestId("onboarding-how-item").allTextContents()).toEqual([
        "1" + t("onboarding.howItWorks.step1"),
        "2" + t("onboarding.howItWorks.step2"),
        "3" + t("onboarding.preview.step3"),
        "4" + t("onboarding.preview.step4"),
      ]);
      await expectTruthful(page);
      await screenshotViewport(page, `onboarding-step3-${language}-${device}-${theme}`);
      await previous.click();
      await poll(() => stepText.textContent()).toBe(t("onboarding.stepOf", { step: 2, total: 5 }));
      await next.click();
      await next.click();
      await poll(() => stepText.textContent()).toBe(t("onboarding.stepOf", { step: 4, total: 5 }));
      expect(await page.getByTestId("onboarding-title").textContent()).toBe(t("onboarding.results.title"));
      expect(await page.getByTestId("onboarding-result-card").allTextContents()).toEqual([
        t("onboarding.results.beforeTitle") + t("onboarding.results.beforeDetail"),
        t("onboarding.results.afterTitle") + t("onboarding.preview.afterDetail"),
      ]);
      await expectTruthful(page);
      await screenshotViewport(page, `onboarding-step4-${language}-${device}-${theme}`);
      await next.click();
      await poll(() => stepText.textContent()).toBe(t("onboarding.stepOf", { step: 5, total: 5 }));
      expect(await page.getByTestId("onboarding-title").textContent()).toBe(t("onboarding.allSet.title"));
      expect(await page.getByRole("progressbar", { name: t("onboarding.progressLabel") }).getAttribute("aria-valuenow")).toBe("100");
      expect(await next.count()).toBe(0);
      const getStarted = page.getByRole("button", { name: t("onboarding.getStarted"), exact: true });
      expect(await getStarted.isVisible()).toBe(true);
      await expectTruthful(page);
      await screenshotViewport(page, `onboarding-step5-${language}-${device}-${theme}`);
      expect(await accountFlag(email)).toBeNull();

      // Get Started: the flag and the check at once, the end after 1.5 s of the page's clock.
      const now = await page.evaluate(() => Date.now());
      await page.clock.pauseAt(now + 1000);
      await getStarted.click();
      await poll(() => page.getByTestId("onboarding-completing").isVisible()).toBe(true);
      // Kept on the account, not on this browser.
      await poll(() => accountFlag(email)).not.toBeNull();
      expect(await storedFlag(page)).toBeNull();
      await screenshotViewport(page, `onboarding-completing-${language}-${device}-${theme}`);
      await page.clock.runFor(ONBOARDING.completionDelayMs - 100);
      expect(await tour.isVisible()).toBe(true);
      await page.clock.runFor(100);
      await poll(() => tour.isVisible()).toBe(false);
      // Not on the landing page: the user stays where they are.
      expect(path_(page)).toBe("/dashboard");
      await page.clock.resume();

      // A non-admin has no Quick Admin bar under the help button (issue 27; quick-admin-shell.test.ts).
      expect(await page.getByTestId("quick-admin-bar").count()).toBe(0);
      await screenshotViewport(page, `help-button-signed-in-${language}-${device}-${theme}`);

      // Done once, not shown again.
      await page.reload();
      await poll(() => page.getByTestId("help-button").isVisible()).toBe(true);
      await page.clock.runFor(ONBOARDING.autoOpenDelayMs * 3);
      expect(await tour.isVisible()).toBe(false);
      expect(problems).toEqual([]);
    },
    60_000,
  );

  it.each(twoCases)(
    "skips the tour on the landing page to /upload, and Escape counts as Skip ($language, $device)",
    async ({ language, device }) => {
      const t = texts[language];
      const { page, problems } = await launch({
        ...VIEWPORTS[device],
        locale: LOCALES[language],
        colorScheme: THEME[language],
        onboarding: true,
      });
      await page.clock.install();
      const email = await signUpAndSignIn(page, server.url, { language });
      const tour = page.getByTestId("onboarding");
      await poll(() => tour.isVisible()).toBe(true);

      // Opened on the landing page, after a second.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await page.goto(`${server.url}/`);
      // The page's clock moves in small steps until the tour shows: never before a second has
      // passed on the page (its timer starts when the overlay, loaded after the first paint, knows
      // the user is signed in; how long that takes depends on the machine, so only the floor is fixed).
      // (Stepped without poll's pause between tries: 50 steps of 20 ms, each now a few ms.)
      let elapsed = 0;
      while (!(await tour.isVisible())) {
        if (elapsed >= 60_000) throw new Error("the tour did not open within a minute of the page's clock");
        await page.clock.runFor(20);
        elapsed += 20;
      }
      expect(elapsed).toBeGreaterThanOrEqual(ONBOARDING.autoOpenDelayMs);
      await page.clock.resume();
      await page.getByRole("button", { name: t("onboarding.next"), exact: true }).click();
      await page.getByRole("button", { name: t("onboarding.skip"), exact: true }).click();
      await poll(() => tour.isVisible()).toBe(false);
      await poll(() => path_(page)).toBe("/upload");
      await poll(() => accountFlag(email)).not.toBeNull();

      // Escape ends it too, and sets the flag; away from the landing page nothing else moves.
      await server.deps.db.updateTable("users").set({ onboarding_done_at: null }).where("email", "=", email).execute();
      await page.goto(`${server.url}/dashboard`);
      await poll(() => tour.isVisible()).toBe(true);
      await page.keyboard.press("Escape");
      await poll(() => tour.isVisible()).toBe(false);
      await poll(() => accountFlag(email)).not.toBeNull();
      expect(path_(page)).toBe("/dashboard");
      expect(problems).toEqual([]);
    },
    60_000,
  );
  it.each([
    { device: "phone", language: "en", ending: "getStarted" },
    { device: "desktop", language: "es", ending: "skip" },
  ] as const)(
    "remembers the finished tour on the account: another browser does not open it, a new account there does ($ending, $language, $device)",
    async ({ device, language, ending }) => {
      const t = texts[language];
      const theme = THEME[language];
      const options = { ...VIEWPORTS[device], locale: LOCALES[language], colorScheme: theme, onboarding: true } as const;

      // The first browser: a new account sees the tour and finishes it.
      const first = await launch(options);
      await first.page.clock.install();
      const email = await signUpAndSignIn(first.page, server.url, { language });
      const tour = first.page.getByTestId("onboarding");
      await poll(() => tour.isVisible()).toBe(true);
      if (ending === "skip") {
        await first.page.getByRole("button", { name: t("onboarding.skip"), exact: true }).click();
      } else {
        for (let step = 1; step < ONBOARDING.steps; step++)
          await first.page.getByRole("button", { name: t("onboarding.next"), exact: true }).click();
        await first.page.getByRole("button", { name: t("onboarding.getStarted"), exact: true }).click();
        await first.page.clock.runFor(ONBOARDING.completionDelayMs);
      }
      await poll(() => tour.isVisible()).toBe(false);
      await poll(() => accountFlag(email)).not.toBeNull();

      // Another browser (a fresh profile, no stored flag): signed in to the same account, no tour,
      // watched over three times the opening delay of the page's clock once the page is there.
      const second = await launch(options);
      await second.page.clock.install();
      const tourStaysClosed = async (page: Page) => {
        await poll(() => page.locator("main h1").isVisible()).toBe(true);
        await poll(() => page.getByTestId("help-button").isVisible()).toBe(true);
        for (let elapsed = 0; elapsed < ONBOARDING.autoOpenDelayMs * 3; elapsed += 50) {
          await page.clock.runFor(50);
          expect(await page.getByTestId("onboarding").count()).toBe(0);
        }
      };
      await signIn(second.page, server.url, email, { language });
      await tourStaysClosed(second.page);
      expect(await storedFlag(second.page)).toBeNull();
      await screenshotViewport(second.page, `onboarding-second-browser-${language}-${device}-${theme}`);
      // A page loaded again there: still none.
      await second.page.goto(`${server.url}/upload`);
      await tourStaysClosed(second.page);

      // The first browser keeps nothing of its own: a new account signed in there sees the tour once.
      await first.browser.clearCookies();
      await signUpAndSignIn(first.page, server.url, { language });
      await poll(() => tour.isVisible()).toBe(true);
      expect(first.problems).toEqual([]);
      expect(second.problems).toEqual([]);
    },
    60_000,
  );
});
