/**
 * What a phone downloads to show a page the first time (issue 15): the JavaScript bytes as sent on
 * the wire (gzip bodies, from the Resource Timing entries) and the number of script requests,
 * started before the client's FIRST_LOAD_MARK (the page loaded and went idle; what the first paint
 * does not show loads after it), and everything fetched until the network is quiet, for reference.
 * Used by the landing benchmark and by the e2e test that keeps the figure down.
 */
import { chromium, devices } from "playwright-core";
import { FIRST_LOAD_MARK } from "../../src/shared/constants";

/** The landing page's budget of first-load JavaScript, gzip (issue 15). */
export const LANDING_JS_BUDGET_BYTES = 120 * 1024;
/** Its budget of all JavaScript fetched until the network is quiet, gzip (issue 25). */
export const LANDING_IDLE_JS_BUDGET_BYTES = 150 * 1024;

export interface FirstLoad {
  /** Scripts requested before the first-load mark (the page's own first load). */
  jsBytes: number;
  jsRequests: number;
  /** Every script until the network was quiet, the after-load part included. */
  allJsBytes: number;
  allJsRequests: number;
  scripts: Array<{ url: string; bytes: number; startMs: number; first: boolean }>;
}

export async function measureFirstLoad(url: string, chromiumPath: string): Promise<FirstLoad> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ ...devices["Pixel 7"], locale: "en-US" });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "networkidle" });
    // A build from before the mark (to compare with) never sets it: everything counts as first load then.
    await page
      .waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_LOAD_MARK, { timeout: 15_000 })
      .catch(() => null);
    // What loads after the mark starts in a transition, which a busy machine may render after the
    // network has gone quiet once: the help button (AppExtras) is the sign that it has started.
    await page
      .getByTestId("help-button")
      .waitFor({ timeout: 15_000 })
      .catch(() => null);
    await page.waitForLoadState("networkidle");
    const { entries, markAt } = await page.evaluate((mark) => {
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      return {
        entries: resources
          .filter((entry) => entry.initiatorType === "script" || /\.m?js(\?|$)/.test(entry.name))
          .map((entry) => ({ url: entry.name, bytes: entry.encodedBodySize, startMs: entry.startTime })),
        markAt: performance.getEntriesByName(mark)[0]?.startTime ?? Number.POSITIVE_INFINITY,
      };
    }, FIRST_LOAD_MARK);
    const scripts = entries.map((entry) => ({ ...entry, first: entry.startMs < markAt }));
    const first = scripts.filter((script) => script.first);
    const sum = (list: typeof scripts) => list.reduce((total, script) => total + script.bytes, 0);
    return { jsBytes: sum(first), jsRequests: first.length, allJsBytes: sum(scripts), allJsRequests: scripts.length, scripts };
  } finally {
    await browser.close();
  }
}
