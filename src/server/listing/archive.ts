/**
 * A project's listing pictures in one zip: every current export's picture, the originals, and
 * manifest.csv (file, original file, disclosure, public URL, and the exact paint colours in the
 * picture's making, in the export's language: "Walls: #2F3E57", issue 33). JPEGs are stored, not deflated:
 * they do not shrink.
 */
import type { Writable } from "node:stream";

import { UPLOAD_BUCKET } from "../../shared/constants";
import type { ListingContext } from "./context";
import { paintLabel } from "./names";
import type { ListingExportRow } from "./exports";

/**
 * One CSV field, safe to open in a spreadsheet (OWASP "CSV Injection"): a cell starting with = + - @,
 * a tab or a carriage return (or their full-width forms) would run as a formula, so it gets a leading
 * single quote, which spreadsheets show as text; then every field is quoted, quotes doubled (RFC 4180).
 */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

export function manifestCsv(
  rows: Array<{ file: string; originalFile: string; disclosure: string; publicUrl: string; paintColours?: string }>,
): string {
  const lines = [
    ["file", "original file", "disclosure", "public URL", "paint colours"],
    ...rows.map((row) => [row.file, row.originalFile, row.disclosure, row.publicUrl, row.paintColours ?? ""]),
  ];
  // The byte-order mark lets spreadsheet programs read accents (é, ñ) as UTF-8.
  return `\uFEFF${lines.map((fields) => fields.map(csvField).join(",")).join("\r\n")}\r\n`;
}

/** Writes the zip of these exports to `output` (the HTTP response). */
export async function writeProjectZip(deps: ListingContext, exports: ListingExportRow[], output: Writable): Promise<void> {
  // archiver is loaded with the first zip, not at every start (decision 045).
  const { ZipArchive } = await import("archiver");
  const archive = new ZipArchive({ store: true });
  const done = new Promise<void>((resolve, reject) => {
    archive.on("error", reject);
    output.on("error", reject);
    output.on("close", () => resolve());
    output.on("finish", () => resolve());
  });
  archive.pipe(output);
  const paints = await deps.render.paintsInMaking(exports.flatMap((row) => (row.job_id ? [row.job_id] : [])));
  const manifest = [];
  for (const [index, row] of exports.entries()) {
    const picture = row.picture_key ? await deps.storage.get(UPLOAD_BUCKET, row.picture_key) : null;
    const original = row.original_key ? await deps.storage.get(UPLOAD_BUCKET, row.original_key) : null;
    if (!picture || !original) continue;
    const number = String(index + 1).padStart(2, "0");
    const base = row.file_name.replace(/\.jpg$/, "");
    const file = `${number}-${base}.jpg`;
    const originalFile = `originals/${number}-${base}-original.jpg`;
    archive.append(picture.data, { name: file, date: new Date(row.created_at) });
    archive.append(original.data, { name: originalFile, date: new Date(row.created_at) });
    const paintColours = (row.job_id ? (paints.get(row.job_id) ?? []) : []).map((paint) => paintLabel(paint, row.language)).join("; ");
    manifest.push({ file, originalFile, disclosure: row.disclosure, publicUrl: row.public_url, paintColours });
  }
  archive.append(manifestCsv(manifest), { name: "manifest.csv" });
  await archive.finalize();
  await done;
}
