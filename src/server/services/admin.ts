/**
 * /admin (spec sections 4 and 6): what an admin sees and does, each action written to admin_audit.
 * The router checks the admin role; this service owns admin_audit and reads and changes the other
 * capabilities' tables through their owners (accounts, lockout, credits, mail; decision 054).
 */
import { databaseBytes as databaseSize } from "../db/size";
import { promises as fs } from "node:fs";
import path from "node:path";
import { ADMIN_ROLE, UPLOAD_BUCKET } from "../../shared/constants";
import type { JobStatus } from "../../shared/render";
import { DomainError, notFound } from "../errors";
import type { Infra } from "../infra";
import type { BackupModule, BackupRecord } from "../backup";
import type { Housekeeping } from "../housekeeping";
import { REPLICATE_RENDER_MODELS, type RenderModule } from "../render";
import type { SettingsModule } from "../settings";
import type { BrandInput, EngineInput, EngineRoutesInput, FreeCreditsInput } from "../../shared/studio-settings";
import type { PaintSettings } from "../../shared/paint";
import { checkRenderProvider } from "./system-checks";
import { clearAttempts, lockedUntilOf } from "../auth/lockout";
import { latestOutboxMails } from "../mail/mailer";
import { accountEmails, accountPage, countAccounts, findAccount, hasProfile, setAccountDisabled } from "./accounts";
import { grantCredits, grantTeamCredits, lockedCreditBalance, lockedTeamCreditBalance } from "./credits";
import type { SpacesModule } from "../spaces";
import type { CreditPackageInput } from "../../shared/credit-packages";
import type { PaymentHoldView, PaymentsService } from "./payments";
import type { RolesService } from "./roles";

type Deps = Pick<Infra, "db" | "clock" | "env" | "storage" | "version" | "startedAt">;

