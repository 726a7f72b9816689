/**
 * /developers (issue 31, decision 094) in a browser. En, desktop, light: a key made with
 * credits:read is shown once in a dialog, the list then shows its prefix and never the secret, the
 * token read from the dialog calls /api/v1/credits (200) until it is revoked on the page (401).
 * Fr, phone, dark: the page in French, a key without a scope refused in French, and a team's Admin
 * offered the team's keys, a Member working in the team only their personal ones. Both: a webhook
 * endpoint registered on the page (its secret shown once), a test event sent, delivered to a receiver
 * on loopback and seen in the delivery log (decision 095); the key's requests in "Usage by day", and
 * the API reference (Swagger UI, bundled) shown from the served document with no request anywhere but
 * this server. Screenshots.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { describeBrowser, screenshot, signIn, signInWithForm, uiText, useBrowsers } from "../helpers/browser";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

describeBrowser("developers page", () => {
  let server: TestServer;
  let problems: string[] = [];
  /** A webhook receiver on loopback: the bodies it was sent. */
  const received: Array<{ type: string }> = [];
  let receiver: http.Server;
  let receiverUrl = "";

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        received.push(JSON.parse(body) as { type: string });
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", WEBHOOKS_ALLOW_LOOPBACK: "true" }, { webhooks: { pollMs: 50 } });
  });
  afterAll(async () => {
    await server.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** Registers the receiver on the page (texts of `language`), sends a test event and waits to see it delivered in the log. */
  async function registerAndTest(page: Page, language: "en" | "fr") {
    const text = (key: string) => uiText(language, `webhooks.${key}`);
    const before = received.length;
    await page.getByRole("button", { name: text("create") }).click();
    const form = page.getByRole("dialog", { name: text("createTitle") });
    await form.getByLabel(text("url")).fill(receiverUrl);
    // credits.low asks below how many credits; a figure that is not a whole number is refused on the page.
    await form.getByRole("checkbox", { name: /credits\.low/ }).check();
    const threshold = form.getByLabel(text("creditsLowBelow"));
    await threshold.fill("2.5");
    await form.getByRole("button", { name: text("createSubmit") }).click();
    await poll(() => form.innerText()).toContain(uiText(language, "serverMessages.webhookCreditsLowInvalid"));
    await screenshot(page, `developers-webhook-form-${language}`);
    await threshold.fill("25");
    await form.getByRole("button", { name: text("createSubmit") }).click();
    const shown = page.getByRole("dialog", { name: text("secretTitle") });
    await poll(() => shown.isVisible()).toBe(true);
    const secret = await shown.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await shown.getByRole("button", { name: text("done") }).click();
    await poll(() => shown.isVisible()).toBe(false);
    expect(await page.content()).not.toContain(secret);
    const hook = page.getByTestId("webhook");
    expect(await hook.getByTestId("webhook-url").textContent()).toBe(receiverUrl);
    expect(await hook.innerText()).toContain(uiText(language, "webhooks.creditsLowShown_other", { count: 25 }));
    await hook.getByRole("button", { name: text("sendTest") }).click();
    await poll(() => hook.getByTestId("webhook-delivery").first().innerText()).toContain(text("status.succeeded"));
    expect(received.slice(before).map((body) => body.type)).toEqual(["webhook.test"]);
    return hook;
  }
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  /** Opens the API reference: it shows the served document, and the page asks nothing of anyone but this server. */
  async function openReference(page: Page, shot: string, language: "en" | "fr" = "en") {
    const asked: string[] = [];
    page.on("request", (request) => asked.push(request.url()));
    await page.getByRole("button", { name: uiText(language, "developers.reference.show") }).click();
    const reference = page.getByTestId("api-reference");
    await poll(() => reference.getAttribute("data-ready")).toBe("true");
    await poll(() => reference.getByText("RoomCanvas API", { exact: false }).first().isVisible()).toBe(true);
    expect(await reference.getByText("/renders/{id}/cancel").first().isVisible()).toBe(true);
    expect(asked.filter((url) => !url.startsWith(`${server.url}/`))).toEqual([]);
    // Besides the viewer's own code (/assets/) and the app's usual calls (/trpc/), only the document.
    const own = (url: string) => url.startsWith(`${server.url}/assets/`) || url.startsWith(`${server.url}/trpc/`);
    expect(asked.filter((url) => !own(url))).toEqual([`${server.url}/api/v1/openapi.json`]);
    expect(asked.filter((url) => url.startsWith(`${server.url}/assets/SwaggerViewer-`)).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, shot);
  }

  const credits = (token: string) => fetch(`${server.url}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });

  it("creates a key shown once, lists only its prefix, and revoking it stops it at once (en, desktop, light)", async () => {
    const user = await signedInClient(server.url);
    let page: Page;
    ({ page, problems } = await launch({ width: 1366, height: 900, colorScheme: "light" }));
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await signIn(page, server.url, user.email, { to: "/developers" });
    await poll(() => page.getByRole("heading", { level: 1, name: "Developers" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "/api/v1/openapi.json" }).getAttribute("href")).toBe("/api/v1/openapi.json");
    expect(await page.getByTestId("curl-credits").textContent()).toBe(
      `curl -H "Authorization: Bearer <your key>" ${server.url}/api/v1/credits`,
    );
    expect(await page.getByTestId("usage-empty").textContent()).toBe("No requests in the last 30 days.");
    await poll(() => page.getByText("No keys yet. Create one to call the API.").isVisible()).toBe(true);

    await page.getByRole("button", { name: "Create key" }).click();
    const form = page.getByRole("dialog", { name: "Create an API key" });
    await form.getByLabel("Name").fill("Listing site");
    const creditsScope = form.getByRole("checkbox", { name: /credits:read/ });
    expect(await form.getByText("Read the credit balance and its history.").isVisible()).toBe(true);
    await creditsScope.check();
    await form.getByLabel("Expires").selectOption({ label: "In 30 days" });
    await form.getByRole("button", { name: "Create key" }).click();

    const shown = page.getByRole("dialog", { name: "Your new API key" });
    await poll(() => shown.isVisible()).toBe(true);
    expect(await shown.getByText("it will not be shown again").isVisible()).toBe(true);
    const token = await shown.getByTestId("new-key-token").inputValue();
    expect(token).toMatch(/^rck_[a-z0-9]{12}_[a-z0-9]{48}$/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await poll(() => shown.getByRole("button", { name: "Copied", exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, "developers-new-key-desktop-light");
    await shown.getByRole("button", { name: "I have copied it" }).click();
    await poll(() => shown.isVisible()).toBe(false);

    const card = page.getByTestId("api-key");
    await poll(() => card.count()).toBe(1);
    const secret = token.split("_")[2]!;
    const prefix = token.slice(0, token.lastIndexOf("_"));
    expect(await card.getByTestId("api-key-prefix").textContent()).toBe(`${prefix}…`);
    const listed = await card.innerText();
    expect(listed).toContain("Listing site");
    expect(listed).toContain("credits:read");
    expect(listed).toContain("Never used");
    expect(listed).toMatch(/Expires /);
    expect(await page.content()).not.toContain(secret);
    // Nothing kept it: a fresh load of the page has no trace of the secret either.
    await page.reload();
    await poll(() => card.count()).toBe(1);
    expect(await page.content()).not.toContain(secret);

    const ok = await credits(token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveProperty("balance");

    await card.getByRole("button", { name: "Revoke Listing site" }).click();
    const confirm = page.getByRole("alertdialog", { name: 'Revoke "Listing site"?' });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await poll(() => card.getAttribute("data-revoked")).toBe("true");
    expect(await card.getByText("Revoked", { exact: true }).isVisible()).toBe(true);
    expect(await card.getByRole("button", { name: /Revoke/ }).count()).toBe(0);
    expect((await credits(token)).status).toBe(401);
    await screenshot(page, "developers-keys-desktop-light");

    const hook = await registerAndTest(page, "en");
    expect(await hook.getByTestId("webhook-delivery").first().innerText()).toContain("webhook.test");
    await hook.scrollIntoViewIfNeeded();
    await screenshot(page, "developers-webhooks-desktop-light");
    // Usage by day: the key's one answered request (the refused one had no valid key: nobody's).
    await page.reload();
    const usage = page.getByTestId("usage");
    await poll(() => usage.getByTestId("usage-totals").isVisible()).toBe(true);
    expect(await usage.getByTestId("usage-totals").innerText()).toMatch(/Requests\s+1\s+Renders ordered\s+0\s+Refused \(4xx\)\s+0/);
    expect(await usage.getByRole("row", { name: /Listing site/ }).innerText()).toMatch(/Revoked\s+1\s+0\s+0\s+0/);
    expect(await usage.getByTestId("usage-chart").getByRole("listitem").count()).toBe(30);
    expect(await seriousViolations(page)).toEqual([]);
    await openReference(page, "developers-reference-desktop-light");
    // A long walk (keys, webhooks, usage, the reference): more than the default 20 s on a busy machine.
  });

  it("speaks French on a phone (dark): a key without a scope is refused, a team's Admin may choose the team, a Member may not", async () => {
    const owner = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Atelier Lumière" });
    const admin = await signedInClient(server.url);
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: admin.userId, role: "admin", monthly_cap: null, joined_at: Date.now() })
      .execute();
    const personal = await admin.client.developers.createKey.mutate({
      name: "Script perso",
      scopes: ["projects"],
      expiresInDays: null,
      teamId: null,
    });
    expect((await credits(personal.token)).status).toBe(403); // no credits:read: counted as refused

    let page: Page;
    ({ page, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "fr-FR" }));
    // Through the form, in the page's language.
    await signInWithForm(page, server.url, admin.email, { language: "fr" });
    await page.goto(`${server.url}/developers`);
    await poll(() => page.getByRole("heading", { level: 1, name: uiText("fr", "developers.title") }).isVisible()).toBe(true);
    await poll(() => page.getByTestId("api-key").count()).toBe(1);
    expect(await page.getByTestId("api-key").innerText()).toContain(uiText("fr", "developers.noExpiry"));
    expect(await page.getByTestId("curl-credits").textContent()).toContain(`Bearer <votre clé>`);
    await poll(() => page.getByTestId("usage-totals").isVisible()).toBe(true);
    expect(
      await page
        .getByTestId("usage-keys")
        .getByRole("row", { name: /Script perso/ })
        .innerText(),
    ).toMatch(/1\s+0\s+1\s+0/);
    const space = page.getByLabel(uiText("fr", "developers.keysFor"));
    expect(await space.locator("option").allTextContents()).toEqual([uiText("fr", "developers.personal"), "Atelier Lumière"]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "developers-page-fr-phone-dark");
    await registerAndTest(page, "fr");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByTestId("webhook").scrollIntoViewIfNeeded();
    await screenshot(page, "developers-webhooks-fr-phone-dark");
    await openReference(page, "developers-reference-fr-phone-dark", "fr");

    // The team's keys: none yet; a key without a scope is refused in French, nothing is made.
    await space.selectOption({ label: "Atelier Lumière" });
    await poll(() => page.getByText(uiText("fr", "developers.keysIntroTeam", { team: "Atelier Lumière" })).isVisible()).toBe(true);
    await poll(() => page.getByText(uiText("fr", "developers.empty")).isVisible()).toBe(true);
    await page.getByRole("button", { name: uiText("fr", "developers.create") }).click();
    const form = page.getByRole("dialog", { name: uiText("fr", "developers.createTitle") });
    expect(await form.getByText(uiText("fr", "developers.scopes.credits_read")).isVisible()).toBe(true);
    await form.getByLabel(uiText("fr", "developers.name")).fill("CRM de l'agence");
    await form.getByRole("button", { name: uiText("fr", "developers.createSubmit") }).click();
    await poll(() => form.getByText(uiText("fr", "serverMessages.apiKeyScopesRequired")).isVisible()).toBe(true);
    const box = await form.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, "developers-no-scope-fr-phone-dark");
    expect(await admin.client.developers.keys.query({ teamId: team.id })).toEqual([]);
    await admin.client.developers.createKey.mutate({ name: "Clé de l'équipe", scopes: ["projects"], expiresInDays: 7, teamId: team.id });

    // A Member working in the team sees their personal keys only: no team to choose, no team key.
    const member = await signedInClient(server.url);
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", monthly_cap: null, joined_at: Date.now() })
      .execute();
    await member.client.teams.switchSpace.mutate({ teamId: team.id });
    let memberPage: Page;
    ({ page: memberPage, problems } = await launch({ width: 390, height: 844, colorScheme: "dark", locale: "fr-FR" }));
    await signIn(memberPage, server.url, member.email, { language: "fr", to: "/developers" });
    await poll(() => memberPage.getByText(uiText("fr", "developers.empty")).isVisible()).toBe(true);
    expect(await memberPage.getByText(uiText("fr", "developers.keysIntroPersonal")).isVisible()).toBe(true);
    expect(await memberPage.getByLabel(uiText("fr", "developers.keysFor")).count()).toBe(0);
    // The page itself (the navigation may name the space the member works in).
    const developersPage = memberPage.getByRole("main");
    expect(await developersPage.getByText("Atelier Lumière").count()).toBe(0);
    expect(await developersPage.getByText("Clé de l'équipe").count()).toBe(0);
  });
});
