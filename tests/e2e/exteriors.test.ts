/**
 * An exterior photo in Chromium on a studio's ComfyUI box (its fake): the style page offers what an
 * exterior gets (blue sky, twilight, garden refresh) instead of the styles, says the listing
 * disclosure will name the change, and renders the chosen one: the job is titled by it and its
 * prompt reached ComfyUI. In English on a desktop (light) and in Spanish on a phone (dark).
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 30_000 });
const es = translations.es as unknown as { renderOptions: { modes: Record<string, string>; exteriorLabel: string } };

describeBrowser("exterior photos", () => {
  let comfy: FakeComfyUi;
  let server: TestServer;
  let problems: string[] = [];
  beforeAll(async () => {
    comfy = await startFakeComfyUi();
    comfy.script({ steps: 2, stepDelayMs: 50 });
    server = await startTestServer({ RENDER_PROVIDER: "comfyui", COMFYUI_URL: comfy.url, AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
    await comfy?.close();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  async function exteriorOf() {
    const user = await signedInClient(server.url);
    const house = await upload(server.url, user.jar, await roomPhoto(1200, 800), { roomType: "exterior" });
    return { user, path: `/style-select?image=${house.body.imageId}&project=${house.body.projectId}` };
  }

  it("offers an exterior its three changes, not the styles, and renders twilight (en, desktop, light)", async () => {
    const { user, path } = await exteriorOf();
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await signIn(page, server.url, user.email, { to: path });
    await poll(() => page.getByText("What to change in the photo of the house").isVisible()).toBe(true);
    for (const name of ["Blue sky", "Twilight", "Garden refresh"]) expect(await page.getByRole("radio", { name }).count()).toBe(1);
    expect(await page.getByRole("radio", { name: "Stage an empty room" }).count()).toBe(0);
    expect(await page.getByTestId("style-modern").count()).toBe(0);
    expect(await page.getByText("a replaced sky must be disclosed in California").count()).toBe(1);
    await page.getByRole("radio", { name: "Twilight" }).check();
    // Variations of the change, not "of each style"; the price counts them alone.
    expect(await page.getByLabel("Variations", { exact: true }).count()).toBe(1);
    await page.getByLabel("Variations", { exact: true }).selectOption("2");
    expect(await page.getByTestId("render-price").innerText()).toBe("This will use 2 credits (2 variations).");
    await page.getByLabel("Variations", { exact: true }).selectOption("1");
    await screenshot(page, "exterior-style-page-desktop-light-en");
    await page.getByRole("button", { name: /^Render/ }).click();
    await poll(() => new URL(page.url()).pathname).toBe("/render");
    await poll(() => page.getByTestId("job-card").first().getAttribute("data-status")).toBe("succeeded");
    expect(await page.getByTestId("job-card").first().innerText()).toContain("Twilight");
    expect(JSON.stringify(comfy.queued().at(-1)!.json)).toContain("at dusk: a deep blue twilight sky");
  });

  it("names the three changes in Spanish on a phone, in the dark theme", async () => {
    const { user, path } = await exteriorOf();
    let page: Page;
    ({ page, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "es-ES" }));
    await signIn(page, server.url, user.email, { language: "es", to: path });
    await poll(() => page.getByText(es.renderOptions.exteriorLabel).isVisible()).toBe(true);
    for (const mode of ["sky", "twilight", "garden"])
      expect(await page.getByRole("radio", { name: es.renderOptions.modes[mode]! }).count()).toBe(1);
    await screenshot(page, "exterior-style-page-phone-dark-es");
  });
});
