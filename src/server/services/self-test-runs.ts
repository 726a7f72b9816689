/**
 * The history of self-test runs shown in /admin: what ran, who ran it, what passed. Owns self_test_runs;
 * who ran a run comes from accounts (decision 054). A run's warnings are counted from its stored
 * items (they keep their status), so a run with warnings is never told as "12 passed, 0 failed".
 */
import { summarize, type SelfTestRunItem, type SelfTestRunInput } from "../../shared/self-test-checks";
import { generateSecureRandomString } from "../auth/tokens";
import type { Infra } from "../infra";
import { accountEmails } from "./accounts";

export function createSelfTestRunsService(deps: Pick<Infra, "db">) {
  const { db } = deps;
  return {
    async record(userId: string, run: SelfTestRunInput): Promise<{ id: string; passed: number; warnings: number; failed: number }> {
      const { passed, warnings, failed } = summarize(run.items);
      const id = generateSecureRandomString();
      await db
        .insertInto("self_test_runs")
        .values({
          id,
          user_id: userId,
          suite: run.suite,
          source: run.source,
          passed,
          failed,
          results: JSON.stringify(run.items),
          started_at: run.startedAt,
          finished_at: run.finishedAt,
        })
        .execute();
      return { id, passed, warnings, failed };
    },

    /** The latest runs, newest first, with who ran them. */
    async latest(limit: number) {
      const rows = await db.selectFrom("self_test_runs").selectAll().orderBy("finished_at", "desc").orderBy("id").limit(limit).execute();
      const emails = await accountEmails(db, [...new Set(rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])))]);
      return rows.map((row) => {
        const items = JSON.parse(row.results) as SelfTestRunItem[];
        return {
          id: row.id,
          suite: row.suite as "system" | "auth",
          source: row.source,
          userEmail: (row.user_id === null ? undefined : emails.get(row.user_id)) ?? null,
          passed: row.passed,
          warnings: summarize(items).warnings,
          failed: row.failed,
          items,
          startedAt: row.started_at,
          finishedAt: row.finished_at,
        };
      });
    },
  };
}

export type SelfTestRunsService = ReturnType<typeof createSelfTestRunsService>;
