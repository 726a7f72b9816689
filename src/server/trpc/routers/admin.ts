/**
 * /admin (spec sections 4 and 6): every procedure here checks the admin role on the server
 * (adminProcedure reads user_roles on each call). What an admin does to an account is audited.
 */
import { z } from "zod";
import { CREDIT_ADJUSTMENT_REASON_MAX } from "../../../shared/billing";
import { ROLE_PATTERN } from "../../../shared/constants";
import { publicationIdSchema } from "../../../shared/community";
import { creditPackageInputSchema } from "../../../shared/credit-packages";
import { MESSAGES } from "../../../shared/messages";
import { JOB_STATUSES } from "../../../shared/render";
import {
  brandInputSchema,
  engineInputSchema,
  engineRoutesInputSchema,
  freeCreditsInputSchema,
  STUDIO_LIMITS,
} from "../../../shared/studio-settings";
import { paintSettingsInputSchema } from "../../../shared/paint";
import { adminProcedure, router } from "../init";

const id = z.string().min(1).max(64);
const page = { limit: z.number().int().min(1).max(200).default(50), offset: z.number().int().min(0).default(0) };
/** An admin's credit adjustment: a whole number of credits, not zero, within ±100,000. */
const adjustmentReason = z.string().trim().min(1).max(CREDIT_ADJUSTMENT_REASON_MAX);
const amount = z
  .number()
  .int()
  .min(-100_000)
  .max(100_000)
  .refine((value) => value !== 0);
const role = z.string().regex(ROLE_PATTERN, { error: MESSAGES.roleNotAllowed });

const publicationId = publicationIdSchema;

