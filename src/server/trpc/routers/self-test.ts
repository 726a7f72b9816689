/**
 * What the self-test suite (src/selftest/suite.ts) needs from the server beyond the
 * product's own procedures:
 * - profile: the signed-in user's profile row (spec section 7: all fields at most one row, or id
 *   only); null when there is none. Any signed-in user (it reads only their own row).
 * - check: one box check (backups, database integrity, disk space, mail, render provider, queue,
 *   storage write). Admin only.
 * - recordRun / runs: the history of runs (self_test_runs) shown in /admin. Admin only.
 */
import { z } from "zod";
import { SERVER_CHECKS, selfTestRunSchema } from "../../../shared/self-test-checks";
import { adminProcedure, protectedProcedure, router } from "../init";

export const selfTestRouter = router({
  profile: protectedProcedure
    .input(z.object({ columns: z.enum(["all", "id"]).default("all") }).default({ columns: "all" }))
    .query(async ({ ctx, input }) => ({ profile: await ctx.services.accounts.profileRow(ctx.user.id, input.columns) })),

  /** A mutation: some checks write (a probe file) or call outside services; never cached. */
  check: adminProcedure.input(z.object({ name: z.enum(SERVER_CHECKS) })).mutation(async ({ ctx, input }) => {
    const result = await ctx.services.system.runCheck(input.name);
    return { name: input.name, ok: result.ok, warning: result.warning ?? false, detail: result.detail, texts: result.texts };
  }),

  recordRun: adminProcedure.input(selfTestRunSchema).mutation(({ ctx, input }) => ctx.services.selfTestRuns.record(ctx.user.id, input)),

  /** The latest runs, newest first, with who ran them. */
  runs: adminProcedure
    .input(z.object({ limit: z.number().int().min(1).max(100).default(20) }).default({ limit: 20 }))
    .query(({ ctx, input }) => ctx.services.selfTestRuns.latest(input.limit)),
});
