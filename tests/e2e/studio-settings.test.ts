/**
 * /admin → Studio in a browser (issue 16): an admin renames the studio, picks an accent (a failing
 * one is refused with the contrast shown), uploads a logo and writes terms; the page, the window's
 * title, the footer's terms link and a visitor's fresh landing page follow at once, with no restart
 * and no hydration error. The engine panel tests a connection. Screenshots: desktop light, phone dark.
 */
import path from "node:path";
import fs from "node:fs";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signIn, useBrowsers, type OpenedPage } from "../helpers/browser";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

describeBrowser("studio settings", () => {
  let server: TestServer;
  let problems: string[] = [];
  let logoFile: string;

  beforeAll(async () => {
    // Nothing answers at this address: "Test connection" must say so.
    server = await startTestServer({ OPENAI_API_URL: "http://127.0.0.1:9" });
    logoFile = path.join(makeTempDir(), "logo.png");
    fs.writeFileSync(
      logoFile,
      await sharp({ create: { width: 256, height: 256, channels: 4, background: "#0f766e" } })
        .png()
        .toBuffer(),
    );
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  async function adminPage(options: { width: number; height: number; colorScheme: "light" | "dark" }): Promise<OpenedPage> {
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    const opened = await launch(options);
    const { page } = opened;
    problems = opened.problems;
    await signIn(page, server.url, admin.email, { to: "/admin?section=studio" });
    await poll(() => page.getByTestId("admin-studio-brand").isVisible()).toBe(true);
    return opened;
  }

  it("brands the studio from /admin: name, accent, logo and terms show at once, and on a visitor's landing page (desktop light)", async () => {
    const { browser, page } = await adminPage({ width: 1366, height: 900, colorScheme: "light" });
    const brand = page.getByTestId("admin-studio-brand");
    await brand.getByLabel("Studio name", { exact: true }).fill("Casa Nova Studio");
    await brand.getByLabel("Accent colour", { exact: true }).fill("#facc15");
    // The check is live: a yellow fails, and saving says why.
    await poll(() => brand.getByTestId("admin-studio-contrast").textContent()).toContain("fails");
    await screenshot(page, "studio-accent-refused-desktop-light");
    await brand.getByRole("button", { name: "Save brand" }).click();
    await poll(() => brand.getByRole("alert").textContent()).toContain("WCAG AA");

    await brand.getByLabel("Accent colour", { exact: true }).fill("#0f766e");
    await brand.getByLabel("Terms of service (shown at /terms)").fill("Renders are yours.\n\nBe kind to the rooms.");
    await brand.getByRole("button", { name: "Save brand" }).click();
    await poll(() => page.getByText("Brand saved").isVisible()).toBe(true);
    await page.getByTestId("admin-studio-logo-input").setInputFiles(logoFile);
    await poll(() => page.getByTestId("admin-studio-logo").isVisible()).toBe(true);

    // This tab follows at once: the name in the bar and the window's title, the accent on buttons.
    await poll(() => page.getByRole("navigation", { name: "Main navigation" }).textContent()).toContain("Casa Nova Studio");
    await poll(() => page.title()).toBe("Administration · Casa Nova Studio");
    // Polled: buttons ease their colour change, so a busy machine can read it mid-transition.
    await poll(() =>
      brand.getByRole("button", { name: "Save brand" }).evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe("rgb(15, 118, 110)");
    await screenshot(page, "studio-brand-desktop-light");

    // A visitor's landing page, pre-rendered and hydrated, carries it all.
    const visitor = await browser.browser()!.newContext({ viewport: { width: 1366, height: 900 } });
    const landing = await visitor.newPage();
    const errors: string[] = [];
    landing.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
    await landing.goto(server.url);
    expect(await landing.title()).toBe("Casa Nova Studio");
    expect(await landing.locator("header").textContent()).toContain("Casa Nova Studio");
    expect(
      await landing
        .locator(".brand-mark-logo")
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundImage),
    ).toContain("/studio/logo?v=");
    await poll(() => landing.getByRole("link", { name: "Terms of service" }).isVisible()).toBe(true);
    await landing.getByRole("link", { name: "Terms of service" }).click();
    await poll(() => landing.getByTestId("legal-text").textContent()).toContain("Be kind to the rooms.");
    expect(await landing.title()).toBe("Terms of service · Casa Nova Studio");
    // A heading that names the studio is not followed by its name again.
    await landing.goto(`${server.url}/auth`);
    await poll(() => landing.title()).toBe("Welcome to Casa Nova Studio");
    await screenshot(landing, "studio-terms-desktop-light");
    expect(errors).toEqual([]);
    await visitor.close();
  });

  it("tests the engine's connection and shows free credits, on a phone (dark)", async () => {
    const { page } = await adminPage({ width: 390, height: 844, colorScheme: "dark" });
    const engine = page.getByTestId("admin-studio-engine");
    await engine.scrollIntoViewIfNeeded();
    await engine.getByLabel("Engine", { exact: true }).selectOption("openai");
    const main = engine.getByTestId("admin-studio-main-engine");
    await main.getByLabel("OpenAI API key").fill("sk-nothing-listens-here");
    await main.getByRole("button", { name: "Test connection" }).click();
    // No OpenAI server answers at the address this server was given: the failure is shown, nothing is saved.
    await poll(() => main.getByTestId("admin-studio-test-result-openai").textContent()).toContain("The engine did not answer as expected");
    await engine.getByRole("button", { name: "Save engine" }).click();
    await poll(() => page.getByText("Engine saved: new renders use OpenAI (gpt-image-1)").isVisible()).toBe(true);
    await poll(() => main.getByText("A key ending in here is stored.").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "studio-engine-phone-dark");
    await page.getByTestId("admin-studio-free-credits").scrollIntoViewIfNeeded();
    await screenshot(page, "studio-free-credits-phone-dark");
  });

  it("sets ComfyUI's upscale model and its refine pass, and turns upscaling off with an empty model (desktop light)", async () => {
    const { page } = await adminPage({ width: 1366, height: 900, colorScheme: "light" });
    const engine = page.getByTestId("admin-studio-engine");
    await engine.scrollIntoViewIfNeeded();
    await engine.getByLabel("Engine", { exact: true }).selectOption("comfyui");
    // Saving builds the engine without calling it: nothing needs to answer at this address.
    await engine.getByLabel("ComfyUI server address").fill("http://127.0.0.1:9");
    const model = engine.getByLabel("Upscale model", { exact: true });
    expect(await model.inputValue()).toBe("RealESRGAN_x4plus.pth");
    await model.fill("4x-UltraSharp.pth");
    const refine = engine.getByLabel(/Refine after upscaling/);
    await refine.check();
    await screenshot(page, "studio-comfyui-upscale-desktop-light");
    await engine.getByRole("button", { name: "Save engine" }).click();
    await poll(() => page.getByText(/Engine saved: new renders use ComfyUI/).isVisible()).toBe(true);
    const saved = async () =>
      JSON.parse(
        (await server.deps.db.selectFrom("studio_settings").select("value").where("section", "=", "engine").executeTakeFirstOrThrow())
          .value,
      ) as Record<string, unknown>;
    expect(await saved()).toMatchObject({ engine: "comfyui", comfyuiUpscaleModel: "4x-UltraSharp.pth", comfyuiUpscaleRefine: true });
    expect(server.services.render.engine.capabilities.upscale).toBe(true);

    // No model, no refine to choose, no upscale.
    await model.fill("");
    expect(await refine.isDisabled()).toBe(true);
    await engine.getByRole("button", { name: "Save engine" }).click();
    await poll(async () => (await saved()).comfyuiUpscaleModel).toBe("");
    expect(server.services.render.engine.capabilities.upscale).toBe(false);
  });
});
