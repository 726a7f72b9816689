import { createCallerFactory, router } from "./init";
import { sessionRouter } from "./routers/session";
import { systemRouter } from "./routers/system";

export const appRouter = router({
  system: systemRouter,
  session: sessionRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
