/**
 * Share links and embeds in a browser (issue 32, decision 106): the embed snippet in a page of another
 * origin (another loopback port), its slider worked with the keyboard and dragged, its pictures loaded,
 * no console error, no CSP violation, no cookie set; in English on a desktop in light and in Spanish on
 * a phone in dark; axe on the embed alone. The share page /s/<id> signed out (before and after, and after
 * only), and its not-found view once the picture is unpublished.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { embedSnippet } from "../../src/shared/community";
import { seriousViolations } from "../helpers/axe";
import { describeBrowser, screenshot, SCREENSHOT_DIR, SCREENSHOTS_TAKEN, uiText, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

/** Records CSP violations in every frame (init scripts run in cross-origin frames too). */
const recordViolations = () => {
  const seen: string[] = [];
  (window as unknown as { violations: string[] }).violations = seen;
  document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
};

describeBrowser("the embed and the share page in a browser", () => {
  let server: TestServer;
  let ana: Awaited<ReturnType<typeof signedInClient>>;
  let id: string;
  let other: http.Server;
  let otherUrl: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    ana = await signedInClient(server.url);
    const uploaded = await upload(server.url, ana.jar, await roomPhoto(800, 600));
    const { jobs } = await ana.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    await waitForRenders(ana, [jobs[0]!.id]);
    id = (await ana.client.community.publish.mutate({ jobId: jobs[0]!.id, title: "Calm bedroom", layout: "before-after", showName: true }))
      .id;
    // A studio's own website: another origin, the snippet in its page.
    const host = new URL(server.url).hostname === "localhost" ? "127.0.0.1" : "localhost";
    other = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Studio site</title></head>` +
          `<body style="font-family:sans-serif;margin:24px"><h1>Our latest work</h1>${embedSnippet(server.url, id, "Calm bedroom")}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherUrl = `http://${host}:${(other.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => other?.close(resolve));
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  async function embedFrame(page: Page): Promise<Frame> {
    await page.locator("iframe").scrollIntoViewIfNeeded();
    await poll(() => page.frames().some((frame) => frame.url().startsWith(`${server.url}/embed/`))).toBe(true);
    const frame = page.frames().find((candidate) => candidate.url().startsWith(`${server.url}/embed/`))!;
    await frame.waitForLoadState("load");
    return frame;
  }

  const sliderState = (frame: Frame) =>
    frame.evaluate(() => ({
      value: document.querySelector("[role=slider]")!.getAttribute("aria-valuenow"),
      clip: getComputedStyle(document.querySelector("img.before")!).clipPath,
    }));

  for (const run of [
    { name: "en-desktop-light", language: "en", locale: "en-US", width: 1280, height: 800, colorScheme: "light" },
    { name: "es-phone-dark", language: "es", locale: "es-ES", width: 390, height: 844, colorScheme: "dark" },
  ] as const) {
    it(`works inside a page of another origin, with the keyboard and the pointer (${run.name})`, async () => {
      expect(new URL(otherUrl).origin).not.toBe(new URL(server.url).origin);
      const { page, problems, browser } = await open(otherUrl, {
        width: run.width,
        height: run.height,
        colorScheme: run.colorScheme,
        locale: run.locale,
        beforeLoad: async (page) => {
          await page.addInitScript(recordViolations);
        },
      });
      const frame = await embedFrame(page);
      const slider = frame.getByRole("slider");
      expect(await frame.locator("html").getAttribute("lang")).toBe(run.language);
      expect(await frame.locator(".before-label").textContent()).toBe(run.language === "es" ? "Antes" : "Before");
      expect(await sliderState(frame)).toEqual({ value: "50", clip: "inset(0px 50% 0px 0px)" });

      await slider.focus();
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      expect(await sliderState(frame)).toEqual({ value: "40", clip: "inset(0px 60% 0px 0px)" });
      await page.keyboard.press("ArrowRight");
      expect((await sliderState(frame)).value).toBe("45");
      await page.keyboard.press("End");
      expect(await sliderState(frame)).toEqual({ value: "100", clip: "inset(0px 0% 0px 0px)" });
      await page.keyboard.press("Home");
      expect((await sliderState(frame)).value).toBe("0");
      await page.keyboard.press("PageUp");
      await page.keyboard.press("PageUp");
      await page.keyboard.press("ArrowRight");
      expect(await sliderState(frame)).toEqual({ value: "45", clip: "inset(0px 55% 0px 0px)" });
      // The handle follows the value.
      const handle = await frame.evaluate(() => {
        const frameBox = document.querySelector(".frame")!.getBoundingClientRect();
        return (document.querySelector(".handle")!.getBoundingClientRect().left - frameBox.left) / frameBox.width;
      });
      expect(handle).toBeCloseTo(0.45, 2);
      // Dragging works too: pressed at a quarter of the picture, let go at three quarters.
      const box = (await frame.locator(".frame").boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
      await page.mouse.down();
      expect(Number((await sliderState(frame)).value)).toBeCloseTo(25, -0.5);
      await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
      expect(Number((await sliderState(frame)).value)).toBeCloseTo(75, -0.5);
      await page.keyboard.press("Home");
      await page.keyboard.press("PageUp");
      await page.keyboard.press("PageUp");
      await page.keyboard.press("ArrowRight");
      // Focus is visible (the outline).
      expect(await slider.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe("solid");

      await poll(() => frame.evaluate(() => [...document.images].map((image) => image.complete && image.naturalWidth > 0))).toEqual([
        true,
        true,
      ]);
      const link = frame.getByRole("link", { name: run.language === "es" ? /^Hecho con / : /^Made with / });
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toBe("noopener");
      expect(await link.evaluate((element) => (element as HTMLAnchorElement).href)).toBe(`${server.url}/s/${id}`);

      expect(await frame.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
      expect(await browser.cookies(server.url)).toEqual([]);
      await screenshot(page, `embed-${run.name}`);
      expect(problems).toEqual([]);
    });
  }

  it("has no serious accessibility problem, on its own (axe) in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const { page, problems, browser } = await open(`/embed/${id}`, { width: 800, height: 500, colorScheme });
      await page.getByRole("slider").focus();
      expect(await seriousViolations(page), colorScheme).toEqual([]);
      expect(problems).toEqual([]);
      await browser.close();
    }
  });

  it("shows the share page signed out, and the not-found view once unpublished", async () => {
    const { page, problems, browser } = await open(`/s/${id}`, { width: 1280, height: 900, colorScheme: "light" });
    await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Calm bedroom");
    expect(await page.getByRole("slider").count()).toBe(1);
    expect(await page.getByTestId("share-author").textContent()).toBe(uiText("en", "community.byDesigner", { name: "Ana Lima" }));
    expect(await page.getByRole("link", { name: uiText("en", "share.cta") }).getAttribute("href")).toBe("/upload");
    expect(await page.locator('meta[property="og:image"]').getAttribute("content")).toBe(`${server.url}/files/published/${id}/card`);
    await poll(() => page.evaluate(() => document.title)).toBe("Calm bedroom · RoomCanvas");
    await screenshot(page, "share-page-en-desktop-light");
    if (SCREENSHOTS_TAKEN) {
      // The card as a chat would show it, to look at with the screenshots.
      const card = Buffer.from(await (await fetch(`${server.url}/files/published/${id}/card`)).arrayBuffer());
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      fs.writeFileSync(path.join(SCREENSHOT_DIR, "share-card.jpg"), card);
    }
    expect(problems).toEqual([]);
    await browser.close();

    await ana.client.community.unpublish.mutate({ id });
    const gone = await open(`/s/${id}`, { width: 390, height: 844, colorScheme: "dark", locale: "es-ES" });
    await poll(() => gone.page.getByRole("heading", { level: 1 }).textContent()).toBe(uiText("es", "notFound.title"));
    await screenshot(gone.page, "share-page-gone-es-phone-dark");
    // The app's page answered 404 (the browser logs it); nothing else went wrong.
    expect(gone.problems.filter((problem) => !problem.includes("404"))).toEqual([]);
  });

  it("shows an after-only publication's picture alone, in Spanish on a phone in dark", async () => {
    const uploaded = await upload(server.url, ana.jar, await roomPhoto(600, 800));
    const { jobs } = await ana.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "scandinavian",
    });
    await waitForRenders(ana, [jobs[0]!.id]);
    const alone = await ana.client.community.publish.mutate({ jobId: jobs[0]!.id, title: "Dormitorio nórdico", layout: "after-only" });
    const phone = await open(`/s/${alone.id}`, { width: 390, height: 844, colorScheme: "dark", locale: "es-ES" });
    await poll(() => phone.page.getByRole("heading", { level: 1 }).textContent()).toBe("Dormitorio nórdico");
    await poll(() =>
      phone.page
        .getByTestId("share-picture")
        .locator("img")
        .evaluate((image: HTMLImageElement) => image.naturalWidth),
    ).toBeGreaterThan(0);
    expect(await phone.page.getByRole("slider").count()).toBe(0);
    expect(await phone.page.getByTestId("share-author").count()).toBe(0);
    expect(await phone.page.getByRole("link", { name: uiText("es", "share.cta") }).isVisible()).toBe(true);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone.page, "share-page-after-only-es-phone-dark");
    expect(phone.problems).toEqual([]);
    await phone.browser.close();
  });
});
