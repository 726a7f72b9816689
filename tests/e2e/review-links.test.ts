/**
 * Client review links in browsers against the real server (Preview engine): the designer (English,
 * desktop 1366, light) makes a link with the "Draft" watermark on the project's page; the client
 * opens it in a fresh browser without cookies (Spanish, phone 390, dark), gives their name, comments
 * and approves; the designer's page shows both live (server-sent events, no reload). No analytics
 * leave the client's page. Screenshots of both sides.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { seriousViolations } from "../helpers/axe";
import { startTestServer, type TestServer } from "../helpers/server";
import { formatLength } from "../../src/shared/measures";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const es = translations.es as { review: { page: Record<string, string>; state: Record<string, string> } };
const en = translations.en as { review: { panel: Record<string, string>; state: Record<string, string> } };

const picturesLoaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((images) => images.length > 0 && images.every((image) => (image as HTMLImageElement).naturalWidth > 0));

describeBrowser("client review links", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { launch } = useBrowsers();

  it("the designer makes a link; the client comments and approves without an account; the studio sees both live", async () => {
    // A project with a finished render, made over the API as the designer.
    const designer = await signedInClient(server.url);
    const project = await designer.client.projects.create.mutate({ name: "Casa Lumen" });
    const uploaded = await upload(server.url, designer.jar, await roomPhoto(1200, 900), { projectId: project.id });
    const { jobs } = await designer.client.render.create.mutate({
      projectId: project.id,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    await waitForRenders(designer, [jobs[0]!.id]);
    // A length measured with AR in the project's room (decision 092): the client's page lists it.
    await designer.client.measures.addAr.mutate({
      projectId: project.id,
      a: { x: -1.6, y: 0, z: -2 },
      b: { x: 1.6, y: 0, z: -2 },
      label: "Pared de la ventana",
    });

    const studio = await launch({ ...DESKTOP, colorScheme: "light" });
    await signIn(studio.page, server.url, designer.email, { to: `/dashboard?project=${project.id}` });
    const panel = studio.page.getByTestId("review-links-panel");
    await panel.getByRole("button", { name: en.review.panel.create }).click();
    await panel.getByLabel(en.review.panel.label!).fill("For Marta");
    await panel.getByRole("checkbox", { name: en.review.panel.watermark }).check();
    await screenshot(studio.page, "review-panel-form-desktop-light");
    await panel.getByRole("button", { name: en.review.panel.make }).click();
    const url = await (async () => {
      await poll(() => panel.getByTestId("review-made-url").isVisible()).toBe(true);
      return panel.getByTestId("review-made-url").inputValue();
    })();
    expect(url).toMatch(new RegExp(`^${server.url}/review/[a-z2-7]{24}$`));
    const studioPicture = panel.getByTestId("review-link-picture");
    await poll(() => studioPicture.getByTestId("review-state").first().getAttribute("data-state")).toBe("awaiting");
    await screenshot(studio.page, "review-panel-made-desktop-light");

    // The client: a fresh browser, no account, in Spanish on a phone in the dark.
    const client = await launch({ ...PHONE, colorScheme: "dark", locale: "es-ES" });
    const analytics: string[] = [];
    client.page.on("request", (request) => {
      // The analytics code may load with the app; no event may be sent.
      if (request.url().includes("/trpc/analytics")) analytics.push(request.url());
    });
    const response = await client.page.goto(url);
    expect(response?.status()).toBe(200);
    await poll(() => client.page.getByRole("heading", { level: 1 }).textContent()).toBe("For Marta");
    await poll(() => picturesLoaded(client.page, "[data-testid=review-picture] img")).toBe(true);
    expect(await client.page.getByTestId("review-state").first().textContent()).toBe(es.review.state.awaiting);
    expect(await client.page.getByTestId("ar-measure").allTextContents()).toEqual([`Pared de la ventana${formatLength(320, "es")}`]);
    await screenshot(client.page, "review-client-draft-phone-dark");
    expect(await seriousViolations(client.page)).toEqual([]);

    await client.page.getByLabel(es.review.page.nameLabel!).fill("Marta");
    await client.page.getByRole("button", { name: es.review.page.nameSave }).click();
    await poll(() => client.page.getByTestId("review-author").textContent()).toContain("Marta");
    const comment = "¿Podemos probar un sofá verde? <b>gracias</b>";
    await client.page.getByLabel(es.review.page.commentLabel!).fill(comment);
    await client.page.getByRole("button", { name: es.review.page.send }).click();
    await poll(() => client.page.getByTestId("review-comment").first().textContent()).toContain(comment);

    // Live on the studio's page, without a reload: the comment (as text, not markup).
    await poll(() => studioPicture.getByTestId("review-comment").first().textContent()).toContain(comment);
    expect(await panel.locator("b").count()).toBe(0);

    await client.page.getByRole("button", { name: es.review.page.approve, exact: true }).click();
    await poll(() => client.page.getByTestId("review-state").first().getAttribute("data-state")).toBe("approved");
    expect(await client.page.getByTestId("review-state").first().textContent()).toBe(es.review.state.approved);
    await poll(() => picturesLoaded(client.page, "[data-testid=review-picture] img")).toBe(true);
    // No horizontal scrolling on a phone.
    expect(await client.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(client.page, "review-client-approved-phone-dark");

    await poll(() => studioPicture.getByTestId("review-state").first().getAttribute("data-state")).toBe("approved");
    expect(await studioPicture.getByTestId("review-decision").first().textContent()).toContain("Marta");
    await screenshot(studio.page, "review-panel-live-desktop-light");
    expect(await seriousViolations(studio.page)).toEqual([]);

    // Leaving the page sends what analytics queued (and the page views noted before it loaded): nothing here.
    await client.page.evaluate(() => window.dispatchEvent(new Event("pagehide")));
    // The name stays on the client's device; nothing was tracked, and no cookie was set.
    await client.page.reload();
    await poll(() => client.page.getByTestId("review-author").textContent()).toContain("Marta");
    expect(await client.page.context().cookies()).toEqual([]);
    expect(analytics).toEqual([]);

    // Revoked: the link answers 404 and the page says it is no longer available.
    await panel.getByRole("button", { name: en.review.panel.revoke }).click();
    await studio.page.getByRole("alertdialog").getByRole("button", { name: en.review.panel.revoke }).click();
    // (While the dialog is open the panel is hidden from the accessibility tree: wait for the link's own word.)
    await poll(() => panel.getByTestId("review-link").first().textContent()).toContain(en.review.panel.revoked);
    const gone = await client.page.goto(url);
    expect(gone?.status()).toBe(404);
    await poll(() => client.page.getByTestId("review-gone").textContent()).toContain(es.review.page.goneTitle);
    await screenshot(client.page, "review-client-gone-phone-dark");
    expect(studio.problems).toEqual([]);
    expect(client.problems.filter((problem) => !problem.includes("404"))).toEqual([]);
  });
});
