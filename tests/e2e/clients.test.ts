/**
 * /clients (issue 28, decision 072) in a browser: a client with a bad phone gets the spec's message
 * under the field, and once fixed is listed (en, desktop, light); the page on a phone in Spanish
 * (dark), for who keeps the clients and for a team's Member (a note, no details). Screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { MESSAGES } from "../../src/shared/messages";
import { describeBrowser, screenshot, signIn, signInWithForm, useBrowsers } from "../helpers/browser";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });
const es = translations.es as unknown as {
  clients: { title: string; add: string; save: string; memberNote: string; fields: Record<string, string>; optional: string };
  serverMessages: Record<string, string>;
};

describeBrowser("clients page", () => {
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

  it("says what is wrong with a phone, takes the fixed one and lists the client (en, desktop, light)", async () => {
    const user = await signedInClient(server.url);
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await signIn(page, server.url, user.email, { to: "/clients" });
    await poll(() => page.getByRole("heading", { level: 1, name: "Clients" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Add client" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a client" });
    await dialog.getByLabel("Name", { exact: true }).fill("Marta Ruiz");
    await dialog.getByLabel("E-mail (optional)").fill("marta@example.com");
    const phone = dialog.getByLabel("Phone (optional)");
    await phone.fill("555-CALL-NOW");
    await dialog.getByLabel("Address (optional)").fill("Calle Mayor 1, Madrid");
    await dialog.getByLabel("Notes (optional)").fill("Gate code 4411.\nPrefers mornings.");
    await dialog.getByRole("button", { name: "Save client" }).click();
    await poll(() => dialog.getByText(MESSAGES.clientPhoneInvalid).isVisible()).toBe(true);
    expect(await phone.getAttribute("aria-invalid")).toBe("true");
    await phone.fill("555 0101");
    await dialog.getByRole("button", { name: "Save client" }).click();
    await poll(() => dialog.getByText(MESSAGES.clientPhoneLength).isVisible()).toBe(true);
    expect((await user.client.clients.list.query()).clients).toEqual([]);
    await screenshot(page, "clients-bad-phone-desktop-light");

    await phone.fill("+34 91 555 0101");
    await dialog.getByRole("button", { name: "Save client" }).click();
    await poll(() => dialog.isVisible()).toBe(false);
    const card = page.getByTestId("client-card");
    await poll(() => card.count()).toBe(1);
    const shown = await card.innerText();
    for (const text of [
      "Marta Ruiz",
      "marta@example.com",
      "+34 91 555 0101",
      "Calle Mayor 1, Madrid",
      "Gate code 4411.\nPrefers mornings.",
    ]) {
      expect(shown).toContain(text);
    }
    expect((await user.client.clients.list.query()).clients).toMatchObject([{ name: "Marta Ruiz", phone: "+34 91 555 0101" }]);
    await screenshot(page, "clients-listed-desktop-light");
  });

  it("shows the page in Spanish on a phone (dark): the clients, an error in Spanish, and a Member's note", async () => {
    const owner = await signedInClient(server.url);
    await owner.client.clients.create.mutate({
      name: "Lucía Fernández Ortega",
      email: "lucia.fernandez@example.es",
      phone: "+34 (93) 555-0199",
      address: "Passeig de Gràcia 92, 08008 Barcelona",
      notes: "Reforma integral del salón. Llamar por la tarde.",
    });
    await owner.client.clients.create.mutate({ name: "Estudio Norte", phone: "600 123 456" });

    let page: Page;
    ({ page, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "es-ES" }));
    // Through the form, in the page's language.
    await signInWithForm(page, server.url, owner.email, { language: "es" });
    await page.goto(`${server.url}/clients`);
    await poll(() => page.getByTestId("client-card").count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "clients-page-es-phone-dark");

    await page.getByRole("button", { name: es.clients.add }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(`${es.clients.fields.phone} (${es.clients.optional})`).fill("12345");
    await dialog.getByRole("button", { name: es.clients.save }).click();
    await poll(() => dialog.getByText(es.serverMessages.clientNameRequired!).isVisible()).toBe(true);
    expect(await dialog.getByText(es.serverMessages.clientPhoneLength!).isVisible()).toBe(true);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, "clients-form-errors-es-phone-dark");
    await page.keyboard.press("Escape");

    // A Member of a team: the note, and no client at all on the page.
    const team = await owner.client.teams.create.mutate({ name: "Estudio Casa" });
    await owner.client.clients.create.mutate({ name: "Cliente Secreto", phone: "+34 600 000 000" });
    const member = await signedInClient(server.url);
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", monthly_cap: null, joined_at: Date.now() })
      .execute();
    await member.client.teams.switchSpace.mutate({ teamId: team.id });
    let memberPage: Page;
    ({ page: memberPage, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "es-ES" }));
    await signIn(memberPage, server.url, member.email, { language: "es", to: "/clients" });
    await poll(() => memberPage.getByText(es.clients.memberNote).isVisible()).toBe(true);
    expect(await memberPage.getByText("Cliente Secreto").count()).toBe(0);
    expect(await memberPage.getByRole("button", { name: es.clients.add }).count()).toBe(0);
    await screenshot(memberPage, "clients-member-es-phone-dark");
  });
});
