/**
 * Teams in a browser (issue 28) against the real server and a real SMTP server: an Owner creates a
 * team on /teams and invites an address by mail; a second browser opens the mailed link, signs up
 * with the address filled in, signs in, comes back to the invitation and joins; both see each other
 * in the member list (en, desktop 1366, light). In Spanish on a phone, dark: the team page and the
 * space switcher in the menu.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Language } from "../../src/shared/constants";
import { describeBrowser, screenshot, signIn, signUp, uiText as text, useBrowsers } from "../helpers/browser";
import { PASSWORD } from "../helpers/render";
import { seriousViolations } from "../helpers/axe";
import { startTestServer, type TestServer } from "../helpers/server";
import { firstLink, startSmtpServer } from "../helpers/smtp";

let counter = 0;
const newEmail = () => `team${++counter}.${Date.now()}@example.com`;
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

describeBrowser("teams in a browser", () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const { open } = useBrowsers(() => server.url);
  const toast = (page: Page, words: string) => page.locator("[data-sonner-toast]").filter({ hasText: words });
  const memberNames = (page: Page) =>
    page.getByTestId("team-member").evaluateAll((rows) => rows.map((row) => row.querySelector("p")?.textContent?.trim() ?? ""));

  async function createTeam(page: Page, language: Language, name: string): Promise<void> {
    await page.goto(`${server.url}/teams`);
    await page.getByLabel(text(language, "teamsPage.nameLabel")).fill(name);
    await page.getByRole("button", { name: text(language, "teamsPage.create") }).click();
    await expect.poll(() => page.getByTestId("team-name").textContent()).toBe(name);
  }

  it("an Owner creates a team and invites by mail; the invited person signs up from the link and joins; both see each other", async () => {
    const ownerEmail = await signUp(server.url, { fullName: "Olga Owner" });
    const { page: owner, problems: ownerProblems } = await open("/", { ...DESKTOP, colorScheme: "light" });
    await signIn(owner, server.url, ownerEmail);
    await createTeam(owner, "en", "Casa Nova");
    await expect.poll(() => toast(owner, "Team Casa Nova created").isVisible()).toBe(true);
    // The switcher in the bar says where the user works now.
    await expect.poll(() => owner.getByTestId("space-switcher").textContent()).toContain("Casa Nova");

    const beaEmail = newEmail();
    await owner.getByLabel("E-mail address").fill(beaEmail);
    await owner.getByLabel("Role", { exact: true }).selectOption("admin");
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await expect.poll(() => toast(owner, `Invitation mailed to ${beaEmail}`).isVisible()).toBe(true);
    await expect.poll(() => owner.getByTestId("team-invitation").textContent()).toContain(beaEmail);
    await screenshot(owner, "teams-owner-invited-desktop-light");

    const mail = await smtp.waitForMail(beaEmail);
    expect(mail.subject).toBe("Join Casa Nova on RoomCanvas");
    const link = firstLink(mail.text);
    // The token is in the query: the access log keeps paths only.
    expect(new URL(link).pathname).toBe("/invite");
    expect(new URL(link).searchParams.get("token")).toMatch(/^\w{48}$/);

    // A second browser, no account yet: the invitation, then sign up with the address filled in.
    const { page: bea, problems: beaProblems } = await open(link, { ...DESKTOP, colorScheme: "light" });
    await expect.poll(() => bea.getByTestId("invite-pending").isVisible()).toBe(true);
    expect(await bea.getByRole("heading", { level: 1 }).textContent()).toBe("Join Casa Nova");
    expect(await bea.getByTestId("invite-pending").textContent()).toContain("Olga Owner invites you to join the team Casa Nova as Admin.");
    await screenshot(bea, "teams-invite-signed-out-desktop-light");
    expect(await seriousViolations(bea)).toEqual([]);
    await bea.getByRole("button", { name: "Create an account" }).click();
    await expect.poll(() => new URL(bea.url()).pathname).toBe("/auth");
    await expect.poll(() => bea.getByLabel("Email").inputValue()).toBe(beaEmail);
    await bea.getByLabel("Full Name").fill("Bea Lopes");
    await bea.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await bea.getByRole("button", { name: "Create Account" }).click();
    // Signing in is the next step, with the address kept; then back to the invitation.
    await expect.poll(() => bea.getByRole("button", { name: "Sign In", exact: true }).isVisible()).toBe(true);
    expect(await bea.getByLabel("Email").inputValue()).toBe(beaEmail);
    await bea.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await bea.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect.poll(() => bea.url()).toBe(link);
    await bea.getByRole("button", { name: "Join team" }).click();
    await expect.poll(() => toast(bea, "You joined Casa Nova").isVisible()).toBe(true);
    await expect.poll(() => new URL(bea.url()).pathname + new URL(bea.url()).search).toMatch(/^\/teams\?team=/);
    await expect.poll(() => memberNames(bea)).toEqual(["Olga Owner", "Bea Lopes(you)"]);
    await expect.poll(() => bea.getByTestId("space-switcher").textContent()).toContain("Casa Nova");
    await screenshot(bea, "teams-member-joined-desktop-light");

    // The link is spent.
    await bea.goto(link);
    await expect.poll(() => bea.getByTestId("invite-closed").textContent()).toContain("This invitation has already been used.");

    await owner.reload();
    await expect.poll(() => memberNames(owner)).toEqual(["Olga Owner(you)", "Bea Lopes"]);
    expect(await owner.getByTestId("team-invitations").textContent()).toContain("No invitation is pending.");
    await expect.poll(() => owner.getByTestId("team-activity").textContent()).toContain("Bea Lopes joined the team as Admin");
    await expect.poll(() => owner.getByTestId("space-switcher").isVisible()).toBe(true);
    await screenshot(owner, "teams-owner-sees-member-desktop-light");
    expect(await seriousViolations(owner)).toEqual([]);

    // Handing the team over is confirmed first; cancelling changes nothing.
    await owner.getByRole("button", { name: "Make Owner" }).click();
    const dialog = owner.getByRole("alertdialog");
    await expect.poll(() => dialog.getByRole("heading").textContent()).toBe("Make Bea Lopes the Owner?");
    expect(await dialog.textContent()).toContain("you become an Admin");
    await screenshot(owner, "teams-transfer-confirm-desktop-light");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await owner.getByTestId("team-member").first().textContent()).toContain("Owner");
    expect(ownerProblems).toEqual([]);
    expect(beaProblems).toEqual([]);
  });

  it("es, phone, dark: the team page and the space switcher in the menu", async () => {
    const email = await signUp(server.url, { fullName: "Lucía Prieto" });
    const { page, problems } = await open("/", { ...PHONE, colorScheme: "dark", locale: "es-ES" });
    await signIn(page, server.url, email, { language: "es" });
    await createTeam(page, "es", "Estudio Sol");
    await page.getByLabel(text("es", "teamsPage.inviteEmail")).fill(newEmail());
    await page.getByRole("button", { name: text("es", "teamsPage.invite"), exact: true }).click();
    await expect.poll(() => page.getByTestId("team-invitation").count()).toBe(1);
    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "teams-page-phone-dark-es");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Abrir menú" }).click();
    const switcher = page.locator("#mobile-menu").getByTestId("space-switcher");
    await expect.poll(() => switcher.textContent()).toContain("Estudio Sol");
    await switcher.click();
    await expect.poll(() => page.getByRole("menuitem", { name: text("es", "spaceSwitcher.personal") }).isVisible()).toBe(true);
    await screenshot(page, "teams-switcher-phone-dark-es");
    await page.getByRole("menuitem", { name: text("es", "spaceSwitcher.personal") }).click();
    await expect.poll(() => toast(page, text("es", "spaceSwitcher.switched", { name: "Personal" })).isVisible()).toBe(true);
    await expect.poll(() => switcher.textContent()).toContain("Personal");
    await page.getByRole("button", { name: text("es", "nav.closeMenu") }).click();

    // Deleting says first what goes with the team, then takes the Owner back to their teams.
    await page.getByRole("button", { name: text("es", "teamsPage.deleteConfirm") }).click();
    const dialog = page.getByRole("alertdialog");
    await expect.poll(() => dialog.getByRole("heading").textContent()).toBe(text("es", "teamsPage.deleteTitle", { name: "Estudio Sol" }));
    expect(await dialog.textContent()).toContain(text("es", "teamsPage.deleteText_other", { name: "Estudio Sol", formatted: "0" }));
    await screenshot(page, "teams-delete-confirm-phone-dark-es");
    await dialog.getByRole("button", { name: text("es", "teamsPage.deleteConfirm") }).click();
    await expect.poll(() => toast(page, text("es", "teamsPage.deleted", { name: "Estudio Sol" })).isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe("/teams");
    await expect.poll(() => page.getByTestId("team-list").textContent()).toContain(text("es", "teamsPage.noTeams"));
    expect(problems).toEqual([]);
  });
});
