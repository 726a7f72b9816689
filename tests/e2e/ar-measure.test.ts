/**
 * Measuring a room with AR (issue 30, decision 092), in Chromium against the real server, with an emulated
 * AR phone: Meta's IWER with its synthetic environment module, installed before the app loads, in a room of
 * known size (tests/helpers/emulated-xr). The phone offers "Measure with AR" on the project page, starts an
 * immersive-ar session, is aimed at two known points on the floor, then at two on the back wall, taps each
 * (the controller's trigger: a `select`), names and saves the measures; the saved lengths are compared with
 * the true distances (the tolerance the app states, AR_MEASURE_TOLERANCE_CM). A device whose AR has no hit
 * test, or no surfaces to meet, gets its message; a browser without WebXR never sees the option.
 * Screenshots of the overlay at a phone's width: English and light, French and dark.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { STORAGE_KEYS, type Language } from "../../src/shared/constants";
import { AR_MEASURE_TOLERANCE_CM, formatLength } from "../../src/shared/measures";
import { seriousViolations } from "../helpers/axe";
import { describeBrowser, signIn, uiText, useBrowsers, screenshotViewport } from "../helpers/browser";
import { installEmulatedArPhone, ROOM, WEBGL_CHROMIUM_ARGS, type EmulatedArOptions } from "../helpers/emulated-xr";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

type Xyz = { x: number; y: number; z: number };
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });
const distanceCm = (a: Xyz, b: Xyz) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) * 100;
const midpoint = (a: Xyz, b: Xyz) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, z: (a.z + b.z) / 2 });

/** Where the phone is held (1.4 m up, near the room's front) and the points measured, in metres. */
const HELD = { x: 0, y: 1.4, z: 1.2 };
const STEP_BACK = { x: 0, y: 1.7, z: 3 };
const FLOOR = [
  { x: -1.2, y: 0, z: 0.8 },
  { x: 1.3, y: 0, z: -0.9 },
] as const;
const WALL = [
  { x: 0.9, y: 0.35, z: -ROOM.depth / 2 },
  { x: 0.9, y: 2.2, z: -ROOM.depth / 2 },
] as const;

