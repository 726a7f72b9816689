import { PRODUCT_NAME } from "../../../shared/constants";
import { checkDatabase } from "../../services/health";
import { publicProcedure, router } from "../init";

export const systemRouter = router({
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
