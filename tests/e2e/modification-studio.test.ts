/**
 * The modification studio in Chromium against the real server, on the Preview engine (slowed down
 * so that the page can be seen following the edit live). A signed-in user opens a finished render
 * in the studio from its card, paints a region (with the mouse on a desktop, with a finger on a
 * phone: touch events through CDP), uses undo/redo and the shortcuts, runs an edit and watches it
 * progress to done, finds the new version in the history, compares two versions with the slider and
 * deletes a version; in English (light) and Spanish (dark), with a French label checked. The server
 * is asked what it received: the edit is in render.versions, so the mask had the picture's size.
 * Screenshots at phone and desktop width.
 */
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations, type TranslationTree } from "../../src/client/i18n/resources";
import { localProvider } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { STORAGE_KEYS } from "../../src/shared/constants";
import { describeBrowser, requestsOf, screenshot, signIn, waitForRender, type BrowserOptions, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });
type Lang = "en" | "es" | "fr";

/** A text of the interface as the client holds it, with {{placeholders}} filled. */
function text(language: Lang, key: string, values: Record<string, string | number> = {}): string {
  let node: string | TranslationTree | undefined = translations[language];
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`no text ${key} in ${language}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

/** The Preview engine, its edits slowed into steps with progress, so the page can follow them. */
const slowPreview: RenderProvider = {
  ...localProvider,
  async inpaint(request) {
    for (let step = 1; step <= 6; step++) {
      await new Promise((resolve) => setTimeout(resolve, 350));
      request.onProgress?.(step / 7);
    }
    return localProvider.inpaint!(request);
  },
};

describeBrowser("the modification studio", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { renderProvider: slowPreview });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { launch } = useBrowsers();

  /** A signed-in user (over the API and on the page) with one finished render of a 1600 × 1200 photo. */
  async function userWithRender(options: BrowserOptions & { language: Lang }) {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1600, 1200));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "coastal",
    });
    await waitForRenders(user, [jobs[0]!.id]);
    const opened = await launch(options);
    if (options.language !== "en") {
      await opened.page.goto(`${server.url}/`);
      await opened.page.evaluate(([key, language]) => localStorage.setItem(key!, language!), [STORAGE_KEYS.language, options.language]);
    }
    await signIn(opened.page, server.url, user.email, { language: options.language === "fr" ? "fr" : options.language });
    return { user, page: opened.page, problems: opened.problems, imageId: uploaded.body.imageId, renderId: jobs[0]!.id };
  }

  /** Opens the render's page and goes to the studio through its card's button. */
  async function openFromRender(page: Page, language: Lang, renderId: string) {
    const requests = requestsOf(page);
    await page.goto(`${server.url}/render?jobs=${renderId}`);
    await waitForRender(page);
    // The card's pictures and the page's last parts arrive after the status: the button moves until then.
    await requests.quiet();
    await page.getByRole("link", { name: text(language, "studio.openInStudio") }).click();
    await poll(() => new URL(page.url()).pathname).toBe("/modification-studio");
    expect(new URL(page.url()).searchParams.get("picture")).toBe(renderId);
    const canvas = page.getByTestId("mask-canvas");
    await canvas.waitFor();
    // The mask has the size the server checks (studioPictureSize of the render: 1024 × 768), whatever the screen.
    expect(await canvas.evaluate((element: HTMLCanvasElement) => [element.width, element.height])).toEqual([1024, 768]);
    return canvas;
  }

  const painted = (page: Page) => page.getByTestId("mask-coverage").getAttribute("data-painted").then(Number);
  const coverage = (page: Page) => page.getByTestId("mask-coverage").getAttribute("data-coverage");

  /** Every phase text the edit's progress shows from now on. */
  async function recordPhases(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __phases: string[] }).__phases = seen;
      new MutationObserver(() => {
        for (const element of document.querySelectorAll("[data-testid=edit-phase]")) {
          const phase = element.textContent ?? "";
          if (phase && !seen.includes(phase)) seen.push(phase);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    return () => page.evaluate(() => (window as unknown as { __phases: string[] }).__phases);
  }

  /** Whether the mask canvas holds no painted pixel at all (every pixel transparent). */
  const maskIsEmpty = (page: Page) =>
    page.getByTestId("mask-canvas").evaluate((element: HTMLCanvasElement) => {
      const data = element.getContext("2d")!.getImageData(0, 0, element.width, element.height).data;
      for (let index = 3; index < data.length; index += 4) if (data[index] !== 0) return false;
      return true;
    });

  /** Each history row's number and what it says ("v3 Tint (Preview engine)", "from v2 · ..."). */
  const labels = (page: Page) =>
    page.getByTestId("version-select").evaluateAll((buttons) =>
      buttons.map((button) => ({
        number: Number(button.closest("[data-testid=version-row]")!.getAttribute("data-number")),
        title: button.querySelector(".font-semibold")?.textContent ?? "",
        from: button.querySelector("[data-testid=version-from]")?.textContent ?? null,
      })),
    );

  const rows = (page: Page) =>
    page.getByTestId("version-row").evaluateAll((items) =>
      items.map((item) => ({
        id: item.getAttribute("data-version-id")!,
        kind: item.getAttribute("data-kind")!,
        status: item.getAttribute("data-status")!,
        depth: Number(item.getAttribute("data-depth")),
        current: item.getAttribute("data-current") === "true",
      })),
    );

  it("in English on a desktop: paints with the mouse, undoes and redoes, runs an edit live, compares and deletes a version", async () => {
    const { user, page, problems, imageId, renderId } = await userWithRender({ width: 1366, height: 900, language: "en" });
    const canvas = await openFromRender(page, "en", renderId);

    // The Preview engine is named honestly: it tints, it does not follow the instruction, it is not AI.
    const note = page.getByTestId("studio-engine-note");
    expect(await note.textContent()).toContain(text("en", "studio.engine.previewTitle"));
    expect(await note.textContent()).toContain("does not read your instruction");
    expect(await page.getByTestId("studio-price").textContent()).toContain("This edit uses 1 credit.");
    const creditsBefore = (await user.client.account.profile.query()).credits;
    expect(await page.getByTestId("studio-credits").textContent()).toBe(`You have ${creditsBefore} credits.`);

    // Nothing painted: the edit cannot be sent.
    const submit = page.getByRole("button", { name: "Apply edit" });
    expect(await submit.isDisabled()).toBe(true);
    expect(await coverage(page)).toBe("empty");

    // A mouse stroke across the sofa.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.6);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++) await page.mouse.move(box.x + box.width * (0.15 + step * 0.03), box.y + box.height * 0.6);
    await page.mouse.up();
    await poll(() => coverage(page)).toBe("ok");
    const afterStroke = await painted(page);
    expect(afterStroke).toBeGreaterThan(1000);

    // The rectangle tool by its shortcut, then a rectangle drawn with the mouse.
    await page.keyboard.press("r");
    expect(await page.getByRole("button", { name: "Rectangle" }).getAttribute("aria-pressed")).toBe("true");
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.3, { steps: 4 });
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.4, { steps: 4 });
    await page.mouse.up();
    await poll(() => painted(page)).toBeGreaterThan(afterStroke + 10_000);
    const withRect = await painted(page);

    // Undo (keyboard) takes the rectangle away, redo (button) brings it back, undo twice leaves nothing.
    await page.keyboard.press("Control+z");
    await poll(() => painted(page)).toBe(afterStroke);
    await page.getByRole("button", { name: "Redo" }).click();
    await poll(() => painted(page)).toBe(withRect);
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");
    await poll(() => coverage(page)).toBe("empty");
    expect(await submit.isDisabled()).toBe(true);
    await page.keyboard.press("Control+Shift+z");
    await poll(() => painted(page)).toBe(afterStroke);
    // The brush size by [ and ], the slider labelled.
    await page.keyboard.press("b");
    await page.keyboard.press("]");
    expect(await page.getByLabel("Brush size").inputValue()).toBe("52");
    await page.getByText("Keyboard shortcuts").click();
    expect(await page.getByTestId("shortcuts").textContent()).toContain("Ctrl/⌘ + Shift + Z");

    // A quick instruction fills the field and counts its characters.
    await page.getByRole("button", { name: "Replace", exact: true }).click();
    const instruction = text("en", "studio.presets.replaceTemplate");
    expect(await page.getByRole("textbox", { name: "Instruction" }).inputValue()).toBe(instruction);
    expect(await page.getByTestId("instruction-counter").textContent()).toBe(`${instruction.length}/300`);
    await screenshot(page, "studio-desktop-light-painted-en");

    // The edit runs live to done, and becomes the version being edited.
    const phases = await recordPhases(page);
    await submit.click();
    await poll(() => page.getByTestId("edit-progress").getAttribute("data-status"), { timeout: 20_000 }).toBe("succeeded");
    const seen = await phases();
    expect(
      seen.some((phase) => /^Rendering\.\.\. \d+%$/.test(phase)),
      seen.join(" | "),
    ).toBe(true);
    expect(seen.at(-1)).toBe("Done");
    const tree = await user.client.render.versions.query({ id: renderId });
    const edit = tree.nodes.find((node) => node.kind === "edit")!;
    expect(edit).toMatchObject({ parentId: renderId, status: "succeeded", instruction, width: 1024, height: 768 });
    expect((await user.client.account.profile.query()).credits).toBe(creditsBefore - 1);
    await poll(() => rows(page)).toEqual([
      { id: imageId, kind: "photo", status: "succeeded", depth: 0, current: false },
      { id: renderId, kind: "render", status: "succeeded", depth: 1, current: false },
      { id: edit.id, kind: "edit", status: "succeeded", depth: 2, current: true },
    ]);
    expect(new URL(page.url()).searchParams.get("version")).toBe(edit.id);
    // The applied mask is gone: the new version is shown as it came out, nothing painted over it.
    await poll(() => coverage(page)).toBe("empty");
    expect(await maskIsEmpty(page)).toBe(true);
    expect(await submit.isDisabled()).toBe(true);
    // The Preview engine tinted the region and did not read the instruction: its label says so.
    const tint = text("en", "studio.versions.editTint");
    expect(await labels(page)).toEqual([
      { number: 1, title: "v1Photo", from: null },
      { number: 2, title: "v2Render · Coastal", from: null },
      { number: 3, title: `v3${tint}`, from: "from v2 · " },
    ]);
    expect(await page.getByRole("heading", { level: 1 }).locator("xpath=..").textContent()).toContain(`Editing v3 · ${tint}`);
    expect(await page.getByTestId("version-history").textContent()).not.toContain(instruction);
    await screenshot(page, "studio-desktop-light-done-en");

    // Export the edit for listing: the disclosure says "Digitally altered", and its public page shows
    // the unaltered photo beside the edit, signed out.
    await page.getByRole("button", { name: "Export for listing" }).click();
    const listing = page.getByTestId("listing-dialog");
    await poll(() => listing.isVisible()).toBe(true);
    expect(await listing.getByLabel("Disclosure on the picture").inputValue()).toBe("Digitally altered");
    await listing.getByRole("button", { name: "Create listing picture" }).click();
    await poll(() => listing.getByTestId("listing-url").isVisible()).toBe(true);
    const publicUrl = await listing.getByTestId("listing-url").inputValue();
    await screenshot(page, "studio-desktop-light-listing-en");
    const publicPage = await fetch(publicUrl);
    expect(publicPage.status).toBe(200);
    expect(publicPage.headers.get("set-cookie")).toBeNull();
    const html = await publicPage.text();
    expect(html).toContain("Digitally altered");
    const [original, altered] = [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].map((match) => new URL(match[1]!, publicUrl).href);
    const sizes = await Promise.all(
      [original!, altered!].map(async (url) => sharp(Buffer.from(await (await fetch(url)).arrayBuffer())).metadata()),
    );
    // The edit is the photo's own size (decision 090), as the original beside it.
    expect(sizes.map((size) => [size.width, size.height])).toEqual([
      [1600, 1200],
      [1600, 1200],
    ]);
    await listing.getByRole("button", { name: "Close" }).click();

    // Compare the photo (A) with the edit (B): the slider moves by keyboard.
    await page.getByLabel("Version A (before)").selectOption(imageId);
    const slider = page.getByTestId("compare-slider");
    expect(await page.getByTestId("compare-before").getAttribute("src")).toBe(`/files/uploads/${imageId}/original`);
    expect(await page.getByTestId("compare-after").getAttribute("src")).toBe(`/files/renders/${edit.id}/medium`);
    await slider.focus();
    await page.keyboard.press("Home");
    expect(await slider.getAttribute("aria-valuenow")).toBe("0");
    await page.keyboard.press("ArrowRight");
    expect(await slider.getAttribute("aria-valuenow")).toBe("5");

    // Re-roll the edit: the same edit again from the same version, followed live, a sibling in the tree.
    await page.getByRole("button", { name: "Re-roll version 3" }).click();
    const progress = page.getByTestId("edit-progress");
    await poll(
      async () => ({ job: (await progress.getAttribute("data-job-id")) !== edit.id, status: await progress.getAttribute("data-status") }),
      {
        timeout: 20_000,
      },
    ).toEqual({ job: true, status: "succeeded" });
    const reroll = (await user.client.render.versions.query({ id: renderId })).nodes.find(
      (node) => node.kind === "edit" && node.id !== edit.id,
    )!;
    expect(reroll).toMatchObject({ parentId: renderId, instruction, status: "succeeded" });
    await poll(() => rows(page).then((list) => list.map((row) => [row.id, row.depth, row.current]))).toEqual([
      [imageId, 0, false],
      [renderId, 1, false],
      [edit.id, 2, false],
      [reroll.id, 2, true],
    ]);

    // Delete the render in the middle: the dialog says later versions are kept; the edits move up to the photo.
    await page.getByRole("button", { name: "Delete version 2" }).click();
    const dialog = page.getByRole("alertdialog");
    expect(await dialog.textContent()).toContain("Later versions made from it are kept");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await poll(() => rows(page)).toEqual([
      { id: imageId, kind: "photo", status: "succeeded", depth: 0, current: false },
      { id: edit.id, kind: "edit", status: "succeeded", depth: 1, current: false },
      { id: reroll.id, kind: "edit", status: "succeeded", depth: 1, current: true },
    ]);
    // The versions keep the numbers they were given: v3 and v4 stay v3 and v4 (now made from v1).
    expect((await labels(page)).map((row) => [row.number, row.from])).toEqual([
      [1, null],
      [3, "from v1 · "],
      [4, "from v1 · "],
    ]);
    const after = await user.client.render.versions.query({ id: imageId });
    expect(after.nodes.map((node) => [node.id, node.parentId])).toEqual([
      [imageId, null],
      [edit.id, imageId],
      [reroll.id, imageId],
    ]);
    await screenshot(page, "studio-desktop-light-deleted-en");
    expect(problems).toEqual([]);
  });

  it("in Spanish on a phone, dark: paints with a finger, runs an edit, branches, compares and deletes; a French label", async () => {
    const { user, page, problems, renderId, imageId } = await userWithRender({
      width: 390,
      height: 844,
      colorScheme: "dark",
      language: "es",
    });
    // The photo itself opens in the studio from the style page (its 1600 × 1200 px shown and masked at 1024 × 768).
    await page.goto(`${server.url}/style-select?image=${imageId}`);
    await page.getByRole("link", { name: text("es", "studio.openInStudio") }).click();
    await poll(() => new URL(page.url()).searchParams.get("picture")).toBe(imageId);
    await page.getByTestId("mask-canvas").waitFor();
    expect(await page.getByTestId("mask-canvas").evaluate((element: HTMLCanvasElement) => [element.width, element.height])).toEqual([
      1024, 768,
    ]);
    const canvas = await openFromRender(page, "es", renderId);
    expect(await page.getByTestId("studio-engine-note").textContent()).toContain("Motor de vista previa: no es IA");
    // Nothing on the page is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A finger drags across the picture: touch events, which the page gets as pointer events of type touch.
    await page.evaluate(() => {
      const types: string[] = [];
      document
        .querySelector("[data-testid=mask-canvas]")!
        .addEventListener("pointerdown", (event) => types.push((event as PointerEvent).pointerType));
      (window as unknown as { __types: string[] }).__types = types;
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
    const box = (await canvas.boundingBox())!;
    const at = (fx: number, fy: number) => [
      { x: box.x + box.width * fx, y: box.y + box.height * fy, id: 1, radiusX: 4, radiusY: 4, force: 1 },
    ];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0.2, 0.5) });
    for (let step = 1; step <= 12; step++)
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(0.2 + step * 0.04, 0.5 + step * 0.01) });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await poll(() => coverage(page)).toBe("ok");
    expect(await page.evaluate(() => (window as unknown as { __types: string[] }).__types)).toEqual(["touch"]);
    const stroke = await painted(page);
    // Undo and redo with the buttons (their names in Spanish).
    await page.getByRole("button", { name: "Deshacer" }).click();
    await poll(() => coverage(page)).toBe("empty");
    await page.getByRole("button", { name: "Rehacer" }).click();
    await poll(() => painted(page)).toBe(stroke);

    await page.getByRole("button", { name: "Cambiar color", exact: true }).click();
    expect(await page.getByRole("textbox", { name: "Instrucción" }).inputValue()).toBe(text("es", "studio.presets.recolourTemplate"));
    expect(await page.getByTestId("studio-price").textContent()).toContain("Esta edición usa 1 crédito.");
    await screenshot(page, "studio-phone-dark-painted-es");
    // The shortcuts, with the keys as a Spanish keyboard names them, fit the phone.
    await page.getByTestId("shortcuts").locator("summary").click();
    expect(await page.getByTestId("shortcuts").textContent()).toContain("Ctrl/⌘ + Mayús + Z");
    expect(await page.getByTestId("shortcuts").evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
    await page.getByTestId("shortcuts").scrollIntoViewIfNeeded();
    await screenshot(page, "studio-phone-dark-shortcuts-es");

    await page.getByRole("button", { name: "Aplicar edición" }).click();
    await poll(() => page.getByTestId("edit-progress").getAttribute("data-status"), { timeout: 20_000 }).toBe("succeeded");
    const first = (await user.client.render.versions.query({ id: renderId })).nodes.find((node) => node.kind === "edit")!;
    await poll(() => rows(page).then((list) => list.find((row) => row.current)?.id)).toBe(first.id);
    // The new version is shown without the mask that made it; its label says what the Preview engine did.
    await poll(() => coverage(page)).toBe("empty");
    expect(await maskIsEmpty(page)).toBe(true);
    expect((await labels(page)).at(-1)).toEqual({
      number: 3,
      title: `v3${text("es", "studio.versions.editTint")}`,
      from: "de v2 · ",
    });
    await screenshot(page, "studio-phone-dark-done-es");

    // Branch: back to the render (v2), a new stroke, a second edit from it.
    await page.getByRole("button", { name: /^Editar desde la versión 2:/ }).click();
    await poll(() => rows(page).then((list) => list.find((row) => row.current)?.id)).toBe(renderId);
    expect(await maskIsEmpty(page)).toBe(true);
    await canvas.scrollIntoViewIfNeeded();
    const again = (await canvas.boundingBox())!;
    const atNow = (fx: number, fy: number) => [
      { x: again.x + again.width * fx, y: again.y + again.height * fy, id: 1, radiusX: 4, radiusY: 4, force: 1 },
    ];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: atNow(0.3, 0.3) });
    for (let step = 1; step <= 12; step++)
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: atNow(0.3 + step * 0.04, 0.3 + step * 0.01) });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await poll(() => coverage(page)).toBe("ok");
    await page.getByRole("button", { name: "Quitar", exact: true }).click();
    await page.getByRole("button", { name: "Aplicar edición" }).click();
    const progress = page.getByTestId("edit-progress");
    await poll(
      async () => ({ job: (await progress.getAttribute("data-job-id")) !== first.id, status: await progress.getAttribute("data-status") }),
      {
        timeout: 20_000,
      },
    ).toEqual({ job: true, status: "succeeded" });
    const tree = await user.client.render.versions.query({ id: renderId });
    const edits = tree.nodes.filter((node) => node.kind === "edit");
    expect(edits.map((node) => node.parentId)).toEqual([renderId, renderId]);
    await poll(() => rows(page).then((list) => list.map((row) => row.depth))).toEqual([0, 1, 2, 2]);
    expect((await labels(page)).map((row) => [row.number, row.from])).toEqual([
      [1, null],
      [2, null],
      [3, "de v2 · "],
      [4, "de v2 · "],
    ]);

    // Compare the two branches; the slider takes a finger too (it is a slider either way).
    await page.getByLabel("Versión A (antes)").selectOption(first.id);
    const slider = page.getByTestId("compare-slider");
    await slider.scrollIntoViewIfNeeded();
    expect(await page.getByTestId("compare-before").getAttribute("src")).toBe(`/files/renders/${first.id}/medium`);
    await slider.focus();
    await page.keyboard.press("End");
    expect(await slider.getAttribute("aria-valuenow")).toBe("100");
    await screenshot(page, "studio-phone-dark-compare-es");

    // Delete the first edit (v3).
    await page.getByRole("button", { name: "Eliminar la versión 3" }).click();
    expect(await page.getByRole("alertdialog").textContent()).toContain("Las versiones posteriores hechas a partir de ella se conservan");
    await page.getByRole("alertdialog").getByRole("button", { name: "Eliminar" }).click();
    await poll(() => rows(page).then((list) => list.length)).toBe(3);
    expect((await user.client.render.versions.query({ id: renderId })).nodes.some((node) => node.id === first.id)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "studio-phone-dark-deleted-es");

    // In French, the tools are named in French.
    await page.evaluate((key) => localStorage.setItem(key, "fr"), STORAGE_KEYS.language);
    await page.reload();
    await page.getByTestId("mask-canvas").waitFor();
    expect(await page.getByRole("button", { name: "Pinceau" }).getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByTestId("studio-engine-note").textContent()).toContain("Moteur d'aperçu : pas d'IA");
    expect(problems).toEqual([]);
  });
});
