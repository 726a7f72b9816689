/**
 * What the limits of issue 14 look like to a user, in a browser against the real server: an
 * unconfirmed account on an engine that bills each render is told its free credits wait for the
 * confirmed address (and can have the mail sent again), in English and French; the profile shows
 * the storage the account's photos and renders take against its quota. Screenshots on a phone and
 * a desktop, light and dark.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { translations, type TranslationTree } from "../../src/client/i18n/resources";
import { localProvider } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

/** The Preview engine's work, declared as billed per render like the hosted APIs (named honestly). */
const billedEngine: RenderProvider = { ...localProvider, id: "billed-test", label: "Billed test engine", billedPerRender: true };

function text(language: "en" | "fr", key: string, values: Record<string, string | number> = {}): string {
  let node: string | TranslationTree | undefined = translations[language];
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`no text ${key} in ${language}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

describeBrowser("limits as the user meets them", () => {
  let server: TestServer;
  const clock = new TestClock();
  let problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ USER_STORAGE_QUOTA_MB: "2" }, { renderProvider: billedEngine, clock });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  const cases = [
    { language: "en", locale: "en-US", width: 1280, height: 800, colorScheme: "light" },
    { language: "fr", locale: "fr-FR", width: 390, height: 844, colorScheme: "dark" },
  ] as const;

  for (const { language, locale, width, height, colorScheme } of cases) {
    it(`says why free credits wait for the confirmed address, and resends the mail (${language}, ${width} px, ${colorScheme})`, async () => {
      const user = await signedInClient(server.url);
      const picture = await upload(server.url, user.jar, await roomPhoto());
      let page: Page;
      ({ page, problems } = await launch({ width, height, colorScheme, locale }));
      await signIn(page, server.url, user.email, {
        language,
        to: `/style-select?image=${picture.body.imageId}&project=${picture.body.projectId}`,
      });
      await page.getByTestId("style-modern").click();

      const callout = page.getByTestId("free-credits-locked");
      await poll(() => callout.isVisible()).toBe(true);
      expect(await callout.innerText()).toContain(text(language, "serverMessages.freeCreditsNeedConfirmation"));
      expect(await callout.innerText()).toContain(
        text(language, "flow.freeCreditsLocked_other", { count: 10, engine: "Billed test engine" }),
      );
      // The render button waits with the callout; nothing is sent that the server would refuse.
      expect(await page.locator("button[type=submit]").isDisabled()).toBe(true);
      await screenshot(page, `free-credits-locked-${language}-${width}-${colorScheme}`);

      // The sign-up mail went a moment ago; a new one may go a minute later.
      clock.advance(61_000);
      const mailsBefore = await server.deps.db.selectFrom("mail_outbox").select("id").where("to_address", "=", user.email).execute();
      await callout.getByRole("button", { name: text(language, "verifyBanner.resend") }).click();
      await poll(
        async () => (await server.deps.db.selectFrom("mail_outbox").select("id").where("to_address", "=", user.email).execute()).length,
      ).toBe(mailsBefore.length + 1);
    });
  }

  it("shows the storage the account uses against its quota on the profile (desktop light, phone dark)", async () => {
    const user = await signedInClient(server.url);
    await upload(server.url, user.jar, await roomPhoto(2400, 1800));
    const used = await user.client.render.storage.query();
    expect(used.quotaBytes).toBe(2 * 1_048_576);
    for (const { width, height, colorScheme } of [
      { width: 1280, height: 800, colorScheme: "light" },
      { width: 390, height: 844, colorScheme: "dark" },
    ] as const) {
      let page: Page;
      let browser: BrowserContext;
      ({ browser, page, problems } = await launch({ width, height, colorScheme }));
      await signIn(page, server.url, user.email, { to: "/profile" });
      const card = page.getByTestId("profile-storage");
      await poll(() => card.isVisible()).toBe(true);
      const percent = Math.round((used.usedBytes / used.quotaBytes!) * 100);
      expect(await card.innerText()).toContain(text("en", "profilePage.storageOf", { percent, quota: "2 MB" }));
      expect(await card.getByRole("progressbar").getAttribute("aria-valuenow")).toBe(String(percent));
      await screenshot(page, `profile-storage-${width}-${colorScheme}`);
      await browser.close();
    }
  });
});
