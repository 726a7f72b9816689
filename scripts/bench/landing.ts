/**
 * `npm run bench` (landing): the landing page as a phone first loads it, on a production build
 * served by the real server (temporary DATA_DIR). Builds the client only when it is missing or
 * older than its sources. Three runs each, medians:
 *   1. first-load JavaScript: gzip bytes on the wire and script requests up to the client's
 *      first-load mark (scripts/bench/first-load.ts), Chromium with Pixel 7 emulation;
 *   2. Lighthouse (mobile, simulated throttling, Debian's Chromium headless): performance score,
 *      LCP and CLS.
 * BENCH_CLIENT_DIR points it at another build (e.g. an older one, to compare); it is not built then.
 * Prints a table, then one JSON line. A benchmark, not a test: it exits 0 whether or not the goals are met.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startApp } from "../../src/server/boot";
import { parseEnv } from "../../src/server/env";
import { buildClient, CLIENT_OUT_DIR, clientBuildIsStale } from "../build.mjs";
import { LANDING_JS_BUDGET_BYTES, measureFirstLoad } from "./first-load";
import { median, round, table } from "./stats";

const RUNS = 3;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const GOALS = { score: 95, lcpMs: 1800, cls: 0.05 };

const log = (line = "") => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`· ${line}\n`);

async function lighthouseRun(url: string): Promise<{ score: number; lcpMs: number; cls: number; lcpElement: string }> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ["performance"], output: "json", logLevel: "error" });
    if (!result) throw new Error("Lighthouse returned nothing");
    const { lhr } = result;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
      cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
      lcpElement:
        JSON.stringify(lhr.audits["largest-contentful-paint-element"]?.details ?? null).match(/"snippet":"((?:[^"\\]|\\.)*)"/)?.[1] ?? "?",
    };
  } finally {
    chrome.kill();
  }
}

const clientDir = process.env.BENCH_CLIENT_DIR ?? CLIENT_OUT_DIR;
if (!process.env.BENCH_CLIENT_DIR && clientBuildIsStale()) {
  progress("building the client");
  await buildClient(CLIENT_OUT_DIR, "warn");
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-bench-landing-"));
const env = parseEnv({ NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATA_DIR: dataDir });
const app = await startApp(env, { clientDir });
try {
  const url = `${app.http.url}/`;
  const loads = [];
  const audits = [];
  for (let run = 1; run <= RUNS; run += 1) {
    progress(`run ${run}/${RUNS}: first load`);
    loads.push(await measureFirstLoad(url, CHROMIUM));
    progress(`run ${run}/${RUNS}: Lighthouse`);
    const audit = await lighthouseRun(url);
    progress(`  score ${audit.score}, LCP ${round(audit.lcpMs)} ms on ${audit.lcpElement.slice(0, 100)}, CLS ${audit.cls}`);
    audits.push(audit);
  }
  const figures = {
    jsKb: round(median(loads.map((load) => load.jsBytes)) / 1024),
    jsRequests: median(loads.map((load) => load.jsRequests)),
    allJsKb: round(median(loads.map((load) => load.allJsBytes)) / 1024),
    allJsRequests: median(loads.map((load) => load.allJsRequests)),
    score: median(audits.map((audit) => audit.score)),
    lcpS: round(median(audits.map((audit) => audit.lcpMs)) / 1000, 2),
    cls: round(median(audits.map((audit) => audit.cls)), 3),
  };
  log(
    `Landing page, mobile, median of ${RUNS} (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, Node ${process.versions.node})`,
  );
  log(
    table([
      ["figure", "value", "goal"],
      [
        "first-load JavaScript (gzip)",
        `${figures.jsKb} KB in ${figures.jsRequests} requests`,
        `≤ ${LANDING_JS_BUDGET_BYTES / 1024} KB${figures.jsKb * 1024 <= LANDING_JS_BUDGET_BYTES ? "" : "  (not met)"}`,
      ],
      ["all JavaScript until the network is quiet", `${figures.allJsKb} KB in ${figures.allJsRequests} requests`, "—"],
      ["Lighthouse performance", String(figures.score), `≥ ${GOALS.score}${figures.score >= GOALS.score ? "" : "  (not met)"}`],
      ["LCP", `${figures.lcpS} s`, `≤ ${GOALS.lcpMs / 1000} s${figures.lcpS * 1000 <= GOALS.lcpMs ? "" : "  (not met)"}`],
      ["CLS", String(figures.cls), `≤ ${GOALS.cls}${figures.cls <= GOALS.cls ? "" : "  (not met)"}`],
    ]),
  );
  log(JSON.stringify({ bench: "landing", ...figures }));
} finally {
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
