/**
 * The history of self-test runs shown in /admin: what ran, who ran it, what passed. Owns self_test_runs;
 * who ran a run comes from accounts (decision 054).
 */
import type { SelfTestRunItem, SelfTestRunInput } from "../../shared/self-test-checks";
import { generateSecureRandomString } from "../auth/tokens";
import type { Infra } from "../infra";
import { accountEmails } from "./accounts";

export function createSelfTestRunsService(deps: Pick<Infra, "db">) {
  const { db } = deps;
  return {
    async record(userId: string, run: SelfTestRunInput): Promise<{ id: string; passed: number; failed: number }> {
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
      return { id, passed, failed };
    },

    /** The latest runs, newest first, with who ran them. */
    async latest(limit: number) {
      const rows = await db.selectFrom("self_test_runs").selectAll().orderBy("finished_at", "desc").orderBy("id").limit(limit).execute();
      const emails = await accountEmails(db, [...new Set(rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])))]);
      return rows.map((row) => ({
        id: row.id,
        suite: row.suite as "system" | "auth",
        source: row.source,
        userEmail: (row.user_id === null ? undefined : emails.get(row.user_id)) ?? null,
        passed: row.passed,
        failed: row.failed,
        items: JSON.parse(row.results) as SelfTestRunItem[],
        startedAt: row.started_at,
        finishedAt: row.finished_at,
      }));
    },
  };
}

export type SelfTestRunsService = ReturnType<typeof createSelfTestRunsService>;
