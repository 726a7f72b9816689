import { sql } from "kysely";

/** The calendar day (UTC) of a millisecond column, as YYYY-MM-DD, for per-day charts. */
export const utcDay = (column: string) => sql<string>`strftime('%Y-%m-%d', ${sql.ref(column)} / 1000, 'unixepoch')`;

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
