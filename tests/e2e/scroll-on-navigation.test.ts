/**
 * A new page opens at its top (issue 27), on a phone (390 × 844): Render pressed at the foot of
 * the style page opens /render with the result in view, "Edit in studio" opens the studio with the
 * top of the picture in view, and a footer link opens its page at the top. Back returns to where the
 * reader was. A finished render shows what it took to a tenth of a second.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signUpAndSignIn, useBrowsers, waitForRender } from "../helpers/browser";
import { roomPhoto } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const PHONE = { width: 390, height: 844 } as const;
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Whether the element's top edge is on the screen (not above it, not below it). */
const topInView = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.top < window.innerHeight;
    });

describeBrowser("a new page opens at its top", () => {
  let server: TestServer;
  let photo: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    photo = path.join(makeTempDir(), "room.jpg");
    fs.writeFileSync(photo, await roomPhoto(1600, 1200));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  it("opens /render with the result in view after Render at the foot of the style page, and the studio at the picture's top (phone)", async () => {
    const { page, problems } = await open("/", PHONE);
    await signUpAndSignIn(page, server.url, { to: "/upload" });
    await page.getByTestId("file-input").setInputFiles(photo);
    await poll(() => pathOf(page)).toBe("/style-select");
    await page.getByTestId("style-japandi").click();
    const render = page.getByRole("button", { name: /^Render/ });
    await render.scrollIntoViewIfNeeded();
    expect(await scrollY(page)).toBeGreaterThan(0);
    await render.click();
    await poll(() => pathOf(page)).toBe("/render");
    expect(await scrollY(page)).toBe(0);
    await waitForRender(page);
    expect(await scrollY(page)).toBe(0);
    expect(await topInView(page, "job-card")).toBe(true);
    // What it took, to a tenth of a second: a Preview render takes about one, not "0 s".
    expect(await page.getByTestId("job-elapsed").textContent()).toMatch(/^Elapsed time: \d+\.\d s$/);
    await screenshot(page, "scroll-render-phone");

    const studio = page.getByRole("link", { name: "Edit in studio" }).first();
    // From the foot of the page (where the link may not be needed to scroll: the card's parts arrive in turn on a busy machine).
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await poll(() => scrollY(page)).toBeGreaterThan(0);
    await studio.click();
    await poll(() => pathOf(page)).toBe("/modification-studio");
    expect(await scrollY(page)).toBe(0);
    await poll(() => topInView(page, "studio-canvas-frame")).toBe(true);
    await screenshot(page, "scroll-studio-phone");
    expect(problems).toEqual([]);
  });

  it("opens a footer link's page at its top, and Back returns to the footer (phone)", async () => {
    const { page, problems } = await open("/", PHONE);
    const link = page.getByRole("contentinfo").getByRole("link", { name: "Pricing" });
    await link.scrollIntoViewIfNeeded();
    const footerScroll = await scrollY(page);
    expect(footerScroll).toBeGreaterThan(PHONE.height);
    await link.click();
    await poll(() => pathOf(page)).toBe("/pricing");
    expect(await scrollY(page)).toBe(0);
    await page.goBack();
    await poll(() => pathOf(page)).toBe("/");
    await poll(() => scrollY(page)).toBeGreaterThan(PHONE.height);
    expect(problems).toEqual([]);
  });
});
