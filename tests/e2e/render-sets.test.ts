/**
 * "Apply to the whole project" in a browser against the real server (Preview engine): a signed-in
 * user with three photos in a project opens the project, sees the price (one credit per photo),
 * changes one photo's room, renders the set, and sees every photo's before and after side by side.
 * English desktop light, French phone dark, with screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { describeBrowser, screenshot, signUpAndSignIn, useBrowsers } from "../helpers/browser";
import { roomPhoto } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });

/** Uploads the photos from the page (its session), the first making the project; returns the project. */
async function uploadPhotos(page: Page, photos: Buffer[]): Promise<string> {
  let projectId = "";
  for (const photo of photos) {
    projectId = await page.evaluate(
      async ({ bytes, projectId }) => {
        const response = await fetch(`/api/uploads?roomType=bedroom${projectId ? `&projectId=${projectId}` : ""}`, {
          method: "POST",
          headers: { "content-type": "image/jpeg" },
          body: new Uint8Array(bytes),
        });
        return ((await response.json()) as { projectId: string }).projectId;
      },
      { bytes: [...photo], projectId },
    );
  }
  return projectId;
}

describeBrowser("apply to the whole project", () => {
  let server: TestServer;
  let photos: Buffer[];
  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    photos = await Promise.all([roomPhoto(800, 600), roomPhoto(900, 600), roomPhoto(600, 800)]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { launch } = useBrowsers();

  for (const [language, options, name] of [
    ["en", { width: 1280, height: 900, colorScheme: "light" }, "desktop-light"],
    ["fr", { width: 390, height: 844, colorScheme: "dark" }, "phone-dark"],
  ] as const) {
    it(`renders a project's three photos as one set (${language}, ${name})`, async () => {
      const texts = translations[language].renderSets as Record<string, string>;
      const { page, problems } = await launch({ ...options, locale: language === "fr" ? "fr-FR" : "en-US" });
      await signUpAndSignIn(page, server.url, { language, to: "/dashboard" });
      const projectId = await uploadPhotos(page, photos);
      await page.goto(`${server.url}/dashboard?project=${projectId}`);
      await page.getByTestId("apply-to-project").click();
      await poll(() => page.getByTestId("set-photos").locator("li").count()).toBe(3);
      // The price before confirming: three photos, one credit each, out of the ten free credits.
      await poll(() => page.getByTestId("set-price").textContent()).toBe(
        texts.price_other!.replace("{{count}}", "3").replace("{{balance}}", "10"),
      );
      await page.getByTestId("set-style").selectOption("coastal");
      await page.getByLabel(texts.roomOf!.replace("{{number}}", "2")).selectOption("kitchen");
      await screenshot(page, `render-set-dialog-${language}-${name}`);
      await page.getByRole("button", { name: texts.submit_other!.replace("{{count}}", "3") }).click();

      const set = page.getByTestId("render-set");
      await poll(() => set.getByTestId("set-progress").textContent(), { timeout: 60_000 }).toContain(
        texts.progress!.replace("{{done}}", "3").replace("{{total}}", "3"),
      );
      await poll(() =>
        set
          .locator(`img[alt="${texts.after}"]`)
          .evaluateAll((images) => images.length === 3 && images.every((image) => (image as HTMLImageElement).naturalWidth > 0)),
      ).toBe(true);
      const rooms = await set.getByTestId("set-picture").locator("p").allTextContents();
      const roomNames = translations[language].roomTypes as Record<string, string>;
      expect(rooms).toEqual([roomNames.bedroom, roomNames.kitchen, roomNames.bedroom]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.width);
      // The set for the listing in one step, then its zip.
      await set.getByTestId("set-export").click();
      await poll(() => set.getByTestId("set-zip").isVisible(), { timeout: 30_000 }).toBe(true);
      const zipHref = await set.getByTestId("set-zip").getAttribute("href");
      const zip = await page.evaluate(async (href) => {
        const response = await fetch(href!);
        return { status: response.status, type: response.headers.get("content-type") };
      }, zipHref);
      expect(zip).toEqual({ status: 200, type: "application/zip" });
      await set.scrollIntoViewIfNeeded();
      await screenshot(page, `render-set-${language}-${name}`);
      expect(problems).toEqual([]);
    });
  }
});
