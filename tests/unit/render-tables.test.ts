/**
 * The render module owns its tables (uploads, render_jobs, render_events, visitor_demo_renders):
 * no file of src/server outside render/ (and the schema in db/) queries them. dependency-cruiser
 * sees imports, not query strings, so this test reads the source.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const RENDER_TABLES = ["uploads", "render_jobs", "render_events", "visitor_demo_renders"];
const QUERY = new RegExp(
  `\\b(selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|with)\\(\\s*"(${RENDER_TABLES.join("|")})[". ]`,
  "g",
);
const OWNERS = [/^src\/server\/render\//, /^src\/server\/db\//];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** "file: query(table" for every query of a render table in a file the render module does not own. */
function renderTableQueriesOutsideRender(files: Array<{ file: string; source: string }>): string[] {
  return files
    .filter(({ file }) => !OWNERS.some((owner) => owner.test(file)))
    .flatMap(({ file, source }) => [...source.matchAll(QUERY)].map((match) => `${file}: ${match[1]}("${match[2]}")`));
}

describe("render tables", () => {
  it("are queried only inside src/server/render", () => {
    const files = sourceFiles("src/server").map((file) => ({
      file: file.split(path.sep).join("/"),
      source: fs.readFileSync(file, "utf8"),
    }));
    expect(files.length).toBeGreaterThan(50);
    expect(renderTableQueriesOutsideRender(files)).toEqual([]);
  });

  it("a planted query outside render is found, one inside is not", () => {
    const planted = [
      { file: "src/server/services/projects.ts", source: `await db.selectFrom("render_jobs").selectAll().execute();` },
      { file: "src/server/trpc/routers/admin.ts", source: `db.leftJoin("uploads as u", "u.id", "x.upload_id")` },
      { file: "src/server/render/jobs/library.ts", source: `await db.updateTable("render_jobs").set({}).execute();` },
      { file: "src/server/services/other.ts", source: `db.selectFrom("uploads_archive")` },
    ];
    expect(renderTableQueriesOutsideRender(planted)).toEqual([
      `src/server/services/projects.ts: selectFrom("render_jobs")`,
      `src/server/trpc/routers/admin.ts: leftJoin("uploads")`,
    ]);
  });
});
