import { createCallerFactory, router } from "./init";
import { authRouter } from "./routers/auth";
import { systemRouter } from "./routers/system";

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
