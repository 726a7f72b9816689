/**
 * axe-core in a browser test's page: the serious and critical violations (WCAG 2.2 A and AA, and
 * axe's best practices) of what the page shows now, one line per element. axe is evaluated through
 * the DevTools protocol, which the page's CSP does not govern.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(`${AXE_SOURCE};window.axe = axe;0`);
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
