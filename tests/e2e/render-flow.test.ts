/**
 * The render flow in a browser against the real server (in-process worker, the local Preview
 * engine, slowed down a little so the live phases can be seen): a visitor's free demo render from
 * the landing page to the download, the second demo attempt asking to sign up, a signed-in batch
 * of three photos, and screenshots of every page in light and dark, on a phone and a desktop.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { localProvider } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { describeBrowser, screenshot, signUpAndSignIn, waitForRender, useBrowsers } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

/** expect.poll with room for a page's code to load and a render to finish on a busy machine. */
const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 10_000, ...options });

/** The Preview engine, reporting progress over about a second and a half before it grades the photo. */
const pacedPreviewEngine: RenderProvider = {
  id: localProvider.id,
  label: localProvider.label,
  capabilities: localProvider.capabilities,
  async render(request) {
    for (let step = 1; step <= 4; step++) {
      await new Promise((resolve) => setTimeout(resolve, 350));
      if (request.signal.aborted) throw new DOMException("Render canceled", "AbortError");
      request.onProgress?.(step / 5);
    }
    return localProvider.render(request);
  },
};

/** A drawn room (walls, floor, window, sofa, lamp), as a JPEG file. */
async function makeRoomPhoto(file: string, width = 1600, height = 1200, wall = "#d6cfc2"): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1600 1200">
    <rect width="1600" height="1200" fill="${wall}"/>
    <rect y="850" width="1600" height="350" fill="#8b6b4a"/>
    <rect x="980" y="180" width="420" height="380" fill="#cfe8f7" stroke="#f5f5f4" stroke-width="24"/>
    <line x1="1190" y1="180" x2="1190" y2="560" stroke="#f5f5f4" stroke-width="12"/>
    <rect x="180" y="600" width="640" height="220" rx="40" fill="#6b6f76"/>
    <rect x="150" y="700" width="700" height="170" rx="30" fill="#5b5f66"/>
    <rect x="260" y="640" width="140" height="100" rx="18" fill="#d97706"/>
    <line x1="920" y1="860" x2="920" y2="420" stroke="#292524" stroke-width="10"/>
    <ellipse cx="920" cy="410" rx="60" ry="36" fill="#fde68a"/>
    <ellipse cx="500" cy="1000" rx="420" ry="60" fill="#c2b49b"/>
  </svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toFile(file);
  return file;
}

