/**
 * Administration in a browser against the real server: the Quick Admin bar (absent for a visitor,
 * "Access denied" under a non-admin's footer control, the system self-tests for an admin, every item passing and the
 * "Testing Complete" toast), /admin (users, adjusting credits, the other sections and charts),
 * /pricing and /performance, with screenshots in light and dark on a phone and a desktop; payments
 * held for review (issue 14): the alert above every tab, "Credit anyway" and "Dismiss".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { backupKeyId } from "../../src/server/backup/archive";
import { describeBrowser, screenshot, signIn, useBrowsers, requestsOf } from "../helpers/browser";
import { postStripeWebhook, startFakeStripe, stripeEvent, type FakeCheckoutSession, type FakeStripe } from "../helpers/fake-stripe";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 10_000, ...options });
const ACCESS_DENIED = "Access denied. Admin privileges required.";

describeBrowser("administration in a browser", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  let member: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    // A Stripe key that is never used (no package is bought here): purchases count as set up, so
    // the purchase-credits self-test passes; the API URL points nowhere.
    server = await startTestServer({
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      STRIPE_SECRET_KEY: "sk_test_selftest",
      STRIPE_API_URL: "http://127.0.0.1:9",
      BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rc-admin-backups-")),
    });
    // The schedule takes its first backup a minute after start, and this file's tests before the
    // backup test can take longer than that on a busy machine: that test starts from no backup, so
    // the schedule stops here (tests/integration/backups.test.ts tests it).
    await server.services.backups.stop();
    admin = await signedInClient(server.url);
    member = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    // Two real renders with the Preview engine, so the jobs list, the charts and /performance have data.
    const uploaded = await upload(server.url, member.jar, await roomPhoto());
    const { jobs } = await member.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: ["modern", "japandi"],
    });
    const jobIds = jobs.map((job) => job.id);
    await waitForRenders(member, jobIds);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  const path_ = (page: Page) => new URL(page.url()).pathname;
  const bar = (page: Page) => page.getByTestId("quick-admin-bar");
  const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

  it("shows no bar to a visitor, and 'Access denied' under the footer's control and on /admin to a signed-in non-admin", async () => {
    const { page, problems } = await open("/");
    const requests = requestsOf(page);
    await poll(() => page.getByRole("link", { name: "Try Without Signup" }).first().isVisible()).toBe(true);
    expect(await bar(page).count()).toBe(0);

    await signIn(page, server.url, member.email);
    // A non-admin has the bar's shell as one small control in the footer (issue 27; quick-admin-shell.test.ts).
    const control = page.getByTestId("quick-admin-control");
    await poll(() => control.count()).toBe(1);
    expect(await bar(page).count()).toBe(0);
    await control.click();
    await poll(() => page.getByTestId("quick-admin-panel").textContent()).toContain(ACCESS_DENIED);
    await screenshot(page, "quick-admin-denied");

    await page.goto(`${server.url}/admin`);
    await poll(() => page.getByTestId("access-denied").first().textContent()).toBe(ACCESS_DENIED);
    expect(await page.getByRole("tab", { name: "Users" }).count()).toBe(0);
    await screenshot(page, "admin-denied");

    // Signing out removes the control. (Once the page's requests are answered: one still on its way
    // when the session ends is answered 401, which the browser logs, as it would for a user.)
    await requests.quiet();
    await page.getByRole("button", { name: "Sign Out" }).first().click();
    await poll(() => control.count()).toBe(0);
    // The refused admin page logs its 403s; nothing else may fail.
    expect(problems.filter((problem) => !/status of 403/.test(problem))).toEqual([]);
  });

  it("runs the system self-tests from the Quick Admin bar for an admin: every item passes but Backups (none taken yet: a warning), then 'Testing Complete', with a console free of the refusals it asks for", async () => {
    const { page, problems } = await open("/");
    await signIn(page, server.url, admin.email);
    await bar(page).getByRole("button", { name: "Quick System Testing" }).click();
    const panel = page.getByTestId("quick-admin-panel");
    await poll(() => panel.getByRole("tab", { name: "System Tests" }).isVisible()).toBe(true);
    expect(await panel.getByRole("tab", { name: "Auth Tests" }).isVisible()).toBe(true);
    // Before the run every item waits.
    const items = panel.locator("[data-testid=self-test-item]:visible");
    await poll(() => items.count()).toBeGreaterThan(5);
    const total = await items.count();
    expect(await panel.locator("[data-testid=self-test-item][data-status=pending]:visible").count()).toBe(total);

    await panel.getByRole("button", { name: "Run System Tests" }).click();
    await poll(() => panel.locator("[data-testid=self-test-item][data-status=running]:visible").count()).toBe(1);
    await poll(() => toast(page, "Testing Complete").isVisible(), { timeout: 90_000 }).toBe(true);
    const statuses = await items.evaluateAll((elements) =>
      elements.map((element) => `${element.textContent} → ${element.getAttribute("data-status")}`),
    );
    // No backup was ever taken (the backups test below takes the first): a warning, not "Passed".
    expect(
      statuses.filter((status) => !status.endsWith("passed")),
      statuses.join("\n"),
    ).toEqual([expect.stringMatching(/^Backups.*no backup yet.* → warning$/)]);
    expect(statuses).toHaveLength(total);
    await poll(() => panel.getByTestId("system-summary").textContent()).toBe(`${total - 1} passed, 1 with a warning, 0 failed`);
    await screenshot(page, "quick-admin-system-tests");

    // The run is in the history on /admin.
    await bar(page).getByRole("link", { name: "Full Admin Dashboard" }).click();
    await poll(() => path_(page)).toBe("/admin");
    await page.getByRole("tab", { name: "Self-test history" }).click();
    await poll(() => page.getByTestId("self-test-run").count()).toBe(1);
    // The recorded run keeps its warning: never "12 passed, 0 failed".
    expect(await page.getByTestId("self-test-run").textContent()).toContain(`${total - 1} passed, 1 with a warning, 0 failed`);
    // The checks ask for refusals on purpose (a visitor, a missing project, a removed image, a
    // request without fields); those answers are read, not logged: the console stays clean.
    expect(problems).toEqual([]);
  });

  it("lets an admin find a user on /admin and adjust their credits with a reason", async () => {
    const { page, problems } = await open("/");
    await signIn(page, server.url, admin.email, { to: "/admin" });
    for (const name of ["Users", "Render jobs", "Mail outbox", "System status", "Self-test history", "Analytics"]) {
      await poll(() => page.getByRole("tab", { name }).isVisible()).toBe(true);
    }
    const users = page.getByTestId("admin-user");
    await poll(() => users.count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel("Search users").fill(member.email);
    await poll(() => users.count()).toBe(1);
    const row = page.locator(`[data-testid=admin-user][data-email="${member.email}"]`);
    expect(await row.getByTestId("admin-user-credits").textContent()).toBe("8 credits");

    await row.getByRole("button", { name: `Actions for ${member.email}` }).click();
    await page.getByRole("menuitem", { name: "Adjust credits" }).click();
    const dialog = page.getByRole("dialog", { name: "Adjust credits" });
    await dialog.getByLabel("Credits to add or remove").fill("15");
    // A reason is required.
    await dialog.getByRole("button", { name: "Apply" }).click();
    await poll(() => dialog.getByRole("alert").textContent()).toContain("Give a reason");
    await dialog.getByLabel("Reason").fill("Goodwill after a failed batch");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await poll(() => toast(page, `${member.email} now has 23 credits`).isVisible()).toBe(true);
    await poll(() => row.getByTestId("admin-user-credits").textContent()).toBe("23 credits");
    expect(await member.client.render.allowance.query().then((allowance) => allowance.credits)).toBe(23);

    // The other sections answer.
    await page.getByRole("tab", { name: "System status" }).click();
    await poll(() => page.getByTestId("system-version").isVisible()).toBe(true);
    await page.getByRole("tab", { name: "Mail outbox" }).click();
    await poll(() => page.getByTestId("admin-outbox").isVisible()).toBe(true);
    await page.getByRole("tab", { name: "Render jobs" }).click();
    await poll(() => page.getByTestId("admin-jobs").isVisible()).toBe(true);
    await page.getByRole("tab", { name: "Analytics" }).click();
    await poll(() => page.getByTestId("chart-renders").isVisible()).toBe(true);
    expect(await page.getByTestId("conversion").textContent()).toContain("Conversion to purchase");
    expect(new URL(page.url()).searchParams.get("section")).toBe("analytics");
    expect(problems).toEqual([]);
  });

  it("sends analytics events to the server (navigation and page load), and none once switched off", async () => {
    const { page, problems } = await open("/");
    await signIn(page, server.url, member.email);
    const count = async () =>
      Number(
        (
          await server.deps.db
            .selectFrom("analytics_events")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Hiding the page sends what waits.
    await page.goto(`${server.url}/pricing`);
    await poll(() => page.getByTestId("packages").isVisible()).toBe(true);
    await page.goto(`${server.url}/performance`);
    // Earlier pages' batches may land first: wait for the one that holds /pricing.
    const navigationLabels = async () =>
      (await server.deps.db.selectFrom("analytics_events").select("label").where("category", "=", "navigation").execute()).map(
        (event) => event.label,
      );
    await poll(() => navigationLabels()).toContain("/pricing");

    await page.goto(`${server.url}/settings`);
    const toggle = page.getByRole("switch", { name: "Share usage analytics" });
    await poll(() => toggle.getAttribute("aria-checked")).toBe("true");
    await toggle.click();
    await poll(() => toggle.getAttribute("aria-checked")).toBe("false");
    expect(await page.evaluate(() => localStorage.getItem("roomcanvas.analyticsEnabled"))).toBe("false");
    await screenshot(page, "settings-analytics");
    const before = await count();
    await page.goto(`${server.url}/pricing`);
    await poll(() => page.getByTestId("packages").isVisible()).toBe(true);
    await page.goto(`${server.url}/performance`);
    await page.waitForTimeout(500);
    expect(await count()).toBe(before);
    expect(problems).toEqual([]);
  });

  it("backs up from /admin's System tab: Back up now, then the last backup with its size and age (desktop light, phone dark)", async () => {
    const { browser, page, problems } = await open("/");
    await signIn(page, server.url, admin.email, { to: "/admin?section=system" });
    const panel = page.getByTestId("admin-backups");
    await poll(() => panel.getByTestId("backup-last").textContent()).toBe("No backup has been taken yet.");
    expect(await panel.getByTestId("backup-schedule").textContent()).toBe(
      `Every 1 day into ${server.deps.env.BACKUP_DIR}, keeping the newest 7`,
    );
    const keyFile = path.join(server.deps.env.DATA_DIR, "backup-key");
    // The key to keep off the machine (decision 065): named before the first backup makes it, then its id.
    expect(await panel.getByTestId("backup-key").textContent()).toBe(
      `The first backup creates the backup key that signs them, at ${keyFile}. Keep a copy of it away from this server: restoring onto a new machine needs it.`,
    );
    await panel.getByRole("button", { name: "Back up now" }).click();
    await poll(() => toast(page, "Backup written: roomcanvas-backup-").isVisible()).toBe(true);
    await poll(() => panel.getByTestId("backup-last").textContent()).toMatch(/^Last backup: (now|1 minute ago) \([\d.]+ [KM]B\)/);
    expect(await panel.getByTestId("backup-last").textContent()).toContain("by an admin");
    expect(fs.readdirSync(server.deps.env.BACKUP_DIR!)).toHaveLength(1);
    const keyId = backupKeyId(fs.readFileSync(keyFile, "utf8").trim());
    await poll(() => panel.getByTestId("backup-key").textContent()).toBe(
      `Backups are signed with backup key ${keyId} (${keyFile}). Keep a copy of that file away from this server: restoring onto a new machine needs it.`,
    );
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, "admin-backups-desktop-light");
    // Housekeeping: the pass the server ran at start, then one more from the button.
    const housekeeping = page.getByTestId("admin-housekeeping");
    await poll(() => housekeeping.getByTestId("housekeeping-when").textContent()).toContain("on schedule. It removed:");
    await housekeeping.getByRole("button", { name: "Run now" }).click();
    await poll(() => toast(page, "Housekeeping done:").isVisible()).toBe(true);
    await poll(() => housekeeping.getByTestId("housekeeping-when").textContent()).toContain("by an admin. It removed:");
    expect(await housekeeping.getByTestId("housekeeping-expiredSessions").textContent()).toBe("0");
    await housekeeping.scrollIntoViewIfNeeded();
    await screenshot(page, "admin-housekeeping-desktop-light");
    expect(problems).toEqual([]);
    await browser.close();

    // useBrowsers closes the phone's browser after the test.
    const phone = await open("/", { width: 390, height: 844, colorScheme: "dark" });
    await signIn(phone.page, server.url, admin.email);
    await phone.page.evaluate(() => localStorage.setItem("roomcanvas.language", "es"));
    await phone.page.goto(`${server.url}/admin?section=system`);
    const phonePanel = phone.page.getByTestId("admin-backups");
    await poll(() => phonePanel.getByTestId("backup-last").textContent()).toMatch(/^Última copia: (ahora|hace 1 minuto) \(/);
    expect(await phonePanel.getByTestId("backup-key").textContent()).toMatch(
      /^Las copias se firman con la clave de copias [0-9a-f]{16} \(/,
    );
    await phonePanel.scrollIntoViewIfNeeded();
    await screenshot(phone.page, "admin-backups-phone-dark-es");
    await phone.page.getByTestId("admin-housekeeping").scrollIntoViewIfNeeded();
    await poll(() => phone.page.getByTestId("housekeeping-when").textContent()).toContain("por un administrador");
    await screenshot(phone.page, "admin-housekeeping-phone-dark-es");
    expect(phone.problems).toEqual([]);
  });

  // Two of the four combinations, as the other browser tests: accessibility.test.ts checks every page in all four.
  it("looks right on a desktop in light and on a phone in dark", async () => {
    const sizes = [
      { name: "phone", width: 390, height: 844 },
      { name: "desktop", width: 1280, height: 800 },
    ] as const;
    for (const colorScheme of ["light", "dark"] as const) {
      for (const size of sizes.filter((one) => one.name === (colorScheme === "light" ? "desktop" : "phone"))) {
        const label = `${size.name}-${colorScheme}`;
        const { browser, page, problems } = await open("/pricing", { width: size.width, height: size.height, colorScheme });
        await poll(() => page.getByTestId("package-pro").isVisible()).toBe(true);
        expect(await page.getByTestId("package-pro").getByTestId("package-price").textContent()).toBe("$29.00");
        expect(await page.getByTestId("package-pro").getByTestId("package-per-credit").textContent()).toBe("$0.29 per credit");
        expect(await page.getByTestId("licensing").textContent()).toContain(
          "Free-plan renders are for personal use only; Pro and Studio plans are licensed for commercial use.",
        );
        await screenshot(page, `pricing-${label}`);

        await page.goto(`${server.url}/performance`);
        await poll(() => page.getByTestId("measured-note").isVisible()).toBe(true);
        expect(await page.getByTestId("measured-note").textContent()).toContain("Measured on this server");
        expect(await page.getByTestId("figure-renders").textContent()).toContain("2 succeeded, 0 failed");
        expect(await page.getByTestId("figure-p50").textContent()).not.toContain("Not enough data yet");
        await screenshot(page, `performance-${label}`);

        await signIn(page, server.url, admin.email);
        await bar(page).getByRole("button", { name: "Quick System Testing" }).click();
        await poll(() => page.getByTestId("quick-admin-panel").getByRole("tab", { name: "System Tests" }).isVisible()).toBe(true);
        await screenshot(page, `quick-admin-open-${label}`);
        await bar(page).getByRole("button", { name: "Quick System Testing" }).click();

        await page.goto(`${server.url}/admin`);
        await poll(() => page.getByTestId("admin-user").count()).toBeGreaterThanOrEqual(2);
        await screenshot(page, `admin-users-${label}`);
        await page.getByRole("tab", { name: "Render jobs" }).click();
        await poll(() => page.getByTestId("admin-job").count()).toBe(2);
        await screenshot(page, `admin-jobs-${label}`);
        await page.getByRole("tab", { name: "System status" }).click();
        await poll(() => page.getByTestId("system-version").isVisible()).toBe(true);
        await screenshot(page, `admin-system-${label}`);
        await page.getByRole("tab", { name: "Analytics" }).click();
        await poll(() => page.getByTestId("chart-renders").isVisible()).toBe(true);
        await screenshot(page, `admin-analytics-${label}`);
        if (label === "phone-light") {
          // The longest texts: French, on a phone.
          await page.evaluate(() => localStorage.setItem("roomcanvas.language", "fr"));
          await page.goto(`${server.url}/admin?section=analytics`);
          await poll(() => page.getByTestId("chart-renders").isVisible()).toBe(true);
          await bar(page).getByRole("button", { name: "Tests rapides du système" }).click();
          await poll(() => page.getByTestId("quick-admin-panel").getByRole("tab", { name: "Tests système" }).isVisible()).toBe(true);
          await screenshot(page, "quick-admin-open-phone-fr");
        }
        expect(problems, label).toEqual([]);
        await browser.close();
      }
    }
  });

  it("creates, edits and retires a credit package in /admin → Credits, and /pricing follows (desktop light, phone dark)", async () => {
    const { browser, page, problems } = await open("/");
    await signIn(page, server.url, admin.email, { to: "/admin?section=credits" });
    const panel = page.getByTestId("admin-packages");
    await poll(() => panel.getByTestId("admin-package-pro").isVisible()).toBe(true);
    expect(await panel.getByTestId("admin-package-pro").getByTestId("admin-package-terms").textContent()).toBe(
      "100 credits for $29.00 · sold 0 times",
    );

    await panel.getByRole("button", { name: "New package" }).click();
    const dialog = page.getByRole("dialog", { name: "New credit package" });
    await dialog.getByLabel("Name").fill("Agency");
    await dialog.getByLabel("Credits").fill("1000");
    await dialog.getByLabel("Price").fill("0.10");
    await dialog.getByRole("button", { name: "Save package" }).click();
    await poll(() => dialog.getByRole("alert").textContent()).toBe("The price must be from 0.50 to 100,000.00");
    await dialog.getByLabel("Price").fill("149.00");
    await dialog.getByRole("button", { name: "Save package" }).click();
    await poll(() => toast(page, "“Agency” is on sale").isVisible()).toBe(true);
    const agency = panel.locator("li").filter({ hasText: "Agency" });
    await poll(() => agency.getByTestId("admin-package-terms").textContent()).toBe("1,000 credits for $149.00 · sold 0 times");
    await agency.getByRole("button", { name: "Edit Agency" }).click();
    const edit = page.getByRole("dialog", { name: "Edit credit package" });
    await edit.getByLabel("Price").fill("139,50");
    await edit.getByRole("button", { name: "Save package" }).click();
    await poll(() => agency.getByTestId("admin-package-terms").textContent()).toBe("1,000 credits for $139.50 · sold 0 times");
    await screenshot(page, "admin-credit-packages-desktop-light");

    await page.goto(`${server.url}/pricing`);
    const agencyCard = page.locator("li").filter({ hasText: "Agency" });
    await poll(() => agencyCard.getByTestId("package-price").textContent()).toBe("$139.50");
    expect(await page.getByText("Most popular").count()).toBe(0);
    await screenshot(page, "pricing-with-admin-package-desktop-light");
    expect(problems).toEqual([]);
    await browser.close();

    const phone = await open("/", { width: 390, height: 844, colorScheme: "dark" });
    await signIn(phone.page, server.url, admin.email, { to: "/admin?section=credits" });
    const phoneAgency = phone.page.getByTestId("admin-packages").locator("li").filter({ hasText: "Agency" });
    await poll(() => phoneAgency.isVisible()).toBe(true);
    await screenshot(phone.page, "admin-credit-packages-phone-dark");
    await phoneAgency.getByRole("button", { name: "Retire Agency" }).click();
    await poll(() => phoneAgency.textContent()).toContain("Retired");
    await phone.page.goto(`${server.url}/pricing`);
    await poll(() => phone.page.getByTestId("package-pro").isVisible()).toBe(true);
    expect(await phone.page.locator("li").filter({ hasText: "Agency" }).count()).toBe(0);
    expect(phone.problems).toEqual([]);
  });
});

describeBrowser("pricing without a payment provider", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { open } = useBrowsers(() => server.url);

  it("says buying is not set up on this server instead of offering a broken button, and shows 'not enough data yet' on /performance", async () => {
    const { page, problems } = await open("/pricing");
    await poll(() => page.getByTestId("purchases-disabled").isVisible()).toBe(true);
    expect(await page.getByTestId("purchases-disabled").textContent()).toContain("Buying credits is not set up on this server");
    expect(await page.getByRole("button", { name: /^Buy |Sign in to buy/ }).count()).toBe(0);
    await screenshot(page, "pricing-not-configured");

    await page.goto(`${server.url}/performance`);
    await poll(() => page.getByTestId("figure-p50").textContent()).toContain("Not enough data yet");
    await screenshot(page, "performance-no-data");

    await page.goto(`${server.url}/pricing?purchase=canceled`);
    await poll(() => page.locator("[data-sonner-toast]").filter({ hasText: "Purchase canceled" }).isVisible()).toBe(true);
    await poll(() => new URL(page.url()).search).toBe("");
    expect(problems).toEqual([]);
  });
});

describeBrowser("payments held for review in a browser", () => {
  const WEBHOOK_SECRET = "whsec_test";
  let fake: FakeStripe;
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: "sk_test_x" });
    server = await startTestServer({
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  const { launch } = useBrowsers();

  /** A new user buys Starter ($9.00, 25 credits) and Stripe reports the payment changed by `paid`: held. */
  async function heldBuyer(paid: Partial<FakeCheckoutSession>) {
    const buyer = await signedInClient(server.url);
    const { url } = await buyer.client.billing.purchaseCredits.mutate({ creditPackage: "starter" });
    const session = { ...fake.pay(url.split("/").at(-1)!), ...paid };
    const answer = await postStripeWebhook(server.url, JSON.stringify(stripeEvent("checkout.session.completed", session)), {
      secret: WEBHOOK_SECRET,
    });
    expect(answer.body).toMatchObject({ outcome: "handled" });
    return buyer;
  }

  it("shows held payments above every tab of /admin and in the Quick Admin panel; credits one anyway and dismisses the other", async () => {
    const underpaid = await heldBuyer({ amount_total: 100, amount_subtotal: 100 });
    const wrongCurrency = await heldBuyer({ currency: "eur" });

    // How it looks in dark, on a desktop and a phone (the buttons wrap under the details).
    for (const size of [
      { name: "desktop", width: 1280, height: 800 },
      { name: "phone", width: 390, height: 844 },
    ]) {
      const dark = await launch({ colorScheme: "dark", width: size.width, height: size.height });
      await signIn(dark.page, server.url, admin.email, { to: "/admin" });
      await poll(() => dark.page.getByTestId("payment-hold").count()).toBe(2);
      await screenshot(dark.page, `admin-payment-holds-${size.name}-dark`);
      expect(dark.problems).toEqual([]);
      await dark.browser.close();
    }

    const { page, problems } = await launch();
    await signIn(page, server.url, admin.email, { to: "/admin" });
    const alert = page.getByTestId("payment-holds");
    await poll(() => alert.getByTestId("payment-holds-title").textContent()).toBe("2 payments held for review");
    const hold = (email: string) => alert.getByTestId("payment-hold").filter({ hasText: email });
    expect(await hold(underpaid.email).textContent()).toContain("Starter · 25 credits");
    expect(await hold(underpaid.email).getByTestId("payment-hold-amounts").textContent()).toBe("Price $9.00 · paid $1.00");
    expect(await hold(wrongCurrency.email).getByTestId("payment-hold-amounts").textContent()).toBe("Price $9.00 · paid €9.00");
    await screenshot(page, "admin-payment-holds-desktop-light");
    // Above every tab, not only the first.
    await page.getByRole("tab", { name: "Render jobs" }).click();
    await poll(() => page.getByTestId("admin-jobs").isVisible()).toBe(true);
    expect(await alert.isVisible()).toBe(true);

    // Credit anyway, after confirming.
    await hold(underpaid.email).getByRole("button", { name: "Credit anyway" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Credit this payment anyway?" });
    await poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.textContent()).toContain(
      `${underpaid.email} receives 25 credits (Starter) although $1.00 was paid for a price of $9.00.`,
    );
    await screenshot(page, "admin-payment-holds-confirm-credit");
    await confirm.getByRole("button", { name: "Credit anyway" }).click();
    await poll(() =>
      page
        .locator("[data-sonner-toast]")
        .filter({ hasText: `${underpaid.email} received 25 credits` })
        .isVisible(),
    ).toBe(true);
    await poll(() => alert.getByTestId("payment-holds-title").textContent()).toBe("1 payment held for review");
    expect(await underpaid.client.render.allowance.query().then((allowance) => allowance.credits)).toBe(35);

    // The Quick Admin panel says how many are held, and links to /admin.
    await page.getByTestId("quick-admin-bar").getByRole("button", { name: "Quick System Testing" }).click();
    await poll(() => page.getByTestId("quick-admin-holds").textContent()).toBe("1 payment held for review");
    await screenshot(page, "quick-admin-payment-holds");
    await page.getByTestId("quick-admin-bar").getByRole("button", { name: "Quick System Testing" }).click();

    // Dismiss: cancelling the dialog changes nothing; confirming ends the hold without credits.
    await hold(wrongCurrency.email).getByRole("button", { name: "Dismiss" }).click();
    const dismiss = page.getByRole("alertdialog", { name: "Dismiss this held payment?" });
    await poll(() => dismiss.isVisible()).toBe(true);
    await dismiss.getByRole("button", { name: "Cancel" }).click();
    await poll(() => dismiss.count()).toBe(0);
    expect(await hold(wrongCurrency.email).count()).toBe(1);
    await hold(wrongCurrency.email).getByRole("button", { name: "Dismiss" }).click();
    await poll(() => dismiss.isVisible()).toBe(true);
    await dismiss.getByRole("button", { name: "Dismiss" }).click();
    await poll(() => alert.count()).toBe(0);
    expect(await wrongCurrency.client.render.allowance.query().then((allowance) => allowance.credits)).toBe(10);
    expect(problems).toEqual([]);
  });
});
