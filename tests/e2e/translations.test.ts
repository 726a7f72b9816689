/**
 * No English left in Spanish and French (issue 17): a browser walks the main pages in es,
 * signed out and then signed in as an admin with a project (with every tab of /admin, the render
 * and studio pages, and the dialogs: help, a project's menu and its delete dialog, the listing
 * export, an account's menu and its credits dialog), and reads every text node and every
 * aria-label, placeholder, title and alt. None may be the English text of one of our keys (or an
 * English default of a library we use, like sonner's "Notifications alt+T"), except the few words
 * that are the same in that language by nature (ALLOWED, each explained).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translations, type TranslationTree } from "../../src/client/i18n/resources";
import { PRODUCT_NAME } from "../../src/shared/constants";
import {
  describeBrowser,
  requestsOf,
  screenshot,
  SCREENSHOTS_TAKEN,
  signIn,
  useBrowsers,
  walkPages,
  type PageRequests,
} from "../helpers/browser";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 10_000 });

const PUBLIC_PAGES = ["/", "/auth", "/upload", "/pricing", "/features", "/gallery", "/guide", "/performance", "/test"];
const SIGNED_IN_PAGES = ["/dashboard", "/enhanced-dashboard", "/batch-upload", "/profile", "/settings", "/admin"];

/** English defaults of libraries, shown unless we pass our own text. */
const LIBRARY_ENGLISH = ["Notifications alt+T", "Close toast"];

/**
 * Texts that are English and also right in that language. Keep it short: each is a word the
 * language really uses, a name, or a unit.
 */
const ALLOWED: Record<"es", readonly string[]> = {
  // Package names (spec: Starter, Pro, Studio are names), engine makers' names, the style "Japandi" (a name),
  // words Spanish writes the same ("Industrial", "Social", "Normal", "Error", "OK", "Personal": the personal
  // space in the space switcher), and "render", the Spanish word for a rendering (issue 17).
  es: [
    "Starter",
    "Pro",
    "Studio",
    "Replicate",
    "OpenAI",
    "Japandi",
    "Industrial",
    "Social",
    "Normal",
    "Error",
    "OK",
    "Render",
    "Renders",
    "Personal",
  ],
};

function flatten(tree: TranslationTree, prefix = "", into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") into.set(name, value);
    else flatten(value, name, into);
  }
  return into;
}

/** The English texts a page could show as they are (no placeholders to fill in), each with its key. */
function englishTexts(): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [key, text] of flatten(translations.en)) {
    if (text.includes("{{") || text.includes("$t(") || text.includes("<")) continue;
    // A bare number or symbol is the same in every language.
    if (!/[a-z]{2}/i.test(text)) continue;
    texts.set(text.trim(), key);
  }
  for (const text of LIBRARY_ENGLISH) texts.set(text, "(library default)");
  return texts;
}

/** Every text node and labelling attribute of the page, trimmed. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, noscript")) continue;
      const text = node.textContent?.replace(/\s+/g, " ").trim();
      if (text) found.add(text);
    }
    for (const element of document.body.querySelectorAll("[aria-label], [placeholder], [title], [alt]")) {
      for (const attribute of ["aria-label", "placeholder", "title", "alt"]) {
        const value = element.getAttribute(attribute)?.replace(/\s+/g, " ").trim();
        if (value) found.add(value);
      }
    }
    return [...found];
  });
}

/**
 * Waits until the page's texts stop changing (lazy pages, their texts and data arrive after the load):
 * the same texts twice, each read once nothing the page asked for was in flight, and nothing loading.
 */
async function settledTexts(page: Page, requests: PageRequests): Promise<string[]> {
  let previous = "";
  let texts: string[] = [];
  for (let round = 0; round < 40; round++) {
    await requests.quiet();
    texts = await pageTexts(page);
    const now = texts.join("\n");
    const loading = await page.locator("[role=status][aria-busy=true], [data-testid=page-loading]").count();
    if (now === previous && loading === 0) break;
    previous = now;
  }
  return texts;
}

