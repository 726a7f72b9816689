/**
 * What the self-test suite (src/shared/self-test/suite.ts) needs from the server beyond the
 * product's own procedures:
 * - profile: the signed-in user's profile row (spec section 7: all fields at most one row, or id
 *   only); null when there is none. Any signed-in user (it reads only their own row).
 * - check: one box check (database integrity, disk space, mail, render provider, queue, storage
 *   write). Admin only.
 * - recordRun / runs: the history of runs (self_test_runs) shown in /admin. Admin only.
 */
import { z } from "zod";
import { SERVER_CHECKS } from "../../../shared/self-test/checks";
import { generateSecureRandomString } from "../../auth/tokens";
import { runSystemCheck } from "../../services/system-checks";
import { adminProcedure, protectedProcedure, router } from "../init";

const itemSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  status: z.enum(["pending", "running", "passed", "failed"]),
  message: z.string().max(2000).optional(),
  detail: z.string().max(2000).optional(),
  durationMs: z.number().min(0).max(86_400_000).optional(),
});

const runSchema = z
  .object({
    suite: z.enum(["system", "auth"]),
    /** Who ran it; the browser's Quick Admin bar leaves it out. */
    source: z.enum(["browser", "cli"]).default("browser"),
    items: z.array(itemSchema).min(1).max(50),
    startedAt: z.number().int().min(0),
    finishedAt: z.number().int().min(0),
  })
  .refine((run) => run.finishedAt >= run.startedAt, { error: "finishedAt is before startedAt", path: ["finishedAt"] });

export type SelfTestRunItem = z.infer<typeof itemSchema>;

export const selfTestRouter = router({
  profile: protectedProcedure
    .input(z.object({ columns: z.enum(["all", "id"]).default("all") }).default({ columns: "all" }))
    .query(async ({ ctx, input }) => {
      if (input.columns === "id") {
        const row = await ctx.db.selectFrom("profiles").select("user_id").where("user_id", "=", ctx.user.id).limit(1).executeTakeFirst();
        return { profile: row ? { userId: row.user_id } : null };
      }
      const row = await ctx.db.selectFrom("profiles").selectAll().where("user_id", "=", ctx.user.id).limit(1).executeTakeFirst();
      return {
        profile: row
          ? {
              userId: row.user_id,
              email: row.email,
              fullName: row.full_name,
              creditsRemaining: row.credits_remaining,
              createdAt: row.created_at,
              updatedAt: row.updated_at,
            }
          : null,
      };
    }),

  /** A mutation: some checks write (a probe file) or call outside services; never cached. */
  check: adminProcedure.input(z.object({ name: z.enum(SERVER_CHECKS) })).mutation(async ({ ctx, input }) => {
    const result = await runSystemCheck(ctx, input.name);
    return { name: input.name, ok: result.ok, detail: result.detail };
  }),

  recordRun: adminProcedure.input(runSchema).mutation(async ({ ctx, input }) => {
    const passed = input.items.filter((item) => item.status === "passed").length;
    const failed = input.items.filter((item) => item.status === "failed").length;
    const id = generateSecureRandomString();
    await ctx.db
      .insertInto("self_test_runs")
      .values({
        id,
        user_id: ctx.user.id,
        suite: input.suite,
        source: input.source,
        passed,
        failed,
        results: JSON.stringify(input.items),
        started_at: input.startedAt,
        finished_at: input.finishedAt,
      })
      .execute();
    return { id, passed, failed };
  }),

  /** The latest runs, newest first, with who ran them. */
  runs: adminProcedure
    .input(z.object({ limit: z.number().int().min(1).max(100).default(20) }).default({ limit: 20 }))
    .query(async ({ ctx, input }) => {
      const rows = await ctx.db
        .selectFrom("self_test_runs")
        .leftJoin("users", "users.id", "self_test_runs.user_id")
        .selectAll("self_test_runs")
        .select("users.email as user_email")
        .orderBy("self_test_runs.finished_at", "desc")
        .orderBy("self_test_runs.id")
        .limit(input.limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        suite: row.suite as "system" | "auth",
        source: row.source,
        userEmail: row.user_email ?? null,
        passed: row.passed,
        failed: row.failed,
        items: JSON.parse(row.results) as SelfTestRunItem[],
        startedAt: row.started_at,
        finishedAt: row.finished_at,
      }));
    }),
});
