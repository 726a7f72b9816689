/**
 * Browser tests drive Debian's Chromium with playwright-core (never a downloaded browser).
 * Without Chromium they are skipped with the install command, except under CI=true, where a
 * missing Chromium fails the run. Here too is what every browser test shares: its browsers
 * (useBrowsers: opened per test, closed after it), signing up and in, and waiting for a render on
 * the page.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page, type Request } from "playwright-core";
import { afterAll, afterEach, describe, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { STORAGE_KEYS, type Language } from "../../src/shared/constants";
import { PASSWORD, uniqueEmail } from "./render";
import { CookieJar, createBrowserLikeClient } from "./trpc-client";
import { waitUntil } from "./wait";

export const CHROMIUM_INSTALL_COMMAND = "sudo apt-get install -y chromium-headless-shell";
export const SCREENSHOT_DIR = path.resolve("tests/.artifacts/screenshots");
/**
 * Screenshots are for people to look at; CI keeps none, so .ci/run sets TEST_SCREENSHOTS=off and
 * saves their time (a full-page JPEG costs about a third of a second: decision 099).
 */
export const SCREENSHOTS_TAKEN = process.env.TEST_SCREENSHOTS !== "off";

/**
 * Debian's old headless shell (package chromium-headless-shell, the build Playwright itself runs
 * headless tests in) comes first: the same engine without the full browser's GPU process and UI,
 * about a fifth less CPU for the same test file (decision 107); the full Chromium serves where it is
 * the only one installed.
 */
const CHROMIUM_LOCATIONS = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"];

export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, ...CHROMIUM_LOCATIONS];
  return candidates.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate)) ?? null;
}

const chromiumPath = findChromium();

/**
 * A browser test's time: its whole walk, every step of which a busy machine slows (three test
 * files share two cores in `npm test`; a walk that takes 15 s alone took 50 s there). What a test
 * waits for has its own limit (expect.poll, waitUntil); this one only stops a test that hangs.
 * A test that needs longer says so.
 */
export const BROWSER_TEST_TIMEOUT_MS = 180_000;

