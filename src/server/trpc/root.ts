import { createCallerFactory, router } from "./init";
import { accountRouter } from "./routers/account";
import { authRouter } from "./routers/auth";
import { twoFactorRouter } from "./routers/two-factor";
import { systemRouter } from "./routers/system";
import { renderRouter } from "./routers/render";
import { projectsRouter } from "./routers/projects";
import { billingRouter } from "./routers/billing";
import { adminRouter } from "./routers/admin";
import { analyticsRouter } from "./routers/analytics";
import { selfTestRouter } from "./routers/self-test";
import { listingRouter } from "./routers/listing";
import { teamsRouter } from "./routers/teams";
import { clientsRouter } from "./routers/clients";
import { reviewRouter } from "./routers/review";
import { measuresRouter } from "./routers/measures";
import { developersRouter } from "./routers/developers";
import { webhooksRouter } from "./routers/webhooks";
import { stylesRouter } from "./routers/styles";
import { communityRouter } from "./routers/community";
import { marketplaceRouter } from "./routers/marketplace";

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
  twoFactor: twoFactorRouter,
  render: renderRouter,
  projects: projectsRouter,
  billing: billingRouter,
  admin: adminRouter,
  analytics: analyticsRouter,
  selfTest: selfTestRouter,
  listing: listingRouter,
  teams: teamsRouter,
  clients: clientsRouter,
  review: reviewRouter,
  measures: measuresRouter,
  developers: developersRouter,
  webhooks: webhooksRouter,
  styles: stylesRouter,
  community: communityRouter,
  marketplace: marketplaceRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
