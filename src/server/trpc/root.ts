import { createCallerFactory, router } from "./init";
import { accountRouter } from "./routers/account";
import { authRouter } from "./routers/auth";
import { systemRouter } from "./routers/system";

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
