import { PRODUCT_NAME } from "../../../shared/constants";
import { checkDatabase } from "../../services/health";
import { performanceFigures } from "../../services/statistics";
import { engineInfo } from "../../render/providers";
import { publicProcedure, router } from "../init";

export const systemRouter = router({
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
