/**
 * The information pages, profile and settings in a browser against the real server, on a phone
 * (390×844) and a desktop (1280×800), in English and Spanish: /features, /guide, /user-guide,
 * /ai-lab and /test with the real version and engine;
 * /profile with the user's data and name editing (and the spec's validation message); /settings
 * switching language and theme; deleting the account (a wrong e-mail refused, then deleted, landing
 * on / signed out). Screenshots of each page in light and dark.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { APP_VERSION } from "../../src/server/version";
import { describeBrowser, screenshot, signIn, useBrowsers, screenshotViewport } from "../helpers/browser";
import { PASSWORD, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 15_000, ...options });

const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
type Size = keyof typeof SIZES;
type Lang = "en" | "es";
const LOCALES: Record<Lang, string> = { en: "en-US", es: "es-ES" };

/** The texts the tests look for, in each language. */
const TEXT = {
  en: {
    features: "Features",
    engineLine: "This server renders with Preview engine",
    notAi: "Not AI",
    guide: "How It Works",
    userGuide: "User Guide",
    stepOne: "Upload a photo or a floor plan",
    aiLab: "AI Lab",
    aiMeans: 'What "AI" means here',
    status: "System status",
    allGood: "All systems working",
    engine: "Preview engine",
    profile: "Profile",
    nameLabel: "Full name",
    save: "Save name",
    nameTooShort: "Name must be at least 2 characters",
    saved: "Name saved",
    modern: "Modern",
    settings: "Settings",
    deleteButton: "Delete my account",
    emailLabel: "Your e-mail address",
    passwordLabel: "Your password",
    confirm: "Delete everything",
    mismatch: "Type your e-mail address to confirm",
    wrongPassword: "Your current password is incorrect",
    deleted: "Your account has been deleted",
    dark: "Dark",
    light: "Light",
    system: "System",
  },
  es: {
    features: "Funciones",
    engineLine: "Este servidor renderiza con Motor de vista previa",
    notAi: "Sin IA",
    guide: "Cómo funciona",
    userGuide: "Guía del usuario",
    stepOne: "Sube una foto o un plano",
    aiLab: "Laboratorio de IA",
    aiMeans: "Qué significa «IA» aquí",
    status: "Estado del sistema",
    allGood: "Todos los sistemas funcionan",
    engine: "Motor de vista previa",
    profile: "Perfil",
    nameLabel: "Nombre completo",
    save: "Guardar nombre",
    nameTooShort: "El nombre debe tener al menos 2 caracteres",
    saved: "Nombre guardado",
    modern: "Moderno",
    settings: "Ajustes",
    deleteButton: "Eliminar mi cuenta",
    emailLabel: "Tu dirección de correo",
    passwordLabel: "Tu contraseña",
    confirm: "Eliminarlo todo",
    mismatch: "Escribe tu dirección de correo para confirmar",
    wrongPassword: "Tu contraseña actual no es correcta",
    deleted: "Tu cuenta se ha eliminado",
    dark: "Oscuro",
    light: "Claro",
    system: "Sistema",
  },
} as const;

