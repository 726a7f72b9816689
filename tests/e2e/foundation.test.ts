import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, useBrowsers } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

describeBrowser("the app in a browser", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  const nav = (page: Page) => page.getByRole("navigation", { name: /Main navigation|Navegación principal|Navigation principale/ });

  it("renders the landing route with the navigation bar, with no console errors or CSP violations", async () => {
    const { page, problems } = await open("/");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("See your room in a new style");
    const bar = nav(page);
    for (const label of ["How It Works", "Features", "Pricing", "Sign In"]) {
      await expect.poll(() => bar.getByRole("link", { name: label }).isVisible()).toBe(true);
    }
    await expect.poll(() => bar.getByRole("button", { name: "Language" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "Try Without Signup" }).getAttribute("href")).toBe("/upload");
    // Issue 17: it opens the sign-up tab, like Start Free Trial.
    await expect.poll(() => page.getByRole("link", { name: "Sign Up for More" }).getAttribute("href")).toBe("/auth?tab=signup");
    await screenshot(page, "landing-desktop-light");
    await page.getByRole("link", { name: "Sign Up for More" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
    expect(problems).toEqual([]);
  });

  it("switches the language to Español from the menu, and the choice survives a reload", async () => {
    const { page, problems } = await open("/");
    await nav(page).getByRole("button", { name: "Language" }).click();
    await page.getByRole("menuitem", { name: "Español" }).click();
    const bar = nav(page);
    await expect.poll(() => bar.getByRole("link", { name: "Cómo funciona" }).isVisible()).toBe(true);
    await expect.poll(() => bar.getByRole("link", { name: "Funciones" }).isVisible()).toBe(true);
    await expect.poll(() => bar.getByRole("link", { name: "Precios" }).isVisible()).toBe(true);
    await expect.poll(() => bar.getByRole("link", { name: "Iniciar sesión" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");

    await page.reload();
    await expect.poll(() => nav(page).getByRole("link", { name: "Cómo funciona" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "Probar sin registrarse" }).isVisible()).toBe(true);
    await screenshot(page, "landing-desktop-es");
    expect(problems).toEqual([]);
  });

  it("starts in the browser's language when it is supported, else English", async () => {
    const french = await open("/", { locale: "fr-FR" });
    await expect.poll(() => nav(french.page).getByRole("link", { name: "Tarifs" }).isVisible()).toBe(true);
    await french.browser.close();
    const german = await open("/", { locale: "de-DE" });
    await expect.poll(() => nav(german.page).getByRole("link", { name: "Pricing" }).isVisible()).toBe(true);
  });

  it("shows the 404 page for an unknown path, and Return to Home goes to /", async () => {
    const { page, problems } = await open("/nope");
    await expect.poll(() => page.getByRole("heading", { name: "Oops! Page not found" }).isVisible()).toBe(true);
    await screenshot(page, "not-found");
    await nav(page).getByRole("button", { name: "Switch to dark theme" }).click();
    await screenshot(page, "not-found-dark");
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
    await expect.poll(() => page.getByRole("link", { name: "Try Without Signup" }).isVisible()).toBe(true);
    // The browser logs the 404 status of the document itself; nothing else may fail.
    expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
  });

  it("toggles dark mode, remembers it across a reload, and toggles back", async () => {
    const { page, problems } = await open("/");
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    expect(await isDark()).toBe(false);
    await nav(page).getByRole("button", { name: "Switch to dark theme" }).click();
    await expect.poll(isDark).toBe(true);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe("rgb(255, 255, 255)");
    await page.reload();
    await expect.poll(isDark).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "Try Without Signup" }).isVisible()).toBe(true);
    await screenshot(page, "landing-desktop-dark");
    await nav(page).getByRole("button", { name: "Switch to light theme" }).click();
    await expect.poll(isDark).toBe(false);
    expect(problems).toEqual([]);
  });

  it("follows the system theme when nothing was chosen", async () => {
    const { page } = await open("/", { colorScheme: "dark" });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  });

  it("collapses the navigation into a menu on a phone", async () => {
    const { page, problems } = await open("/", { width: 390, height: 844 });
    await expect.poll(() => page.getByTestId("desktop-nav").isVisible()).toBe(false);
    await screenshot(page, "landing-phone-light");
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.locator("#mobile-menu");
    await expect.poll(() => menu.getByRole("link", { name: "Features" }).isVisible()).toBe(true);
    await menu.getByRole("button", { name: "Français" }).click();
    await expect.poll(() => menu.getByRole("link", { name: "Fonctionnalités" }).isVisible()).toBe(true);
    await screenshot(page, "menu-phone-fr");
    await menu.getByRole("link", { name: "Tarifs" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/pricing");
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it("looks right on a phone in dark mode", async () => {
    const { page, problems } = await open("/", { width: 390, height: 844, colorScheme: "dark" });
    await expect.poll(() => page.getByRole("link", { name: "Try Without Signup" }).isVisible()).toBe(true);
    await screenshot(page, "landing-phone-dark");
    expect(problems).toEqual([]);
  });

  it("sends a visitor from a protected page to /auth", async () => {
    const { page, problems } = await open("/dashboard");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/auth");
    expect(await page.evaluate(() => sessionStorage.getItem("roomcanvas.returnTo"))).toBe("/dashboard");
    expect(problems).toEqual([]);
  });

  it("shows Loading page... while a page's code arrives", async () => {
    const { page, problems } = await open("/");
    await expect.poll(() => page.getByRole("link", { name: "Try Without Signup" }).isVisible()).toBe(true);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/FeaturesPage-.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await nav(page).getByRole("link", { name: "Features" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Loading page...");
    release();
    await expect.poll(() => page.getByRole("heading", { name: "Features" }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("shows the generic error screen when a page cannot load, and Refresh Page reloads", async () => {
    const { page } = await open("/");
    await expect.poll(() => page.getByRole("link", { name: "Try Without Signup" }).isVisible()).toBe(true);
    // A deploy that replaced the page chunks under an open tab: the lazy page fails to load.
    await page.route(/\/assets\/FeaturesPage-.*\.js$/, (route) => route.abort());
    await nav(page).getByRole("link", { name: "Features" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Something went wrong" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText("We encountered an unexpected error. Please try refreshing the page.").isVisible()).toBe(true);
    await expect.poll(() => page.locator("pre").textContent()).toMatch(/dynamically imported module|Failed to fetch/);
    await screenshot(page, "error-screen");
    await page.unroute(/\/assets\/FeaturesPage-.*\.js$/);
    await page.getByRole("button", { name: "Refresh Page" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Features" }).isVisible()).toBe(true);
  });
});
