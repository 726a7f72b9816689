/**
 * Honest copy and the visitor's demo, in a browser against the real server, in English and Spanish:
 * (a) with the Preview engine (the default) the landing page, the demo dialog and the features page
 * claim no AI and say what the engine does, and the demo shows the app's own examples with a caption
 * saying how they were made; (b) with an AI engine the spec's texts appear word for word; (c) a
 * visitor whose free demo is used (in this browser, or by this network today) is told why on /upload,
 * /batch-upload and /style-select before uploading, and /upload offers sign-up instead of a drop zone;
 * (d) the before/after view shows the whole picture, portrait, wide, square or panorama, on a phone
 * and a desktop, and its slider still works by keyboard, mouse and touch. Screenshots of the changed
 * pages in light and dark, on a phone and a desktop.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import i18next from "i18next";
import { translations } from "../../src/client/i18n/resources";
import { PREVIEW_ALTERNATIVES } from "../../src/client/lib/engineCopy";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { CREDITS, PRODUCT_NAME } from "../../src/shared/constants";
import { describeBrowser, screenshot, SCREENSHOTS_TAKEN, signIn, waitForRender, useBrowsers, screenshotViewport } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });
const path_ = (page: Page) => new URL(page.url()).pathname;

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;
const LANGUAGES = [
  { language: "en", locale: "en-US" },
  { language: "es", locale: "es-ES" },
] as const;
type Lang = (typeof LANGUAGES)[number]["language"];

// The client's own texts through i18next, as the page says them (plurals and nested texts included).
const i18n = i18next.createInstance();
await i18n.init({
  resources: { en: { translation: translations.en }, es: { translation: translations.es } },
  lng: "en",
  interpolation: { escapeValue: false },
});

/** A text of the interface as the client says it, with its values filled in. */
function text(language: Lang, key: string, values: Record<string, string | number> = {}): string {
  if (!i18n.exists(key, { lng: language })) throw new Error(`no text ${key} in ${language}`);
  return i18n.getFixedT(language)(key, values);
}
const tx = (language: Lang, key: string, values: Record<string, string | number> = {}) =>
  text(language, key, { product: PRODUCT_NAME, credits: CREDITS.signUpGrant, ...values });

/** Words that claim AI (or what only an AI engine does) and may not appear with the Preview engine. */
const AI_CLAIMS: Record<Lang, string[]> = {
  en: ["AI Magic", "photorealistic", "transforms your space", "30-second rendering", "AI-generated", "AI-powered", "an AI image model"],
  es: ["magia de la IA", "fotorrealista", "transforma tu espacio", "Renderizado en 30 segundos", "generado por IA", "impulsado por IA"],
};

/** The page's visible text must contain none of the AI claims, nor any of the AI-only texts of the language. */
async function expectNoAiClaim(page: Page, language: Lang, where: string): Promise<void> {
  const shown = (await page.locator("body").innerText()).toLowerCase();
  const aiOnly = Object.keys(PREVIEW_ALTERNATIVES).map((key) => tx(language, key));
  for (const claim of [...AI_CLAIMS[language], ...aiOnly]) {
    expect(shown, `${where}: "${claim}"`).not.toContain(claim.toLowerCase());
  }
}

/** A screenshot of what the screen shows (a dialog is fixed to it). */
/** An AI engine for the tests: says it is AI (as Replicate, OpenAI or ComfyUI would) and grades like the Preview engine. */
const testAiEngine: RenderProvider = {
  id: "test-ai",
  label: "Test AI model",
  capabilities: { ...PREVIEW_CAPABILITIES, isAi: true, photoSize: false },
  render: (request) => localProvider.render(request),
};

