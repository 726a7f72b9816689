import { publicProcedure, router } from "../init";

export const sessionRouter = router({
  /** The signed-in user, or null for a visitor. Pages use it to guard protected routes. */
  current: publicProcedure.query(({ ctx }) => ({ user: ctx.user })),
});
