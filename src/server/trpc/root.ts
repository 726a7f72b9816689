import { createCallerFactory, router } from "./init";
import { accountRouter } from "./routers/account";
import { authRouter } from "./routers/auth";
import { twoFactorRouter } from "./routers/two-factor";
import { systemRouter } from "./routers/system";
import { renderRouter } from "./routers/render";
import { projectsRouter } from "./routers/projects";

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
  twoFactor: twoFactorRouter,
  render: renderRouter,
  projects: projectsRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
