/**
 * Issue 17 "Flows" in a browser against the real server: a reused reset link says so at once (with
 * a button to request a new one) while a fresh one still shows the form; a confirmation link opened
 * again says the address is already confirmed; batch upload rows refused for the file itself show a
 * file icon and the reason, without a retry that cannot help, and the free-credits callout shows;
 * backup codes can be copied and downloaded as a .txt file; a render or upload whose file is gone
 * shows a fallback tile. Screenshots at 390 px dark and 1366 px light.
 */
import fs from "node:fs";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { totpCode, totpStep } from "../../src/server/auth/two-factor";
import { localProvider } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { MESSAGES } from "../../src/shared/messages";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { confirmAddress, PASSWORD, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { createBrowserLikeClient } from "../helpers/trpc-client";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

/** The Preview engine's work, billed per render like the hosted APIs: free credits wait for the confirmed address. */
const billedEngine: RenderProvider = { ...localProvider, id: "billed-test", label: "Billed test engine", billedPerRender: true };

/** Expected answers: the refused upload, and pictures whose files were removed. */
const expectedLoadFailure = /Failed to load resource: the server responded with a status of (404|415|422|400)/;

describeBrowser("flows (issue 17)", () => {
  let server: TestServer;
  const clock = new TestClock();
  let problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { renderProvider: billedEngine, clock });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    expect(problems.filter((problem) => !expectedLoadFailure.test(problem))).toEqual([]);
  });
  const { launch } = useBrowsers();

  const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

  /** The newest mail of a kind to the address, from the outbox (no SMTP configured: bodies are kept). */
  async function mailedLink(email: string, subject: string, pattern: RegExp): Promise<string> {
    const mail = await server.deps.db
      .selectFrom("mail_outbox")
      .select("text_body")
      .where("to_address", "=", email)
      .where("subject", "like", `${subject}%`)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const link = pattern.exec(mail.text_body)?.[0];
    if (!link) throw new Error(`no link in the mail to ${email}`);
    return link;
  }

  async function resetToken(email: string): Promise<string> {
    // The newest mail is told apart by its time.
    clock.advance(1000);
    await createBrowserLikeClient(server.url).client.auth.requestPasswordReset.mutate({ resetEmail: email });
    const link = await mailedLink(email, "Reset", /\/auth\?reset=true&token=[^\s]+/);
    return decodeURIComponent(new URL(link, server.url).searchParams.get("token")!);
  }

  for (const { width, height, colorScheme, label } of [
    { width: 390, height: 844, colorScheme: "dark", label: "390-dark" },
    { width: 1366, height: 900, colorScheme: "light", label: "1366-light" },
  ] as const) {
    it(`a used reset link says so before the form, with a button to request a new one; a fresh one still works (${label})`, async () => {
      const user = await signedInClient(server.url);
      const used = await resetToken(user.email);
      await createBrowserLikeClient(server.url).client.auth.resetPassword.mutate({ token: used, password: "Brand-New-Pass2" });
      let page: Page;
      ({ page, problems } = await launch({ width, height, colorScheme }));

      await page.goto(`${server.url}/auth?reset=true&token=${encodeURIComponent(used)}`);
      const problem = page.getByTestId("reset-link-problem");
      await poll(() => problem.isVisible()).toBe(true);
      expect(await problem.getAttribute("data-state")).toBe("used");
      expect(await problem.innerText()).toContain("This reset link was already used");
      // No form to fill in for nothing.
      expect(await page.getByLabel("New Password", { exact: true }).count()).toBe(0);
      await screenshot(page, `flows-reset-link-used-${label}`);
      await problem.getByRole("button", { name: "Request a new reset link" }).click();
      await poll(() => page.getByRole("button", { name: "Send Reset Link" }).isVisible()).toBe(true);

      // Asking does not use the link up: a fresh one shows the form, and sets the password.
      const fresh = await resetToken(user.email);
      await page.goto(`${server.url}/auth?reset=true&token=${encodeURIComponent(fresh)}`);
      await poll(() => page.getByLabel("New Password", { exact: true }).isVisible()).toBe(true);
      await page.getByLabel("New Password", { exact: true }).fill("Another-Pass3!");
      await page.getByLabel("Confirm New Password", { exact: true }).fill("Another-Pass3!");
      await page.getByRole("button", { name: "Update Password" }).click();
      await poll(() => toast(page, "Password updated").isVisible()).toBe(true);
    });

    it(`a confirmation link opened again says the address is already confirmed (${label})`, async () => {
      const user = await signedInClient(server.url);
      await confirmAddress(server.url, server.deps.db, user.email);
      const link = await mailedLink(user.email, "Confirm", /\/auth\/confirm\?token=[\w.-]+/);
      let page: Page;
      ({ page, problems } = await launch({ width, height, colorScheme }));
      await page.goto(`${server.url}${link}`);
      await poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe("/");
      await poll(() => toast(page, "Email already confirmed").isVisible()).toBe(true);
      expect(await toast(page, "Email confirmation failed").count()).toBe(0);
      await screenshot(page, `flows-email-already-confirmed-${label}`);
    });

    it(`batch upload: refused files show a file icon and the reason, no retry; the free-credits callout shows (${label})`, async () => {
      const user = await signedInClient(server.url);
      let page: Page;
      ({ page, problems } = await launch({ width, height, colorScheme }));
      await signIn(page, server.url, user.email, { to: "/batch-upload" });
      // Unconfirmed, on an engine that bills each render: said up front, as on the other render pages.
      await poll(() => page.getByTestId("free-credits-locked").isVisible()).toBe(true);

      await page.getByTestId("file-input").setInputFiles([
        { name: "room.jpg", mimeType: "image/jpeg", buffer: await roomPhoto(800, 600) },
        { name: "floor-plan-notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 not a picture") },
        // A JPEG cut short: its type checks out, only the server finds it unreadable.
        { name: "damaged.jpg", mimeType: "image/jpeg", buffer: (await roomPhoto(800, 600)).subarray(0, 600) },
      ]);
      const row = (name: string) => page.getByTestId("batch-row").filter({ hasText: name });
      await poll(() => row("room.jpg").getAttribute("data-status")).toBe("done");
      await poll(() => row("damaged.jpg").getAttribute("data-status")).toBe("failed");
      await poll(() => row("floor-plan-notes.pdf").getAttribute("data-status")).toBe("failed");

      for (const [name, reason] of [
        ["floor-plan-notes.pdf", MESSAGES.uploadUnsupportedType],
        ["damaged.jpg", MESSAGES.uploadUnreadable],
      ] as const) {
        await poll(() => row(name).getByTestId("batch-row-file-icon").isVisible()).toBe(true);
        expect(await row(name).locator("img").count()).toBe(0);
        expect(await row(name).innerText()).toContain(reason);
        expect(
          await row(name)
            .getByRole("button", { name: `Try ${name} again` })
            .count(),
        ).toBe(0);
        expect(
          await row(name)
            .getByRole("button", { name: `Remove ${name}` })
            .isVisible(),
        ).toBe(true);
      }
      // The good picture keeps its thumbnail.
      expect(await row("room.jpg").locator("img").count()).toBe(1);
      await screenshot(page, `flows-batch-refused-${label}`);

      await row("damaged.jpg").getByRole("button", { name: "Remove damaged.jpg" }).click();
      await poll(() => row("damaged.jpg").count()).toBe(0);
    });

    it(`backup codes can be copied and downloaded as a text file (${label})`, async () => {
      const user = await signedInClient(server.url);
      let page: Page;
      let browser: BrowserContext;
      ({ browser, page, problems } = await launch({ width, height, colorScheme }));
      await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      await signIn(page, server.url, user.email, { to: "/settings" });
      await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
      const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
      await page.getByLabel("6-digit code").fill(totpCode(decodeBase32IgnorePadding(secret), totpStep(clock.now())));
      await page.getByRole("button", { name: "Turn on" }).click();
      const list = page.getByTestId("backup-codes");
      await poll(() => list.isVisible()).toBe(true);
      const codes = (await list.locator("li").allTextContents()).map((code) => code.trim());
      expect(codes).toHaveLength(10);

      await list.getByRole("button", { name: "Copy" }).click();
      await poll(() => toast(page, "Backup codes copied").isVisible()).toBe(true);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));

      const [download] = await Promise.all([page.waitForEvent("download"), list.getByRole("button", { name: "Download" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^roomcanvas-backup-codes-\d{4}-\d{2}-\d{2}\.txt$/);
      const text = fs.readFileSync((await download.path())!, "utf8");
      expect(text).toContain(`RoomCanvas backup codes for ${user.email}`);
      for (const code of codes) expect(text).toContain(code);
      await screenshot(page, `flows-backup-codes-${label}`);
    });

    it(`a render or upload whose file is gone shows a fallback tile with a short reason (${label})`, async () => {
      const user = await signedInClient(server.url);
      await confirmAddress(server.url, server.deps.db, user.email);
      const uploaded = await upload(server.url, user.jar, await roomPhoto());
      const { jobs } = await user.client.render.create.mutate({
        projectId: uploaded.body.projectId,
        imageId: uploaded.body.imageId,
        style: ["modern"],
      });
      await waitForRenders(user, [jobs[0]!.id]);
      // Every file of the render and its upload goes (a restore without files, a cleanup gone wrong).
      const job = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobs[0]!.id).executeTakeFirstOrThrow();
      const picture = await server.deps.db
        .selectFrom("uploads")
        .selectAll()
        .where("id", "=", uploaded.body.imageId)
        .executeTakeFirstOrThrow();
      for (const key of [job.input_key, job.result_key, job.medium_key, job.thumb_key, picture.original_key, picture.thumb_key]) {
        if (key) await server.deps.storage.remove("project-uploads", key);
      }

      let page: Page;
      ({ page, problems } = await launch({ width, height, colorScheme }));
      await signIn(page, server.url, user.email);
      const missing = page.getByTestId("missing-picture");
      // The project's card and the render's tile on the dashboard.
      await page.goto(`${server.url}/dashboard?project=${encodeURIComponent(uploaded.body.projectId)}`);
      await poll(() => page.getByTestId("render-tile").getByTestId("missing-picture").isVisible()).toBe(true);
      expect(await page.getByTestId("render-tile").innerText()).toContain("Picture unavailable");
      expect(await page.getByTestId("render-tile").locator("img").count()).toBe(0);
      await screenshot(page, `flows-missing-picture-dashboard-${label}`);
      await page.goto(`${server.url}/dashboard`);
      await poll(() => page.getByTestId("project-card").first().getByTestId("missing-picture").isVisible()).toBe(true);
      await screenshot(page, `flows-missing-picture-projects-${label}`);

      // The render page's comparison.
      await page.goto(`${server.url}/render?jobs=${encodeURIComponent(jobs[0]!.id)}`);
      await poll(() => missing.first().isVisible()).toBe(true);
      expect(await page.getByTestId("job-card").innerText()).toContain("Its file is no longer on the server.");
      await screenshot(page, `flows-missing-picture-render-${label}`);

      // The upload's own picture on the style page.
      await page.goto(`${server.url}/style-select?image=${uploaded.body.imageId}&project=${uploaded.body.projectId}`);
      await poll(() => missing.first().isVisible()).toBe(true);

      // The studio's picture to paint on, and its version's 48 px thumbnail.
      await page.goto(`${server.url}/modification-studio?picture=${encodeURIComponent(jobs[0]!.id)}`);
      await poll(() => page.getByTestId("studio-canvas-frame").getByTestId("missing-picture").isVisible()).toBe(true);
      await poll(() => page.getByTestId("version-select").first().getByTestId("missing-picture").count()).toBe(1);
      await screenshot(page, `flows-missing-picture-studio-${label}`);
    });
  }
});
