/**
 * Measuring a room in the studio (issue 30, decision 089), in Chromium against the real server. The
 * photo is a room the test drew in perspective (tests/helpers/room-scene.ts): a 2 × 1.4 m rug on the
 * floor and a 2.05 m door. The user opens the photo in the studio, chooses Measure, marks the rug's four
 * corners as the reference with its size, measures the door's height and a 3 m line along the back
 * wall's foot by clicking where the camera put them, and reads the lengths drawn on the picture and
 * listed (computed by the server), finds the download drawing them in; then deletes one. In English on a desktop (light) and in French on
 * a phone (dark). Screenshots of both.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DOOR_LEAN_MAX_DEGREES, formatLength, leanDegrees, MEASURE_ACCURACY } from "../../src/shared/measures";
import { STORAGE_KEYS } from "../../src/shared/constants";
import { describeBrowser, screenshot, signIn, uiText, useBrowsers } from "../helpers/browser";
import { signedInClient, upload, waitForRenders } from "../helpers/render";
import { sampleLevelMarks, sampleMarks, sampleRoomPhoto } from "../helpers/room-scene";
import { KEYBOARD_STEP } from "../../src/client/components/measure/MeasureOverlay";
import { startTestServer, type TestServer } from "../helpers/server";
import type { Point } from "../../src/shared/measure-geometry";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

describeBrowser("measuring a room in the studio", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { launch } = useBrowsers();

  /** Clicks the picture at a point given as fractions of it. */
  async function clickAt(page: Page, point: Point) {
    // The picture in the middle of the screen (the form's buttons below it may have scrolled it away).
    await page.getByTestId("measure-overlay").evaluate((element) => element.scrollIntoView({ block: "center" }));
    const box = (await page.getByTestId("measure-overlay").boundingBox())!;
    await page.mouse.click(box.x + point.x * box.width, box.y + point.y * box.height);
  }

  const cases = [
    { language: "en", device: "desktop", theme: "light", width: 1280, height: 900 },
    { language: "fr", device: "phone", theme: "dark", width: 390, height: 844 },
  ] as const;

  it.each(cases)("sets a reference and measures a height and a floor length ($language, $device, $theme)", async (view) => {
    const { language } = view;
    const user = await signedInClient(server.url);
    const sent = await upload(server.url, user.jar, await sampleRoomPhoto());
    expect(sent.status).toBe(201);
    const { page, problems } = await launch({ width: view.width, height: view.height, colorScheme: view.theme });
    if (language !== "en") {
      await page.goto(`${server.url}/`);
      await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [STORAGE_KEYS.language, language]);
    }
    await signIn(page, server.url, user.email, { language, to: `/modification-studio?picture=${sent.body.imageId}` });
    await page.getByTestId("studio-mode-measure").click();
    await page.getByTestId("measure-overlay").waitFor();
    expect(await page.getByTestId("measure-instruction").textContent()).toBe(uiText(language, "measure.needsReference"));
    // Before any reference, the figures our tests measured.
    expect(await page.getByTestId("measure-accuracy").textContent()).toBe(
      uiText(language, "measure.accuracy", {
        floor: MEASURE_ACCURACY.withinPercent.floorFromRug,
        heightRug: MEASURE_ACCURACY.withinPercent.heightFromRug,
        heightDoor: MEASURE_ACCURACY.withinPercent.heightFromDoor,
        share: MEASURE_ACCURACY.share,
      }),
    );

    // The rug: 200 × 140 cm (the fields' defaults are typed again, as a user would).
    const marks = sampleMarks();
    await page.getByLabel(uiText(language, "measure.widthCm")).fill("200");
    await page.getByLabel(uiText(language, "measure.depthCm")).fill("140");
    await page.getByTestId("measure-mark-reference").click();
    for (const [index, corner] of marks.rug.entries()) {
      expect(await page.getByTestId("measure-instruction").textContent()).toBe(
        uiText(language, "measure.clickCorners", { count: index + 1 }),
      );
      await clickAt(page, corner);
    }
    await page.getByTestId("measure-reference").waitFor();
    await poll(() => page.getByTestId("measure-instruction").textContent()).toBe(uiText(language, "measure.readyToMeasure"));

    // The door's height: its foot, then its top.
    await page.getByTestId("measure-kind-height").click();
    await page.getByLabel(uiText(language, "measure.label")).fill(language === "en" ? "Door" : "Porte");
    await page.getByTestId("measure-start").click();
    await clickAt(page, marks.doorFoot);
    await clickAt(page, marks.doorTop);
    await poll(() => page.getByTestId("measure-item").count()).toBe(1);

    // A line along the floor: the back wall's foot, 3 m.
    await page.getByTestId("measure-kind-floor").click();
    await page.getByTestId("measure-start").click();
    await clickAt(page, marks.floorFrom);
    await clickAt(page, marks.floorTo);
    await poll(() => page.getByTestId("measure-item").count()).toBe(2);

    // What the server computed from the clicks: within the stated accuracy of the room's true sizes.
    const { measures } = await user.client.measures.ofPhoto.query({ uploadId: sent.body.imageId });
    expect(measures.map((m) => m.kind)).toEqual(["height", "floor"]);
    expect(Math.abs(measures[0]!.lengthCm! - 205) / 205).toBeLessThan(MEASURE_ACCURACY.withinPercent.heightFromRug / 100);
    expect(Math.abs(measures[1]!.lengthCm! - 300) / 300).toBeLessThan(MEASURE_ACCURACY.withinPercent.floorFromRug / 100);
    const labels = await page.getByTestId("measure-label").allTextContents();
    expect(labels).toEqual([
      `${language === "en" ? "Door" : "Porte"} · ${formatLength(measures[0]!.lengthCm!, language)}`,
      formatLength(measures[1]!.lengthCm!, language),
    ]);
    expect(await page.getByTestId("measure-line").count()).toBe(2);
    await screenshot(page, `measure-${language}-${view.device}-${view.theme}`);

    // The download draws the measures in (a picture the server makes), or not when the box is cleared.
    const download = page.getByTestId("measure-download");
    expect(await download.getAttribute("href")).toBe(`/files/measured/${sent.body.imageId}?lang=${language}`);
    const burnt = await page.evaluate(
      async (href) => {
        const response = await fetch(href!);
        return { status: response.status, type: response.headers.get("content-type") };
      },
      await download.getAttribute("href"),
    );
    expect(burnt).toEqual({ status: 200, type: "image/jpeg" });
    await page.getByTestId("measure-burn-in").uncheck();
    expect(await download.getAttribute("href")).toBe(`/files/uploads/${sent.body.imageId}/original`);

    // Deleted, it leaves the picture and the list.
    await page.getByTestId("measure-delete").last().click();
    await poll(() => page.getByTestId("measure-item").count()).toBe(1);
    expect(await page.getByTestId("measure-line").count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("marks the reference and measures with the keyboard alone: arrows move a cross, Enter marks (en, desktop, light)", async () => {
    const user = await signedInClient(server.url);
    const sent = await upload(server.url, user.jar, await sampleRoomPhoto());
    const { page, problems } = await launch({ width: 1280, height: 900, colorScheme: "light" });
    await signIn(page, server.url, user.email, { to: `/modification-studio?picture=${sent.body.imageId}` });
    const press = async (testId: string) => {
      await page.getByTestId(testId).focus();
      await page.keyboard.press("Enter");
    };
    await press("studio-mode-measure");
    const overlay = page.getByTestId("measure-overlay");
    await overlay.waitFor();
    /** Moves the cross to `target` with the arrow keys (long steps, then short ones) and marks it with Enter. */
    const markWithKeys = async (target: Point, shot?: string) => {
      await overlay.focus();
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowLeft");
      const cross = page.getByTestId("measure-cross");
      const from = { x: Number(await cross.getAttribute("data-x")), y: Number(await cross.getAttribute("data-y")) };
      for (const axis of ["x", "y"] as const) {
        const [less, more] = axis === "x" ? ["ArrowLeft", "ArrowRight"] : ["ArrowUp", "ArrowDown"];
        const distance = target[axis] - from[axis];
        const long = Math.trunc(distance / KEYBOARD_STEP.long);
        const short = Math.round((distance - long * KEYBOARD_STEP.long) / KEYBOARD_STEP.short);
        for (let i = 0; i < Math.abs(long); i++) await page.keyboard.press(`Shift+${long < 0 ? less : more}`);
        for (let i = 0; i < Math.abs(short); i++) await page.keyboard.press(short < 0 ? less! : more!);
      }
      const reached = { x: Number(await cross.getAttribute("data-x")), y: Number(await cross.getAttribute("data-y")) };
      expect(Math.abs(reached.x - target.x)).toBeLessThanOrEqual(KEYBOARD_STEP.short);
      expect(Math.abs(reached.y - target.y)).toBeLessThanOrEqual(KEYBOARD_STEP.short);
      if (shot) await screenshot(page, shot);
      await page.keyboard.press("Enter");
    };

    const marks = sampleMarks();
    await press("measure-mark-reference");
    for (const corner of marks.rug) await markWithKeys(corner);
    await poll(() => page.getByTestId("measure-instruction").textContent()).toBe(uiText("en", "measure.readyToMeasure"));
    // Done marking, the keyboard is back on the form, on the button that measures.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("measure-start");
    await press("measure-kind-floor");
    await press("measure-start");
    expect(await overlay.getAttribute("aria-label")).toContain("Arrow keys move the cross (Shift for long steps); Enter marks the point.");
    await markWithKeys(marks.floorFrom);
    await markWithKeys(marks.floorTo, "measure-keyboard-cross-en-desktop-light");
    await poll(() => page.getByTestId("measure-item").count()).toBe(1);
    const { measures } = await user.client.measures.ofPhoto.query({ uploadId: sent.body.imageId });
    expect(Math.abs(measures[0]!.lengthCm! - 300) / 300).toBeLessThan(MEASURE_ACCURACY.withinPercent.floorFromRug / 100);
    await screenshot(page, "measure-keyboard-en-desktop-light");

    // The door as the reference (a door measures heights only: the floor line goes first), marked where a
    // level camera puts it but leaning: the camera was not held level, and the studio says so.
    await page.getByTestId("measure-delete").click();
    await poll(() => page.getByTestId("measure-item").count()).toBe(0);
    const level = sampleLevelMarks();
    const leaning = { x: level.doorFoot.x + 0.06, y: level.doorTop.y };
    const lean = leanDegrees(level.doorFoot, leaning, { width: 1024, height: 768 });
    expect(lean).toBeGreaterThan(DOOR_LEAN_MAX_DEGREES);
    await page.getByTestId("reference-kind-height").click();
    await page.getByTestId("measure-mark-reference").click();
    await clickAt(page, level.doorFoot);
    await clickAt(page, leaning);
    await poll(() => page.getByTestId("measure-lean-warning").textContent()).toBe(
      uiText("en", "measure.doorLeans", { degrees: lean.toFixed(1), percent: MEASURE_ACCURACY.withinPercent.heightFromDoor }),
    );
    await screenshot(page, "measure-door-leans-en-desktop-light");
    // Marked upright, the door raises no warning.
    await page.getByTestId("measure-mark-reference").click();
    await clickAt(page, level.doorFoot);
    await clickAt(page, level.doorTop);
    await poll(() => page.getByTestId("measure-lean-warning").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("shows a picture's measures read-only on the client's review page (en, phone, light)", async () => {
    const user = await signedInClient(server.url);
    const sent = await upload(server.url, user.jar, await sampleRoomPhoto());
    const uploadId = sent.body.imageId;
    const marks = sampleMarks();
    await user.client.measures.setReference.mutate({
      uploadId,
      reference: { kind: "floor", corners: marks.rug, widthCm: 200, depthCm: 140 },
    });
    await user.client.measures.add.mutate({ uploadId, kind: "height", a: marks.doorFoot, b: marks.doorTop, label: "Door" });
    const { jobs } = await user.client.render.create.mutate({ projectId: sent.body.projectId, imageId: uploadId, style: "japandi" });
    await waitForRenders(user, [jobs[0]!.id]);
    const { path } = await user.client.review.create.mutate({ projectId: sent.body.projectId });

    // The client: no account, a phone.
    const { page, problems } = await launch({ width: 390, height: 844, colorScheme: "light" });
    await page.goto(`${server.url}${path}`);
    const measures = page.getByTestId("review-measures");
    await measures.waitFor();
    expect(await page.getByTestId("review-measure").allTextContents()).toEqual([`Door · ${formatLength(205, "en")} · ±6 %`]);
    expect(await measures.getByTestId("measure-line").count()).toBe(1);
    // Read-only: nothing on the picture takes a click.
    expect(await measures.getByTestId("measure-overlay").getAttribute("role")).toBe("img");
    await measures.scrollIntoViewIfNeeded();
    await screenshot(page, "measure-review-en-phone-light");
    expect(problems).toEqual([]);
  });
});
