import { sql, type SqlBool } from "kysely";

/**
 * The column contains `text` anywhere, ignoring case, with the text's own % and _ taken literally.
 * lower() on both sides: SQLite's LIKE ignores case and PostgreSQL's does not (decision 080).
 */
export const containsIgnoringCase = (column: string, text: string) =>
  sql<SqlBool>`lower(${sql.ref(column)}) LIKE lower(${`%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`}) ESCAPE '\\'`;

/**
 * Rows after a page's last row in a list newest first (keyset on created_at, then id): stable while
 * rows are added at the top. For tables whose rows have both columns (the renders, the credit ledgers).
 */
export const olderThan = (before: { createdAt: number; id: string }) =>
  sql<SqlBool>`(${sql.ref("created_at")} < ${before.createdAt} or (${sql.ref("created_at")} = ${before.createdAt} and ${sql.ref("id")} < ${before.id}))`;

const DAY_MS = 86_400_000;

/**
 * The calendar day (UTC) of a millisecond column, as a day number (days since 1970), for per-day
 * charts: whole-number division, the same on SQLite and PostgreSQL. `dayString` writes it as YYYY-MM-DD.
 */
export const utcDayNumber = (column: string) => sql<number>`(${sql.ref(column)} / ${sql.lit(DAY_MS)})`;

export const dayString = (day: number) => new Date(Number(day) * DAY_MS).toISOString().slice(0, 10);

/**
 * Which of consecutive periods a millisecond column falls in: the index of the last of `starts`
 * (ascending) at or before it, or null before the first. For per-week charts in a time zone, whose
 * weeks SQLite cannot compute.
 */
export const periodIndex = (column: string, starts: readonly number[]) =>
  sql<number | null>`case ${sql.join(
    starts.map((start, index) => sql`when ${sql.ref(column)} >= ${start} then ${index}`).reverse(),
    sql` `,
  )} end`;
