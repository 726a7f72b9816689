/** What this installation says about itself: measured figures and public status. */
import { publicProcedure, router } from "../init";

export const systemRouter = router({
  /** The landing page's figures, as measured here: renders made, and their average time (last 30 days). */
  landingStats: publicProcedure.query(({ ctx }) => ctx.services.render.landingFigures()),

  /** The real figures of this installation (the /performance page), not marketing numbers. */
  performance: publicProcedure.query(async ({ ctx }) => ({
    ...(await ctx.services.render.performanceFigures()),
    engine: ctx.services.render.engine,
  })),

  /** What any visitor may know about this installation. */
  info: publicProcedure.query(({ ctx }) => ctx.services.system.info()),
});