describeBrowser("measuring a room with AR", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { launch } = useBrowsers(() => server.url, { chromiumArgs: WEBGL_CHROMIUM_ARGS });

  /**
   * Two frames drawn: the emulated session (whose frames are the page's) has run a whole frame with what
   * the test just set, whichever of its callback and this one the browser calls first.
   */
  const frames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

  /** Aims the phone at `point` from where it is held and taps. */
  async function tapAt(page: Page, point: Xyz) {
    await page.evaluate(([from, to]) => window.__emulatedAr!.aim(from!, to!), [HELD, point]);
    await frames(page);
    await poll(() => page.getByTestId("ar-reticle").getAttribute("data-on-surface")).toBe("true");
    await page.evaluate(() => window.__emulatedAr!.trigger(true));
    await frames(page);
    // Released: the next press (after the next aim's frames) is a new `select`.
    await page.evaluate(() => window.__emulatedAr!.trigger(false));
  }

  async function openProject(options: { theme?: "light" | "dark"; language?: Language; phone?: EmulatedArOptions | null } = {}) {
    const language = options.language ?? "en";
    const user = await signedInClient(server.url);
    const project = await user.client.projects.create.mutate({ name: "Flat on Rua Augusta" });
    const opened = await launch({ width: 390, height: 844, colorScheme: options.theme ?? "light" });
    if (language !== "en") {
      await opened.page.goto(`${server.url}/`);
      await opened.page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [STORAGE_KEYS.language, language]);
    }
    await signIn(opened.page, server.url, user.email, { language });
    // The phone from the project page on (the pages before it need no AR, and each would build it again).
    if (options.phone !== null) await installEmulatedArPhone(opened.page, options.phone);
    await opened.page.goto(`${server.url}/dashboard?project=${project.id}`);
    await opened.page.getByTestId("project-view").waitFor();
    return { ...opened, user, project };
  }

  it("measures a floor length and a wall's height on the emulated phone and saves them to the project (light)", async () => {
    const { page, problems, user, project } = await openProject();
    await page.getByRole("button", { name: uiText("en", "measure.ar.start") }).click();
    await page.getByTestId("ar-session").waitFor();

    const truth: number[] = [];
    for (const [[a, b], label] of [
      [FLOOR, "Floor diagonal"],
      [WALL, "Back wall height"],
    ] as const) {
      await tapAt(page, a);
      expect(await page.getByTestId("ar-instruction").textContent()).toBe(uiText("en", "measure.ar.second"));
      await tapAt(page, b);
      await poll(() => page.getByTestId("ar-instruction").textContent()).toBe(uiText("en", "measure.ar.done"));
      const trueCm = distanceCm(a, b);
      truth.push(trueCm);
      // The length the phone shows (to the centimetre) is the true one's within the tolerance.
      const around = [-AR_MEASURE_TOLERANCE_CM, 0, AR_MEASURE_TOLERANCE_CM].map((offset) => formatLength(trueCm + offset, "en"));
      await poll(async () => around.includes((await page.getByTestId("ar-length").textContent()) ?? "")).toBe(true);
      if (label === "Floor diagonal") {
        // Both points in sight for the screenshot: the phone, a step back, looks between them.
        await page.evaluate(([from, to]) => window.__emulatedAr!.aim(from!, to!), [STEP_BACK, midpoint(a, b)]);
        await frames(page);
        await screenshotViewport(page, "ar-measure-phone-light");
        expect(await seriousViolations(page)).toEqual([]);
      }
      await page.getByLabel(uiText("en", "measure.label")).fill(label);
      await page.getByRole("button", { name: uiText("en", "measure.ar.save") }).click();
      await poll(() => page.getByTestId("ar-saved").textContent()).toContain(label);
      await poll(() => page.getByTestId("ar-instruction").textContent()).not.toBe(uiText("en", "measure.ar.done"));
    }
    await page.getByRole("button", { name: uiText("en", "measure.ar.end") }).click();
    await page.getByTestId("ar-session").waitFor({ state: "detached" });

    // Saved with the project: the server's lengths (from the two points) against the room's true distances.
    const saved = await user.client.measures.ofProject.query({ projectId: project.id });
    expect(saved.map((m) => m.label)).toEqual(["Floor diagonal", "Back wall height"]);
    const errors = saved.map((m, index) => Math.abs(m.lengthCm - truth[index]!));
    console.info(
      `AR measures: true ${truth.map((t) => t.toFixed(2)).join(", ")} cm; saved ${saved.map((m) => m.lengthCm).join(", ")} cm; errors ${errors.map((e) => e.toFixed(3)).join(", ")} cm`,
    );
    const worst = Math.max(...errors);
    expect(worst).toBeLessThanOrEqual(AR_MEASURE_TOLERANCE_CM);
    // The figure the app states is the measurement rounded up to a whole centimetre, not more.
    expect(AR_MEASURE_TOLERANCE_CM).toBeLessThanOrEqual(Math.max(1, Math.ceil(worst)));

    // Listed on the project page, and deletable there.
    await poll(() => page.getByTestId("ar-measure").count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId("ar-measures-panel").scrollIntoViewIfNeeded();
    await screenshotViewport(page, "ar-measures-project-phone-light");
    await page.getByRole("button", { name: uiText("en", "measure.delete", { label: "Floor diagonal" }) }).click();
    await poll(() => page.getByTestId("ar-measure").allTextContents()).toEqual([
      `Back wall height${formatLength(saved[1]!.lengthCm, "en")}`,
    ]);
    expect(problems).toEqual([]);
  });

  it("shows the length live while aiming at the second point, in French, and ends the session with its button (dark)", async () => {
    const { page, problems } = await openProject({ theme: "dark", language: "fr" });
    await page.getByRole("button", { name: uiText("fr", "measure.ar.start") }).click();
    await page.getByTestId("ar-session").waitFor();
    await tapAt(page, WALL[0]);
    await page.evaluate(([from, to]) => window.__emulatedAr!.aim(from!, to!), [HELD, WALL[1]]);
    await frames(page);
    // Before the second tap, the length to where the phone aims: the wall's 1.85 m.
    await poll(() => page.getByTestId("ar-length").textContent()).toBe(formatLength(distanceCm(WALL[0], WALL[1]), "fr"));
    expect(await page.getByTestId("ar-instruction").textContent()).toBe(uiText("fr", "measure.ar.second"));
    await screenshotViewport(page, "ar-measure-phone-dark-fr");
    await page.getByRole("button", { name: uiText("fr", "measure.ar.end") }).click();
    await page.getByTestId("ar-session").waitFor({ state: "detached" });
    await page.getByRole("button", { name: uiText("fr", "measure.ar.start") }).waitFor();
    expect(problems).toEqual([]);
  });

  it.each([
    { case: "no hit test on the device", phone: { hitTest: false, room: true }, message: "measure.ar.refused" },
    { case: "no surfaces for the hit test", phone: { hitTest: true, room: false }, message: "measure.ar.noHitTest" },
  ])("says what went wrong when the session cannot measure ($case)", async ({ phone, message }) => {
    const { page } = await openProject({ phone });
    await page.getByRole("button", { name: uiText("en", "measure.ar.start") }).click();
    await poll(() => page.getByTestId("ar-error").textContent()).toBe(uiText("en", message));
    expect(await page.getByTestId("ar-session").count()).toBe(0);
  });

  it("never offers AR measuring in a browser without immersive AR, and still lists the project's AR measures", async () => {
    const { page, problems, user, project } = await openProject({ phone: null });
    // This Chromium answers no (or has no WebXR at all): nothing about AR on a project without AR measures.
    expect(await page.evaluate(async () => (navigator.xr ? await navigator.xr.isSessionSupported("immersive-ar") : false))).toBe(false);
    await page.getByText(uiText("en", "dashboard.projectEmpty")).waitFor();
    expect(await page.getByTestId("ar-measures-panel").count()).toBe(0);

    await user.client.measures.addAr.mutate({ projectId: project.id, a: FLOOR[0], b: FLOOR[1], label: "From the phone" });
    await page.reload();
    await page.getByTestId("ar-measure").waitFor();
    expect(await page.getByRole("button", { name: uiText("en", "measure.ar.start") }).count()).toBe(0);
    expect(await page.getByTestId("ar-overlay").count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
