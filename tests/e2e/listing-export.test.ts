/**
 * Export for listing in a browser against the real server (Preview engine): a signed-in user with a
 * finished render opens "Export for listing", creates the picture (in English, and in Spanish, where
 * an empty disclosure is refused in Spanish), sees its preview, and the public link opens signed out
 * in a fresh browser with both pictures; revoking takes the page down; the project offers the zip.
 * Screenshots of the dialog and the public page at phone and desktop width, light and dark.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signUpAndSignIn, waitForRender, useBrowsers, type BrowserOptions } from "../helpers/browser";
import { roomPhoto } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";
import { translations } from "../../src/client/i18n/resources";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** True once every picture matched has loaded with real pixels. */
const picturesLoaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((images) => images.length > 0 && images.every((image) => (image as HTMLImageElement).naturalWidth > 0));

describeBrowser("export for listing", () => {
  let server: TestServer;
  let photo: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    photo = path.join(makeTempDir("roomcanvas-listing-e2e-"), "room.jpg");
    fs.writeFileSync(photo, await roomPhoto(1600, 1200));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { launch } = useBrowsers();

  /** Signs up, uploads the photo and renders one style; the page ends on /render with the result. */
  async function finishedRender(page: Page, language: "en" | "es"): Promise<void> {
    await signUpAndSignIn(page, server.url, { language, to: "/upload" });
    // The page ignores a file chosen before it knows the user's allowance (the engine note shows it has arrived).
    await poll(() => page.getByTestId("engine-note").isVisible()).toBe(true);
    await page.getByTestId("file-input").setInputFiles(photo);
    await poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe("/style-select");
    await page.getByTestId("style-japandi").click();
    await page.getByRole("button", { name: language === "es" ? "Renderizar" : "Render", exact: true }).click();
    await waitForRender(page, { timeoutMs: 30_000 });
  }

  /** Opens the public link in a fresh browser (no cookies), checks both pictures and the disclosure, screenshots it. */
  async function checkPublicPage(url: string, disclosure: string, options: BrowserOptions, name: string): Promise<void> {
    const { page, problems } = await launch(options);
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await poll(() => picturesLoaded(page, "img")).toBe(true);
    expect(await page.locator("img").count()).toBe(2);
    expect(await page.getByTestId("listing-disclosure").textContent()).toContain(disclosure);
    expect(await page.context().cookies()).toEqual([]);
    // Side by side on a desktop, stacked on a phone.
    const boxes = await page.locator("figure").evaluateAll((figures) => figures.map((figure) => figure.getBoundingClientRect().top));
    if ((options.width ?? 1280) >= 720) expect(boxes[0]).toBe(boxes[1]);
    else expect(boxes[1]!).toBeGreaterThan(boxes[0]!);
    // No horizontal scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, name);
    expect(problems).toEqual([]);
  }

  it("in English on a desktop: creates the picture, shows its preview, the public page opens signed out, revoking ends it", async () => {
    const { page, problems } = await launch({ ...DESKTOP, colorScheme: "light" });
    await finishedRender(page, "en");
    await page.getByRole("button", { name: "Export for listing" }).click();
    const dialog = page.getByTestId("listing-dialog");
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel("Disclosure on the picture").inputValue()).toBe("Digitally altered");
    expect(await dialog.textContent()).toContain("Business and Professions Code §10140.8");
    await screenshot(page, "listing-dialog-form-desktop-light");

    await dialog.getByRole("button", { name: "Create listing picture" }).click();
    await poll(() => picturesLoaded(page, "[data-testid=listing-preview]")).toBe(true);
    const url = await dialog.getByTestId("listing-url").inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/l/[A-Za-z0-9_-]{12}$`));
    expect(await dialog.getByTestId("listing-shown-disclosure").textContent()).toBe("Digitally altered");
    await screenshot(page, "listing-dialog-result-desktop-light");

    // The download is the picture the preview shows, with a file name that says what it is.
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByTestId("listing-download").click()]);
    expect(download.suggestedFilename()).toMatch(/^roomcanvas-listing-japandi-[a-f0-9]{8}\.jpg$/);

    await checkPublicPage(url, "Digitally altered", { ...DESKTOP, colorScheme: "light" }, "listing-public-desktop-light");
    await checkPublicPage(url, "Digitally altered", { ...PHONE, colorScheme: "dark" }, "listing-public-phone-dark");

    // The project now offers its listing pictures as a zip.
    await dialog.getByRole("button", { name: "Close" }).click();
    const renderUrl = page.url();
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId("project-card").first().getByRole("link").click();
    await poll(() => page.getByTestId("listing-project-zip").isVisible()).toBe(true);
    const [zip] = await Promise.all([page.waitForEvent("download"), page.getByTestId("listing-project-zip").click()]);
    expect(zip.suggestedFilename()).toMatch(/^roomcanvas-listing-pictures-\d{4}-\d{2}-\d{2}\.zip$/);
    await screenshot(page, "listing-project-zip-desktop-light");

    // Revoke, with confirmation: the page answers 404 from then on.
    await page.goto(renderUrl);
    await waitForRender(page);
    await page.getByRole("button", { name: "Export for listing" }).click();
    await poll(() => dialog.getByTestId("listing-result").isVisible()).toBe(true);
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
    await poll(() => dialog.getByTestId("listing-form").isVisible()).toBe(true);
    expect((await fetch(url)).status).toBe(404);
    expect(problems).toEqual([]);
  });

  it("en español en un teléfono, oscuro: el aviso vacío se rechaza en español; se crea con el aviso por defecto", async () => {
    const { page, problems } = await launch({ ...PHONE, colorScheme: "dark", locale: "es-ES" });
    await finishedRender(page, "es");
    await screenshot(page, "listing-render-tools-phone-dark-es");
    await page.getByRole("button", { name: "Exportar para anuncio" }).click();
    const dialog = page.getByTestId("listing-dialog");
    const field = dialog.getByLabel("Aviso sobre la imagen");
    expect(await field.inputValue()).toBe("Imagen modificada digitalmente");
    expect(await dialog.getByLabel("Idioma del aviso y de la página pública").inputValue()).toBe("es");
    await screenshot(page, "listing-dialog-form-phone-dark-es");

    await field.fill("   ");
    await dialog.getByRole("button", { name: "Crear imagen para el anuncio" }).click();
    await poll(() => dialog.getByTestId("listing-error").textContent()).toBe("Escribe el aviso que se mostrará sobre la imagen");
    await screenshot(page, "listing-dialog-error-phone-dark-es");
    // The browser logs the refused request; that one is expected.
    expect(problems.splice(0)).toEqual([
      expect.stringMatching(
        /^console: Failed to load resource: the server responded with a status of 400 \(Bad Request\) \(.*\/trpc\/listing\./,
      ),
    ]);

    await field.fill("Amueblado virtualmente");
    await dialog.getByRole("button", { name: "Crear imagen para el anuncio" }).click();
    await poll(() => picturesLoaded(page, "[data-testid=listing-preview]")).toBe(true);
    const url = await dialog.getByTestId("listing-url").inputValue();
    // The dialog fits the phone: no sideways scrolling.
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshot(page, "listing-dialog-result-phone-dark-es");

    await checkPublicPage(
      url,
      "Amueblado virtualmente",
      { ...PHONE, colorScheme: "light", locale: "es-ES" },
      "listing-public-phone-light-es",
    );
    await checkPublicPage(
      url,
      "Amueblado virtualmente",
      { ...DESKTOP, colorScheme: "dark", locale: "es-ES" },
      "listing-public-desktop-dark-es",
    );
    expect(problems).toEqual([]);
  });
  it("the upload page refuses a picture too small or too thin to be a room, in the user's language (issue 27, probe finding 2)", async () => {
    const { page, problems } = await launch({ ...PHONE, colorScheme: "light", locale: "es-ES" });
    await signUpAndSignIn(page, server.url, { language: "es", to: "/upload" });
    await poll(() => page.getByTestId("engine-note").isVisible()).toBe(true);
    const texts = translations.es.serverMessages as Record<string, string>;
    for (const [width, height, text] of [
      [2, 2, texts.uploadTooSmall!],
      [4000, 200, texts.uploadTooNarrow!],
    ] as const) {
      const buffer = await sharp({ create: { width, height, channels: 3, background: "#8a6d4b" } })
        .png()
        .toBuffer();
      await page.getByTestId("file-input").setInputFiles({ name: `tira-${width}x${height}.png`, mimeType: "image/png", buffer });
      await poll(() => page.getByText(text).isVisible()).toBe(true);
      expect(new URL(page.url()).pathname).toBe("/upload");
    }
    await screenshot(page, "upload-too-small-phone-es");
    // The browser logs the refused uploads (415); nothing else.
    expect(problems.filter((problem) => !/status of 415/.test(problem))).toEqual([]);
  });
});
