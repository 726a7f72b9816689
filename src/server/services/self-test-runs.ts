/**
 * The history of self-test runs shown in /admin: what ran, who ran it, what passed. Owns self_test_runs;
 * who ran a run comes from accounts (decision 054). A run's warnings are counted from its stored
 * items (they keep their status), so a run with warnings is never told as "12 passed, 0 failed".
 */
import type { SelfTestRunItem, SelfTestRunInput } from "../../shared/self-test-checks";
import { generateSecureRandomString } from "../auth/tokens";
import type { Infra } from "../infra";
import { accountEmails } from "./accounts";

/** How many of a run's items ended with a warning. */
function warningsOf(items: readonly Pick<SelfTestRunItem, "status">[]): number {
  return items.filter((item) => item.status === "warning").length;
}

export function createSelfTestRunsService(deps: Pick<Infra, "db">) {
  const { db } = deps;
  return {
    async record(userId: string, run: SelfTestRunInput): Promise<{ id: string; passed: number; warnings: number; failed: number }> {
      const passed = run.items.filter((item) => item.status === "passed").length;
      const failed = run.items.filter((item) => item.status === "failed").length;
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
      return { id, passed, warnings: warningsOf(run.items), failed };
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
          warnings: warningsOf(items),
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
