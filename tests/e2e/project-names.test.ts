/**
 * Project names as a user types them (issue 17): a name over 100 characters gets the spec's message
 * instead of being cut silently, and a long unbroken name wraps in the delete dialog instead of
 * running off a phone's screen. Screenshots on a phone (dark) and a desktop (light).
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

describeBrowser("project names", () => {
  let server: TestServer;
  let problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  for (const { width, height, colorScheme, label } of [
    { width: 1280, height: 800, colorScheme: "light", label: "desktop-light" },
    { width: 390, height: 844, colorScheme: "dark", label: "phone-dark" },
  ] as const) {
    it(`says a name is too long instead of cutting it, and wraps a long name in the delete dialog (${label})`, async () => {
      const user = await signedInClient(server.url);
      let page: Page;
      ({ page, problems } = await launch({ width, height, colorScheme }));
      await signIn(page, server.url, user.email, { to: "/dashboard" });
      await page.getByRole("button", { name: "New project" }).first().click();
      const dialog = page.getByRole("dialog", { name: "New project" });
      const field = dialog.getByLabel("Project name");
      await field.fill("a".repeat(101));
      // Nothing is cut: the whole name stays in the field, and the message says why it cannot be used.
      expect((await field.inputValue()).length).toBe(101);
      await dialog.getByRole("button", { name: "Create" }).click();
      await poll(() => dialog.getByText(MESSAGES.projectNameTooLong).isVisible()).toBe(true);
      expect(await user.client.projects.list.query()).toMatchObject({ total: 0 });

      const longName = "W".repeat(100);
      await field.fill(longName);
      await dialog.getByRole("button", { name: "Create" }).click();
      await poll(async () => (await user.client.projects.list.query()).total).toBe(1);
      await poll(() => dialog.isVisible()).toBe(false);

      await page
        .getByRole("button", { name: `Actions for ${longName}` })
        .first()
        .click();
      await page.getByRole("menuitem", { name: "Delete project" }).click();
      const confirm = page.getByRole("alertdialog");
      await poll(() => confirm.isVisible()).toBe(true);
      // The dialog stays within the screen: its text wraps rather than pushing it wider.
      const box = await confirm.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(await confirm.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await screenshot(page, `project-delete-long-name-${label}`);
    });
  }
});