describeBrowser("the render flow in a browser", () => {
  let server: TestServer;
  let dir: string;
  let photo: string;

  beforeAll(async () => {
    server = await startTestServer(
      { AUTH_RATE_LIMIT_PER_MINUTE: "1000", DEMO_RENDERS_PER_IP_PER_DAY: "10" },
      { renderProvider: pacedPreviewEngine },
    );
    dir = makeTempDir("roomcanvas-photos-");
    photo = await makeRoomPhoto(path.join(dir, "living-room.jpg"));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  const path_ = (page: Page) => new URL(page.url()).pathname;
  const visible = (page: Page, text: string | RegExp) => page.getByText(text).first().isVisible();

  /** Records every phase text the job cards show, from now on (the app navigates without reloading). */
  async function recordPhases(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __phases: string[] }).__phases = seen;
      const note = () => {
        for (const element of document.querySelectorAll("[data-testid=job-phase]")) {
          const text = element.textContent ?? "";
          if (text && seen[seen.length - 1] !== text) seen.push(text);
        }
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    return () => page.evaluate(() => (window as unknown as { __phases: string[] }).__phases);
  }

  it("takes a visitor from the landing page through a free demo render to the download, then asks to sign up for a second", async () => {
    const { page, problems } = await open("/");
    await page.getByRole("link", { name: "Try Without Signup" }).first().click();
    await poll(() => path_(page)).toBe("/upload");
    await poll(() => page.getByTestId("demo-note").isVisible()).toBe(true);
    await poll(() => page.getByTestId("engine-note").textContent()).toContain("Preview engine");
    expect(await page.getByTestId("engine-note").textContent()).toContain("not AI");

    // A refused file says why at once.
    const textFile = path.join(dir, "notes.txt");
    fs.writeFileSync(textFile, "not a picture");
    await page.getByTestId("file-input").setInputFiles(textFile);
    await poll(() => page.getByRole("alert").textContent()).toBe("Only JPEG and PNG images can be uploaded");

    await page.getByLabel("Room type").selectOption("living-room");
    await page.getByTestId("file-input").setInputFiles(photo);
    await poll(() => path_(page)).toBe("/style-select");
    await poll(() => page.getByTestId("uploaded-picture").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
      true,
    );
    // The twelve styles, Modern, Scandinavian and Industrial first; a visitor renders one.
    const cards = page.locator("[data-testid^=style-]");
    await poll(() => cards.count()).toBe(12);
    expect(await cards.allTextContents()).toEqual(expect.arrayContaining(["Modern", "Scandinavian", "Industrial"]));
    expect((await cards.first().textContent())?.trim()).toBe("Modern");
    expect(await page.getByRole("switch", { name: "Apply several styles" }).isDisabled()).toBe(true);

    await page.getByTestId("style-scandinavian").click();
    await poll(() => page.getByRole("radio", { name: "Scandinavian" }).isChecked()).toBe(true);
    const phases = await recordPhases(page);
    await page.getByRole("button", { name: "Render", exact: true }).click();
    await poll(() => path_(page)).toBe("/render");

    // Live progress, then the comparison.
    await poll(() => page.getByTestId("job-phase").textContent()).toMatch(/Waiting in line|Preparing|Rendering|Saving|Done/);
    const slider = page.getByRole("slider");
    await poll(() => slider.isVisible(), { timeout: 20_000 }).toBe(true);
    const seen = await phases();
    expect(
      seen.some((text) => /Waiting in line|Preparing|Rendering/.test(text)),
      seen.join(" | "),
    ).toBe(true);
    expect(seen[seen.length - 1]).toBe("Done");
    await waitForRender(page);

    expect(await slider.getAttribute("aria-valuenow")).toBe("50");
    await slider.focus();
    await slider.press("ArrowLeft");
    await poll(() => slider.getAttribute("aria-valuenow")).toBe("45");
    await slider.press("End");
    await poll(() => slider.getAttribute("aria-valuenow")).toBe("100");
    // Dragging with the pointer moves it too.
    const box = (await slider.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.up();
    await poll(async () => Number(await slider.getAttribute("aria-valuenow"))).toBeLessThan(30);
    await page.getByRole("button", { name: "Side by side" }).click();
    await poll(() => page.getByTestId("side-by-side").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Side by side" }).click();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "1600 × 1200, as rendered" }).click(),
    ]);
    const saved = path.join(dir, "download-rendered");
    await download.saveAs(saved);
    const metadata = await sharp(saved).metadata();
    expect(metadata.format).toBe("jpeg");
    // The Preview engine's picture as it made it, at the photo's size (issue 30); no AI mark.
    expect([metadata.width, metadata.height]).toEqual([1600, 1200]);
    expect(metadata.xmp).toBeUndefined();

    await poll(() => page.getByTestId("sign-up-callout").isVisible()).toBe(true);
    await screenshot(page, "render-result-visitor-desktop-light");

    // The second demo render asks to sign up.
    await page.getByRole("link", { name: "Try another style" }).click();
    await poll(() => path_(page)).toBe("/style-select");
    await poll(() => page.getByTestId("sign-up-callout").isVisible()).toBe(true);
    expect(await page.getByTestId("sign-up-callout").textContent()).toContain("Your free demo render has been used");
    await poll(() => page.getByTestId("sign-up-callout").getByRole("link", { name: "Sign up free" }).getAttribute("href")).toBe(
      "/auth?tab=signup",
    );
    expect(await page.getByRole("button", { name: "Render", exact: true }).isDisabled()).toBe(true);
    await screenshot(page, "style-select-demo-used");

    await page.goto(`${server.url}/upload`);
    await poll(() => page.getByTestId("sign-up-callout").isVisible()).toBe(true);
    await page.getByTestId("sign-up-callout").getByRole("link", { name: "Sign up free" }).click();
    await poll(() => page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
    expect(problems).toEqual([]);
  });

  it("tells the server's refusal of a second demo render as a sign-up call to action", async () => {
    // The allowance said yes a moment ago, but another tab used the demo since: the server's answer counts.
    const { browser, page, problems } = await open("/upload");
    await poll(() => page.getByTestId("demo-note").isVisible()).toBe(true);
    await page.getByTestId("file-input").setInputFiles(photo);
    await poll(() => path_(page)).toBe("/style-select");
    const url = new URL(page.url());
    const upload = { id: url.searchParams.get("image")!, project: url.searchParams.get("project")! };
    await page.getByTestId("style-modern").click();
    await poll(() => page.getByRole("button", { name: "Render", exact: true }).isEnabled()).toBe(true);
    // The same visitor (same cookies) renders from another tab first.
    const other = await browser.newPage();
    await other.goto(`${server.url}/style-select?image=${upload.id}&project=${upload.project}`);
    await other.getByTestId("style-coastal").click();
    await other.getByRole("button", { name: "Render", exact: true }).click();
    await poll(() => new URL(other.url()).pathname).toBe("/render");
    await other.close();

    await page.getByRole("button", { name: "Render", exact: true }).click();
    await poll(() => page.getByTestId("sign-up-callout").isVisible()).toBe(true);
    expect(await page.getByTestId("sign-up-callout").textContent()).toContain(
      "Your free demo render has been used. Sign up to get 10 free credits.",
    );
    expect(path_(page)).toBe("/style-select");
    await screenshot(page, "style-select-second-demo");
    // The browser logs the refused request's status (403) itself; nothing else may fail.
    expect(problems.filter((problem) => !/status of 403/.test(problem))).toEqual([]);
  });

  it("uploads three photos on /batch-upload for a signed-in user, renders them, and shows three succeeded cards", async () => {
    const { page, problems } = await open("/batch-upload");
    // A visitor is told that batches need an account.
    await poll(() => page.getByTestId("sign-up-callout").isVisible()).toBe(true);
    await screenshot(page, "batch-visitor");

    await signUpAndSignIn(page, server.url, { to: "/batch-upload" });
    const files = await Promise.all(
      ["#e7e5e4", "#dbeafe", "#fde68a"].map((wall, index) => makeRoomPhoto(path.join(dir, `batch-${index + 1}.jpg`), 1200, 900, wall)),
    );
    await page.getByTestId("file-input").setInputFiles(files);
    const rows = page.getByTestId("batch-row");
    await poll(() => rows.count()).toBe(3);
    await poll(() => page.locator("[data-testid=batch-row][data-status=done]").count(), { timeout: 20_000 }).toBe(3);
    await poll(() => page.getByTestId("batch-summary").textContent()).toBe("3 of 3 photos ready");

    await page.getByTestId("style-industrial").click();
    await poll(() => page.getByTestId("cost-line").textContent()).toBe("3 renderings selected");
    await screenshot(page, "batch-ready-desktop-light");
    await page.getByRole("button", { name: "Render 3 images" }).click();
    await poll(() => path_(page)).toBe("/render");
    expect(new URL(page.url()).searchParams.get("jobs")!.split(",")).toHaveLength(3);
    await poll(() => page.getByTestId("job-card").count()).toBe(3);
    await waitForRender(page, { count: 3, timeoutMs: 30_000 });
    await poll(() => page.getByRole("slider").count()).toBe(3);
    await poll(() => visible(page, "All finished: 3 of 3 succeeded")).toBe(true);
    await screenshot(page, "render-batch-desktop-light");

    // Share the first one by link and in the gallery; the link opens a read-only comparison.
    const first = page.getByTestId("job-card").first();
    await first.getByRole("button", { name: "Create share link" }).click();
    await poll(() => first.getByTestId("share-url").inputValue()).toMatch(/\/render\?share=/);
    const shareUrl = await first.getByTestId("share-url").inputValue();
    // Published in the community (decision 102): a title, before and after, no name by default.
    await first.getByRole("button", { name: "Publish in the community" }).click();
    const publishing = page.getByRole("dialog", { name: "Publish this render" });
    await publishing.getByLabel("Title").fill("Loft in steel");
    expect(await publishing.getByRole("switch", { name: "Show my name" }).getAttribute("aria-checked")).toBe("false");
    await publishing.getByRole("button", { name: "Publish", exact: true }).click();
    await poll(() => first.getByTestId("publish-panel").textContent()).toContain("Published as “Loft in steel”");
    // Its share link and embed code (decision 106), copied with a toast.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await first.getByRole("button", { name: "Copy embed code" }).click();
    await poll(() => page.locator("[data-sonner-toast]").filter({ hasText: "Embed code copied" }).count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`^<iframe src="${server.url}/embed/pub_[a-z0-9]+" width="800" height="500" .*title="Loft in steel"`),
    );
    await first.getByRole("button", { name: "Copy share link" }).click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`^${server.url}/s/pub_[a-z0-9]+$`));
    await screenshot(page, "render-published-desktop-light");
    await page.goto(shareUrl);
    await poll(() => page.getByTestId("shared-render").getByRole("slider").isVisible()).toBe(true);
    await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Industrial makeover");
    await page.goto(`${server.url}/gallery`);
    await poll(() => page.getByRole("region", { name: "Shared by users" }).getByTestId("publication").count(), { timeout: 15_000 }).toBe(1);
    // Signed in, /community shows it too, and likes it.
    await page.goto(`${server.url}/community`);
    const card = page.getByTestId("community-feed").getByTestId("publication").first();
    await poll(() => card.textContent()).toContain("Loft in steel");
    await card.getByTestId("like").click();
    await poll(() => card.getByTestId("like").getAttribute("aria-pressed")).toBe("true");
    await poll(() => card.getByTestId("like").textContent()).toContain("1");

    // The dashboard shows the credits left and the project with its three renders.
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    await poll(() => path_(page)).toBe("/dashboard");
    await poll(() => page.getByTestId("credits-card").textContent()).toContain("7");
    await poll(() => page.getByTestId("project-card").first().textContent()).toContain("3 renderings");
    await poll(() => page.getByTestId("render-tile").count()).toBe(3);

    // Rename the project from its menu, then open it.
    await page.getByRole("button", { name: /^Actions for / }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const dialog = page.getByRole("dialog", { name: "Rename project" });
    await dialog.getByLabel("Project name").fill("Casa Lima");
    await dialog.getByRole("button", { name: "Rename" }).click();
    await poll(() => page.getByTestId("project-card").first().textContent()).toContain("Casa Lima");
    await page.getByRole("link", { name: /Casa Lima/ }).click();
    await poll(() => page.getByTestId("project-view").getByTestId("render-tile").count()).toBe(3);
    expect(problems).toEqual([]);
  });

  // Two of the four combinations, as the other browser tests: accessibility.test.ts checks every page in all four.
  it("looks right on a desktop in light and on a phone in dark", async () => {
    const sizes = [
      { name: "phone", width: 390, height: 844 },
      { name: "desktop", width: 1280, height: 800 },
    ] as const;
    for (const colorScheme of ["light", "dark"] as const) {
      for (const size of sizes.filter((one) => one.name === (colorScheme === "light" ? "desktop" : "phone"))) {
        const label = `${size.name}-${colorScheme}`;
        const { browser, page, problems } = await open("/", { width: size.width, height: size.height, colorScheme });
        await signUpAndSignIn(page, server.url);
        await screenshot(page, `dashboard-empty-${label}`);

        await page.goto(`${server.url}/upload`);
        await poll(() => page.getByTestId("drop-zone").isVisible()).toBe(true);
        await screenshot(page, `upload-${label}`);
        await page.getByTestId("file-input").setInputFiles(photo);
        await poll(() => path_(page)).toBe("/style-select");
        await poll(() =>
          page.getByTestId("uploaded-picture").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        ).toBe(true);
        // The switch is for signed-in users: it is enabled once the page knows the session (a click
        // before that does nothing, and the second style would replace the first).
        const several = page.getByRole("switch", { name: "Apply several styles" });
        await poll(() => several.isEnabled()).toBe(true);
        await several.click();
        await poll(() => several.getAttribute("aria-checked")).toBe("true");
        await page.getByTestId("style-japandi").click();
        await page.getByTestId("style-art-deco").click();
        await poll(() => page.getByTestId("cost-line").textContent()).toBe("2 renderings selected");
        await screenshot(page, `style-select-${label}`);
        await page.getByRole("button", { name: "Render 2 styles" }).click();
        await waitForRender(page, { count: 2 });
        await screenshot(page, `render-result-${label}`);

        await page.goto(`${server.url}/dashboard`);
        await poll(() => page.getByTestId("render-tile").count()).toBe(2);
        await poll(() => page.getByTestId("project-card").count()).toBe(1);
        await screenshot(page, `dashboard-${label}`);

        await page.goto(`${server.url}/gallery`);
        await poll(() => page.getByTestId("gallery-pair").count(), { timeout: 15_000 }).toBeGreaterThan(0);
        await screenshot(page, `gallery-${label}`);
        expect(problems, label).toEqual([]);
        await browser.close();
      }
    }
  });
});
