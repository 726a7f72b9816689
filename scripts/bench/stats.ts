/** Small statistics and output helpers of the benchmarks. */

/** A line of the results (standard output). */
export const log = (line = "") => process.stdout.write(`${line}\n`);
/** A note on what is running now (standard error, so the results stay clean). */
export const progress = (line: string) => process.stderr.write(`· ${line}\n`);

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Linear interpolation between closest ranks (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function ms(value: number, digits = 1): string {
  return `${value.toFixed(digits)} ms`;
}

/** Rows of [label, value, note]: labels left-aligned, values right-aligned, in columns. */
export function table(rows: ReadonlyArray<readonly [string, string, string?]>, indent = "  "): string {
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  return rows
    .map(([label, value, note]) =>
      `${indent}${label.padEnd(labelWidth)}  ${value.padStart(valueWidth)}${note ? `  ${note}` : ""}`.trimEnd(),
    )
    .join("\n");
}
