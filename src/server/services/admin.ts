/**
 * /admin (spec sections 4 and 6): what an admin sees and does, each action written to admin_audit.
 * The router checks the admin role; this service owns admin_audit and reads the other capabilities'
 * figures through them.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { ADMIN_ROLE, UPLOAD_BUCKET } from "../../shared/constants";
import type { JobStatus } from "../../shared/render";
import { DomainError, notFound } from "../errors";
import type { Infra } from "../infra";
import type { BackupModule, BackupRecord } from "../backup";
import type { Housekeeping } from "../housekeeping";
import { REPLICATE_RENDER_MODELS, type RenderModule } from "../render";
import type { SettingsModule } from "../settings";
import type { BrandInput, EngineInput, FreeCreditsInput } from "../../shared/studio-settings";
import { checkRenderProvider } from "./system-checks";
import { clearAttempts } from "../auth/lockout";
import { grantCredits } from "./credits";
import type { CreditPackageInput } from "../../shared/credit-packages";
import type { PaymentHoldView, PaymentsService } from "./payments";
import type { RolesService } from "./roles";

type Deps = Pick<Infra, "db" | "clock" | "env" | "storage" | "version" | "startedAt">;

/** Who acts: the signed-in admin. */
export interface Admin {
  id: string;
  email: string;
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

/** What the audit keeps of a held payment: enough to find it at Stripe. */
function holdDetails(hold: PaymentHoldView) {
  return {
    purchaseId: hold.purchaseId,
    packageId: hold.packageId,
    credits: hold.credits,
    price: { cents: hold.priceCents, currency: hold.currency },
    paid: { cents: hold.paidCents, currency: hold.paidCurrency },
    checkoutSessionId: hold.checkoutSessionId,
    paymentIntentId: hold.paymentIntentId,
  };
}

export function createAdminService(
  deps: Deps,
  render: RenderModule,
  roles: RolesService,
  payments: PaymentsService,
  backups: BackupModule,
  housekeeping: Housekeeping,
  settings: SettingsModule,
) {
  const { db, clock } = deps;

  async function audit(admin: Admin, action: string, targetUserId: string | null, details: Record<string, unknown> = {}): Promise<void> {
    await db
      .insertInto("admin_audit")
      .values({ admin_user_id: admin.id, action, target_user_id: targetUserId, details: JSON.stringify(details), created_at: clock.now() })
      .execute();
  }

  async function existingUser(userId: string) {
    const user = await db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
    if (!user) throw notFound();
    return user;
  }

  /** A backup as /admin shows it: the file's name, not where the server keeps it (the status says the folder). */
  const backupView = (record: BackupRecord | null) =>
    record && {
      trigger: record.trigger,
      startedAt: record.startedAt,
      finishedAt: record.finishedAt,
      fileName: record.file ? path.basename(record.file) : null,
      bytes: record.bytes,
      files: record.files,
      error: record.error,
    };

  return {
    async backups() {
      const status = await backups.status();
      return { ...status, lastSuccess: backupView(status.lastSuccess), lastFailure: backupView(status.lastFailure) };
    },

    /** "Back up now": one backup into BACKUP_DIR, audited. */
    async backUpNow(admin: Admin) {
      const record = await backups.backUpNow();
      await audit(admin, "backup.create", null, { file: record.file && path.basename(record.file), bytes: record.bytes });
      return backupView(record)!;
    },

    /** The latest housekeeping pass, and whether one runs now. */
    async housekeeping() {
      return { last: await housekeeping.last(), running: housekeeping.running };
    },

    /** "Run now": one housekeeping pass, audited with what it removed. */
    async runHousekeeping(admin: Admin) {
      const run = await housekeeping.runNow("admin");
      await audit(admin, "housekeeping.run", null, { removed: run.removed });
      return run;
    },

    async overview() {
      const users = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const disk = await fs.statfs(deps.env.DATA_DIR);
      const databaseBytes = (await fileSize(deps.env.DATABASE_FILE)) + (await fileSize(`${deps.env.DATABASE_FILE}-wal`));
      return {
        version: deps.version,
        uptimeSeconds: Math.floor((clock.now() - deps.startedAt) / 1000),
        provider: { id: render.engine.id, label: render.engine.label },
        queue: await render.queueCounts(),
        users: Number(users.n),
        dataDir: path.resolve(deps.env.DATA_DIR),
        databaseBytes,
        storageBytes: await deps.storage.size(UPLOAD_BUCKET),
        diskFreeBytes: disk.bavail * disk.bsize,
        diskTotalBytes: disk.blocks * disk.bsize,
      };
    },

    async users(filter: { search?: string; limit: number; offset: number }) {
      const now = clock.now();
      let query = db.selectFrom("users").leftJoin("profiles", "profiles.user_id", "users.id");
      if (filter.search) {
        const pattern = `%${filter.search.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb("users.email", "like", sql<string>`${pattern} ESCAPE '\\'`),
            eb("profiles.full_name", "like", sql<string>`${pattern} ESCAPE '\\'`),
          ]),
        );
      }
      const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      // The page with each user's lockout in one statement, then roles and render counts for the whole
      // page from their owners: a constant number of statements, not three per row (decision 044).
      const rows = await query
        .leftJoin("login_attempts", (join) => join.on("login_attempts.email", "=", sql<string>`lower(users.email)`))
        .select([
          "users.id",
          "users.email",
          "users.created_at",
          "users.email_confirmed_at",
          "users.disabled_at",
          "profiles.full_name",
          "profiles.credits_remaining",
          "login_attempts.locked_until",
        ])
        .orderBy("users.created_at", "desc")
        .limit(filter.limit)
        .offset(filter.offset)
        .execute();
      const ids = rows.map((row) => row.id);
      const [roleLists, renders] = await Promise.all([roles.listOf(ids), render.userRenderCounts(ids)]);
      const users = rows.map((row) => {
        const lockedUntil = row.locked_until && row.locked_until > now ? row.locked_until : null;
        return {
          id: row.id,
          email: row.email,
          fullName: row.full_name ?? row.email,
          credits: row.credits_remaining ?? 0,
          roles: roleLists.get(row.id) ?? [],
          createdAt: row.created_at,
          emailConfirmed: row.email_confirmed_at !== null,
          disabled: row.disabled_at !== null,
          locked: lockedUntil !== null,
          lockedUntil,
          renders: renders.get(row.id) ?? 0,
        };
      });
      return { users, total: Number(total.n) };
    },

    /** A credit adjustment, with its reason, as a ledger row ("admin"); never below zero. */
    async adjustCredits(admin: Admin, userId: string, amount: number, reason: string): Promise<{ credits: number }> {
      await existingUser(userId);
      const now = clock.now();
      const credits = await db.transaction().execute(async (trx) => {
        const profile = await trx.selectFrom("profiles").select("credits_remaining").where("user_id", "=", userId).executeTakeFirst();
        if (!profile) throw notFound();
        if (profile.credits_remaining + amount < 0) throw new DomainError("invalid", "notEnoughCredits");
        await grantCredits(trx, userId, amount, "admin", now, { reason: `${reason} (by ${admin.email})` });
        return profile.credits_remaining + amount;
      });
      await audit(admin, "adjust_credits", userId, { amount, reason });
      return { credits };
    },

    async grantRole(admin: Admin, userId: string, role: string): Promise<{ roles: string[] }> {
      await existingUser(userId);
      await roles.grant(userId, role);
      await audit(admin, "grant_role", userId, { role });
      return { roles: await roles.list(userId) };
    },

    /** An admin cannot lock themself out; another admin can. */
    async revokeRole(admin: Admin, userId: string, role: string): Promise<{ roles: string[] }> {
      if (userId === admin.id && role === ADMIN_ROLE) throw new DomainError("invalid", "cannotChangeOwnAdmin");
      await existingUser(userId);
      await roles.revoke(userId, role);
      await audit(admin, "revoke_role", userId, { role });
      return { roles: await roles.list(userId) };
    },

    /** Ends a sign-in lockout now. */
    async unlockAccount(admin: Admin, userId: string): Promise<void> {
      const user = await existingUser(userId);
      await clearAttempts(db, user.email);
      await audit(admin, "unlock", userId);
    },

    /** A disabled account cannot sign in, and its sessions end at once. */
    async setDisabled(admin: Admin, userId: string, disabled: boolean): Promise<void> {
      if (userId === admin.id) throw new DomainError("invalid", "cannotChangeOwnAdmin");
      await existingUser(userId);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("users")
          .set({ disabled_at: disabled ? now : null, updated_at: now })
          .where("id", "=", userId)
          .execute();
        if (disabled) await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
      });
      await audit(admin, disabled ? "disable" : "enable", userId);
    },

    /** Every owner's render jobs, newest first, with the owner's e-mail ("visitor" for visitors). */
    async jobs(filter: { status?: JobStatus; limit: number; offset: number }) {
      const { total, jobs } = await render.listAllJobs(filter);
      const userIds = [...new Set(jobs.map((job) => job.userId).filter((id): id is string => id !== null))];
      const users = userIds.length ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute() : [];
      const emails = new Map(users.map((user) => [user.id, user.email]));
      return {
        total,
        jobs: jobs.map(({ userId, ...job }) => ({ ...job, owner: (userId !== null ? emails.get(userId) : undefined) ?? "visitor" })),
      };
    },

    /** Puts a failed or canceled render back in the queue, free of charge (its credit was refunded). */
    async retryJob(admin: Admin, jobId: string): Promise<{ status: "queued" }> {
      if (!(await render.retry(jobId))) throw new DomainError("conflict", "renderNotCancelable");
      await audit(admin, "retry_job", null, { jobId });
      return { status: "queued" };
    },

    async cancelJob(admin: Admin, jobId: string) {
      const { status, userId } = await render.cancelAny(jobId);
      await audit(admin, "cancel_job", userId, { jobId });
      return { status };
    },

    /** Paid Checkout Sessions held because the amount or currency was not the package's, with the buyer's e-mail. */
    async paymentHolds() {
      const holds = await payments.openHolds();
      const userIds = [...new Set(holds.map((hold) => hold.userId))];
      const users = userIds.length ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute() : [];
      const emails = new Map(users.map((user) => [user.id, user.email]));
      return holds.map((hold) => ({ ...hold, email: emails.get(hold.userId) ?? null }));
    },

    /** Grants a held purchase's credits anyway (once: a second call is refused). */
    /** Every credit package, retired ones too, with its sales. */
    creditPackages: () => payments.allPackages(),

    /** /admin → Studio: the settings in force, which the environment sets, the engine in use and the Replicate presets. */
    studioSettings() {
      return { ...settings.adminView(), engineInUse: render.engine, replicateModels: REPLICATE_RENDER_MODELS };
    },

    async updateStudioBrand(admin: Admin, input: BrandInput) {
      const { changed } = await settings.updateBrand(input);
      await audit(admin, "settings.brand", null, { changed });
      return settings.adminView().brand;
    },

    /** A data URL of a PNG or JPEG; the picture is checked like an upload. */
    async setStudioLogo(admin: Admin, dataUrl: string) {
      const match = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl);
      if (!match) throw new DomainError("invalid", "logoInvalid");
      const logo = await settings.setLogo(Buffer.from(match[2]!, "base64"));
      await audit(admin, "settings.logo", null, { logo });
      return settings.adminView().brand;
    },

    async removeStudioLogo(admin: Admin) {
      if (await settings.removeLogo()) await audit(admin, "settings.logo-removed", null);
      return settings.adminView().brand;
    },

    async updateFreeCredits(admin: Admin, input: FreeCreditsInput) {
      const { changed } = await settings.updateFreeCredits(input);
      await audit(admin, "settings.free-credits", null, { changed });
      return settings.adminView().freeCredits;
    },

    /** Saves the engine and swaps it in (new renders use it at once); the audit names changed keys, never their values. */
    async updateEngine(admin: Admin, input: EngineInput) {
      const { changed, keysChanged } = await settings.updateEngine(input, (config) => render.checkEngine(config));
      await audit(admin, "settings.engine", null, { changed, keysChanged });
      return { ...settings.adminView().engine, engineInUse: render.engine };
    },

    /**
     * "Test connection": the engine the form describes (typed keys over the stored ones) is asked its
     * cheapest authenticated question, as the self-test's render-engine check does; nothing is saved.
     */
    async testEngineConnection(input: EngineInput) {
      const config = settings.engineEnvFor(input);
      const result = await checkRenderProvider({ ...deps.env, ...config }, { providerId: config.RENDER_PROVIDER });
      return { engine: config.RENDER_PROVIDER, ...result };
    },

    async createCreditPackage(admin: Admin, input: CreditPackageInput) {
      const created = await payments.createPackage(input);
      await audit(admin, "credit-package.create", null, { package: created });
      return created;
    },

    /** Future purchases get the new credits and price; past ones keep theirs. */
    async updateCreditPackage(admin: Admin, id: string, input: CreditPackageInput) {
      const { before, after } = await payments.updatePackage(id, input);
      await audit(admin, "credit-package.update", null, { id, before, after });
      return after;
    },

    async setCreditPackageRetired(admin: Admin, id: string, retired: boolean) {
      if (await payments.setPackageRetired(id, retired))
        await audit(admin, retired ? "credit-package.retire" : "credit-package.restore", null, { id });
      return { retired };
    },

    async creditHeldPayment(admin: Admin, purchaseId: string): Promise<{ credits: number }> {
      const hold = await payments.creditHold(purchaseId, admin.id);
      await audit(admin, "credit_held_payment", hold.userId, holdDetails(hold));
      return { credits: hold.credits };
    },

    /** Ends a hold without credits; the admin refunds the payment in Stripe's dashboard. */
    async dismissHeldPayment(admin: Admin, purchaseId: string): Promise<void> {
      const hold = await payments.dismissHold(purchaseId, admin.id);
      await audit(admin, "dismiss_held_payment", hold.userId, holdDetails(hold));
    },

    async outbox(limit: number) {
      const mails = await db
        .selectFrom("mail_outbox")
        .select(["id", "to_address", "subject", "transport", "created_at", "sent_at", "error"])
        .orderBy("created_at", "desc")
        .limit(limit)
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
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
