/**
 * The marketplace in a browser (issue 32, decision 104), English desktop light and Spanish phone dark:
 * another user's published styles are listed with their cover, the page says paid styles are out of
 * scope, a listing opens with its examples and install count, and "Install" copies its styles into the
 * signed-in user's space (checked through the API), after which the page says it is installed.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signIn, uiText, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });

describeBrowser("the marketplace in a browser", () => {
  let server: TestServer;
  let author: Awaited<ReturnType<typeof signedInClient>>;
  let listingId = "";
  const title = "Loft and library";

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    author = await signedInClient(server.url);
    const warm = await author.client.styles.create.mutate({
      name: "Warm loft",
      description: "Exposed brick, oak floors and warm brass lights",
      palette: ["#a0522d", "#f5f5dc"],
      tone: "warm",
      teamId: null,
    });
    const uploaded = await upload(server.url, author.jar, await roomPhoto(), { roomType: "bedroom" });
    const { jobs } = await author.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(author, [jobs[0]!.id]);
    ({ id: listingId } = await author.client.marketplace.publish.mutate({
      teamId: null,
      title,
      styleIds: [warm.id],
      coverJobId: jobs[0]!.id,
      exampleJobIds: [jobs[0]!.id],
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  it("lists a published style, says paid styles are out of scope, and installs it into the user's space", async () => {
    for (const [lang, viewport, colorScheme] of [
      ["en", { width: 1280, height: 800 }, "light"],
      ["es", { width: 390, height: 844 }, "dark"],
    ] as const) {
      const installer = await signedInClient(server.url);
      const { browser, page, problems } = await open("/", { ...viewport, colorScheme, locale: lang === "en" ? "en-US" : "es-ES" });
      await signIn(page, server.url, installer.email, { language: lang, to: "/marketplace" });
      await poll(() => page.getByRole("heading", { level: 1, name: uiText(lang, "pages.marketplace.title") }).isVisible(), {
        timeout: 30_000,
      }).toBe(true);
      expect(await page.getByTestId("paid-out-of-scope").textContent()).toBe(uiText(lang, "marketplace.paidOutOfScope"));
      const card = page.getByTestId("marketplace-listings").getByRole("button", { name: new RegExp(title) });
      await poll(() => card.isVisible()).toBe(true);
      await screenshot(page, `marketplace-browse-${lang}-${colorScheme}`);
      await card.click();
      await poll(() => page.getByRole("heading", { level: 2, name: title }).isVisible()).toBe(true);
      await page.getByRole("button", { name: uiText(lang, "marketplace.install") }).click();
      await poll(() => page.getByTestId("installed-note").isVisible()).toBe(true);
      await poll(() => page.getByTestId("listing-installs").textContent()).toContain(uiText(lang, "marketplace.version", { version: 1 }));
      // The space's installs list it, with the version it has.
      await poll(() => page.getByTestId("marketplace-installed").textContent()).toContain(
        `${title} · ${uiText(lang, "marketplace.installedVersion", { version: 1 })}`,
      );
      await screenshot(page, `marketplace-installed-${lang}-${colorScheme}`);
      const styles = await installer.client.styles.list.query({ teamId: null });
      expect(styles.styles.map((style) => style.name)).toEqual(["Warm loft"]);
      expect(problems).toEqual([]);
      await browser.close();
    }
  });

  it("lets the author publish a new version from the page, which those who installed it are offered (en, desktop, light)", async () => {
    const installer = await signedInClient(server.url);
    await installer.client.marketplace.install.mutate({ listingId, teamId: null });
    await author.client.styles.update.mutate({
      ...(await author.client.styles.list.query({ teamId: null })).styles[0]!,
      description: "Exposed brick, oak floors, warm brass lights and deep green velvet",
    });
    const { page, problems } = await open("/", { width: 1280, height: 800, colorScheme: "light" });
    await signIn(page, server.url, author.email, { to: "/marketplace" });
    const own = page.getByTestId("your-listings").getByRole("listitem").filter({ hasText: title });
    await own.getByRole("button", { name: uiText("en", "marketplace.newVersion") }).click();
    const form = page.getByTestId("listing-form");
    await poll(() => form.getByRole("heading", { level: 3 }).textContent()).toBe(uiText("en", "marketplace.newVersionTitle", { title }));
    // The form starts from the listing: its title and the style it was made from.
    expect(await form.getByLabel(uiText("en", "marketplace.listingTitle")).inputValue()).toBe(title);
    expect(await form.getByRole("checkbox", { name: /Warm loft/ }).isChecked()).toBe(true);
    await form.getByRole("checkbox").last().check();
    await form.getByRole("button", { name: uiText("en", "marketplace.publishVersion") }).click();
    await poll(() =>
      page
        .locator("[data-sonner-toast]")
        .filter({ hasText: uiText("en", "marketplace.republished", { version: 2 }) })
        .count(),
    ).toBe(1);
    await screenshot(page, "marketplace-new-version-desktop-light");
    const offered = await installer.client.marketplace.get.query({ listingId, teamId: null });
    expect(offered).toMatchObject({ version: 2 });
    expect(offered.installed).toMatchObject({ updateAvailable: true });
    expect(problems).toEqual([]);

    // The installer's page says an update waits among its installs; opened, the update is taken.
    const other = await open("/", { width: 1280, height: 800, colorScheme: "dark" });
    await signIn(other.page, server.url, installer.email, { to: "/marketplace" });
    const installed = other.page.getByTestId("marketplace-installed").getByRole("listitem").filter({ hasText: title });
    await poll(() => installed.getByTestId("installed-update").textContent()).toBe(uiText("en", "marketplace.updateBadge", { version: 2 }));
    await screenshot(other.page, "marketplace-update-waiting-desktop-dark");
    await installed.getByRole("button", { name: uiText("en", "marketplace.open") }).click();
    await other.page.getByRole("button", { name: uiText("en", "marketplace.acceptUpdate") }).click();
    await poll(() => installed.textContent()).toContain(uiText("en", "marketplace.installedVersion", { version: 2 }));
    expect(await installed.getByTestId("installed-update").count()).toBe(0);
    expect(other.problems).toEqual([]);
  });
});
