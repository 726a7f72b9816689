/** What this installation says about itself: measured figures and public status. */
import { publicProcedure, router } from "../init";
import { z } from "zod";

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
  /** The studio's terms or privacy text (/admin → Studio); "" when it has none. */
  legalText: publicProcedure
    .input(z.object({ page: z.enum(["terms", "privacy"]) }))
    .query(({ ctx, input }) => ({ text: ctx.services.settings.legalText(input.page) })),
});
