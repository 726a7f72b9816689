/**
 * The social hub in a browser (issue 32, decision 105): in English on a desktop in light, a designer
 * makes their portfolio page in /social-hub (a link refused with its message, then saved), sees it
 * at /p/<handle> and their share links; in Spanish on a phone in dark, a follower sees the designer
 * with their portfolio and what they published, opens the portfolio, and stops following; a visitor
 * gets the not-found page for an address nobody has. Then the whole path in Spanish on a phone
 * in dark: a style of one's own made, rendered in, published with the name, seen on /gallery signed
 * out, liked on /community by another user, and on the designer's portfolio page. (The same path in
 * English is in custom-styles, render-flow and community; installing a published style in
 * marketplace; the embed in another origin's page in embed.)
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signIn, uiText, useBrowsers, waitForRender } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describeBrowser("the social hub in a browser", () => {
  let server: TestServer;
  let ana: Awaited<ReturnType<typeof signedInClient>>;
  let follower: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    [ana, follower] = [await signedInClient(server.url), await signedInClient(server.url)];
    const uploaded = await upload(server.url, ana.jar, await roomPhoto(600, 450));
    const { jobs } = await ana.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    await waitForRenders(ana, [jobs[0]!.id]);
    await ana.client.community.publish.mutate({ jobId: jobs[0]!.id, title: "Calm bedroom", layout: "before-after", showName: true });
    await follower.client.community.follow.mutate({ kind: "user", targetId: ana.userId, on: true });
    await follower.client.account.updateProfile.mutate({ fullName: "Berta Ruiz" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  it("makes a portfolio page in English on a desktop in light, and shows it with the published work", async () => {
    const { page, problems } = await open("/", { width: 1280, height: 900, colorScheme: "light", locale: "en-US" });
    await signIn(page, server.url, ana.email, { to: "/social-hub" });
    await poll(() => page.getByText(uiText("en", "socialHub.portfolio.none")).isVisible()).toBe(true);
    // The address starts from the user's name.
    expect(await page.getByLabel(uiText("en", "socialHub.portfolio.address"), { exact: true }).inputValue()).toBe("ana-lima");
    await page.getByLabel(uiText("en", "socialHub.portfolio.displayName")).fill("Ana Lima Interiors");
    await page.getByLabel(uiText("en", "socialHub.portfolio.headline")).fill("Calm rooms for small flats in Lisbon.");
    await page.getByRole("button", { name: uiText("en", "socialHub.portfolio.addLink") }).click();
    await page.getByPlaceholder(uiText("en", "socialHub.portfolio.linkLabel")).fill("Instagram");
    await page.getByPlaceholder("https://").fill("instagram");
    await page.getByLabel(uiText("en", "socialHub.portfolio.contactEmail")).fill("hello@ana.example.com");
    await page.getByRole("button", { name: uiText("en", "socialHub.portfolio.save") }).click();
    await poll(() => page.getByText(uiText("en", "serverMessages.portfolioLinkUrlInvalid")).isVisible()).toBe(true);
    await page.getByPlaceholder("https://").fill("https://instagram.com/ana.lima");
    await page.getByRole("button", { name: uiText("en", "socialHub.portfolio.save") }).click();
    await poll(() => page.getByTestId("portfolio-address").textContent()).toContain("/p/ana-lima");
    const share = page.getByTestId("share-link").first();
    expect(await share.textContent()).toContain("Calm bedroom");
    // The publication's share link, copied for a chat; its page opens from here.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await share.getByRole("button", { name: uiText("en", "publish.copyLink") }).click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`^${server.url}/s/pub_[a-z0-9]+$`));
    expect(await share.getByRole("link", { name: uiText("en", "socialHub.shares.open") }).getAttribute("href")).toMatch(/^\/s\/pub_/);
    expect(await page.getByTestId("following-list").count()).toBe(0);
    await screenshot(page, "social-hub-desktop-light-en");

    await page.goto(`${server.url}/p/ana-lima`);
    await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Ana Lima Interiors");
    expect(await page.getByTestId("portfolio-links").getByRole("link", { name: "Instagram" }).getAttribute("href")).toBe(
      "https://instagram.com/ana.lima",
    );
    expect(await page.getByTestId("portfolio-work").getByTestId("publication").textContent()).toContain("Calm bedroom");
    await screenshot(page, "portfolio-desktop-light-en");
    expect(problems).toEqual([]);
  });

  it("shows whom one follows, their portfolio and work in Spanish on a phone in dark, and stops following", async () => {
    const { page, problems } = await open("/", { width: 390, height: 844, colorScheme: "dark", locale: "es-ES" });
    await signIn(page, server.url, follower.email, { language: "es", to: "/social-hub" });
    const followed = page.getByTestId("following-list").getByRole("listitem").first();
    await poll(() => followed.textContent()).toContain("Ana Lima");
    await poll(() => page.getByTestId("following-feed").getByTestId("publication").count()).toBe(1);
    expect(await page.getByText(uiText("es", "socialHub.shares.empty")).isVisible()).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "social-hub-phone-dark-es");

    await followed.getByRole("link", { name: uiText("es", "socialHub.following.portfolio", { name: "Ana Lima" }) }).click();
    await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Ana Lima Interiors");
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "portfolio-phone-dark-es");
    await page.goBack();
    await followed.getByRole("button", { name: uiText("es", "socialHub.following.unfollow") }).click();
    await poll(() => page.getByText(uiText("es", "socialHub.following.empty")).isVisible()).toBe(true);

    // An address nobody has: the page says so (and the server answered 404).
    const response = await page.goto(`${server.url}/p/nadie-aqui`);
    expect(response?.status()).toBe(404);
    await poll(() => page.getByTestId("portfolio-gone").textContent()).toContain(uiText("es", "portfolioPage.notFound"));
    expect(problems.filter((problem) => !problem.includes("404"))).toEqual([]);
  });

  it("es, phone, dark: a style of one's own, rendered, published, seen signed out, liked and on the portfolio", async () => {
    const carla = await signedInClient(server.url);
    await carla.client.account.updateProfile.mutate({ fullName: "Carla Souza" });
    await carla.client.community.savePortfolio.mutate({ handle: "carla-souza", displayName: "Carla Souza" });
    const phone = { width: 390, height: 844, colorScheme: "dark", locale: "es-ES" } as const;
    const { page, problems } = await open("/", phone);
    await signIn(page, server.url, carla.email, { language: "es", to: "/styles" });
    await page.getByRole("button", { name: uiText("es", "customStyles.add") }).click();
    const dialog = page.getByRole("dialog", { name: uiText("es", "customStyles.addTitle") });
    await dialog.getByLabel(uiText("es", "customStyles.fields.name"), { exact: true }).fill("Riad");
    await dialog
      .getByLabel(uiText("es", "customStyles.fields.description"))
      .fill("Zellige tiles, carved cedar, brass lanterns, terracotta");
    await dialog.getByRole("button", { name: uiText("es", "customStyles.save") }).click();
    await poll(() => page.getByTestId("custom-style-card").count()).toBe(1);
    const [style] = (await carla.client.styles.list.query({ teamId: null })).styles;

    const sent = await upload(server.url, carla.jar, await roomPhoto(600, 450));
    await page.goto(`${server.url}/style-select?image=${sent.body.imageId}&project=${sent.body.projectId}`);
    await page.getByTestId(`style-${style!.id}`).click();
    await page.locator('button[type="submit"]').click();
    await poll(() => new URL(page.url()).pathname).toBe("/render");
    await waitForRender(page);
    const job = page.getByTestId("job-card").first();
    await poll(() => job.innerText()).toContain("Riad");

    await job.getByRole("button", { name: uiText("es", "publish.open") }).click();
    const publishing = page.getByRole("dialog", { name: uiText("es", "publish.title") });
    await publishing.getByLabel(uiText("es", "publish.titleLabel")).fill("Riad en casa");
    await publishing.getByRole("switch", { name: uiText("es", "publish.showName") }).click();
    await publishing.getByRole("button", { name: uiText("es", "publish.submit"), exact: true }).click();
    await poll(() => job.getByTestId("publish-panel").textContent()).toContain(
      uiText("es", "publish.published", { title: "Riad en casa" }),
    );
    await screenshot(page, "journey-published-phone-dark-es");

    // Signed out, /gallery shows it; signed in, another user likes it on /community.
    const visitor = await open("/", phone);
    await visitor.page.goto(`${server.url}/gallery`);
    await poll(() => visitor.page.getByTestId("publication").filter({ hasText: "Riad en casa" }).count()).toBe(1);
    expect(visitor.problems).toEqual([]);
    const reader = await open("/", phone);
    await signIn(reader.page, server.url, follower.email, { language: "es", to: "/community" });
    const card = reader.page.getByTestId("community-feed").getByTestId("publication").filter({ hasText: "Riad en casa" });
    await card.getByTestId("like").click();
    await poll(() => card.getByTestId("like").getAttribute("aria-pressed")).toBe("true");
    // Its author leads to the portfolio page, which shows it.
    await card.getByRole("link", { name: uiText("es", "community.byDesigner", { name: "Carla Souza" }) }).click();
    await poll(() => reader.page.getByRole("heading", { level: 1 }).textContent()).toBe("Carla Souza");
    await poll(() => reader.page.getByTestId("portfolio-work").textContent()).toContain("Riad en casa");
    expect(await fitsWidth(reader.page)).toBe(true);
    await screenshot(reader.page, "journey-portfolio-phone-dark-es");
    expect(reader.problems).toEqual([]);
    expect(problems).toEqual([]);
  });
});
