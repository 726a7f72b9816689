/**
 * Styles of one's own (issue 32) in a browser: made on /styles with a message per wrong field, then
 * chosen on the style page and rendered in, the render named after it (en, desktop, light); the page
 * and its form in Spanish on a phone (dark). Screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { MESSAGES } from "../../src/shared/messages";
import { describeBrowser, screenshot, signIn, useBrowsers, waitForRender } from "../helpers/browser";
import { roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });
const es = translations.es as unknown as {
  customStyles: { title: string; edit: string; addTitle: string; editTitle: string; save: string; fields: Record<string, string> };
  serverMessages: Record<string, string>;
};

describeBrowser("custom styles", () => {
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

  it("makes a style, says what is wrong with a field, and renders in it: the render is named after it (en, desktop, light)", async () => {
    const user = await signedInClient(server.url);
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await signIn(page, server.url, user.email, { to: "/styles" });
    await poll(() => page.getByRole("heading", { level: 1, name: "Your styles" }).isVisible()).toBe(true);
    await poll(() => page.getByTestId("styles-empty").isVisible()).toBe(true);

    await page.getByRole("button", { name: "New style" }).click();
    const dialog = page.getByRole("dialog", { name: "New style" });
    await dialog.getByLabel("Name", { exact: true }).fill("Casa Azul");
    await dialog.getByLabel("Description").fill("blue");
    await dialog.getByLabel("Colour 2 code (#rrggbb)").fill("#12");
    await dialog.getByRole("button", { name: "Save style" }).click();
    await poll(() => dialog.getByText(MESSAGES.customStyleDescriptionTooShort).isVisible()).toBe(true);
    await poll(() => dialog.getByText(MESSAGES.customStylePaletteInvalid).isVisible()).toBe(true);
    expect((await user.client.styles.list.query({ teamId: null })).styles).toEqual([]);

    await dialog.getByLabel("Description").fill("Cobalt blue tiled walls, whitewashed plaster, terracotta floors");
    await dialog.getByLabel("Colour 2 code (#rrggbb)").fill("#1F4E9C");
    await dialog.getByLabel("What to avoid (optional)").fill("chrome");
    await dialog.getByRole("radio", { name: "Bold" }).check();
    await dialog.getByRole("button", { name: "Save style" }).click();
    await poll(() => dialog.isVisible()).toBe(false);
    await poll(() => page.getByTestId("custom-style-card").count()).toBe(1);
    const [style] = (await user.client.styles.list.query({ teamId: null })).styles;
    expect(style).toMatchObject({ name: "Casa Azul", tone: "bold", avoid: "chrome", palette: ["#f5f0e8", "#1f4e9c", "#2f4f4f"] });
    await screenshot(page, "styles-page-desktop-light");

    // Chosen on the style page beside the built-in ones, and rendered in.
    const sent = await upload(server.url, user.jar, await roomPhoto());
    expect(sent.status).toBe(201);
    await page.goto(`${server.url}/style-select?image=${sent.body.imageId}&project=${sent.body.projectId}`);
    const card = page.getByTestId(`style-${style!.id}`);
    await poll(() => card.isVisible()).toBe(true);
    expect(await page.getByTestId("custom-styles-choice").getByRole("heading").innerText()).toBe("Your styles");
    await card.click();
    await poll(() => page.getByTestId("cost-line").innerText()).toContain("1");
    await screenshot(page, "style-select-custom-desktop-light");
    await page.getByRole("button", { name: /^Render/ }).click();
    await poll(() => new URL(page.url()).pathname).toBe("/render");
    await waitForRender(page);
    await poll(() => page.getByTestId("job-card").innerText()).toContain("Casa Azul");
    const [job] = (await user.client.render.list.query({})) as Array<{ style: string; styleName: string | null }>;
    expect(job).toMatchObject({ style: style!.id, styleName: "Casa Azul" });
  });

  it("shows the page and its form in Spanish on a phone (dark)", async () => {
    const user = await signedInClient(server.url);
    await user.client.styles.create.mutate({
      teamId: null,
      name: "Riad",
      description: "Zellige tiles, carved cedar, brass lanterns, deep terracotta and teal",
      avoid: "",
      palette: ["#c4622d", "#0f766e", "#f3d9b1", "#b7913f"],
      tone: "warm",
    });
    let page: Page;
    ({ page, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "es-ES" }));
    await signIn(page, server.url, user.email, { language: "es", to: "/styles" });
    await poll(() => page.getByRole("heading", { level: 1, name: es.customStyles.title }).isVisible()).toBe(true);
    await poll(() => page.getByTestId("custom-style-card").innerText()).toContain("Riad");
    await screenshot(page, "styles-page-phone-dark-es");
    await page.getByRole("button", { name: `${es.customStyles.edit} Riad` }).click();
    const dialog = page.getByRole("dialog", { name: es.customStyles.editTitle });
    await dialog.getByLabel(es.customStyles.fields.name!, { exact: true }).fill("");
    await dialog.getByRole("button", { name: es.customStyles.save }).click();
    await poll(() => dialog.getByText(es.serverMessages.customStyleNameRequired!).isVisible()).toBe(true);
    await screenshot(page, "styles-form-phone-dark-es");
  });
});
