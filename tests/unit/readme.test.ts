/**
 * README.md stays short, and the links of README.md and the pages under docs/ lead somewhere
 * (issue 25): every relative link names a file that exists and, with a #fragment into a Markdown
 * file, a heading of that file. The check also runs on planted pages, so a check that stopped
 * finding anything would fail here too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** The hard limit of README.md, in bytes (`wc -c README.md`). */
const README_MAX_BYTES = 15_000;

/** README.md and every Markdown file under docs/. */
function pages(root: string): string[] {
  const found = fs.existsSync(path.join(root, "README.md")) ? ["README.md"] : [];
  const docs = path.join(root, "docs");
  if (!fs.existsSync(docs)) return found;
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.name.endsWith(".md") ? [path.relative(root, full)] : [];
    });
  return [...found, ...walk(docs).sort()];
}

/** Markdown without fenced code blocks and inline code, where a link is not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchors for the headings of a Markdown file. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const text = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/`/g, "")
      .toLowerCase();
    const slug = text
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .trim()
      .replace(/\s/g, "-");
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    result.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return result;
}

/** Every relative link (and image) of the pages under root that leads nowhere, as "page: target". */
function brokenLinks(root: string): string[] {
  const broken: string[] = [];
  for (const page of pages(root)) {
    const markdown = fs.readFileSync(path.join(root, page), "utf8");
    for (const [, target] of withoutCode(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith("//")) continue;
      const [file, fragment] = target!.split("#", 2) as [string, string | undefined];
      const resolved = file ? path.join(root, path.dirname(page), decodeURIComponent(file)) : path.join(root, page);
      if (file.startsWith("/") || !fs.existsSync(resolved)) {
        broken.push(`${page}: ${target} (no such file)`);
      } else if (fragment !== undefined && resolved.endsWith(".md") && !anchors(fs.readFileSync(resolved, "utf8")).has(fragment)) {
        broken.push(`${page}: ${target} (no such heading)`);
      }
    }
  }
  return broken;
}

describe("README.md", () => {
  it(`is under ${README_MAX_BYTES.toLocaleString("en")} bytes; the details live in docs/`, () => {
    expect(fs.statSync("README.md").size).toBeLessThan(README_MAX_BYTES);
  });

  it("and every page under docs/ link only files and headings that exist", () => {
    expect(pages(".").length).toBeGreaterThan(50);
    const broken = brokenLinks(".");
    expect(broken, broken.join("\n")).toEqual([]);
  });

  describe("the link check finds what is wrong in planted pages", () => {
    const planted: string[] = [];
    afterAll(() => {
      for (const dir of planted) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** A folder with README.md linking docs/page.md, and docs/page.md with the given text. */
    function plant(readme: string, page: string): string {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "readme-links-"));
      planted.push(root);
      fs.mkdirSync(path.join(root, "docs", "decisions"), { recursive: true });
      fs.writeFileSync(path.join(root, "README.md"), readme);
      fs.writeFileSync(path.join(root, "docs", "page.md"), page);
      fs.writeFileSync(path.join(root, "docs", "decisions", "001-one.md"), "# 001. One\n");
      return root;
    }

    const page = "# Page\n\n## Backups and restore\n\n## The structure check's calibration\n\nSee [one](decisions/001-one.md).\n";

    it("nothing when every link leads somewhere", () => {
      const readme =
        "# App\n\n[page](docs/page.md), [backups](docs/page.md#backups-and-restore), " +
        "[calibration](docs/page.md#the-structure-checks-calibration), [here](#app), [site](https://example.com)\n\n" +
        "```sh\n[not a link](nowhere.md)\n```\n";
      expect(brokenLinks(plant(readme, page))).toEqual([]);
    });

    it("a link to a missing file, a missing heading, and a link left relative to README after a move", () => {
      const readme = "# App\n\n[gone](docs/gone.md), [heading](docs/page.md#logs), [anchor](#nothing)\n";
      const moved = page + "\nSee [one](docs/decisions/001-one.md).\n";
      expect(brokenLinks(plant(readme, moved))).toEqual([
        "README.md: docs/gone.md (no such file)",
        "README.md: docs/page.md#logs (no such heading)",
        "README.md: #nothing (no such heading)",
        "docs/page.md: docs/decisions/001-one.md (no such file)",
      ]);
    });
  });
});