describeBrowser("honest copy and the visitor's demo", () => {
  let preview: TestServer;
  let ai: TestServer;
  let limited: TestServer;
  let dir: string;

  beforeAll(async () => {
    [preview, ai, limited] = await Promise.all([
      startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", DEMO_RENDERS_PER_IP_PER_DAY: "100" }),
      startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { renderProvider: testAiEngine }),
      startTestServer({ DEMO_RENDERS_PER_IP_PER_DAY: "0" }),
    ]);
    dir = makeTempDir("roomcanvas-honest-");
  });
  afterAll(async () => {
    await Promise.all([preview?.stop(), ai?.stop(), limited?.stop()]);
  });

  // Pages on three servers: open() is given whole addresses.
  const { open } = useBrowsers();

  const dialogStep = (page: Page) => page.getByTestId("demo-stage").getAttribute("data-step");
  /** Opens the demo dialog and stops it on a step (a dot stops playback). */
  async function demoAt(page: Page, language: Lang, step: number) {
    const dialog = page.getByRole("dialog", { name: tx(language, "demo.title") });
    if (!(await dialog.isVisible())) {
      await page.getByRole("button", { name: tx(language, "home.hero.watchDemo") }).click();
      await poll(() => dialog.isVisible()).toBe(true);
    }
    await dialog.getByTestId("demo-dot").nth(step).click();
    await poll(() => dialogStep(page)).toBe(String(step));
    return dialog;
  }

  for (const { language, locale } of LANGUAGES) {
    it(`(a) says what the Preview engine does and claims no AI: landing, demo dialog, features (${language})`, async () => {
      const { page, problems } = await open(`${preview.url}/`, { locale });
      // The landing page: the engine named, not AI; the hero pictures the app's own example.
      await poll(() => page.getByTestId("engine-note").first().textContent()).toContain(tx(language, "flow.previewEngineNote"));
      await poll(() => page.getByTestId("hero-picture").getAttribute("data-pictures")).toBe("example");
      expect(await page.getByTestId("hero-example-caption").textContent()).toContain(tx(language, "home.hero.exampleCaption"));
      await poll(() => page.getByTestId("landing-examples").isVisible()).toBe(true);
      await expectNoAiClaim(page, language, "landing");

      // The demo dialog: the honest wording at each step, the app's own pictures and the caption saying how they were made.
      let dialog = await demoAt(page, language, 0);
      expect(await dialog.getByRole("heading", { level: 2 }).textContent()).toBe(tx(language, "demo.title"));
      await poll(() =>
        dialog.getByTestId("demo-example-before").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      ).toBe(960);
      expect(new URL((await dialog.getByTestId("demo-example-before").getAttribute("src"))!, preview.url).origin).toBe(preview.url);
      expect(await dialog.getByTestId("demo-examples-caption").textContent()).toBe(tx(language, "demo.preview.examplesCaption"));
      expect(await dialog.getByTestId("demo-step-list").getByRole("listitem").nth(2).textContent()).toContain(
        tx(language, "demo.preview.magic"),
      );
      const why = dialog.getByTestId("demo-why");
      for (const key of ["demo.preview.fast", "demo.preview.quality", "demo.reasons.easy", "demo.reasons.price"]) {
        expect(await why.getByText(tx(language, key), { exact: true }).isVisible(), key).toBe(true);
      }
      await expectNoAiClaim(page, language, "demo dialog, step 1");

      dialog = await demoAt(page, language, 2);
      expect(await dialog.getByTestId("demo-stage").textContent()).toContain(tx(language, "demo.preview.magicBody"));
      expect(await dialog.getByTestId("demo-caption").textContent()).toContain(tx(language, "demo.preview.magic"));
      await expectNoAiClaim(page, language, "demo dialog, step 3");
      await screenshotViewport(page, `honest-demo-preview-grading-${language}`);

      dialog = await demoAt(page, language, 3);
      expect(await dialog.getByTestId("demo-badge").textContent()).toBe(tx(language, "demo.preview.badgeAfter"));
      await poll(() => dialog.getByTestId("demo-example-after").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(
        960,
      );
      await expectNoAiClaim(page, language, "demo dialog, step 4");
      await screenshotViewport(page, `honest-demo-preview-after-${language}`);
      await page.keyboard.press("Escape");

      // The features page: the engine named, "Not AI", and its honest description.
      await page.goto(`${preview.url}/features`);
      const engine = page.getByTestId("features-engine");
      await poll(() => engine.textContent()).toContain(tx(language, "infoPages.features.enginePreviewBody"));
      expect(await engine.textContent()).toContain(tx(language, "infoPages.common.notAi"));
      await expectNoAiClaim(page, language, "features");

      // The help drawer answers "Is the rendering done by AI?" for this engine.
      await page
        .getByRole("button", { name: tx(language, "help.button") })
        .first()
        .click();
      const drawer = page.getByRole("dialog", { name: tx(language, "help.title") });
      await poll(() => drawer.isVisible()).toBe(true);
      await drawer.getByRole("searchbox").fill(language === "en" ? "Preview engine" : "motor de vista previa");
      await poll(() => drawer.getByText(tx(language, "help.faqPreview.engine")).count()).toBe(1);
      expect(problems).toEqual([]);
    });

    it(`(b) shows the spec's texts word for word with an AI engine (${language})`, async () => {
      const { page, problems } = await open(`${ai.url}/`, { locale });
      await poll(() => page.getByTestId("engine-note").first().textContent()).toBe(
        tx(language, "flow.engineAi", { name: "Test AI model" }),
      );
      await poll(() => page.getByTestId("hero-picture").getAttribute("data-pictures")).toBe("drawn");

      let dialog = await demoAt(page, language, 0);
      expect(await dialog.getByTestId("demo-stage").getAttribute("data-pictures")).toBe("drawn");
      expect(await dialog.getByTestId("demo-examples-caption").count()).toBe(0);
      const list = dialog.getByTestId("demo-step-list").getByRole("listitem");
      expect(await list.allTextContents()).toEqual(
        ["demo.steps.upload", "demo.steps.style", "demo.steps.magic", "demo.steps.results"].map((key) =>
          expect.stringContaining(tx(language, key)),
        ),
      );
      const why = dialog.getByTestId("demo-why");
      for (const key of ["demo.reasons.fast", "demo.reasons.quality", "demo.reasons.easy", "demo.reasons.price"]) {
        expect(await why.getByText(tx(language, key), { exact: true }).isVisible(), key).toBe(true);
      }
      dialog = await demoAt(page, language, 2);
      expect(await dialog.getByTestId("demo-stage").textContent()).toContain(tx(language, "demo.steps.magicBody"));
      dialog = await demoAt(page, language, 3);
      expect(await dialog.getByTestId("demo-badge").textContent()).toBe(tx(language, "demo.badgeAfter"));
      if (language === "en") {
        // The spec's English, word for word (step 3's line was checked above).
        expect(tx("en", "demo.steps.magicBody")).toBe(`${PRODUCT_NAME} transforms your space in 30 seconds`);
        const shown = await dialog.innerText();
        for (const spec of [
          "AI Magic Happens",
          "AFTER - 30 seconds",
          `Why Choose ${PRODUCT_NAME}?`,
          "30-second rendering",
          "Photorealistic quality",
          "No design experience needed",
          "Affordable pricing",
        ]) {
          expect(shown, spec).toContain(spec);
        }
      }
      await screenshotViewport(page, `honest-demo-ai-after-${language}`);
      await page.keyboard.press("Escape");

      await page.goto(`${ai.url}/features`);
      await poll(() => page.getByTestId("features-engine").textContent()).toContain(
        tx(language, "infoPages.features.engineAiBody", { name: "Test AI model" }),
      );
      expect(await page.getByTestId("features-engine").textContent()).toContain(tx(language, "infoPages.common.ai"));
      expect(problems).toEqual([]);
    });

    it(`(c) tells a visitor whose free demo is used, before uploading, and leads to sign-up instead of a drop zone (${language})`, async () => {
      const photo = path.join(dir, `room-${language}.jpg`);
      fs.writeFileSync(photo, await roomPhoto(1200, 900));
      const { page, problems } = await open(`${preview.url}/batch-upload`, { locale });
      // Before: the free demo is there, said on /batch-upload and /upload before anything is uploaded.
      await poll(() => page.getByTestId("demo-note").isVisible()).toBe(true);
      await page.goto(`${preview.url}/upload`);
      await poll(() => page.getByTestId("demo-note").isVisible()).toBe(true);
      expect(await page.getByTestId("credits-left").textContent()).toBe(tx(language, "flow.demoAvailable"));
      expect(await page.getByTestId("drop-zone").isVisible()).toBe(true);

      // The free demo render, as a visitor does it.
      await page.getByTestId("file-input").setInputFiles(photo);
      await poll(() => path_(page)).toBe("/style-select");
      const styleSelect = page.url();
      await page.getByTestId("style-modern").click();
      await page.getByRole("button", { name: tx(language, "styleSelect.render_one"), exact: true }).click();
      await poll(() => path_(page)).toBe("/render");
      await waitForRender(page);

      // After: /upload says why and leads to sign-up; there is no drop zone and no file input.
      await page.goto(`${preview.url}/upload`);
      const refused = page.getByTestId("demo-refused");
      await poll(() => refused.getAttribute("data-refusal")).toBe("used");
      expect(await refused.textContent()).toContain(tx(language, "flow.demoUsedTitle"));
      expect(await refused.textContent()).toContain(tx(language, "flow.demoUsedReason"));
      expect(await page.getByTestId("credits-left").textContent()).toBe(tx(language, "flow.demoUsedShort"));
      expect(await page.getByTestId("drop-zone").count()).toBe(0);
      expect(await page.getByTestId("file-input").count()).toBe(0);
      expect(await page.getByTestId("demo-note").count()).toBe(0);
      await screenshot(page, `honest-upload-demo-used-${language}`);

      // /style-select with the earlier picture says so too, and Render stays off.
      await page.goto(styleSelect);
      await poll(() => page.getByTestId("demo-refused").getAttribute("data-refusal")).toBe("used");
      expect(await page.getByRole("button", { name: tx(language, "styleSelect.render_one"), exact: true }).isDisabled()).toBe(true);

      // /batch-upload no longer offers the free render.
      await page.goto(`${preview.url}/batch-upload`);
      await poll(() => page.getByTestId("demo-refused").textContent()).toBe(tx(language, "flow.demoUsedTitle"));
      expect(await page.getByTestId("demo-note").count()).toBe(0);

      // The call to action opens the sign-up tab.
      await page.goto(`${preview.url}/upload`);
      await page
        .getByTestId("demo-refused")
        .getByRole("link", { name: tx(language, "flow.signUp") })
        .click();
      await poll(() => path_(page)).toBe("/auth");
      await poll(() => page.getByRole("tab", { name: tx(language, "auth.signUpTab") }).getAttribute("aria-selected")).toBe("true");
      expect(problems).toEqual([]);
    });

    it(`(c) tells a visitor that this network's free demos are used up for today (${language})`, async () => {
      const { page, problems } = await open(`${limited.url}/upload`, { locale });
      const refused = page.getByTestId("demo-refused");
      await poll(() => refused.getAttribute("data-refusal")).toBe("address-limit");
      expect(await refused.textContent()).toContain(tx(language, "flow.demoAddressLimitTitle"));
      expect(await refused.textContent()).toContain(tx(language, "flow.demoAddressLimitReason"));
      expect(await page.getByTestId("credits-left").textContent()).toBe(tx(language, "flow.demoAddressLimitShort"));
      expect(await page.getByTestId("drop-zone").count()).toBe(0);
      expect(await page.getByTestId("file-input").count()).toBe(0);
      expect(await refused.getByRole("link", { name: tx(language, "flow.signUp") }).getAttribute("href")).toBe("/auth?tab=signup");

      await page.goto(`${limited.url}/batch-upload`);
      await poll(() => page.getByTestId("demo-refused").textContent()).toBe(tx(language, "flow.demoAddressLimitTitle"));
      expect(problems).toEqual([]);
    });
  }

  describe("(d) the before/after view", () => {
    const SHAPES = [
      { name: "portrait", width: 600, height: 1000 },
      { name: "wide", width: 2000, height: 700 },
      { name: "square", width: 900, height: 900 },
      { name: "panorama", width: 3000, height: 600 },
    ] as const;
    let email: string;
    const jobs = new Map<string, string>();

    beforeAll(async () => {
      const member = await signedInClient(preview.url);
      email = member.email;
      for (const shape of SHAPES) {
        const uploaded = await upload(preview.url, member.jar, await roomPhoto(shape.width, shape.height));
        expect(uploaded.status, shape.name).toBe(201);
        const { jobs: created } = await member.client.render.create.mutate({
          projectId: uploaded.body.projectId,
          imageId: uploaded.body.imageId,
          style: "scandinavian",
        });
        jobs.set(shape.name, created[0]!.id);
      }
      await waitForRenders(member, [...jobs.values()], { timeoutMs: 30_000 });
    });

    /** The slider's frame and its two pictures: sizes as laid out and as the files are. */
    function measure(page: Page) {
      return page.getByTestId("compare-slider").evaluate((frame) => {
        const box = frame.getBoundingClientRect();
        const pictures = [...frame.querySelectorAll("img")].map((img) => {
          const rect = img.getBoundingClientRect();
          return {
            naturalWidth: img.naturalWidth,
            naturalHeight: img.naturalHeight,
            width: rect.width,
            height: rect.height,
            fit: getComputedStyle(img).objectFit,
          };
        });
        return { width: box.width, height: box.height, pictures, viewportWidth: document.documentElement.clientWidth, innerHeight };
      });
    }

    for (const size of SIZES) {
      it(`shows the whole picture, portrait, wide, square and panorama, and the slider works (${size.name})`, async () => {
        const { page, problems } = await open(`${preview.url}/`, { width: size.width, height: size.height });
        await signIn(page, preview.url, email);
        for (const shape of SHAPES) {
          await page.goto(`${preview.url}/render?jobs=${jobs.get(shape.name)}`);
          await waitForRender(page);
          const slider = page.getByRole("slider");
          await poll(() => slider.getAttribute("data-width")).not.toBeNull();
          await poll(() =>
            page.getByTestId("compare-slider").evaluate((frame) => [...frame.querySelectorAll("img")].every((img) => img.complete)),
          );
          const seen = await measure(page);
          const pictureRatio = shape.width / shape.height;
          // The frame has the picture's shape (within 2 %) and fits the screen's width and most of its height.
          expect(
            Math.abs(seen.width / seen.height - pictureRatio) / pictureRatio,
            `${shape.name} frame ${seen.width}×${seen.height}`,
          ).toBeLessThan(0.02);
          expect(seen.width).toBeLessThanOrEqual(seen.viewportWidth);
          expect(seen.height).toBeLessThanOrEqual(seen.innerHeight * 0.7 + 1);
          for (const picture of seen.pictures) {
            // The file has the photo's shape, fills its box, and is contained in it: nothing is cut off.
            expect(Math.abs(picture.naturalWidth / picture.naturalHeight - pictureRatio) / pictureRatio, shape.name).toBeLessThan(0.02);
            expect(picture.fit).toBe("contain");
            expect(Math.abs(picture.width - seen.width)).toBeLessThan(1);
            expect(Math.abs(picture.height - seen.height)).toBeLessThan(1);
            const scale = Math.min(picture.width / picture.naturalWidth, picture.height / picture.naturalHeight);
            expect(picture.naturalWidth * scale).toBeLessThanOrEqual(picture.width + 0.5);
            expect(picture.naturalHeight * scale).toBeLessThanOrEqual(picture.height + 0.5);
            expect(picture.naturalWidth * scale).toBeGreaterThan(picture.width * 0.98);
            expect(picture.naturalHeight * scale).toBeGreaterThan(picture.height * 0.98);
          }
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

          // The slider: keyboard, mouse drag, and touch.
          expect(await slider.getAttribute("aria-valuenow")).toBe("50");
          await slider.focus();
          await slider.press("ArrowLeft");
          await poll(() => slider.getAttribute("aria-valuenow")).toBe("45");
          await slider.press("End");
          await poll(() => slider.getAttribute("aria-valuenow")).toBe("100");
          await slider.scrollIntoViewIfNeeded();
          const box = (await slider.boundingBox())!;
          const y = box.y + box.height / 2;
          await page.mouse.move(box.x + box.width * 0.3, y);
          await page.mouse.down();
          await page.mouse.move(box.x + box.width * 0.2, y, { steps: 3 });
          await page.mouse.up();
          await poll(async () => Number(await slider.getAttribute("aria-valuenow"))).toBeLessThan(25);
          const cdp = await page.context().newCDPSession(page);
          await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
          const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number) =>
            cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
          await touch("touchStart", box.x + box.width * 0.6);
          await touch("touchMove", box.x + box.width * 0.7);
          await touch("touchMove", box.x + box.width * 0.8);
          await touch("touchEnd", box.x + box.width * 0.8);
          await poll(async () => Number(await slider.getAttribute("aria-valuenow"))).toBeGreaterThan(70);
          await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: false });
          await cdp.detach();
        }
        expect(problems).toEqual([]);
      });
    }

    // Two of the four combinations, as the other browser tests: accessibility.test.ts checks every page in all four.
    // Screenshots for looking at, and little else: not run where none are taken (CI, decision 099).
    it.skipIf(!SCREENSHOTS_TAKEN)(
      "looks right on a desktop in light and on a phone in dark (screenshots of the changed pages)",
      async () => {
        for (const colorScheme of ["light", "dark"] as const) {
          for (const size of SIZES.filter((one) => one.name === (colorScheme === "light" ? "desktop" : "phone"))) {
            const label = `${size.name}-${colorScheme}`;
            const { browser, page, problems } = await open(`${preview.url}/`, { width: size.width, height: size.height, colorScheme });
            expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(colorScheme === "dark");
            await poll(() => page.getByTestId("hero-picture").getAttribute("data-pictures")).toBe("example");
            await poll(() => page.getByTestId("landing-examples").isVisible()).toBe(true);
            await screenshot(page, `honest-landing-${label}`);
            await demoAt(page, "en", 2);
            await screenshotViewport(page, `honest-demo-grading-${label}`);
            await demoAt(page, "en", 3);
            await poll(() => page.getByTestId("demo-example-after").evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
            await screenshotViewport(page, `honest-demo-after-${label}`);
            await page.keyboard.press("Escape");

            await page.goto(`${preview.url}/features`);
            await poll(() => page.getByTestId("features-engine").textContent()).toContain("Not AI");
            await screenshot(page, `honest-features-${label}`);
            await page.goto(`${preview.url}/upload`);
            await poll(() => page.getByTestId("demo-note").isVisible()).toBe(true);
            await screenshot(page, `honest-upload-demo-available-${label}`);
            await page.goto(`${limited.url}/upload`);
            await poll(() => page.getByTestId("demo-refused").isVisible()).toBe(true);
            await screenshot(page, `honest-upload-address-limit-${label}`);
            await page.goto(`${limited.url}/batch-upload`);
            await poll(() => page.getByTestId("demo-refused").isVisible()).toBe(true);
            await screenshot(page, `honest-batch-visitor-${label}`);

            await signIn(page, preview.url, email);
            for (const shape of ["portrait", "wide", "panorama"]) {
              await page.goto(`${preview.url}/render?jobs=${jobs.get(shape)}`);
              await waitForRender(page);
              await poll(() => page.getByRole("slider").getAttribute("data-width")).not.toBeNull();
              await screenshot(page, `honest-render-${shape}-${label}`);
            }
            await page.goto(`${ai.url}/`);
            await poll(() => page.getByTestId("hero-picture").getAttribute("data-pictures")).toBe("drawn");
            await demoAt(page, "en", 2);
            await screenshotViewport(page, `honest-demo-ai-magic-${label}`);
            expect(problems, label).toEqual([]);
            await browser.close();
          }
        }
      },
      180_000,
    );
  });
});
