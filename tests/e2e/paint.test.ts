/**
 * The studio's Paint tool in Chromium against the real server on the Preview engine (issue 33): a
 * user opens a photo of a room (drawn with known regions) in the studio, clicks its back wall (the
 * smart selection takes the wall and nothing of the window) and the right wall (a second click adds
 * it), picks a palette colour and types another, paints both, and sees them side by side, named in
 * the history and in the project's colour list; the server holds the two versions. One of them is
 * exported for listing from the studio, and its public page names its colour. In English on a
 * desktop (light) and in French on a phone (dark). Screenshots of each.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { smartSelect } from "../../src/shared/paint";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { paintedRoom } from "../helpers/painted-room";
import { signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 20_000 });
const fr = translations.fr as unknown as {
  paint: Record<string, string> & { surfaces: Record<string, string> };
};

const room = paintedRoom();
/** The pixels a click at (x, y) selects, as the page's selection must find them. */
const selectedAt = (x: number, y: number) =>
  smartSelect({ width: room.width, height: room.height, data: room.rgb, channels: 3 }, { x, y }).reduce((sum, value) => sum + value, 0);
/** The back wall (a click at 240, 270) and the right wall (720, 300). */
const wallPixels = selectedAt(240, 270);
const rightWallPixels = selectedAt(720, 300);

describeBrowser("the studio's Paint tool", () => {
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

  async function userWithRoom() {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await room.png(), {}, "image/png");
    return { user, imageId: uploaded.body.imageId, projectId: uploaded.body.projectId };
  }

  /** Clicks the picture at (x, y) of the room's pixels. */
  async function clickRoom(page: Page, x: number, y: number) {
    const canvas = page.getByTestId("mask-canvas");
    const box = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: (x / room.width) * box.width, y: (y / room.height) * box.height } });
  }

  it("selects a wall with one click and adds another with a second, paints them in a palette colour and a typed one, shows them side by side, and exports one for listing (en, desktop, light)", async () => {
    const { user, imageId, projectId } = await userWithRoom();
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await signIn(page, server.url, user.email, { to: `/modification-studio?picture=${imageId}` });
    await page.getByTestId("studio-mode-colour").click();
    await poll(() => page.getByTestId("tool-select").getAttribute("aria-pressed")).toBe("true");
    await poll(() => page.getByTestId("paint-engine-note").innerText()).toContain("not AI");
    await poll(() => page.getByTestId("paint-price").innerText()).toContain("Each colour is free");

    await clickRoom(page, 240, 270);
    await poll(() => page.getByTestId("mask-coverage").getAttribute("data-coverage")).toBe("ok");
    // The page's selection is the wall the shared code finds (the browser draws it as runs of pixels).
    const painted = Number(await page.getByTestId("mask-coverage").getAttribute("data-painted"));
    expect(Math.abs(painted - wallPixels) / wallPixels).toBeLessThan(0.01);
    // A second click adds the right wall to the selection.
    await clickRoom(page, 720, 300);
    await poll(() => page.getByTestId("mask-coverage").getAttribute("data-painted")).not.toBe(String(painted));
    const both = Number(await page.getByTestId("mask-coverage").getAttribute("data-painted"));
    expect(Math.abs(both - (wallPixels + rightWallPixels)) / (wallPixels + rightWallPixels)).toBeLessThan(0.01);

    await page.getByTestId("paint-palette").getByRole("button", { name: "Linen" }).click();
    await page.getByTestId("paint-code").fill("#2f3e5");
    await page.getByTestId("paint-add").click();
    await poll(() => page.getByRole("alert").filter({ hasText: "Choose a colour as #rrggbb" }).isVisible()).toBe(true);
    await page.getByTestId("paint-code").fill("#2F3E57");
    await page.getByTestId("paint-code").press("Enter");
    await poll(() => page.getByTestId("paint-chosen").innerText()).toContain("#2F3E57");
    await page.getByRole("button", { name: "Paint 2 colours" }).click();

    await poll(() => page.getByTestId("paint-compare-item").count()).toBe(3);
    const compare = await page.getByTestId("paint-compare").innerText();
    expect(compare).toContain("Before");
    expect(compare).toContain("Walls: #E8E2D6");
    expect(compare).toContain("Walls: #2F3E57");
    await poll(() => page.getByTestId("project-colours").innerText()).toContain("Walls: #2F3E57");
    expect(await page.getByTestId("project-colours").innerText()).toContain("Walls: #E8E2D6");
    await poll(() => page.getByText("Recolour · Walls: #2F3E57").count()).toBeGreaterThan(0);
    const colours = await user.client.render.paintColours.query({ projectId });
    expect(colours.map((note) => note.colour).sort()).toEqual(["#2f3e57", "#e8e2d6"]);
    await screenshot(page, "paint-desktop-light-en");

    // A colour in the project's list opens the version painted in it.
    await page.getByTestId("project-colours").getByRole("button", { name: "Walls: #E8E2D6" }).click();
    await poll(() => page.url()).toContain(`version=${colours.find((note) => note.colour === "#e8e2d6")!.jobIds[0]}`);

    // That version, exported for listing from the studio: its public page names the colour.
    await page.getByTestId("listing-export-open").click();
    const dialog = page.getByTestId("listing-dialog");
    await dialog.getByRole("button", { name: "Create listing picture" }).click();
    await poll(() => dialog.getByTestId("listing-url").isVisible()).toBe(true);
    const url = await dialog.getByTestId("listing-url").inputValue();
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.goto(url);
    const listed = await page.getByTestId("listing-paints").innerText();
    expect(listed).toContain("Paint colours in the altered picture");
    expect(listed).toContain("Walls: #E8E2D6");
    expect(listed).not.toContain("#2F3E57");
    await screenshot(page, "paint-listing-page-desktop-light-en");
  });

  it("says on the style page that an exterior needs an AI engine, offering no render on the Preview engine (en, desktop, light)", async () => {
    const user = await signedInClient(server.url);
    const house = await upload(server.url, user.jar, await room.png(), { roomType: "exterior" }, "image/png");
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await signIn(page, server.url, user.email, { to: `/style-select?image=${house.body.imageId}&project=${house.body.projectId}` });
    await poll(() => page.getByTestId("exterior-refused").innerText()).toContain("needs an AI engine that can make them");
    expect(await page.getByText("Exterior (the house from outside)").count()).toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: /^Render/ }).count()).toBe(0);
    expect(await page.getByTestId("render-options").count()).toBe(0);
  });

  it("paints a wall from the palette on a phone, in French and in the dark theme", async () => {
    const { user, imageId } = await userWithRoom();
    let page: Page;
    ({ page, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "fr-FR" }));
    await signIn(page, server.url, user.email, { language: "fr", to: `/modification-studio?picture=${imageId}` });
    await page.getByTestId("studio-mode-colour").click();
    await poll(() => page.getByRole("heading", { name: fr.paint.title }).isVisible()).toBe(true);
    await clickRoom(page, 80, 300);
    await poll(() => page.getByTestId("mask-coverage").getAttribute("data-coverage")).toBe("ok");
    await page.getByTestId("paint-surface").selectOption("walls");
    await page.getByTestId("paint-palette").getByRole("button", { name: "Sage" }).click();
    await page.getByRole("button", { name: fr.paint.submit_one, exact: true }).click();
    await poll(() => page.getByTestId("paint-compare-item").count()).toBe(2);
    await poll(() => page.getByTestId("project-colours").innerText()).toContain(`${fr.paint.surfaces.walls} : #A7B59D`);
    await screenshot(page, "paint-phone-dark-fr");
  });
});
