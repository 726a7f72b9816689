/**
 * A listing video in Chromium (issue 33): a user opens a project with two renders, makes a video of
 * them, watches its progress, plays it in the page (the browser decodes the served MP4: its
 * duration and size are the video's) and deletes it; in English on a desktop (light) and in French on a phone
 * (dark, portrait). Screenshots of both.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 60_000 });
const fr = translations.fr as unknown as { listing: { video: Record<string, string> } };

describeBrowser("listing videos", () => {
  let server: TestServer;
  let problems: string[] = [];
  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  async function userWithProject() {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1200, 900));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: ["coastal", "japandi"],
    });
    await waitForRenders(
      user,
      jobs.map((job) => job.id),
    );
    return { user, projectId: uploaded.body.projectId };
  }

  /** Plays the page's video and reads what the browser decoded. */
  const played = (page: Page) =>
    page.getByTestId("video-player").evaluate(async (element) => {
      const video = element as HTMLVideoElement;
      video.muted = true;
      await video.play();
      // Until the browser has shown a frame past the first (an event, not a wait of so many ms).
      await new Promise<void>((resolve) => {
        const check = () => (video.currentTime > 0 ? resolve() : video.addEventListener("timeupdate", check, { once: true }));
        check();
      });
      return {
        duration: video.duration,
        width: video.videoWidth,
        height: video.videoHeight,
        playing: !video.paused && video.currentTime > 0,
      };
    });

  it("makes a video of a project's renders and plays it in the page (en, desktop, light)", async () => {
    const { user, projectId } = await userWithProject();
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await signIn(page, server.url, user.email, { to: `/dashboard?project=${projectId}` });
    await poll(() => page.getByTestId("project-videos").isVisible()).toBe(true);
    expect(await page.getByLabel("Length in seconds (3 to 60)").inputValue()).toBe("6");
    // Pictures play in the order they are ticked, and each ticked one shows its number.
    const positions = () => page.getByTestId("video-picture-position").allInnerTexts();
    const boxes = page.getByTestId("project-videos").getByRole("checkbox");
    expect(await positions()).toEqual(["1", "2"]);
    await boxes.nth(0).uncheck();
    expect(await positions()).toEqual(["1"]);
    await boxes.nth(0).check();
    expect(await positions()).toEqual(["2", "1"]);
    expect(await page.getByText("Pictures (2 of at most 20, in the order you tick them)").count()).toBe(1);
    await page.getByTestId("video-make").click();
    await poll(() => page.getByTestId("video-item").first().getAttribute("data-status")).toBe("succeeded");
    const video = await played(page);
    expect(video).toMatchObject({ width: 1920, height: 1080, playing: true });
    expect(video.duration).toBeCloseTo(6, 0);
    expect(await page.getByRole("link", { name: "Download MP4" }).getAttribute("href")).toMatch(
      /\/files\/listing\/videos\/.+\/video\.mp4\?download=1$/,
    );
    await screenshot(page, "listing-video-desktop-light-en");

    // Deleted, after a confirmation: gone from the page and from the server.
    await page.getByTestId("video-delete").click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await poll(() => page.getByTestId("video-item").count()).toBe(0);
    expect(await user.client.listing.videos.query({ projectId })).toEqual([]);
  });

  it("makes a portrait video on a phone, in French and in the dark theme", async () => {
    const { user, projectId } = await userWithProject();
    let page: Page;
    ({ page, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "fr-FR" }));
    await signIn(page, server.url, user.email, { language: "fr", to: `/dashboard?project=${projectId}` });
    await poll(() => page.getByRole("heading", { name: fr.listing.video.title! }).isVisible()).toBe(true);
    await page.getByLabel(fr.listing.video.format!).selectOption("portrait");
    await page.getByRole("button", { name: fr.listing.video.make! }).click();
    await poll(() => page.getByTestId("video-item").first().getAttribute("data-status")).toBe("succeeded");
    expect(await played(page)).toMatchObject({ width: 1080, height: 1920, playing: true });
    await screenshot(page, "listing-video-phone-dark-fr");
  });
});