/** Who acts: the signed-in admin. */
export interface Admin {
  id: string;
  email: string;
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
  spaces: SpacesModule,
) {
  const { db, clock } = deps;

  async function audit(admin: Admin, action: string, targetUserId: string | null, details: Record<string, unknown> = {}): Promise<void> {
    await db
      .insertInto("admin_audit")
      .values({ admin_user_id: admin.id, action, target_user_id: targetUserId, details: JSON.stringify(details), created_at: clock.now() })
      .execute();
  }

  async function existingUser(userId: string) {
    const user = await findAccount(db, userId);
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
      return { last: await housekeeping.last(), running: await housekeeping.isRunning() };
    },

    /** "Run now": one housekeeping pass, audited with what it removed. */
    async runHousekeeping(admin: Admin) {
      const run = await housekeeping.runNow("admin");
      await audit(admin, "housekeeping.run", null, { removed: run.removed });
      return run;
    },

    async overview() {
      const users = await countAccounts(db);
      const disk = await fs.statfs(deps.env.DATA_DIR);
      const databaseBytes = await databaseSize(db, deps.env.DATABASE_FILE);
      return {
        version: deps.version,
        uptimeSeconds: Math.floor((clock.now() - deps.startedAt) / 1000),
        provider: { id: render.engine.id, label: render.engine.label },
        queue: await render.queueCounts(),
        users,
        dataDir: path.resolve(deps.env.DATA_DIR),
        databaseBytes,
        // The store's own running total on disk; with files in a bucket, the database's rows (decision 076).
        storageBytes: deps.storage.size ? await deps.storage.size(UPLOAD_BUCKET) : await render.storedBytes(),
        diskFreeBytes: disk.bavail * disk.bsize,
        diskTotalBytes: disk.blocks * disk.bsize,
      };
    },

    async users(filter: { search?: string; limit: number; offset: number }) {
      const now = clock.now();
      // The page from accounts, then lockouts, roles and render counts for the whole page from their
      // owners: a constant number of statements, not three per row (decisions 044 and 054).
      const { rows, total } = await accountPage(db, filter);
      const ids = rows.map((row) => row.id);
      const emails = rows.map((row) => row.email);
      const [lockouts, roleLists, renders] = await Promise.all([
        lockedUntilOf(db, emails),
        roles.listOf(ids),
        render.userRenderCounts(ids),
      ]);
      const users = rows.map((row) => {
        const locked = lockouts.get(row.email) ?? null;
        const lockedUntil = locked && locked > now ? locked : null;
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
      return { users, total };
    },

    /** A credit adjustment, with its reason, as a ledger row ("admin"); never below zero. */
    async adjustCredits(admin: Admin, userId: string, amount: number, reason: string): Promise<{ credits: number }> {
      await existingUser(userId);
      const now = clock.now();
      const credits = await db.transaction().execute(async (trx) => {
        if (!(await hasProfile(trx, userId))) throw notFound();
        const balance = await lockedCreditBalance(trx, userId);
        if (balance + amount < 0) throw new DomainError("invalid", "notEnoughCredits");
        await grantCredits(trx, userId, amount, "admin", now, { reason: `${reason} (by ${admin.email})` });
        return balance + amount;
      });
      await audit(admin, "adjust_credits", userId, { amount, reason });
      return { credits };
    },

    /** /admin → Teams: every team with its balance and members, found by its name or a member's address. */
    teams: (filter: { search?: string; limit: number; offset: number }) => spaces.directory(filter),

    /**
     * A team's credit adjustment, as adjustCredits for a user: a team ledger row ("admin") with the
     * reason, never below zero, audited and recorded in the team's activity log (after the commit).
     */
    async adjustTeamCredits(admin: Admin, teamId: string, amount: number, reason: string): Promise<{ credits: number }> {
      if (!(await spaces.exists(teamId))) throw notFound();
      const now = clock.now();
      const credits = await db.transaction().execute(async (trx) => {
        const balance = await lockedTeamCreditBalance(trx, teamId);
        if (balance + amount < 0) throw new DomainError("invalid", "notEnoughCredits");
        await grantTeamCredits(trx, teamId, null, amount, "admin", now, { reason: `${reason} (by ${admin.email})` });
        return balance + amount;
      });
      await audit(admin, "adjust_team_credits", null, { teamId, amount, reason });
      await spaces.record(teamId, null, "creditsAdjusted", { credits: amount, reason });
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
      await setAccountDisabled(db, userId, disabled, clock.now());
      await audit(admin, disabled ? "disable" : "enable", userId);
    },

    /** Every owner's render jobs, newest first, with the owner's e-mail ("visitor" for visitors). */
    async jobs(filter: { status?: JobStatus; limit: number; offset: number }) {
      const { total, jobs } = await render.listAllJobs(filter);
      const userIds = [...new Set(jobs.map((job) => job.userId).filter((id): id is string => id !== null))];
      const emails = await accountEmails(db, userIds);
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
      const emails = await accountEmails(db, [...new Set(holds.map((hold) => hold.userId))]);
      return holds.map((hold) => ({ ...hold, email: emails.get(hold.userId) ?? null }));
    },

    /** Grants a held purchase's credits anyway (once: a second call is refused). */
    /** Every credit package, retired ones too, with its sales. */
    creditPackages: () => payments.allPackages(),

    /** /admin → Studio: the settings in force, which the environment sets, the engine in use and the Replicate presets. */
    studioSettings() {
      return {
        ...settings.adminView(),
        engineInUse: render.engine,
        replicateModels: REPLICATE_RENDER_MODELS,
        // Per task, the engines set up here that can do it (what the engines-per-task form offers).
        engineOffer: render.engineOffer(),
        engineStatuses: render.engineStatuses(),
      };
    },

    /** Each engine set up here: the tasks that list it, up or down (its last check or call, when), its latest failures. */
    engineStatuses: () => render.engineStatuses(),

    /** Saves each task's engines in the order tried and swaps them in (decision 088); audited. */
    async updateEngineRoutes(admin: Admin, input: EngineRoutesInput) {
      const { changed } = await settings.updateEngineRoutes(input, (config) => render.checkEngine(config));
      await audit(admin, "settings.engine-routes", null, { changed });
      return { routes: settings.adminView().engine.routes, engineInUse: render.engine, engineOffer: render.engineOffer() };
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

    /** /admin → Studio → Paint (issue 33): the palette the studio offers and what a Preview-engine paint costs. */
    async updatePaint(admin: Admin, input: PaintSettings) {
      const { changed } = await settings.updatePaint(input);
      await audit(admin, "settings.paint", null, { changed });
      return settings.paint();
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

    outbox: (limit: number) => latestOutboxMails(db, limit),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
