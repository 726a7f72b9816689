/**
 * The decision records (docs/decisions/NNN-short-title.md) are listed once, in the index
 * docs/decisions/README.md, and numbered from 001 without a gap or a twin (issue 25). The checks
 * also run on planted folders, so a check that stopped finding anything would fail here too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const DECISIONS = "docs/decisions";

/** A file that is meant to be a record: a number, a dash, a name. */
const RECORD_FILE = /^(\d+)-.*\.md$/;

/** The targets of the index's links that are not web addresses or anchors, in order. */
function indexLinks(index: string): string[] {
  const withoutCode = index.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split("#")[0]!)
    .filter((target) => target && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with a folder of decision records and its index; empty when nothing is. */
function recordProblems(dir: string): string[] {
  const problems: string[] = [];
  const files = fs
    .readdirSync(dir)
    .filter((name) => RECORD_FILE.test(name))
    .sort();
  const index = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  const links = indexLinks(index);

  for (const file of files) {
    if (!/^\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.md$/.test(file)) problems.push(`${file} is not named NNN-short-title.md`);
    const count = links.filter((link) => link === file).length;
    if (count === 0) problems.push(`${file} is not listed in the index`);
    if (count > 1) problems.push(`${file} is listed ${count} times in the index`);
    const number = file.match(RECORD_FILE)![1]!.padStart(3, "0");
    const title = fs.readFileSync(path.join(dir, file), "utf8").split("\n")[0]!;
    if (!title.startsWith(`# ${number}. `)) problems.push(`${file} does not start with "# ${number}. <title>"`);
    const entry = index.split("\n").find((line) => line.includes(`](${file})`));
    if (entry && !entry.startsWith(`- [${number}. `)) problems.push(`${file}'s index entry does not start with "- [${number}. "`);
  }
  for (const link of new Set(links)) {
    if (!fs.existsSync(path.join(dir, link))) problems.push(`the index links ${link}, which does not exist`);
  }

  const byNumber = new Map<number, string[]>();
  for (const file of files) {
    const number = Number(file.match(RECORD_FILE)![1]);
    byNumber.set(number, [...(byNumber.get(number) ?? []), file]);
  }
  for (const [number, named] of byNumber) {
    if (named.length > 1) problems.push(`${named.join(" and ")} share the number ${String(number).padStart(3, "0")}`);
  }
  const highest = Math.max(0, ...byNumber.keys());
  for (let number = 1; number <= highest; number++) {
    if (!byNumber.has(number)) problems.push(`no record has the number ${String(number).padStart(3, "0")}`);
  }
  return problems;
}

describe("decision records", () => {
  it("are each listed once in docs/decisions/README.md, which links only records that exist, numbered from 001 without a gap", () => {
    expect(fs.readdirSync(DECISIONS).filter((name) => RECORD_FILE.test(name)).length).toBeGreaterThan(50);
    const problems = recordProblems(DECISIONS);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("are indexed only there: README.md links the index, not the records", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    expect(readme).toContain("(docs/decisions/README.md)");
    expect(readme).not.toMatch(/\]\(docs\/decisions\/\d{3}-/);
  });

  describe("the check finds what is wrong in a planted folder", () => {
    const planted: string[] = [];
    afterAll(() => {
      for (const dir of planted) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** A folder with the given records (file → title line) and index entries (label → file). */
    function plant(records: Record<string, string>, entries: [string, string][]): string {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decision-records-"));
      planted.push(dir);
      for (const [file, title] of Object.entries(records)) fs.writeFileSync(path.join(dir, file), `${title}\n\nDate: 2026-11-23\n`);
      const index = entries.map(([label, file]) => `- [${label}](${file})`).join("\n");
      fs.writeFileSync(path.join(dir, "README.md"), `# Decision records\n\n## Index\n\n${index}\n`);
      return dir;
    }

    const good: Record<string, string> = { "001-one.md": "# 001. One", "002-two.md": "# 002. Two" };
    const goodEntries: [string, string][] = [
      ["001. One", "001-one.md"],
      ["002. Two", "002-two.md"],
    ];

    it("nothing in a good one", () => {
      expect(recordProblems(plant(good, goodEntries))).toEqual([]);
    });

    it("a record missing from the index", () => {
      expect(recordProblems(plant({ ...good, "003-three.md": "# 003. Three" }, goodEntries))).toEqual([
        "003-three.md is not listed in the index",
      ]);
    });

    it("an index entry whose file does not exist", () => {
      expect(recordProblems(plant(good, [...goodEntries, ["003. Three", "003-three.md"]]))).toEqual([
        "the index links 003-three.md, which does not exist",
      ]);
    });

    it("two records with one number", () => {
      const problems = recordProblems(plant({ ...good, "002-again.md": "# 002. Again" }, [...goodEntries, ["002. Again", "002-again.md"]]));
      expect(problems).toEqual(["002-again.md and 002-two.md share the number 002"]);
    });

    it("a gap in the numbers", () => {
      const problems = recordProblems(plant({ ...good, "004-four.md": "# 004. Four" }, [...goodEntries, ["004. Four", "004-four.md"]]));
      expect(problems).toEqual(["no record has the number 003"]);
    });

    it("a record listed twice, a misnamed file, and a number that disagrees with its file", () => {
      const problems = recordProblems(
        plant({ ...good, "3-Three.md": "# 003. Three" }, [...goodEntries, ["002. Two again", "002-two.md"], ["004. Three", "3-Three.md"]]),
      );
      expect(problems).toEqual([
        "002-two.md is listed 2 times in the index",
        "3-Three.md is not named NNN-short-title.md",
        `3-Three.md's index entry does not start with "- [003. "`,
      ]);
    });
  });
});
