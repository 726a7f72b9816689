/**
 * Browser tests drive Debian's Chromium with playwright-core (never a downloaded browser).
 * Without Chromium they are skipped with the install command, except under CI=true, where a
 * missing Chromium fails the run.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { describe, it } from "vitest";
import { STORAGE_KEYS } from "../../src/shared/constants";
import { makeTempDir } from "./test-env";

export const CHROMIUM_INSTALL_COMMAND = "sudo apt-get install -y chromium";
export const SCREENSHOT_DIR = path.resolve("tests/.artifacts/screenshots");

export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate)) ?? null;
}

const chromiumPath = findChromium();

/** describe() for browser tests: runs with Chromium, skips (or fails under CI) without it. */
export function describeBrowser(name: string, body: () => void): void {
  if (chromiumPath) {
    describe(name, body);
    return;
  }
  if (process.env.CI === "true") {
    describe(name, () => {
      it("needs Chromium", () => {
        throw new Error(`Chromium not found (looked at CHROMIUM_PATH and /usr/bin/chromium). Install it: ${CHROMIUM_INSTALL_COMMAND}`);
      });
    });
    return;
  }
  console.warn(`Browser tests skipped: Chromium not found. Install it with: ${CHROMIUM_INSTALL_COMMAND} (or set CHROMIUM_PATH)`);
  describe.skip(`${name} [skipped: Chromium not found; install it with \`${CHROMIUM_INSTALL_COMMAND}\` or set CHROMIUM_PATH]`, body);
}

export interface BrowserOptions {
  width?: number;
  height?: number;
  colorScheme?: "light" | "dark";
  locale?: string;
  /**
   * Whether the onboarding tour may open by itself for a signed-in user (default false: the
   * profile starts with the tour marked completed, so it does not cover what a test clicks).
   */
  onboarding?: boolean;
}

/** A fresh headless Chromium profile (its own user-data-dir). */
export async function launchBrowser(options: BrowserOptions = {}): Promise<BrowserContext> {
  if (!chromiumPath) throw new Error(`Chromium not found. Install it: ${CHROMIUM_INSTALL_COMMAND}`);
  const context = await chromium.launchPersistentContext(makeTempDir("roomcanvas-chromium-"), {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? "light",
    locale: options.locale ?? "en-US",
  });
  if (!options.onboarding) {
    await context.addInitScript((key) => {
      try {
        localStorage.setItem(key, "true");
      } catch {
        // about:blank and other opaque origins have no storage.
      }
    }, STORAGE_KEYS.onboardingCompleted);
  }
  return context;
}

/** A fresh browser with its first page, whose problems (console errors, uncaught exceptions) are collected. */
export async function launchPage(options: BrowserOptions = {}): Promise<{ browser: BrowserContext; page: Page; problems: string[] }> {
  const browser = await launchBrowser(options);
  const page = browser.pages()[0] ?? (await browser.newPage());
  return { browser, page, problems: collectPageProblems(page) };
}

/**
 * Collects what the page reports as broken: console errors (CSP violations among them) and
 * uncaught exceptions. Tests assert it stays empty.
 */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Pictures still arriving would look like broken ones in the screenshot.
  await page
    .waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
