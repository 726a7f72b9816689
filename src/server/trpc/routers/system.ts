import { PRODUCT_NAME } from "../../../shared/constants";
import { checkDatabase } from "../../services/health";
import { performanceFigures, renderDurations } from "../../services/statistics";
import { engineInfo } from "../../render/providers";
import { publicProcedure, router } from "../init";

export const systemRouter = router({
  /** The landing page's figures, as measured here: renders made, and their average time (last 30 days). */
  landingStats: publicProcedure.query(async ({ ctx }) => {
    const made = await ctx.db
      .selectFrom("render_jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "succeeded")
      .executeTakeFirstOrThrow();
    const durations = [...(await renderDurations(ctx.db, ctx.clock.now() - 30 * 86_400_000)).values()].flat();
    return {
      rendersMade: Number(made.n),
      averageRenderSeconds: durations.length ? durations.reduce((sum, ms) => sum + ms, 0) / durations.length / 1000 : null,
    };
  }),

  /** The real figures of this installation (the /performance page), not marketing numbers. */
  performance: publicProcedure.query(async ({ ctx }) => {
    const figures = await performanceFigures(ctx.db, ctx.clock.now());
    return { ...figures, engine: engineInfo(ctx.renderWorker.provider) };
  }),

  /** What any visitor may know about this installation. */
  info: publicProcedure.query(async ({ ctx }) => {
    const database = await checkDatabase(ctx.db);
    return {
      productName: PRODUCT_NAME,
      version: ctx.version,
      uptimeSeconds: Math.floor((ctx.clock.now() - ctx.startedAt) / 1000),
      databaseOk: database.ok,
      supportEmail: ctx.env.SUPPORT_EMAIL,
    };
  }),
});