describeBrowser("information pages, profile and settings in a browser", () => {
  let server: TestServer;
  let member: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    // A user with one finished render (Preview engine), so the profile has statistics.
    member = await signedInClient(server.url);
    const uploaded = await upload(server.url, member.jar, await roomPhoto());
    const { jobs } = await member.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: ["modern"],
    });
    await waitForRenders(member, [jobs[0]!.id]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  // launchBrowser keeps the onboarding overlay of signed-in pages closed.
  const { open } = useBrowsers(() => server.url);

  const path_ = (page: Page) => new URL(page.url()).pathname;
  const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
  const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

  async function checkPublicPages(page: Page, lang: Lang, label: string): Promise<void> {
    const text = TEXT[lang];
    await page.goto(`${server.url}/features`);
    // The first page of a fresh browser waits for its code; these machines are shared and slow at times.
    await poll(() => heading(page, text.features).isVisible(), { timeout: 30_000 }).toBe(true);
    await poll(() => page.getByTestId("features-engine").textContent()).toContain(text.engineLine);
    expect(await page.getByTestId("features-engine").textContent()).toContain(text.notAi);
    expect(await page.getByTestId("engine-local").getAttribute("data-active")).toBe("true");
    expect(await page.getByTestId("features-styles-list").getByRole("listitem").count()).toBe(12);
    await screenshot(page, `info-features-${label}`);

    await page.goto(`${server.url}/guide`);
    await poll(() => heading(page, text.guide).isVisible()).toBe(true);
    expect(await page.getByTestId("guide-steps").locator(":scope > li").count()).toBe(5);
    expect(await page.getByTestId("guide-step-upload").textContent()).toContain(text.stepOne);
    // The example pair is the studio's own, from the gallery.
    await poll(() => page.getByTestId("guide-step-compare").getByTestId("compare-slider").isVisible()).toBe(true);
    await screenshot(page, `info-guide-${label}`);

    await page.goto(`${server.url}/user-guide`);
    await poll(() => heading(page, text.userGuide).isVisible()).toBe(true);

    await page.goto(`${server.url}/ai-lab`);
    await poll(() => heading(page, text.aiLab).isVisible()).toBe(true);
    await poll(() => page.getByTestId("ai-lab-engine-name").textContent()).toBe(text.engine);
    expect(await page.getByRole("heading", { name: text.aiMeans }).isVisible()).toBe(true);
    await poll(() => page.getByTestId("ai-lab-queue-value").textContent()).toBe("0");
    await screenshot(page, `info-ai-lab-${label}`);

    await page.goto(`${server.url}/test`);
    await poll(() => heading(page, text.status).isVisible()).toBe(true);
    await poll(() => page.getByTestId("status-version-value").textContent()).toBe(APP_VERSION);
    expect(await page.getByTestId("status-engine-value").textContent()).toBe(text.engine);
    expect(await page.getByTestId("status-queue-value").textContent()).toBe("0");
    expect(await page.getByTestId("status-database-value").textContent()).toBe("OK");
    expect(await page.getByTestId("status-summary").textContent()).toContain(text.allGood);
    await screenshot(page, `info-status-${label}`);
  }

  // Three views (accessibility.test.ts checks every page in both themes at both widths).
  it("shows /features, /guide, /user-guide, /ai-lab and /test in English (desktop light, phone dark) and Spanish (phone light)", async () => {
    const views = [
      { lang: "en", size: "desktop", colorScheme: "light" },
      { lang: "en", size: "phone", colorScheme: "dark" },
      { lang: "es", size: "phone", colorScheme: "light" },
    ] as const;
    for (const { lang, size, colorScheme } of views) {
      const label = `${size}-${colorScheme}-${lang}`;
      const { browser, page, problems } = await open("/", { ...SIZES[size], colorScheme, locale: LOCALES[lang] });
      await checkPublicPages(page, lang, label);
      // Nothing sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), label).toBe(true);
      expect(problems, label).toEqual([]);
      await browser.close();
    }
  });

  it("shows the user's data on /profile and edits the name, refusing one too short", async () => {
    const expected = await member.client.account.profile.query();
    expect(expected.renders).toEqual({ total: 1, succeeded: 1, failed: 0 });
    const runs: [Lang, Size, "light" | "dark", string][] = [
      ["en", "desktop", "light", "Ana María Lima"],
      ["es", "phone", "dark", "Ana Lima-Souza"],
    ];
    for (const [lang, size, colorScheme, newName] of runs) {
      const text = TEXT[lang];
      const label = `${size}-${colorScheme}-${lang}`;
      const { browser, page, problems } = await open("/", { ...SIZES[size], colorScheme, locale: LOCALES[lang] });
      await signIn(page, server.url, member.email, { language: lang, to: "/profile" });
      await poll(() => heading(page, text.profile).isVisible()).toBe(true);
      await poll(() => page.getByTestId("profile-email").textContent()).toBe(member.email);
      const before = await member.client.account.profile.query();
      expect(await page.getByTestId("profile-full-name").textContent()).toBe(before.fullName);
      expect(await page.getByTestId("profile-credits-value").textContent()).toBe(String(before.credits));
      expect(await page.getByTestId("profile-projects-value").textContent()).toBe(String(before.projects));
      expect(await page.getByTestId("profile-renders-total-value").textContent()).toBe("1");
      expect(await page.getByTestId("profile-renders-succeeded-value").textContent()).toBe("1");
      expect(await page.getByTestId("profile-renders-failed-value").textContent()).toBe("0");
      expect(await page.getByTestId("favourite-style").first().textContent()).toContain(text.modern);
      expect(await page.getByTestId("profile-member-since").textContent()).toContain(String(new Date(before.memberSince).getFullYear()));
      await screenshot(page, `profile-${label}`);

      const field = page.getByLabel(text.nameLabel);
      await field.fill("A");
      await page.getByRole("button", { name: text.save }).click();
      await poll(() => page.getByTestId("name-form").textContent()).toContain(text.nameTooShort);
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      await screenshot(page, `profile-name-error-${label}`);
      expect((await member.client.account.profile.query()).fullName).toBe(before.fullName);

      await field.fill(newName);
      await page.getByRole("button", { name: text.save }).click();
      await poll(() => toast(page, text.saved).isVisible()).toBe(true);
      await poll(() => page.getByTestId("profile-full-name").textContent()).toBe(newName);
      expect(await field.getAttribute("aria-invalid")).toBeNull();
      expect((await member.client.account.profile.query()).fullName).toBe(newName);
      expect(problems, label).toEqual([]);
      await browser.close();
    }
  });

  it("switches the language and the theme on /settings", async () => {
    for (const size of ["phone", "desktop"] as const) {
      const { browser, page, problems } = await open("/", { ...SIZES[size], colorScheme: "light", locale: LOCALES.en });
      await signIn(page, server.url, member.email, { to: "/settings" });
      await poll(() => heading(page, TEXT.en.settings).isVisible()).toBe(true);
      await screenshot(page, `settings-${size}-light-en`);

      // Language: Español, as the navigation bar's menu does it.
      await page.getByTestId("language-choice").getByText("Español").click();
      await poll(() => heading(page, TEXT.es.settings).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
      expect(await page.evaluate(() => localStorage.getItem("roomcanvas.language"))).toBe("es");
      expect(await page.getByRole("radio", { name: "Español" }).isChecked()).toBe(true);

      // Theme: dark, stored; then back to the system's (light here).
      expect(await page.getByRole("radio", { name: TEXT.es.system }).isChecked()).toBe(true);
      await page.getByTestId("theme-choice").getByText(TEXT.es.dark).click();
      await poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
      expect(await page.evaluate(() => localStorage.getItem("roomcanvas.theme"))).toBe("dark");
      await screenshot(page, `settings-${size}-dark-es`);
      await page.reload();
      await poll(() => heading(page, TEXT.es.settings).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
      expect(await page.getByRole("radio", { name: TEXT.es.dark }).isChecked()).toBe(true);
      await page.getByTestId("theme-choice").getByText(TEXT.es.system).click();
      await poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
      expect(await page.evaluate(() => localStorage.getItem("roomcanvas.theme"))).toBeNull();
      // Keyboard: the arrow keys move the choice inside the group.
      await page.getByRole("radio", { name: TEXT.es.system }).focus();
      await page.keyboard.press("ArrowLeft");
      await poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
      await page.getByTestId("theme-choice").getByText(TEXT.es.light).click();

      // And back to English.
      await page.getByTestId("language-choice").getByText("English").click();
      await poll(() => heading(page, TEXT.en.settings).isVisible()).toBe(true);
      expect(problems, size).toEqual([]);
      await browser.close();
    }
  });

  it("deletes the account after refusing a wrong e-mail, landing on / signed out", async () => {
    for (const [lang, size, colorScheme] of [
      ["en", "desktop", "light"],
      ["es", "phone", "dark"],
    ] as const) {
      const text = TEXT[lang];
      const label = `${size}-${colorScheme}-${lang}`;
      const doomed = await signedInClient(server.url);
      const { browser, page, problems } = await open("/", { ...SIZES[size], colorScheme, locale: LOCALES[lang] });
      await signIn(page, server.url, doomed.email, { language: lang, to: "/settings" });
      await poll(() => heading(page, text.settings).isVisible()).toBe(true);
      await page.getByTestId("delete-account").getByRole("button", { name: text.deleteButton }).click();
      const dialog = page.getByRole("alertdialog");
      await poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).toContain(doomed.email);
      // The dialog as it shows in the window (a full-page picture would place it oddly).
      await screenshotViewport(page, `settings-delete-dialog-${label}`);

      await dialog.getByLabel(text.emailLabel).fill("someone.else@example.com");
      await dialog.getByLabel(text.passwordLabel, { exact: true }).fill(PASSWORD);
      await dialog.getByRole("button", { name: text.confirm }).click();
      await poll(() => dialog.getByRole("alert").textContent()).toBe(text.mismatch);
      await dialog.getByLabel(text.emailLabel).fill(doomed.email);
      await dialog.getByLabel(text.passwordLabel, { exact: true }).fill("Wrong-Password1");
      await dialog.getByRole("button", { name: text.confirm }).click();
      await poll(() => dialog.getByRole("alert").textContent()).toBe(text.wrongPassword);
      // Still there.
      expect((await doomed.client.auth.session.query()).user?.email).toBe(doomed.email);

      // Escape closes the dialog; the account stays.
      await page.keyboard.press("Escape");
      await poll(() => dialog.count()).toBe(0);
      await page.getByTestId("delete-account").getByRole("button", { name: text.deleteButton }).click();
      await dialog.getByLabel(text.emailLabel).fill(doomed.email.toUpperCase());
      await dialog.getByLabel(text.passwordLabel, { exact: true }).fill(PASSWORD);
      await dialog.getByRole("button", { name: text.confirm }).click();
      await poll(() => path_(page)).toBe("/");
      await poll(() => toast(page, text.deleted).isVisible()).toBe(true);
      // Signed out: the Quick Admin control of a signed-in non-admin is gone.
      await poll(() => page.getByTestId("quick-admin-control").count()).toBe(0);
      await screenshot(page, `account-deleted-${label}`);
      const row = await server.deps.db.selectFrom("users").select("id").where("id", "=", doomed.userId).executeTakeFirst();
      expect(row).toBeUndefined();
      // A protected page now sends the visitor to sign in.
      await page.goto(`${server.url}/settings`);
      await poll(() => path_(page)).toBe("/auth");
      // The refused attempts answered 400; nothing else may fail.
      expect(
        problems.filter((problem) => !/status of 400/.test(problem)),
        label,
      ).toEqual([]);
      await browser.close();
    }
  });
});
