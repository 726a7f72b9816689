/**
 * The product with the keyboard alone (issue 17, WCAG 2.1.1 and 2.4.7), on a desktop (light) and a
 * phone (dark): a visitor's free render (Try Without Signup, the file chosen through the Choose
 * file button, a style, Render), the help drawer opened and closed with Escape, the theme and the
 * language switched, signing up and signing in. Only Tab, Shift+Tab, arrows, Space, Enter, Escape
 * and typing; at every stop the focused element must show a focus indicator (an outline, or a ring
 * drawn with box-shadow). Signed in (desktop, dark): an edit in the modification studio with the
 * mask's keyboard box, a purchase up to Stripe's checkout, and an admin's menu, dialog and tabs.
 */
import path from "node:path";
import type { FileChooser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, requestsOf, screenshot, signIn, waitForRender, useBrowsers } from "../helpers/browser";
import { startFakeStripe, type FakeStripe } from "../helpers/fake-stripe";
import { PASSWORD, roomPhoto, signedInClient, uniqueEmail, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const poll = <T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(check, { timeout: 10_000, ...options });

interface Focused {
  /** What the focused element is: tag, role, name. */
  label: string;
  /** Why it shows no focus indicator, or null when it shows one. */
  missing: string | null;
}

/** The focused element and whether it shows a focus indicator. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { label: "body", missing: "nothing is focused" };
    // An element whose frame draws its focus (the studio's mask) is judged by that frame.
    const drawn = element.closest<HTMLElement>("[data-focus-ring]") ?? element;
    const labelled =
      element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.labels?.[0]?.textContent : null;
    const name = (element.getAttribute("aria-label") ?? labelled ?? element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 50);
    const role = element.getAttribute("role") ?? (element instanceof HTMLInputElement && element.type === "radio" ? "radio" : null);
    const label = `<${element.tagName.toLowerCase()}${role ? ` role=${role}` : ""}> "${name}"`;
    const computed = getComputedStyle(drawn);
    const outline =
      computed.outlineStyle !== "none" && parseFloat(computed.outlineWidth) > 0 && computed.outlineColor !== "rgba(0, 0, 0, 0)";
    if (outline) return { label, missing: null };
    // A ring drawn with box-shadow: a layer with no offset and no blur, spread out, in a colour one can see
    // (a plain drop shadow, which the element has unfocused too, does not count).
    const ring = computed.boxShadow.split(/,(?![^(]*\))/).some((layer) => {
      const match = /[a-z]+\(([^)]*)\)\s+(-?[\d.]+)px\s+(-?[\d.]+)px\s+([\d.]+)px\s+([\d.]+)px/.exec(layer.trim());
      if (!match) return false;
      const alpha = match[1]!.includes("/") ? match[1]!.split("/")[1] : match[1]!.split(",")[3];
      return (
        match[2] === "0" &&
        match[3] === "0" &&
        match[4] === "0" &&
        parseFloat(match[5]!) >= 1 &&
        (alpha === undefined || parseFloat(alpha) > 0)
      );
    });
    if (ring) return { label, missing: null };
    return { label, missing: `${label} shows no focus indicator (outline none, box-shadow ${computed.boxShadow})` };
  });
}

/**
 * Moving through a page with keys, collecting every stop that shows no focus indicator. Like a
 * person, it presses the next key once the page has answered the last one: no request of the page
 * in flight (a tab's code or texts, a menu's code) and two frames drawn.
 */
function keyboardWalk(page: Page) {
  const missing: string[] = [];
  const visited: string[] = [];
  const requests = requestsOf(page);
  const settled = () => requests.quiet();
  /** Presses `key` (Tab by default) until the focused element's label matches; checks the focus ring at every stop. */
  async function tabTo(pattern: RegExp, key = "Tab", limit = 80): Promise<void> {
    for (let step = 0; step < limit; step++) {
      await page.keyboard.press(key);
      await settled();
      const now = await focused(page);
      visited.push(now.label);
      // Past the last element the focus leaves the page for a moment (the browser's own controls).
      if (now.missing && now.label !== "body") missing.push(`${new URL(page.url()).pathname}: ${now.missing}`);
      if (pattern.test(now.label)) return;
    }
    throw new Error(`${pattern} not reached with ${key} on ${page.url()}; last stops: ${visited.slice(-12).join(" | ")}`);
  }
  async function expectRing(): Promise<void> {
    const now = await focused(page);
    if (now.missing) missing.push(`${new URL(page.url()).pathname}: ${now.missing}`);
  }
  return { tabTo, expectRing, missing };
}

describeBrowser("every flow with the keyboard alone, with a visible focus ring", () => {
  let server: TestServer;
  let photo: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    photo = path.join(makeTempDir("rc-keyboard-"), "room.jpg");
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#d6cfc2" } })
      .composite([{ input: Buffer.from(`<svg width="1200" height="900"><rect y="640" width="1200" height="260" fill="#8b6b4a"/></svg>`) }])
      .jpeg()
      .toFile(photo);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { launch } = useBrowsers();

  it.each([
    { device: "desktop", width: 1366, height: 900, theme: "light" },
    { device: "phone", width: 390, height: 844, theme: "dark" },
  ] as const)(
    "renders, opens help, switches theme and language, signs up and in ($device, $theme)",
    async ({ device, width, height, theme }) => {
      const { page, problems } = await launch({ width, height, colorScheme: theme });
      const { tabTo, expectRing, missing } = keyboardWalk(page);

      // A visitor's free render, from the landing page.
      await page.goto(`${server.url}/`);
      await poll(() => page.getByRole("link", { name: "Try Without Signup" }).first().isVisible()).toBe(true);
      await tabTo(/Try Without Signup/);
      await page.keyboard.press("Enter");
      await poll(() => new URL(page.url()).pathname).toBe("/upload");
      await tabTo(/Choose file/);
      // The page is pre-rendered: Enter does nothing until its code has loaded, so it is pressed again if need be.
      let chooser: FileChooser | undefined;
      for (let attempt = 0; attempt < 5 && !chooser; attempt++) {
        [chooser] = await Promise.all([
          page.waitForEvent("filechooser", { timeout: 4_000 }).catch(() => undefined),
          page.keyboard.press("Enter"),
        ]);
      }
      if (!chooser) throw new Error("Enter on Choose file opened no file chooser");
      await chooser.setFiles(photo);
      await poll(() => page.getByTestId("uploaded-picture").isVisible(), { timeout: 20_000 }).toBe(true);
      await tabTo(/role=radio/);
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Space");
      await expectRing();
      await poll(() => page.getByRole("radio", { checked: true }).count()).toBe(1);
      await screenshot(page, `keyboard-style-${device}-${theme}`);
      await tabTo(/^<button> "Render"$/);
      await page.keyboard.press("Enter");
      await waitForRender(page, { timeoutMs: 30_000 });

      // The help drawer: opened from the keyboard, closed with Escape, the focus back on the button.
      await tabTo(/Help & Support/);
      await page.keyboard.press("Enter");
      const drawer = page.getByRole("dialog", { name: "Help & Support" });
      await poll(() => drawer.isVisible()).toBe(true);
      await page.keyboard.press("Tab");
      await expectRing();
      await page.keyboard.press("Escape");
      await poll(() => drawer.isVisible()).toBe(false);
      await poll(async () => (await focused(page)).label).toMatch(/Help & Support/);
      await expectRing();

      // The theme.
      const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
      const wasDark = await dark();
      await page.keyboard.press("Escape");
      await page.evaluate(() => window.scrollTo(0, 0));
      await tabTo(/Switch to (dark|light) theme/, "Shift+Tab", 200);
      await page.keyboard.press("Enter");
      await poll(dark).toBe(!wasDark);
      await expectRing();

      // The language: the desktop menu, or the phone's menu and its language buttons.
      if (device === "desktop") {
        await tabTo(/English/, "Shift+Tab");
        await page.keyboard.press("Enter");
        await poll(() => page.getByRole("menu").isVisible()).toBe(true);
        // The menu's code arrives on first use; opened by the keyboard, it starts on its first item.
        await poll(async () => (await focused(page)).label).toMatch(/role=menuitem> "English"/);
        await expectRing();
        await tabTo(/Español/, "ArrowDown", 5);
      } else {
        await tabTo(/Open menu|menu/i);
        await page.keyboard.press("Enter");
        await tabTo(/Español/);
      }
      await page.keyboard.press("Enter");
      await poll(() => page.evaluate(() => document.documentElement.lang)).toBe("es");
      await screenshot(page, `keyboard-language-${device}-${theme}`);
      // Back to English, the same way.
      if (device === "desktop") {
        await tabTo(/Español/, "Shift+Tab", 5).catch(() => tabTo(/Español/));
        await page.keyboard.press("Enter");
        await poll(() => page.getByRole("menu").isVisible()).toBe(true);
        await tabTo(/English/, "Home", 2);
        await page.keyboard.press("Enter");
      } else {
        await tabTo(/English/, "Shift+Tab", 10);
        await page.keyboard.press("Enter");
      }
      await poll(() => page.evaluate(() => document.documentElement.lang)).toBe("en");

      // Sign up, then sign in, from the navigation bar's Sign In.
      await page.goto(`${server.url}/`);
      await poll(() => page.getByRole("link", { name: "Try Without Signup" }).first().isVisible()).toBe(true);
      if (device === "phone") {
        await tabTo(/Open menu|menu/i);
        await page.keyboard.press("Enter");
      }
      await tabTo(/^<a> "Sign In"$/);
      await page.keyboard.press("Enter");
      await poll(() => new URL(page.url()).pathname).toBe("/auth");
      await tabTo(/role=tab> "Sign In"/);
      await page.keyboard.press("ArrowRight");
      await poll(() => page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
      await expectRing();
      const email = uniqueEmail();
      await tabTo(/^<input> "Full Name"$/i);
      await page.keyboard.type("Kim Keyboard");
      await tabTo(/^<input> "Email"$/i);
      await page.keyboard.type(email);
      await tabTo(/^<input> "Password"$/);
      await page.keyboard.type(PASSWORD);
      await tabTo(/Create Account/);
      await page.keyboard.press("Enter");
      await poll(() => page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
      // The address is filled in: the password, then Sign In.
      await tabTo(/^<input> "Password"$/);
      await page.keyboard.type(PASSWORD);
      await tabTo(/^<button> "Sign In"$/);
      await page.keyboard.press("Enter");
      await poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/dashboard");
      await screenshot(page, `keyboard-dashboard-${device}-${theme}`);

      expect([...new Set(missing)]).toEqual([]);
      expect(problems).toEqual([]);
    },
    180_000,
  );
});

describeBrowser("the signed-in flows with the keyboard alone: an edit in the studio, a purchase, an admin's dialogs", () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: "sk_test_keys" });
    server = await startTestServer({
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      STRIPE_SECRET_KEY: "sk_test_keys",
      STRIPE_WEBHOOK_SECRET: "whsec_keys",
      STRIPE_API_URL: fake.url,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  const { launch } = useBrowsers();

  it("paints a region with the keyboard's box and runs the edit, buys credits, adjusts a member's credits and renames the studio (desktop, dark)", async () => {
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    const member = await signedInClient(server.url);
    const uploaded = await upload(server.url, admin.jar, await roomPhoto(1600, 1200));
    const { jobs } = await admin.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(admin, [jobs[0]!.id]);

    const { page, problems } = await launch({ width: 1366, height: 900, colorScheme: "dark" });
    const { tabTo, expectRing, missing } = keyboardWalk(page);
    await signIn(page, server.url, admin.email);

    // The studio: from the render's card, the mask gets the focus and its box; arrows move and size it, Enter marks it.
    await page.goto(`${server.url}/render?jobs=${jobs[0]!.id}`);
    await waitForRender(page);
    await tabTo(/Edit in studio/);
    await page.keyboard.press("Enter");
    await poll(() => new URL(page.url()).pathname).toBe("/modification-studio");
    await page.getByTestId("mask-canvas").waitFor();
    await tabTo(/role=application> "Mask over the picture/);
    const box = page.getByTestId("keyboard-box");
    await poll(() => box.isVisible()).toBe(true);
    const before = await box.boundingBox();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowDown");
    const after = await box.boundingBox();
    expect(after!.x).toBeGreaterThan(before!.x);
    expect(after!.height).toBeGreaterThan(before!.height);
    await page.keyboard.press("Enter");
    await poll(() => page.getByTestId("mask-coverage").getAttribute("data-coverage")).toBe("ok");
    await screenshot(page, "keyboard-studio-box-desktop-dark");
    // The eraser takes the same box away again; the brush marks it back.
    await page.keyboard.press("e");
    await page.keyboard.press("Enter");
    await poll(() => page.getByTestId("mask-coverage").getAttribute("data-coverage")).toBe("empty");
    await page.keyboard.press("b");
    await page.keyboard.press("Space");
    await poll(() => page.getByTestId("mask-coverage").getAttribute("data-coverage")).toBe("ok");
    await tabTo(/^<textarea> "Instruction"$/);
    await page.keyboard.type("a green velvet sofa");
    await tabTo(/^<button> "Apply edit"$/);
    await page.keyboard.press("Enter");
    await poll(() => page.locator("[data-testid=version-row][data-kind=edit][data-status=succeeded]").count(), { timeout: 30_000 }).toBe(1);

    // A purchase: the package's button leads to Stripe's checkout.
    await page.goto(`${server.url}/pricing`);
    await poll(() => page.getByRole("button", { name: "Buy Starter" }).isVisible()).toBe(true);
    await tabTo(/^<button> "Buy Starter"$/);
    expect(problems).toEqual([]);
    await page.keyboard.press("Enter");
    await poll(() => page.url(), { timeout: 15_000 }).toMatch(new RegExp(`^${fake.url}/c/pay/`));
    // The fake Stripe has no checkout page to show (it answers 401): what the browser logged there is not ours.
    await page.goto(`${server.url}/pricing`);
    problems.length = 0;

    // An admin's menu and dialog: a member's credits, then the studio's name in its tab.
    await page.goto(`${server.url}/admin`);
    await poll(() => page.getByRole("tab", { name: "Users" }).isVisible()).toBe(true);
    await tabTo(/^<input> "Search users"$/);
    await page.keyboard.type(member.email);
    await poll(() => page.getByTestId("admin-user").count()).toBe(1);
    await tabTo(new RegExp(`Actions for ${member.email.replace(/[.+]/g, "\\$&")}`));
    await page.keyboard.press("Enter");
    // Opened by the keyboard, the menu starts on its first item.
    await poll(async () => (await focused(page)).label).toMatch(/role=menuitem> "Adjust credits"/);
    await expectRing();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Adjust credits" });
    await poll(() => dialog.isVisible()).toBe(true);
    await tabTo(/^<input> "Credits to add or remove"$/, "Tab", 6);
    await page.keyboard.type("5");
    await tabTo(/^<(input|textarea)> "Reason"$/, "Tab", 4);
    await page.keyboard.type("Keyboard goodwill");
    await tabTo(/^<button> "Apply"$/, "Tab", 4);
    await page.keyboard.press("Enter");
    await poll(() => dialog.count()).toBe(0);
    expect(await member.client.render.allowance.query().then((allowance) => allowance.credits)).toBe(15);

    await page.evaluate(() => window.scrollTo(0, 0));
    await tabTo(/role=tab> "Users"/, "Shift+Tab", 60);
    await tabTo(/role=tab> "Studio"/, "ArrowRight", 15);
    await poll(() => page.getByLabel("Studio name").isVisible()).toBe(true);
    await tabTo(/^<input> "Studio name"$/);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Keyboard Interiors");
    await tabTo(/^<button> "Save brand"$/);
    await page.keyboard.press("Enter");
    await poll(() => page.locator("[data-sonner-toast]").filter({ hasText: "Brand saved" }).isVisible()).toBe(true);
    expect((await server.services.settings.publicStudio()).name).toBe("Keyboard Interiors");
    await screenshot(page, "keyboard-admin-studio-desktop-dark");

    expect([...new Set(missing)]).toEqual([]);
    expect(problems).toEqual([]);
  });
});