describeBrowser("no English in Spanish and French", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  let renderId: string;
  const english = englishTexts();

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    // A project with a render, so the dashboard, the profile and the admin's lists have something to show.
    const uploaded = await upload(server.url, admin.jar, await roomPhoto());
    const { jobs } = await admin.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: ["modern"],
    });
    await waitForRenders(
      admin,
      jobs.map((job) => job.id),
    );
    renderId = jobs[0]!.id;
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { launch } = useBrowsers();

  // One language walks: English written into a component, or sent by the server untranslated, shows in
  // every language alike; a text left in English in one language's file is the unit test's to find
  // (tests/unit/i18n.test.ts, "says in its own words"), for every text, shown here or not.
  it.each(["es"] as const)(
    "shows no English text of a key on the main pages in %s",
    async (language) => {
      const { page } = await launch({ locale: language === "es" ? "es-ES" : "fr-FR", width: 1366, height: 900 });
      const requests = requestsOf(page);
      const allowed = new Set([...ALLOWED[language], PRODUCT_NAME, admin.email, "Ana Lima"]);
      const leaks: string[] = [];
      const t = flatten(translations[language]);
      const text = (key: string, values: Record<string, string> = {}) =>
        t.get(key)!.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => values[name] ?? "");
      const check = async (urlPath: string) => {
        const texts = await settledTexts(page, requests);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
        for (const text of texts) {
          const key = english.get(text);
          if (key && !allowed.has(text)) leaks.push(`${urlPath}: "${text}" (${key})`);
        }
        await screenshot(page, `translations-${language}${urlPath === "/" ? "-home" : urlPath.replaceAll("/", "-")}`);
      };
      // Each list's first page is loaded; the others are reached for and opened inside the app.
      await walkPages(page, server.url, PUBLIC_PAGES, requests, check);
      await signIn(page, server.url, admin.email, { language });
      await walkPages(page, server.url, SIGNED_IN_PAGES, requests, check);
      // Every other tab of /admin.
      const tabs = page.getByRole("tablist", { name: text("admin.tabs.label") }).getByRole("tab");
      const tabCount = await tabs.count();
      expect(tabCount).toBeGreaterThan(5);
      for (let index = 1; index < tabCount; index++) {
        await tabs.nth(index).click();
        await check(`/admin/tab-${index}`);
      }
      // An account's menu, then its credits dialog.
      await tabs.first().click();
      await page.getByRole("button", { name: text("admin.users.actionsFor", { email: admin.email }) }).click();
      await poll(() => page.getByRole("menu").isVisible()).toBe(true);
      await check("/admin/user-menu");
      await page.getByRole("menuitem", { name: text("admin.users.adjustCredits") }).click();
      await poll(() => page.getByRole("dialog").isVisible()).toBe(true);
      await check("/admin/adjust-credits");
      await page.keyboard.press("Escape");

      // The help drawer, on the dashboard; a project's menu and the dialog to delete it.
      await page.goto(`${server.url}/dashboard`);
      await page.getByRole("button", { name: text("help.button") }).click();
      await poll(() => page.getByTestId("help-drawer").isVisible()).toBe(true);
      await check("/dashboard/help");
      await page.keyboard.press("Escape");
      const projectActions = t
        .get("dashboard.projectActions")!
        .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
        .replace("{{name}}", ".+");
      await page
        .getByRole("button", { name: new RegExp(`^${projectActions}$`) })
        .first()
        .click();
      await poll(() => page.getByRole("menu").isVisible()).toBe(true);
      await check("/dashboard/project-menu");
      await page.getByRole("menuitem", { name: text("dashboard.deleteProject") }).click();
      await poll(() => page.getByRole("alertdialog").isVisible()).toBe(true);
      await check("/dashboard/delete-project");
      await page.keyboard.press("Escape");

      // The render's page with its listing export dialog, and the studio.
      await page.goto(`${server.url}/render?jobs=${renderId}`);
      await page.getByTestId("listing-export-open").click();
      await poll(() => page.getByTestId("listing-dialog").isVisible()).toBe(true);
      await check("/render/listing-export");
      await page.keyboard.press("Escape");
      await page.goto(`${server.url}/modification-studio?picture=${renderId}`);
      await page.getByTestId("mask-canvas").waitFor();
      await page.getByTestId("shortcuts").locator("summary").click();
      await check("/modification-studio");
      // The same texts on a phone in the dark theme, for looking at: what got longer must still fit.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.emulateMedia({ colorScheme: "dark" });
      for (const urlPath of SCREENSHOTS_TAKEN ? ["/performance", "/dashboard", "/admin"] : []) {
        await page.goto(`${server.url}${urlPath}`);
        await settledTexts(page, requests);
        await screenshot(page, `translations-${language}-390-dark${urlPath.replaceAll("/", "-")}`);
      }
      expect(leaks).toEqual([]);
    },
    180_000,
  );

  it.each([
    ["es", "Motor de vista previa · no es IA: ajuste de color y luz", /Tiempo empleadoEn cola \d+,\d s · /],
    ["fr", "Moteur d'aperçu · pas d'IA : étalonnage des couleurs et de la lumière", /Temps passéEn file d'attente \d+,\d\u00a0s · /],
  ] as const)(
    "names the Preview engine in %s in the render's details, with decimal commas (issue 27)",
    async (language, engine, durations) => {
      for (const [width, height, colorScheme] of [
        [1366, 900, "light"],
        [390, 844, "dark"],
      ] as const) {
        const { browser, page } = await launch({ locale: language === "es" ? "es-ES" : "fr-FR", width, height, colorScheme });
        const t = flatten(translations[language]);
        await signIn(page, server.url, admin.email, { language, to: `/render?jobs=${renderId}` });
        await page.getByText(t.get("renderOptions.details")!).click();
        const details = page.getByTestId("render-details");
        await poll(() => details.textContent()).toContain(engine);
        const text = (await details.textContent())!;
        // Not the server's English name of the engine.
        expect(text).not.toContain("Preview engine");
        expect(text).toMatch(durations);
        await details.scrollIntoViewIfNeeded();
        await screenshot(page, `translations-${language}-render-details-${width}-${colorScheme}`);
        await browser.close();
      }
    },
  );

  it.each(["es", "fr"] as const)("names the mail transport in %s in /admin's outbox, not 'outbox' (issue 27)", async (language) => {
    const t = flatten(translations[language]);
    const { page, problems } = await launch({ locale: language === "es" ? "es-ES" : "fr-FR", width: 1366, height: 900 });
    await signIn(page, server.url, admin.email, { language, to: "/admin?section=outbox" });
    const mail = page.getByTestId("admin-mail").first();
    await poll(() => mail.isVisible()).toBe(true);
    const text = (await mail.textContent())!;
    expect(text).toContain(t.get("admin.outbox.transports.outbox")!);
    expect(text).not.toMatch(/outbox/);
    expect(problems).toEqual([]);
  });

  it("names a new account's first project in the language chosen in the app, not the browser's (issue 27)", async () => {
    const fr = flatten(translations.fr);
    const newcomer = await signedInClient(server.url);
    // An English browser; French chosen in the language menu (stored on the device).
    const { page, problems } = await launch({ locale: "en-US", width: 390, height: 844 });
    await page.goto(`${server.url}/`);
    await page.evaluate(() => localStorage.setItem("roomcanvas.language", "fr"));
    await signIn(page, server.url, newcomer.email, { language: "fr", to: "/upload" });
    // The page takes a file once it knows the account's credits (a busy machine once chose it before).
    await poll(() => page.getByTestId("credits-left").isVisible()).toBe(true);
    await page.getByTestId("file-input").setInputFiles({ name: "room.jpg", mimeType: "image/jpeg", buffer: await roomPhoto() });
    await poll(() => new URL(page.url()).pathname).toBe("/style-select");
    const { projects } = await newcomer.client.projects.list.query({ limit: 10 });
    expect(projects.map((project) => project.name)).toEqual([fr.get("upload.defaultProjectName")]);
    expect(problems).toEqual([]);
  });

  it("shows the server checks' findings and the run's summary of the self-tests in French", async () => {
    const { page } = await launch({ locale: "fr-FR", width: 1366, height: 900 });
    const fr = flatten(translations.fr);
    await signIn(page, server.url, admin.email, { language: "fr" });
    await page.getByRole("button", { name: fr.get("quickAdmin.toggle")! }).click();
    const panel = page.getByTestId("quick-admin-panel");
    await page.getByTestId("run-system-tests").click();
    await expect.poll(() => panel.locator("[data-testid=self-test-item][data-status=running]").count(), { timeout: 10_000 }).toBe(1);
    // The suite pauses between items (no item running then), so the run's end is the summary itself.
    await expect
      .poll(() => panel.getByTestId("system-summary").textContent(), { timeout: 90_000 })
      .toMatch(/^\d+ réussis?, .*\d+ échoués?$/);
    expect(await panel.locator("[data-testid=self-test-item][data-status=running]").count()).toBe(0);
    const message = (id: string) =>
      panel
        .locator(`[data-testid=self-test-item]:has-text("${fr.get(`selfTest.items.${id}`)}") [data-testid=self-test-message]`)
        .first()
        .textContent();
    expect(await message("database-integrity")).toBe(fr.get("selfTest.details.integrityOk"));
    expect(await message("render-provider")).toBe(fr.get("selfTest.details.previewEngine"));
    expect(await message("mail-transport")).toBe(fr.get("selfTest.details.mailOutbox"));
    // The suite's own notes too (issue 17): not "Inserted (room_rendering), read back and deleted".
    expect(await message("project-crud")).toBe(fr.get("selfTest.details.projectCrudOk"));
    expect(await message("storage")).toBe(fr.get("selfTest.details.storageOk")!.replaceAll("{{size}}", "100"));
    expect(await message("route-protection")).toContain(`« ${fr.get("serverMessages.notAuthenticated")} »`);
    const summary = (await panel.getByTestId("system-summary").textContent())!;
    // "0 échoué", "1 échoué", "2 échoués": French plural rules.
    const failed = Number(/(\d+) échoués?$/.exec(summary)![1]);
    expect(summary.endsWith(failed <= 1 ? `${failed} échoué` : `${failed} échoués`)).toBe(true);
    await screenshot(page, "translations-fr-self-tests");

    await panel.getByRole("tab", { name: fr.get("selfTest.authTab")! }).click();
    await page.getByTestId("run-auth-tests").click();
    await expect.poll(() => panel.getByTestId("auth-summary").textContent(), { timeout: 90_000 }).toMatch(/échoué/);
    expect(await message("roles-read")).toBe(fr.get("selfTest.details.rolesAdmin")!.replace("{{roles}}", "admin"));
    expect(await message("sign-in")).toBe(fr.get("selfTest.details.signedInCurrent")!.replace("{{email}}", admin.email));
    expect(await message("session-user")).toBe(fr.get("selfTest.details.sessionBelongs")!.replace("{{email}}", admin.email));
    await screenshot(page, "translations-fr-auth-tests");
  });
});
