/**
 * A studio with its own GPU box: the app on RENDER_PROVIDER=comfyui against a fake ComfyUI that
 * speaks the protocol (tests/helpers/fake-comfyui.ts). In English, a visitor's free demo render
 * finishes with live percent progress, provenance in the details panel and honestly labelled
 * downloads carrying the AI mark, its seed on the card and no re-render offered (a visitor cannot
 * have one); in Spanish, a user stages an empty room in two variations at the price shown, each card
 * with its number and seed, then re-rolls one. Screenshots at phone and desktop width, light and dark.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DIGITAL_SOURCE_TYPE_EDITED_WITH_AI } from "../../src/server/images/provenance";
import { describeBrowser, screenshot, signUpAndSignIn, waitForRender, useBrowsers } from "../helpers/browser";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });

async function roomPhoto(file: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
    <rect width="1600" height="1200" fill="#d6cfc2"/><rect y="850" width="1600" height="350" fill="#8b6b4a"/>
    <rect x="980" y="180" width="420" height="380" fill="#cfe8f7" stroke="#f5f5f4" stroke-width="24"/>
    <line x1="1190" y1="180" x2="1190" y2="560" stroke="#f5f5f4" stroke-width="12"/>
    <rect x="180" y="600" width="640" height="220" rx="40" fill="#6b6f76"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toFile(file);
  return file;
}

describeBrowser("renders on a studio's own ComfyUI box", () => {
  let comfy: FakeComfyUi;
  let server: TestServer;
  let photo: string;
  let dir: string;

  beforeAll(async () => {
    comfy = await startFakeComfyUi();
    // Slow enough that the page sees the percent move, fast enough for a test.
    comfy.script({ steps: 5, stepDelayMs: 250 });
    server = await startTestServer({
      RENDER_PROVIDER: "comfyui",
      COMFYUI_URL: comfy.url,
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      DEMO_RENDERS_PER_IP_PER_DAY: "10",
    });
    dir = makeTempDir("roomcanvas-engines-");
    photo = await roomPhoto(path.join(dir, "room.jpg"));
  });
  afterAll(async () => {
    await server?.stop();
    await comfy?.close();
  });

  const { open } = useBrowsers(() => server.url);

  /** Every phase text the job cards show from now on. */
  async function recordPhases(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __phases: string[] }).__phases = seen;
      new MutationObserver(() => {
        for (const element of document.querySelectorAll("[data-testid=job-phase]")) {
          const text = element.textContent ?? "";
          if (text && !seen.includes(text)) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    return () => page.evaluate(() => (window as unknown as { __phases: string[] }).__phases);
  }

  it("in English: a visitor's demo render shows live percent, its details, and AI-marked downloads at their true size", async () => {
    const { page, problems } = await open("/upload", { width: 1366, height: 900 });
    await poll(() => page.getByTestId("engine-note").textContent()).toContain("ComfyUI");
    await page.getByTestId("file-input").setInputFiles(photo);
    await poll(() => new URL(page.url()).pathname).toBe("/style-select");
    // The engine offers three modes: a visitor may pick one; variations are for accounts.
    await poll(() => page.getByRole("radio", { name: "Stage an empty room" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Variations of each style").count()).toBe(0);
    await page.getByTestId("style-japandi").click();
    const phases = await recordPhases(page);
    await page.getByRole("button", { name: "Render", exact: true }).click();
    await waitForRender(page, { timeoutMs: 30_000 });
    expect((await phases()).filter((text) => /Rendering\.\.\. \d+%/.test(text)).length).toBeGreaterThanOrEqual(2);

    // The fake box answers with a picture of its own, not the room: the structure check says so.
    const structure = page.getByTestId("structure-score");
    await poll(() => structure.getAttribute("data-flagged")).toBe("true");
    expect(await structure.textContent()).toMatch(/^Walls and windows kept: \d+ % · Walls or windows may have moved in this render\.$/);
    // A visitor's one free render cannot be rendered again (the server refuses it): no re-render is
    // offered, neither a re-roll, nor the same seed, nor holding walls and windows harder.
    for (const name of ["Re-roll (new seed)", "Render again with this seed", "Render again, holding walls and windows"])
      expect(await page.getByRole("button", { name }).count(), name).toBe(0);
    // One picture, no variation to tell apart; the seed the engine used is on the card.
    expect(await page.getByTestId("job-variation").count()).toBe(0);
    const seed = (await page.getByTestId("job-seed").textContent()) ?? "";
    expect(seed).toMatch(/^Seed \d+$/);

    await page.getByText("Render details").click();
    const details = page.getByTestId("render-details");
    await poll(() => details.textContent()).toContain("sd_xl_base_1.0.safetensors");
    const text = (await details.textContent()) ?? "";
    expect(text).toMatch(/ComfyUI \(sd_xl_base_1\.0\.safetensors\) · AI/);
    expect(text).toContain(`Seed${seed.replace("Seed ", "")}`);
    expect(text).toContain("Japandi style");
    await screenshot(page, "engines-visitor-result-1366-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "engines-visitor-result-1366-dark");
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "engines-visitor-result-390-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await screenshot(page, "engines-visitor-result-390-light");
    await page.setViewportSize({ width: 1366, height: 900 });

    // The label says the file's true size (whatever the engine made), and the file is that size.
    const label = (await page.getByTestId("download-rendered").textContent()) ?? "";
    const size = /^(\d+) × (\d+), as rendered$/.exec(label);
    expect(size, label).not.toBeNull();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-rendered").click()]);
    const saved = path.join(dir, "rendered.jpg");
    await download.saveAs(saved);
    const metadata = await sharp(fs.readFileSync(saved)).metadata();
    expect([metadata.width, metadata.height]).toEqual([Number(size![1]), Number(size![2])]);
    expect(metadata.xmp?.toString("utf8")).toContain(DIGITAL_SOURCE_TYPE_EDITED_WITH_AI);
    expect(problems).toEqual([]);
  });

  it("en español: staging an empty room in two variations at the price shown, each card with its number and seed, then a re-roll", async () => {
    for (const [size, colorScheme] of [
      [{ width: 390, height: 844 }, "dark"],
      [{ width: 1366, height: 900 }, "light"],
    ] as const) {
      const { browser, page, problems } = await open("/upload", { ...size, colorScheme, locale: "es-ES" });
      await signUpAndSignIn(page, server.url, { language: "es", to: "/upload" });
      // A file chosen before the allowance arrives is ignored by the page.
      await poll(() => page.getByTestId("engine-note").isVisible()).toBe(true);
      await page.getByTestId("file-input").setInputFiles(photo);
      await poll(() => new URL(page.url()).pathname).toBe("/style-select");
      await page.getByRole("radio", { name: "Amueblar una habitación vacía" }).check();
      await page.getByLabel("Variaciones de cada estilo").selectOption("2");
      await page.getByTestId("style-scandinavian").click();
      await poll(() => page.getByTestId("render-price").textContent()).toBe("Usará 2 créditos (1 estilo × 2 variaciones).");
      await screenshot(page, `engines-style-select-${size.width}-${colorScheme}-es`);
      await page.getByRole("button", { name: "Renderizar", exact: true }).click();
      await waitForRender(page, { count: 2, timeoutMs: 40_000 });
      // Each card says which variation it is and the seed the engine used: the two can be told apart.
      await poll(() => page.getByTestId("job-seed").count()).toBe(2);
      expect(await page.getByTestId("job-variation").allTextContents()).toEqual(["Variación 1 de 2", "Variación 2 de 2"]);
      const seeds = await page.getByTestId("job-seed").allTextContents();
      for (const seed of seeds) expect(seed).toMatch(/^Semilla \d+$/);
      expect(new Set(seeds).size).toBe(2);
      // The card's name, read out, carries the variation too.
      expect(await page.getByRole("article", { name: /Variación 2 de 2/ }).count()).toBe(1);
      await screenshot(page, `engines-variations-${size.width}-${colorScheme}-es`);
      await page.emulateMedia({ colorScheme: colorScheme === "dark" ? "light" : "dark" });
      await screenshot(page, `engines-variations-${size.width}-${colorScheme === "dark" ? "light" : "dark"}-es`);

      await page.getByRole("button", { name: "Repetir (nueva semilla)" }).first().click();
      await waitForRender(page, { count: 3, timeoutMs: 40_000 });
      expect(problems).toEqual([]);
      await browser.close();
    }
  }, 90_000); // two widths, each with variations, a re-roll and screenshots; waits up to 40 s inside
  it("a floor plan: the style page says, before Render, that ComfyUI makes a furnished top view of it, and offers one mode", async () => {
    const plan = path.join(dir, "plan.png");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="#fff"/>
      <g stroke="#111" stroke-width="14" fill="none"><rect x="80" y="80" width="1040" height="740"/><line x1="600" y1="80" x2="600" y2="380"/></g></svg>`;
    await sharp(Buffer.from(svg)).png().toFile(plan);
    const { page, problems } = await open("/upload", { width: 390, height: 844 });
    await poll(() => page.getByTestId("engine-note").textContent()).toContain("ComfyUI");
    await page.getByText("Floor plan", { exact: true }).click();
    // An engine that renders plans: no warning at upload.
    expect(await page.getByTestId("plan-none-note").count()).toBe(0);
    await page.getByTestId("file-input").setInputFiles(plan);
    await poll(() => new URL(page.url()).pathname).toBe("/style-select");
    const note = page.getByTestId("floor-plan-note");
    await poll(() => note.textContent()).toContain("What happens to your floor plan");
    expect(await note.textContent()).toContain("makes a furnished top view of your plan");
    // Staging or decluttering a drawing is not offered; the render is (one credit, the visitor's demo).
    expect(await page.getByRole("radio", { name: "Stage an empty room" }).count()).toBe(0);
    await page.getByTestId("style-modern").click();
    expect(await page.getByRole("button", { name: "Render", exact: true }).isEnabled()).toBe(true);
    await screenshot(page, "engines-floor-plan-style-phone-light");
    expect(problems).toEqual([]);
  });
});
