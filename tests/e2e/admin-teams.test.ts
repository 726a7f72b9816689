/**
 * /admin → Teams (issue 28) in a browser against the real server: an admin finds a team by a
 * member's address, reads its members and balance, adjusts its credits with a reason and sees the
 * new balance (English, desktop, light); the tab in Spanish on a phone in dark, with translated
 * role badges and nothing wider than the screen. Screenshots in tests/.artifacts/screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });

describeBrowser("/admin → Teams in a browser", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  let designer: Awaited<ReturnType<typeof signedInClient>>;
  let teamId: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    admin = await signedInClient(server.url);
    owner = await signedInClient(server.url);
    designer = await signedInClient(server.url, `designer-${Date.now().toString(36)}@lumen.example`);
    const db = server.deps.db;
    await db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    await db.updateTable("profiles").set({ full_name: "Marta Ruiz" }).where("user_id", "=", owner.userId).execute();
    await db.updateTable("profiles").set({ full_name: "Jon Arrieta" }).where("user_id", "=", designer.userId).execute();
    teamId = (await owner.client.teams.create.mutate({ name: "Atelier Lumen" })).id;
    await owner.client.teams.create.mutate({ name: "Casa Norte Interiors" });
    // Added the way an accepted invitation adds a member (the invitation flow has its own tests).
    await db
      .insertInto("team_members")
      .values({ team_id: teamId, user_id: designer.userId, role: "admin", monthly_cap: 120, joined_at: Date.now() })
      .execute();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);
  const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

  it("finds a team by a member's address and adjusts its credits (en, desktop, light)", async () => {
    const { page, problems } = await open("/", { width: 1366, height: 900 });
    await signIn(page, server.url, admin.email, { to: "/admin" });
    await page.getByRole("tab", { name: "Teams" }).click();
    await poll(() => new URL(page.url()).search).toBe("?section=teams");
    const teams = page.getByTestId("admin-team");
    await poll(() => teams.count()).toBe(2);

    await page.getByLabel("Search teams").fill(designer.email);
    await poll(() => teams.count()).toBe(1);
    const team = page.locator('[data-testid=admin-team][data-name="Atelier Lumen"]');
    expect(await team.getByTestId("admin-team-credits").textContent()).toBe("Balance: 0 credits");
    const members = team.getByTestId("admin-team-member");
    expect(await members.allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^Marta Ruiz\\s+${owner.email}\\s+Owner\\s+No cap$`)),
      expect.stringMatching(new RegExp(`^Jon Arrieta\\s+${designer.email}\\s+Admin\\s+120 credits$`)),
    ]);
    await screenshot(page, "admin-teams-desktop-light");

    await team.getByRole("button", { name: "Adjust the credits of Atelier Lumen" }).click();
    const dialog = page.getByRole("dialog", { name: "Adjust credits" });
    await poll(() => dialog.textContent()).toContain("Atelier Lumen has 0 credits.");
    // The same checks as a user's adjustment: not below zero, a reason required.
    await dialog.getByLabel("Credits to add or remove").fill("-5");
    await dialog.getByLabel("Reason").fill("Test");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await poll(() => dialog.getByRole("alert").textContent()).toBe("The balance cannot go below zero (it is 0).");
    await dialog.getByLabel("Credits to add or remove").fill("250");
    await dialog.getByLabel("Reason").fill("");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await poll(() => dialog.getByRole("alert").textContent()).toContain("Give a reason");
    await dialog.getByLabel("Reason").fill("Studio launch pack");
    await screenshot(page, "admin-teams-adjust-desktop-light");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await poll(() => toast(page, "Atelier Lumen now has 250 credits").isVisible()).toBe(true);
    await poll(() => team.getByTestId("admin-team-credits").textContent()).toBe("Balance: 250 credits");
    const balance = await server.deps.db.selectFrom("teams").select("credits_remaining").where("id", "=", teamId).executeTakeFirstOrThrow();
    expect(balance.credits_remaining).toBe(250);
    expect(problems).toEqual([]);
  });

  it("shows the tab in Spanish on a phone in dark, the layout within the screen", async () => {
    const { page, problems } = await open("/", { width: 390, height: 844, colorScheme: "dark" });
    await signIn(page, server.url, admin.email);
    await page.evaluate(() => localStorage.setItem("roomcanvas.language", "es"));
    await page.goto(`${server.url}/admin?section=teams`);
    await poll(() => page.getByRole("tab", { name: "Equipos", selected: true }).isVisible()).toBe(true);
    const team = page.locator('[data-testid=admin-team][data-name="Atelier Lumen"]');
    await poll(() => team.isVisible()).toBe(true);
    // On a phone each member is a small card (the desktop table is hidden).
    const cards = team.getByTestId("admin-team-member-card");
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(0).textContent()).toContain("Propietario");
    expect(await cards.nth(1).textContent()).toContain("Administrador");
    expect(await cards.nth(1).textContent()).toContain("Límite mensual: 120 créditos");
    expect(await team.getByTestId("admin-team-members").isVisible()).toBe(false);
    expect(await page.getByPlaceholder("Equipo o correo de un miembro").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "admin-teams-phone-dark-es");
    await team.getByRole("button", { name: "Ajustar los créditos de Atelier Lumen" }).click();
    await poll(() => page.getByRole("dialog", { name: "Ajustar créditos" }).isVisible()).toBe(true);
    await screenshot(page, "admin-teams-adjust-phone-dark-es");
    expect(problems).toEqual([]);
  });

  it("looks right in the other theme of each size (phone light in English, desktop dark in French)", async () => {
    for (const view of [
      { name: "phone-light-en", width: 390, height: 844, colorScheme: "light", language: "en", owner: "Owner" },
      { name: "desktop-dark-fr", width: 1366, height: 900, colorScheme: "dark", language: "fr", owner: "Propriétaire" },
    ] as const) {
      const { page, problems } = await open("/", { width: view.width, height: view.height, colorScheme: view.colorScheme });
      await signIn(page, server.url, admin.email);
      await page.evaluate((language) => localStorage.setItem("roomcanvas.language", language), view.language);
      await page.goto(`${server.url}/admin?section=teams`);
      const team = page.locator('[data-testid=admin-team][data-name="Atelier Lumen"]');
      await poll(() => team.isVisible()).toBe(true);
      await poll(() => team.innerText()).toContain(view.owner);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      await screenshot(page, `admin-teams-${view.name}`);
      expect(problems).toEqual([]);
    }
  });
});
