/**
 * /admin (spec sections 4 and 6): every procedure here checks the admin role on the server
 * (adminProcedure reads user_roles on each call). What an admin does to an account is audited.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { sql } from "kysely";
import { z } from "zod";
import { UPLOAD_BUCKET } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { JOB_STATUSES } from "../../../shared/render";
import { recordRenderEvent } from "../../render/events";
import { ownerKey } from "../../render/owner";
import { grantCredits } from "../../services/credits";
import { cancelJob, jobOwner, queuePosition } from "../../services/render-jobs";
import { grantRole, listRoles, revokeRole, ROLE_PATTERN } from "../../services/roles";
import { analyticsSummary } from "../../services/statistics";
import type { Context } from "../context";
import { ADMIN_ROLE, adminProcedure, router } from "../init";

const id = z.string().min(1).max(64);
const page = { limit: z.number().int().min(1).max(200).default(50), offset: z.number().int().min(0).default(0) };
const role = z.string().regex(ROLE_PATTERN, { error: MESSAGES.roleNotAllowed });

async function audit(
  ctx: Context & { user: { id: string } },
  action: string,
  targetUserId: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  await ctx.db
    .insertInto("admin_audit")
    .values({
      admin_user_id: ctx.user.id,
      action,
      target_user_id: targetUserId,
      details: JSON.stringify(details),
      created_at: ctx.clock.now(),
    })
    .execute();
}

async function existingUser(ctx: Context, userId: string) {
  const user = await ctx.db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  if (!user) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
  return user;
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

export const adminRouter = router({
  overview: adminProcedure.query(async ({ ctx }) => {
    const queue = await ctx.db
      .selectFrom("render_jobs")
      .select((eb) => [
        eb.fn.sum<number>(eb.case().when("status", "=", "queued").then(1).else(0).end()).as("queued"),
        eb.fn.sum<number>(eb.case().when("status", "in", ["preprocessing", "rendering", "saving"]).then(1).else(0).end()).as("running"),
      ])
      .executeTakeFirstOrThrow();
    const users = await ctx.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const disk = await fs.statfs(ctx.env.DATA_DIR);
    const databaseBytes = (await fileSize(ctx.env.DATABASE_FILE)) + (await fileSize(`${ctx.env.DATABASE_FILE}-wal`));
    return {
      version: ctx.version,
      uptimeSeconds: Math.floor((ctx.clock.now() - ctx.startedAt) / 1000),
      provider: { id: ctx.renderWorker.provider.id, label: ctx.renderWorker.provider.label },
      queue: { queued: Number(queue.queued ?? 0), running: Number(queue.running ?? 0) },
      users: Number(users.n),
      dataDir: path.resolve(ctx.env.DATA_DIR),
      databaseBytes,
      storageBytes: await ctx.storage.size(UPLOAD_BUCKET),
      diskFreeBytes: disk.bavail * disk.bsize,
      diskTotalBytes: disk.blocks * disk.bsize,
    };
  }),

  users: adminProcedure
    .input(z.object({ search: z.string().trim().max(255).optional(), ...page }).default({ limit: 50, offset: 0 }))
    .query(async ({ ctx, input }) => {
      const now = ctx.clock.now();
      let query = ctx.db.selectFrom("users").leftJoin("profiles", "profiles.user_id", "users.id");
      if (input.search) {
        const pattern = `%${input.search.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb("users.email", "like", sql<string>`${pattern} ESCAPE '\\'`),
            eb("profiles.full_name", "like", sql<string>`${pattern} ESCAPE '\\'`),
          ]),
        );
      }
      const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const rows = await query
        .select([
          "users.id",
          "users.email",
          "users.created_at",
          "users.email_confirmed_at",
          "users.disabled_at",
          "profiles.full_name",
          "profiles.credits_remaining",
        ])
        .orderBy("users.created_at", "desc")
        .limit(input.limit)
        .offset(input.offset)
        .execute();
      const users = await Promise.all(
        rows.map(async (row) => {
          const lock = await ctx.db
            .selectFrom("login_attempts")
            .select("locked_until")
            .where("email", "=", row.email.toLowerCase())
            .executeTakeFirst();
          const renders = await ctx.db
            .selectFrom("render_jobs")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("user_id", "=", row.id)
            .executeTakeFirstOrThrow();
          const lockedUntil = lock?.locked_until && lock.locked_until > now ? lock.locked_until : null;
          return {
            id: row.id,
            email: row.email,
            fullName: row.full_name ?? row.email,
            credits: row.credits_remaining ?? 0,
            roles: await listRoles(ctx.db, row.id),
            createdAt: row.created_at,
            emailConfirmed: row.email_confirmed_at !== null,
            disabled: row.disabled_at !== null,
            locked: lockedUntil !== null,
            lockedUntil,
            renders: Number(renders.n),
          };
        }),
      );
      return { users, total: Number(total.n) };
    }),

  /** A credit adjustment, with its reason, as a ledger row ("admin"). */
  adjustCredits: adminProcedure
    .input(
      z.object({
        userId: id,
        amount: z
          .number()
          .int()
          .min(-100_000)
          .max(100_000)
          .refine((value) => value !== 0),
        reason: z.string().trim().min(1).max(200),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await existingUser(ctx, input.userId);
      const now = ctx.clock.now();
      const credits = await ctx.db.transaction().execute(async (trx) => {
        const profile = await trx.selectFrom("profiles").select("credits_remaining").where("user_id", "=", input.userId).executeTakeFirst();
        if (!profile) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
        if (profile.credits_remaining + input.amount < 0) throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.notEnoughCredits });
        await grantCredits(trx, input.userId, input.amount, "admin", now, { reason: `${input.reason} (by ${ctx.user.email})` });
        return profile.credits_remaining + input.amount;
      });
      await audit(ctx, "adjust_credits", input.userId, { amount: input.amount, reason: input.reason });
      return { credits };
    }),

  grantRole: adminProcedure.input(z.object({ userId: id, role })).mutation(async ({ ctx, input }) => {
    await existingUser(ctx, input.userId);
    await grantRole(ctx.db, input.userId, input.role, ctx.clock.now());
    await audit(ctx, "grant_role", input.userId, { role: input.role });
    return { roles: await listRoles(ctx.db, input.userId) };
  }),

  revokeRole: adminProcedure.input(z.object({ userId: id, role })).mutation(async ({ ctx, input }) => {
    // An admin cannot lock themself out; another admin can.
    if (input.userId === ctx.user.id && input.role === ADMIN_ROLE)
      throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.cannotChangeOwnAdmin });
    await existingUser(ctx, input.userId);
    await revokeRole(ctx.db, input.userId, input.role);
    await audit(ctx, "revoke_role", input.userId, { role: input.role });
    return { roles: await listRoles(ctx.db, input.userId) };
  }),

  /** Ends a sign-in lockout now. */
  unlockAccount: adminProcedure.input(z.object({ userId: id })).mutation(async ({ ctx, input }) => {
    const user = await existingUser(ctx, input.userId);
    await ctx.db.deleteFrom("login_attempts").where("email", "=", user.email.toLowerCase()).execute();
    await audit(ctx, "unlock", input.userId);
    return { ok: true as const };
  }),

  /** A disabled account cannot sign in, and its sessions end at once. */
  setDisabled: adminProcedure.input(z.object({ userId: id, disabled: z.boolean() })).mutation(async ({ ctx, input }) => {
    if (input.userId === ctx.user.id) throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.cannotChangeOwnAdmin });
    await existingUser(ctx, input.userId);
    const now = ctx.clock.now();
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ disabled_at: input.disabled ? now : null, updated_at: now })
        .where("id", "=", input.userId)
        .execute();
      if (input.disabled) await trx.deleteFrom("sessions").where("user_id", "=", input.userId).execute();
    });
    await audit(ctx, input.disabled ? "disable" : "enable", input.userId);
    return { ok: true as const };
  }),

  jobs: adminProcedure
    .input(z.object({ status: z.enum(JOB_STATUSES).optional(), ...page }).default({ limit: 50, offset: 0 }))
    .query(async ({ ctx, input }) => {
      let query = ctx.db.selectFrom("render_jobs").leftJoin("users", "users.id", "render_jobs.user_id");
      if (input.status) query = query.where("render_jobs.status", "=", input.status);
      const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const rows = await query
        .select([
          "render_jobs.id",
          "users.email",
          "render_jobs.style",
          "render_jobs.status",
          "render_jobs.provider",
          "render_jobs.created_at",
          "render_jobs.started_at",
          "render_jobs.finished_at",
          "render_jobs.error",
          "render_jobs.attempts",
        ])
        .orderBy("render_jobs.created_at", "desc")
        .limit(input.limit)
        .offset(input.offset)
        .execute();
      return {
        total: Number(total.n),
        jobs: rows.map((row) => ({
          id: row.id,
          owner: row.email ?? "visitor",
          style: row.style,
          status: row.status,
          provider: row.provider,
          createdAt: row.created_at,
          startedAt: row.started_at,
          finishedAt: row.finished_at,
          durationMs: row.started_at !== null && row.finished_at !== null ? row.finished_at - row.started_at : null,
          error: row.error,
          attempts: row.attempts,
        })),
      };
    }),

  /** Puts a failed or canceled render back in the queue, free of charge (its credit was refunded). */
  retryJob: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const stored = await ctx.db.transaction().execute(async (trx) => {
      const job = await trx
        .updateTable("render_jobs")
        .set({
          status: "queued",
          credits_charged: 0,
          error: null,
          percent: null,
          attempts: 0,
          recoveries: 0,
          started_at: null,
          finished_at: null,
          updated_at: now,
        })
        .where("id", "=", input.id)
        .where("status", "in", ["failed", "canceled"])
        .returningAll()
        .executeTakeFirst();
      if (!job) return null;
      return recordRenderEvent(trx, ownerKey(jobOwner(job)), {
        type: "queued",
        jobId: job.id,
        at: now,
        position: await queuePosition(trx, job),
      });
    });
    if (!stored) throw new TRPCError({ code: "CONFLICT", message: MESSAGES.renderNotCancelable });
    ctx.renderEvents.publish([stored]);
    ctx.renderWorker.wake();
    await audit(ctx, "retry_job", null, { jobId: input.id });
    return { status: "queued" as const };
  }),

  cancelJob: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const job = await ctx.db.selectFrom("render_jobs").select(["user_id", "visitor_id"]).where("id", "=", input.id).executeTakeFirst();
    if (!job) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
    const status = await cancelJob(ctx, jobOwner(job), input.id);
    await audit(ctx, "cancel_job", job.user_id, { jobId: input.id });
    return { status };
  }),

  outbox: adminProcedure.input(z.object({ limit: page.limit }).default({ limit: 50 })).query(async ({ ctx, input }) => {
    const mails = await ctx.db
      .selectFrom("mail_outbox")
      .select(["id", "to_address", "subject", "transport", "created_at", "sent_at", "error"])
      .orderBy("created_at", "desc")
      .limit(input.limit)
      .execute();
    return mails.map((mail) => ({
      id: mail.id,
      to: mail.to_address,
      subject: mail.subject,
      transport: mail.transport,
      createdAt: mail.created_at,
      sentAt: mail.sent_at,
      error: mail.error,
    }));
  }),

  analyticsSummary: adminProcedure
    .input(z.object({ days: z.number().int().min(1).max(365).default(30) }).default({ days: 30 }))
    .query(({ ctx, input }) => analyticsSummary(ctx.db, ctx.clock.now(), input.days)),
});
