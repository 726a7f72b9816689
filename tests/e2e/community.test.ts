/**
 * The community hub in a browser (issue 32, decision 102), kept short: a render published over the
 * API; in Spanish on a phone in dark, /community shows it, saves it and reports it; in English on a
 * desktop in light, an admin sees the report in /admin → Community and hides the picture, which
 * leaves /gallery at once. The publishing dialog and a like are in render-flow.test.ts.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signIn, uiText, useBrowsers } from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

describeBrowser("the community hub in a browser", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  let reader: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    const ana = await signedInClient(server.url);
    [admin, reader] = [await signedInClient(server.url), await signedInClient(server.url)];
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    const uploaded = await upload(server.url, ana.jar, await roomPhoto(600, 450));
    const { jobs } = await ana.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    await waitForRenders(ana, [jobs[0]!.id]);
    await ana.client.community.publish.mutate({ jobId: jobs[0]!.id, title: "Calm bedroom", layout: "before-after", showName: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);
  const card = (page: Page) => page.getByTestId("community-feed").getByTestId("publication").first();

  it("saves and reports in Spanish on a phone in dark; an admin hides it in English on a desktop in light", async () => {
    const phone = await open("/", { width: 390, height: 844, colorScheme: "dark", locale: "es-ES" });
    await signIn(phone.page, server.url, reader.email, { language: "es", to: "/community" });
    await poll(() => card(phone.page).textContent()).toContain("Calm bedroom");
    expect(await card(phone.page).getByTestId("publication-author").textContent()).toBe(
      uiText("es", "community.byDesigner", { name: "Ana Lima" }),
    );
    await card(phone.page)
      .getByRole("button", { name: uiText("es", "community.save") })
      .click();
    await poll(() =>
      card(phone.page)
        .getByRole("button", { name: uiText("es", "community.saved") })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    await phone.page.getByLabel(uiText("es", "community.view")).selectOption("saved");
    await poll(() => card(phone.page).textContent()).toContain("Calm bedroom");
    await card(phone.page)
      .getByRole("button", { name: uiText("es", "community.report") })
      .click();
    const dialog = phone.page.getByRole("dialog", { name: uiText("es", "community.reportTitle") });
    await dialog.getByLabel(uiText("es", "community.reasons.offensive")).check();
    await dialog.getByRole("button", { name: uiText("es", "community.reportSubmit") }).click();
    await poll(() =>
      phone.page
        .locator("[data-sonner-toast]")
        .filter({ hasText: uiText("es", "community.reported") })
        .count(),
    ).toBe(1);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone.page, "community-phone-dark-es");
    expect(phone.problems).toEqual([]);
    await phone.browser.close();

    const desktop = await open("/", { width: 1280, height: 800, colorScheme: "light", locale: "en-US" });
    await signIn(desktop.page, server.url, admin.email, { to: "/admin?section=community" });
    const report = desktop.page.getByTestId("community-report").first();
    await poll(() => report.textContent()).toContain("Offensive or inappropriate");
    expect(await report.textContent()).toContain(`Reported by ${reader.email}`);
    await screenshot(desktop.page, "admin-community-desktop-light-en");
    await report.getByRole("button", { name: "Hide picture" }).click();
    await poll(() => desktop.page.getByText("No open reports.").isVisible()).toBe(true);
    await poll(() => desktop.page.getByRole("region", { name: "Hidden pictures" }).textContent()).toContain("Calm bedroom");
    await desktop.page.goto(`${server.url}/gallery`);
    await poll(() => desktop.page.getByRole("region", { name: "Shared by users" }).textContent()).toContain(
      uiText("en", "gallery.sharedEmpty"),
    );
    expect(desktop.problems).toEqual([]);
  });
});