export const adminRouter = router({
  overview: adminProcedure.query(({ ctx }) => ctx.services.admin.overview()),

  users: adminProcedure
    .input(z.object({ search: z.string().trim().max(255).optional(), ...page }).default({ limit: 50, offset: 0 }))
    .query(({ ctx, input }) => ctx.services.admin.users(input)),

  /** A credit adjustment, with its reason, as a ledger row ("admin"). */
  adjustCredits: adminProcedure
    .input(
      z.object({
        userId: id,
        amount,
        reason: adjustmentReason,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.admin.adjustCredits(ctx.user, input.userId, input.amount, input.reason)),

  /** /admin → Teams: every team with its balance and members, by its name or a member's address. */
  teams: adminProcedure
    .input(z.object({ search: z.string().trim().max(255).optional(), ...page }).default({ limit: 50, offset: 0 }))
    .query(({ ctx, input }) => ctx.services.admin.teams(input)),

  /** A team's credit adjustment, with its reason, as a team ledger row ("admin"), audited and in the team's log. */
  adjustTeamCredits: adminProcedure
    .input(z.object({ teamId: id, amount, reason: adjustmentReason }))
    .mutation(({ ctx, input }) => ctx.services.admin.adjustTeamCredits(ctx.user, input.teamId, input.amount, input.reason)),

  grantRole: adminProcedure
    .input(z.object({ userId: id, role }))
    .mutation(({ ctx, input }) => ctx.services.admin.grantRole(ctx.user, input.userId, input.role)),

  revokeRole: adminProcedure
    .input(z.object({ userId: id, role }))
    .mutation(({ ctx, input }) => ctx.services.admin.revokeRole(ctx.user, input.userId, input.role)),

  /** Ends a sign-in lockout now. */
  unlockAccount: adminProcedure.input(z.object({ userId: id })).mutation(async ({ ctx, input }) => {
    await ctx.services.admin.unlockAccount(ctx.user, input.userId);
    return { ok: true as const };
  }),

  /** A disabled account cannot sign in, and its sessions end at once. */
  setDisabled: adminProcedure.input(z.object({ userId: id, disabled: z.boolean() })).mutation(async ({ ctx, input }) => {
    await ctx.services.admin.setDisabled(ctx.user, input.userId, input.disabled);
    return { ok: true as const };
  }),

  jobs: adminProcedure
    .input(z.object({ status: z.enum(JOB_STATUSES).optional(), ...page }).default({ limit: 50, offset: 0 }))
    .query(({ ctx, input }) => ctx.services.admin.jobs(input)),

  /** Puts a failed or canceled render back in the queue, free of charge (its credit was refunded). */
  retryJob: adminProcedure.input(z.object({ id })).mutation(({ ctx, input }) => ctx.services.admin.retryJob(ctx.user, input.id)),

  cancelJob: adminProcedure.input(z.object({ id })).mutation(({ ctx, input }) => ctx.services.admin.cancelJob(ctx.user, input.id)),

  /** Paid Checkout Sessions whose amount or currency was not their package's: held, not credited. */
  creditPackages: adminProcedure.query(({ ctx }) => ctx.services.admin.creditPackages()),

  /** /admin → Studio (issue 16): brand, free credits and engine, applied without a restart and audited. */
  studioSettings: adminProcedure.query(({ ctx }) => ctx.services.admin.studioSettings()),
  updateStudioBrand: adminProcedure
    .input(brandInputSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.updateStudioBrand(ctx.user, input)),
  setStudioLogo: adminProcedure
    .input(z.object({ dataUrl: z.string().max(Math.ceil((STUDIO_LIMITS.logoBytesMax * 4) / 3) + 64, { error: MESSAGES.logoInvalid }) }))
    .mutation(({ ctx, input }) => ctx.services.admin.setStudioLogo(ctx.user, input.dataUrl)),
  removeStudioLogo: adminProcedure.mutation(({ ctx }) => ctx.services.admin.removeStudioLogo(ctx.user)),
  updateFreeCredits: adminProcedure
    .input(freeCreditsInputSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.updateFreeCredits(ctx.user, input)),
  /** The studio's Paint tool: palette and Preview-engine price (issue 33). */
  paintSettings: adminProcedure.query(({ ctx }) => ctx.services.settings.paint()),
  updatePaint: adminProcedure.input(paintSettingsInputSchema).mutation(({ ctx, input }) => ctx.services.admin.updatePaint(ctx.user, input)),
  updateEngine: adminProcedure.input(engineInputSchema).mutation(({ ctx, input }) => ctx.services.admin.updateEngine(ctx.user, input)),
  testEngineConnection: adminProcedure
    .input(engineInputSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.testEngineConnection(input)),
  /** Each task's engines in the order tried, with fallback (issue 30, decision 088). */
  updateEngineRoutes: adminProcedure
    .input(engineRoutesInputSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.updateEngineRoutes(ctx.user, input)),
  /** Each engine's state here and its latest failures. */
  engineStatuses: adminProcedure.query(({ ctx }) => ctx.services.admin.engineStatuses()),
  createCreditPackage: adminProcedure
    .input(creditPackageInputSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.createCreditPackage(ctx.user, input)),
  updateCreditPackage: adminProcedure
    .input(creditPackageInputSchema.extend({ id: z.string().min(1).max(64) }))
    .mutation(({ ctx, input: { id, ...input } }) => ctx.services.admin.updateCreditPackage(ctx.user, id, input)),
  setCreditPackageRetired: adminProcedure
    .input(z.object({ id: z.string().min(1).max(64), retired: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.services.admin.setCreditPackageRetired(ctx.user, input.id, input.retired)),
  housekeeping: adminProcedure.query(({ ctx }) => ctx.services.admin.housekeeping()),
  runHousekeeping: adminProcedure.mutation(({ ctx }) => ctx.services.admin.runHousekeeping(ctx.user)),
  backups: adminProcedure.query(({ ctx }) => ctx.services.admin.backups()),
  backUpNow: adminProcedure.mutation(({ ctx }) => ctx.services.admin.backUpNow(ctx.user)),
  paymentHolds: adminProcedure.query(({ ctx }) => ctx.services.admin.paymentHolds()),

  /** Grants a held purchase's credits (once; a resolved hold answers CONFLICT). */
  creditHeldPayment: adminProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => ctx.services.admin.creditHeldPayment(ctx.user, input.id)),

  /** Ends a hold without credits; the refund is made in Stripe's dashboard. */
  dismissHeldPayment: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await ctx.services.admin.dismissHeldPayment(ctx.user, input.id);
    return { ok: true as const };
  }),

  outbox: adminProcedure
    .input(z.object({ limit: page.limit }).default({ limit: 50 }))
    .query(({ ctx, input }) => ctx.services.admin.outbox(input.limit)),

  analyticsSummary: adminProcedure
    .input(z.object({ days: z.number().int().min(1).max(365).default(30) }).default({ days: 30 }))
    .query(({ ctx, input }) => ctx.services.analytics.summary(input.days)),
  /** /admin → Community (decision 102): open reports, hidden publications and accounts stopped from publishing. */
  communityReports: adminProcedure.query(async ({ ctx }) => ({
    reports: await ctx.services.community.openReports(),
    ...(await ctx.services.community.moderationState()),
  })),
  /** Hides a publication from every public page (its open reports settled), or shows it again. */
  setPublicationHidden: adminProcedure.input(z.object({ id: publicationId, hidden: z.boolean() })).mutation(async ({ ctx, input }) => {
    await ctx.services.community.setHidden(ctx.user.id, input.id, input.hidden);
    return { ok: true as const };
  }),
  dismissReport: adminProcedure.input(z.object({ reportId: id })).mutation(async ({ ctx, input }) => {
    await ctx.services.community.dismissReport(ctx.user.id, input.reportId);
    return { ok: true as const };
  }),
  /** Stops an account from publishing, or allows it again. */
  setPublishingBlocked: adminProcedure.input(z.object({ userId: id, blocked: z.boolean() })).mutation(async ({ ctx, input }) => {
    await ctx.services.community.setBlocked(ctx.user.id, input.userId, input.blocked);
    return { ok: true as const };
  }),
});
