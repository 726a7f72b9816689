/**
 * /enhanced-dashboard in a browser against the real server: a user's renders made over several
 * weeks (test clock, Preview engine, one failure refunded) as figures and weekly charts, readable on
 * a 390 px phone in the dark theme and on a 1366 px desktop in the light one (screenshots), each
 * chart with its summary and its numbers in a table; a new user's empty state leads to /upload.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { localProvider } from "../../src/server/render/engines/local";
import { PermanentRenderError, type RenderProvider } from "../../src/server/render/engines/provider";
import type { DesignStyle } from "../../src/shared/styles";
import { describeBrowser, screenshot, signIn, signUpAndSignIn, useBrowsers } from "../helpers/browser";
import { createStudioClient, PASSWORD, roomPhoto, uniqueEmail, upload, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, TestClock } from "../helpers/test-clock";
import { waitUntil } from "../helpers/wait";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });
const RENDER_MS = 35_000;
const FAILING_STYLE: DesignStyle = "japandi";

describeBrowser("/enhanced-dashboard in a browser", () => {
  // Three weeks ago (weeks 9 to 12 of the 12 shown get renders); the clock reaches now before the browser signs in.
  const clock = new TestClock(Date.now() - 21 * DAY);
  const engine: RenderProvider = {
    ...localProvider,
    async render(request) {
      clock.advance(RENDER_MS);
      if (request.style === FAILING_STYLE) throw new PermanentRenderError("The render engine failed: out of GPUs");
      return localProvider.render(request);
    },
  };
  let server: TestServer;
  let email: string;

  async function render(user: StudioClient, photo: Buffer, styles: DesignStyle[]): Promise<void> {
    const uploaded = await upload(server.url, user.jar, photo);
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: styles,
    });
    await waitUntil(() => Promise.all(jobs.map((job) => user.client.render.job.query({ id: job.id }))), {
      message: `renders of ${styles.join(", ")} to end and be scored`,
      until: (views) => views.every((view) => view.status === "failed" || (view.status === "succeeded" && view.structureScore !== null)),
      timeoutMs: 20_000,
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", RENDER_CONCURRENCY: "1" }, { clock, renderProvider: engine });
    email = uniqueEmail();
    const user = createStudioClient(server.url);
    await user.client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana Lima" });
    await user.client.auth.signIn.mutate({ email, password: PASSWORD, rememberMe: true });
    const photo = await roomPhoto(600, 450);
    await render(user, photo, ["modern", "scandinavian"]);
    clock.advance(7 * DAY);
    await render(user, photo, ["modern", "industrial", FAILING_STYLE]);
    clock.advance(14 * DAY);
    await render(user, photo, ["modern", "coastal"]);
    clock.advance(Math.max(0, Date.now() - clock.now()));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { launch } = useBrowsers();

  async function readPage(page: Page) {
    await poll(() => page.getByTestId("chart-activity-renders").locator("svg").count()).toBe(1);
    const figure = (id: string) => page.getByTestId(`${id}-value`).textContent();
    return {
      finished: await figure("activity-finished"),
      credits: await figure("activity-credits"),
      refunds: await page.getByTestId("activity-credits").textContent(),
      time: await figure("activity-time"),
      structure: await figure("activity-structure"),
    };
  }

  for (const view of [
    { name: "390-dark", width: 390, height: 844, colorScheme: "dark" as const },
    { name: "1366-light", width: 1366, height: 900, colorScheme: "light" as const },
  ]) {
    it(`shows the weeks' figures and charts, measured, at ${view.name}`, async () => {
      const { page, problems } = await launch(view);
      await signIn(page, server.url, email, { to: "/enhanced-dashboard" });
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Enhanced dashboard");
      const figures = await readPage(page);
      expect(figures).toMatchObject({ finished: "6", credits: "6", time: "35 s" });
      expect(figures.refunds).toContain("1 refunded for a failed render");
      expect(figures.structure).toMatch(/^\d{1,3} %$/);

      // The renders chart: a summary for screen readers, a legend by style with the failed apart, 12 weeks in its table.
      const renders = page.getByTestId("chart-activity-renders");
      expect(await renders.locator("svg").getAttribute("aria-label")).toBe(
        "Finished renders per week, by style. 6 finished and 1 failed renders in the last 12 weeks; Modern 3, Coastal 1, Industrial 1, Scandinavian 1.",
      );
      expect(await renders.locator("li").allTextContents()).toEqual(["Modern", "Coastal", "Industrial", "Scandinavian", "Failed"]);
      await renders.getByText("Show data").click();
      const rows = renders.locator("tbody tr");
      expect(await rows.count()).toBe(12);
      const cells = async (index: number) => (await rows.nth(index).locator("td").allTextContents()).slice(1);
      expect(await cells(11)).toEqual(["1", "1", "0", "0", "0"]);
      expect(await cells(10)).toEqual(["0", "0", "0", "0", "0"]);
      expect(await cells(9)).toEqual(["1", "0", "1", "0", "1"]);
      expect(await cells(8)).toEqual(["1", "0", "0", "1", "0"]);
      expect(await cells(0)).toEqual(["0", "0", "0", "0", "0"]);
      // Counts have grid lines on whole numbers only.
      const axis = await renders.locator("svg text").allTextContents();
      expect(axis.filter((label) => /^\d+$/.test(label)).length).toBeGreaterThan(0);
      expect(axis.slice(0, 3)).toEqual(["0", "1", "2"]);

      const credits = page.getByTestId("chart-activity-credits");
      expect(await credits.locator("svg").getAttribute("aria-label")).toBe(
        "Credits per week. 6 credits used and 1 refunded in the last 12 weeks.",
      );
      await credits.getByText("Show data").click();
      expect((await credits.locator("tbody tr").nth(9).locator("td").allTextContents()).slice(1)).toEqual(["2", "1"]);

      const time = page.getByTestId("chart-activity-time");
      await time.getByText("Show data").click();
      expect((await time.locator("tbody tr").nth(11).locator("td").allTextContents()).slice(1)).toEqual(["35 s"]);
      expect((await time.locator("tbody tr").nth(10).locator("td").allTextContents()).slice(1)).toEqual(["No renders"]);
      expect(await page.getByTestId("chart-activity-structure").locator("svg").count()).toBe(1);

      // Readable on a phone: nothing wider than the screen; the theme asked for is the one shown.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(view.colorScheme === "dark");
      await screenshot(page, `enhanced-dashboard-${view.name}`);
      expect(problems).toEqual([]);
    });
  }

  it("shows a new user a friendly empty state that leads to /upload", async () => {
    const { page, problems } = await launch({ width: 390, height: 844, colorScheme: "light" });
    await signUpAndSignIn(page, server.url, { to: "/enhanced-dashboard" });
    await poll(() => page.getByTestId("activity-empty").isVisible()).toBe(true);
    expect(await page.getByTestId("activity-empty").textContent()).toContain("Nothing here yet");
    expect(await page.getByTestId("chart-activity-renders").count()).toBe(0);
    await screenshot(page, "enhanced-dashboard-empty-390-light");
    await page.getByTestId("activity-upload").click();
    await poll(() => new URL(page.url()).pathname).toBe("/upload");
    expect(problems).toEqual([]);
  });
});
