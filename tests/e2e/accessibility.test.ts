/**
 * axe-core (WCAG 2.2 A and AA rules) on every page of the route table, in a browser against the
 * real server: signed out, signed in as a member and as an admin (/admin, every tab), in the light and
 * the dark theme, on a phone (390 px) and a desktop (1366 px): every page in both themes and at both
 * widths, the widths taking turns from page to page and swapped between the themes (half the runs of
 * every page in every pairing; CI's time is bounded). Each page is opened once and checked in the
 * light theme, then in the dark one: the app follows the system's theme as it changes, so one walk
 * per visitor, member and admin covers both (decision 108). No serious or critical violation
 * may remain; the help drawer is checked open too. axe is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { APP_ROUTES } from "../../src/shared/routes";
import { describeBrowser, requestsOf, screenshot, signIn, signUp, useBrowsers, walkPages, type PageRequests } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const LOADING_PAGE = "Loading page...";
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } } as const;
type Who = "visitor" | "member" | "admin";
/** The admin page's tabs (?section=). */
const ADMIN_SECTIONS = ["users", "jobs", "credits", "outbox", "system", "self-tests", "analytics"];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe on what the page shows now; returns its serious and critical violations, one line per element. */
async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate("typeof window.axe === 'object'");
  if (!loaded) await page.evaluate(`${AXE_SOURCE};window.axe = axe;0`);
  const violations = (await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe
      // resultTypes: only the violations are detailed (every rule still runs); the passes' details cost time.
      .run(document, {
        resultTypes: ["violations"],
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
      })
      .then((result) => result.violations),
  )) as Violation[];
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}): ${node.target.join(" ")}: ${(node.failureSummary ?? violation.help).replace(/\s+/g, " ")}`,
      ),
    );
}

/** Waits until the page has arrived: no "Loading page..." spinner, pictures loaded, nothing more in flight. */
async function settle(page: Page, requests: PageRequests): Promise<void> {
  await page
    .waitForFunction(
      (loading) =>
        !!document.querySelector("main") &&
        ![...document.querySelectorAll("[role=status]")].some((status) => status.textContent?.includes(loading)),
      LOADING_PAGE,
      { timeout: 15_000 },
    )
    .catch(async (error: unknown) => {
      const body = await page.evaluate(() => document.body.innerText.slice(0, 300)).catch(() => "?");
      throw new Error(`${page.url()} did not settle (${String(error)}); it shows: ${body}`);
    });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: 10_000 }).catch(() => {});
  await requests.quiet();
}

const THEMES = ["light", "dark"] as const;

/**
 * The pages a member walks: the protected ones, and the public ones that show a signed-in user
 * something else (the others, like /terms or /guide, show the same content under the same shell the
 * protected pages already check; the visitor walks them).
 */
const SIGNED_IN_VIEWS = new Set(["/", "/upload", "/batch-upload", "/style-select", "/render", "/pricing"]);
function signedInDiffers(route: (typeof APP_ROUTES)[number]): boolean {
  return route.access === "protected" || SIGNED_IN_VIEWS.has(route.path);
}

/** The width a page is checked at: pages take turns, and the dark theme takes the other turn. */
function deviceFor(theme: "light" | "dark", index: number): keyof typeof WIDTHS {
  return (index + (theme === "dark" ? 1 : 0)) % 2 === 0 ? "phone" : "desktop";
}

describeBrowser("accessibility (axe-core, WCAG 2.2 AA) on every page", () => {
  let server: TestServer;
  let adminEmail: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    adminEmail = await signUp(server.url);
    const user = await server.deps.db.selectFrom("users").select("id").where("email", "=", adminEmail).executeTakeFirstOrThrow();
    await server.deps.db.insertInto("user_roles").values({ user_id: user.id, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { launch } = useBrowsers();

  it.each(["visitor", "member", "admin"] as const)(
    "no serious or critical violation (%s, light and dark, phone and desktop)",
    async (who: Who) => {
      const { page } = await launch({ ...WIDTHS[deviceFor("light", 0)], colorScheme: "light" });
      const requests = requestsOf(page);
      if (who === "member") await signIn(page, server.url, await signUp(server.url));
      if (who === "admin") await signIn(page, server.url, adminEmail);
      const paths: string[] =
        who === "admin"
          ? ADMIN_SECTIONS.map((section) => `/admin?section=${section}`)
          : APP_ROUTES.filter((route) => (who === "visitor" ? true : route.path !== "/admin" && signedInDiffers(route))).map(
              (route) => route.path,
            );
      if (who === "visitor") paths.push("/no-such-page");
      const found: string[] = [];
      const check = async (where: string, theme: (typeof THEMES)[number], device: keyof typeof WIDTHS) => {
        const violations = await seriousViolations(page);
        if (violations.length === 0) return;
        found.push(...violations.map((line) => `${where} (${theme}, ${device}): ${line}`));
        await screenshot(page, `a11y-${who}-${theme}-${device}${where.replace(/[/?=\s]+/g, "-")}`);
      };
      /** The page as it is now, in each theme at its turn's width. */
      const checkBothThemes = async (where: string, index: number) => {
        for (const theme of THEMES) {
          const device = deviceFor(theme, index);
          await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
          await page.setViewportSize(WIDTHS[device]);
          await settle(page, requests);

          await check(where, theme, device);
        }
      };
      // The first page is loaded; the others are reached for and opened inside the app.
      let index = 0;
      await walkPages(page, server.url, paths, requests, (path) => checkBothThemes(path, index++));
      // The help drawer, open.
      await page.getByTestId("help-button").click();
      await page.getByRole("dialog").waitFor();
      await requests.quiet();
      await checkBothThemes(`${paths.at(-1)} with the help drawer open`, index);
      expect(found).toEqual([]);
    },
  );
});