/** describe() for browser tests: runs with Chromium, skips (or fails under CI) without it. */
export function describeBrowser(name: string, body: () => void): void {
  if (chromiumPath) {
    describe(name, { timeout: BROWSER_TEST_TIMEOUT_MS }, body);
    return;
  }
  if (process.env.CI === "true") {
    describe(name, () => {
      it("needs Chromium", () => {
        throw new Error(
          `Chromium not found (looked at CHROMIUM_PATH, ${CHROMIUM_LOCATIONS.join(", ")}). Install it: ${CHROMIUM_INSTALL_COMMAND}`,
        );
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
  /** Whether the page may animate (default false: the profile prefers reduced motion). */
  motion?: boolean;
}

/**
 * One Chromium per test file, started on first need; every test gets a context of its own in it, as
 * isolated as a fresh profile (its own cookies, storage and cache) at a fraction of a new browser's
 * start (about 0.15 s against 0.6 s here, and far less CPU). useBrowsers() stops it after the file's
 * tests; the next launch starts another.
 */
let sharedChromium: Promise<Browser> | null = null;
/** Flags a file's tests need beyond the common ones (useBrowsers' chromiumArgs), e.g. WebGL on SwiftShader. */
let fileChromiumArgs: readonly string[] = [];

function chromiumForThisFile(): Promise<Browser> {
  if (!chromiumPath) throw new Error(`Chromium not found. Install it: ${CHROMIUM_INSTALL_COMMAND}`);
  sharedChromium ??= chromium
    .launch({
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
        // No software GL unless a file asks for WebGL (its chromiumArgs): the pages draw in 2D.
        ...(fileChromiumArgs.length === 0 ? ["--disable-software-rasterizer"] : []),
        ...fileChromiumArgs,
      ],
    })
    .then((browser) => {
      browser.on("disconnected", () => {
        sharedChromium = null;
      });
      return browser;
    });
  return sharedChromium;
}

/** Stops this file's Chromium, if one was started. */
export async function stopChromium(): Promise<void> {
  const running = sharedChromium;
  sharedChromium = null;
  await (await running)?.close();
}

/** A fresh browser context: what a new profile would be, in this file's Chromium. */
export async function launchBrowser(options: BrowserOptions = {}): Promise<BrowserContext> {
  const context = await (
    await chromiumForThisFile()
  ).newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? "light",
    locale: options.locale ?? "en-US",
    // Spinners and progress bars stop (the app honours the setting): a looping animation keeps the
    // renderer drawing frames for nothing. A test of motion itself asks for it.
    reducedMotion: options.motion ? "no-preference" : "reduce",
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

/**
 * A fresh browser with its first page, whose problems (console errors, uncaught exceptions) are
 * collected. The caller closes it; in a describeBrowser block, useBrowsers() does.
 */
export async function launchPage(options: BrowserOptions = {}): Promise<OpenedPage> {
  const browser = await launchBrowser(options);
  const page = browser.pages()[0] ?? (await browser.newPage());
  return { browser, page, problems: collectPageProblems(page) };
}

/** A browser a test opened: its profile, its first page, and what that page reported as broken. */
export interface OpenedPage {
  browser: BrowserContext;
  page: Page;
  problems: string[];
}

export interface OpenOptions extends BrowserOptions {
  /** Runs on the new page before it loads the address (e.g. to install Playwright's clock). */
  beforeLoad?: (page: Page) => Promise<void>;
}

export interface Browsers {
  /**
   * A fresh browser (its own profile) with its first page, its problems collected, at `address`:
   * a path on the block's server ("/auth?tab=signup") or a whole URL. Closed after the test.
   */
  open(address: string, options?: OpenOptions): Promise<OpenedPage>;
  /** A fresh browser with its first page (about:blank), its problems collected. Closed after the test. */
  launch(options?: BrowserOptions): Promise<OpenedPage>;
}

/**
 * The browsers of a describeBrowser block. Called in the block's body, it closes every browser its
 * tests open after each test, however the test ended (and any a beforeAll opened, after the block);
 * a test that wants one closed sooner (to open the next as someone else) closes it itself.
 * `baseUrl` tells where the paths given to open() are: usually `() => server.url`. `chromiumArgs`: flags
 * this file's Chromium needs beyond the common ones (the AR test's WebGL on SwiftShader).
 */
export function useBrowsers(baseUrl?: () => string, options: { chromiumArgs?: readonly string[] } = {}): Browsers {
  fileChromiumArgs = options.chromiumArgs ?? [];
  const opened = new Set<BrowserContext>();
  const closeAll = async () => {
    const closing = [...opened];
    opened.clear();
    await Promise.all(closing.map((browser) => browser.close()));
  };
  afterEach(closeAll);
  afterAll(async () => {
    await closeAll();
    await stopChromium();
  });

  async function launch(options: BrowserOptions = {}): Promise<OpenedPage> {
    const page = await launchPage(options);
    opened.add(page.browser);
    page.browser.on("close", () => opened.delete(page.browser));
    return page;
  }

  return {
    launch,
    async open(address, { beforeLoad, ...options } = {}) {
      if (!/^https?:\/\//.test(address) && !baseUrl) throw new Error(`open("${address}"): a path needs useBrowsers(baseUrl)`);
      const page = await launch(options);
      await beforeLoad?.(page.page);
      await page.page.goto(/^https?:\/\//.test(address) ? address : `${baseUrl!()}${address}`);
      return page;
    },
  };
}

/**
 * Walks `paths` as a person does: loads the first, moves the pointer over links to all the others
 * (the app then fetches their code, texts and data layer: prefetchLinks) and waits for that, then
 * opens each inside the app, as following one of its links does (the router follows
 * history.pushState; the app is not loaded again). `visit` runs on each page once it is opened.
 */
export async function walkPages(
  page: Page,
  baseUrl: string,
  paths: readonly string[],
  requests: PageRequests,
  visit: (path: string) => Promise<void>,
): Promise<void> {
  for (const [index, path] of paths.entries()) {
    if (index === 0) {
      await page.goto(`${baseUrl}${path}`);
    } else {
      if (index === 1) await reachForLinks(page, paths.slice(1), requests);
      await page.evaluate((to) => history.pushState(null, "", to), path);
    }
    await visit(path);
  }
}

/** Moves the pointer over links to `paths`, and waits for what that fetches. */
async function reachForLinks(page: Page, paths: readonly string[], requests: PageRequests): Promise<void> {
  await page.evaluate((targets) => {
    for (const target of targets) {
      const link = document.createElement("a");
      link.href = target;
      document.body.append(link);
      link.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
      link.remove();
    }
  }, paths);
  await requests.quiet();
}

/** Waits until a page has answered what was last done to it (requestsOf). */
export interface PageRequests {
  /**
   * Resolves once nothing the page asked for is in flight (its code, texts, data) and two frames have
   * been drawn with nothing new asked for; rejects after `timeoutMs`.
   */
  quiet(timeoutMs?: number): Promise<void>;
}

/**
 * Follows a page's requests from now on, so that a test waits for the page instead of for a fixed
 * time. Server-sent event streams stay open for as long as the page and do not count.
 */
export function requestsOf(page: Page): PageRequests {
  const inFlight = new Set<Request>();
  let whenIdle: (() => void)[] = [];
  const done = (request: Request) => {
    inFlight.delete(request);
    if (inFlight.size > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  };
  page.on("request", (request) => {
    if (request.resourceType() !== "eventsource") inFlight.add(request);
  });
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  const idle = () => (inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenIdle.push(resolve)));
  const twoFrames = () =>
    page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => undefined);
  return {
    async quiet(timeoutMs = 15_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${page.url()} still waits for ${[...inFlight].map((request) => request.url()).join(", ")}`)),
          timeoutMs,
        );
      });
      try {
        // What the frames' work starts (an effect's query, a lazy part's code) is waited for too. The page's
        // requests are reported by the browser's network side, not by the page: a request the page made
        // may be reported after the frames' answer, so quiet means quiet across two rounds of frames.
        for (let quietRounds = 0; quietRounds < 2;) {
          await Promise.race([idle().then(twoFrames), late]);
          quietRounds = inFlight.size === 0 ? quietRounds + 1 : 0;
        }
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Collects what the page reports as broken: console errors (CSP violations among them) and
 * uncaught exceptions. Tests assert it stays empty.
 */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    // The address says which request failed when the text is only "Failed to load resource".
    const { url } = message.location();
    if (message.type() === "error") problems.push(`console: ${message.text()}${url ? ` (${url})` : ""}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** A text as the page shows it in that language: a key of the merged translations, {{placeholders}} filled in (plural keys with their _one/_other ending). */
export function uiText(language: Language, key: string, params: Record<string, string | number> = {}): string {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], translations[language]);
  if (typeof value !== "string") throw new Error(`no text ${key} in ${language}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(params[name] ?? ""));
}

/** A label of the sign-in form, as the page shows it in that language. */
function signInText(language: Language, key: "email" | "password" | "signInButton"): string {
  const auth = translations[language].auth;
  const text = typeof auth === "object" ? auth[key] : undefined;
  if (typeof text !== "string") throw new Error(`no text auth.${key} in ${language}`);
  return text;
}

export interface SignUpOptions {
  /** Default: a new unique address. */
  email?: string;
  fullName?: string;
  password?: string;
}

/** Creates an account over the API, as the sign-up form would; returns its e-mail address. */
export async function signUp(baseUrl: string, options: SignUpOptions = {}): Promise<string> {
  const email = options.email ?? uniqueEmail();
  const { client } = createBrowserLikeClient(baseUrl);
  await client.auth.signUp.mutate({ email, password: options.password ?? PASSWORD, fullName: options.fullName ?? "Ana Lima" });
  return email;
}

export interface SignInOptions {
  password?: string;
  /** The language the page shows, whose labels the form is filled by (default "en"). */
  language?: Language;
  /** How long the dashboard may take to appear (default 15 s; the form only). */
  timeoutMs?: number;
  /** The page to open once signed in: a path on the server (default /dashboard, where the form leads). */
  to?: string;
}

/**
 * Signs the browser in: the sign-in request the /auth form sends, made over the API with the
 * browser's user agent, its session cookie given to the browser, then /dashboard (where the form
 * leads) or the page the test goes to opened. The form itself is tested where signing in is the subject (auth-client,
 * two-factor, translations); every other test starts signed in without drawing the /auth page
 * first, a whole page load saved (decision 108). Fails naming the address and what the server said.
 */
export async function signIn(page: Page, baseUrl: string, email: string, options: SignInOptions = {}): Promise<void> {
  const jar = new CookieJar();
  const userAgent = await page.evaluate(() => navigator.userAgent);
  const { client } = createBrowserLikeClient(baseUrl, jar, { "user-agent": userAgent });
  const result = await client.auth.signIn.mutate({ email, password: options.password ?? PASSWORD });
  if (result.status !== "signed-in" || jar.cookies.size === 0) throw new Error(`${email} could not sign in: ${JSON.stringify(result)}`);
  await page
    .context()
    .addCookies([...jar.cookies].map(([name, value]) => ({ name, value, url: baseUrl, httpOnly: true, sameSite: "Lax" as const })));
  await page.goto(`${baseUrl}${options.to ?? "/dashboard"}`);
}

/**
 * Signs in on the /auth page's form as a person would (labels, the Sign In button), so the browser
 * holds the session cookie, and waits for the dashboard. Fails naming the address and the page it
 * stayed on.
 */
export async function signInWithForm(page: Page, baseUrl: string, email: string, options: SignInOptions = {}): Promise<void> {
  const language = options.language ?? "en";
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel(signInText(language, "email")).fill(email);
  await page.getByLabel(signInText(language, "password"), { exact: true }).fill(options.password ?? PASSWORD);
  await page.getByRole("button", { name: signInText(language, "signInButton"), exact: true }).click();
  await waitUntil(() => new URL(page.url()).pathname, {
    message: `${email} to be signed in and on /dashboard`,
    until: (pathname) => pathname === "/dashboard",
    timeoutMs: options.timeoutMs ?? 15_000,
    intervalMs: 100,
  });
}

/** A new account (over the API), signed in on the page's form; returns its e-mail address. */
export async function signUpAndSignIn(page: Page, baseUrl: string, options: SignUpOptions & SignInOptions = {}): Promise<string> {
  const email = await signUp(baseUrl, options);
  await signIn(page, baseUrl, email, options);
  return email;
}

/**
 * Waits until the page shows `count` render cards (default 1), every one succeeded. Throws with the
 * cards' statuses when that does not come in time, and at once when a render on the page failed
 * or was canceled.
 */
export async function waitForRender(page: Page, options: { count?: number; timeoutMs?: number } = {}): Promise<void> {
  const count = options.count ?? 1;
  const statuses = await waitUntil(
    () => page.locator("[data-testid=job-card]").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-status"))),
    {
      message: `${count} render card${count === 1 ? "" : "s"} to show succeeded`,
      until: (seen) =>
        (seen.length === count && seen.every((status) => status === "succeeded")) ||
        seen.some((status) => status === "failed" || status === "canceled"),
      timeoutMs: options.timeoutMs ?? 20_000,
      intervalMs: 100,
    },
  );
  if (statuses.some((status) => status !== "succeeded")) throw new Error(`a render on the page did not succeed: ${statuses.join(", ")}`);
}

/**
 * The whole page, for a person to look at, in tests/.artifacts/screenshots. JPEG: the browser encodes a
 * long page in about half the time PNG takes, and a few hundred are taken per run.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_TAKEN) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Pictures still arriving would look like broken ones in the screenshot.
  await page
    .waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.jpg`), fullPage: true, type: "jpeg", quality: 85 });
}

/** The window as it shows (a dialog, a moment of an animation), as PNG; none where screenshots are off. */
export async function screenshotViewport(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_TAKEN) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: "disabled" });
}
