import { sql } from "kysely";

/** The calendar day (UTC) of a millisecond column, as YYYY-MM-DD, for per-day charts. */
export const utcDay = (column: string) => sql<string>`strftime('%Y-%m-%d', ${sql.ref(column)} / 1000, 'unixepoch')`;
