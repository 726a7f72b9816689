/**
 * Start-up and the one place implementations are wired together:
 * env → database → migrations → adapters (Infra) → capabilities (Services) → worker → HTTP.
 * ROLE says which parts this process runs (decision 077): `all` everything (one box), `web` the app
 * without the render worker, `worker` the render worker with GET /healthz only.
 * Used by main.ts, the integration tests and the benchmark.
 */
import { RENDER } from "../shared/render";
import type http from "node:http";
import { mkdir } from "node:fs/promises";
import { createApp, type AppOptions } from "./app";
import type { Services } from "./app-services";
import { createSecretBox, loadAppSecret } from "./auth/encryption";
import { createBackupModule } from "./backup";
import { createLockoutService } from "./auth/lockout";
import { createSessionsService } from "./auth/sessions";
import { createTwoFactorService } from "./auth/two-factor";
import { systemClock, type Clock } from "./clock";
import { dialectOf, openDatabase, type AppDatabase, describeDatabase } from "./db/client";
import { migrateToLatest } from "./db/migrate";
import type { Env } from "./env";
import { listen, type RunningServer } from "./http/listen";
import { mailBaseUrl } from "./http/identity";
import { connectionLimitsOf } from "./http/connection-limits";
import type { Infra } from "./infra";
import { createLogger, type Logger } from "./logger";
import { createMailer } from "./mail/mailer";
import { createListingModule } from "./listing";
import { createClientsModule } from "./clients";
import { createCommunityModule } from "./community";
import { createRateCounts, createRateLimits, PostgresNotifications } from "./coordination";
import { createMetrics } from "./metrics";
import { createHousekeeping } from "./housekeeping";
import { createRenderModule, userOwner, type RenderModuleOptions } from "./render";
import { createReviewModule } from "./review";
import { createMeasuresModule } from "./measures";
import { createApiModule } from "./api";
import { createWebhooksModule, type WebhooksOptions } from "./webhooks";
import { forgetSpaceEventsBefore, SPACE_EVENTS_KEEP_MS, spaceEventsAfter } from "./space-events";
import { createSettingsModule } from "./settings";
import {
  createAccountDirectory,
  createAccountsService,
  createPeopleDirectory,
  disabledAccountIds,
  isAccountDisabled,
} from "./services/accounts";
import { createSpacesModule } from "./spaces";
import { createStylesModule, snapshotOf } from "./styles";
import { createMarketplaceModule } from "./marketplace";
import { createAdminService } from "./services/admin";
import { creditLedgerPage, createTeamCreditsService, renderCreditLedger } from "./services/credits";
import { createAnalyticsService } from "./services/analytics";
import { createPaymentsService } from "./services/payments";
import { createProjectDirectory, createProjectsService } from "./services/projects";
import { applyAdminEmails, createRolesService } from "./services/roles";
import { createSelfTestRunsService } from "./services/self-test-runs";
import { checkRenderProvider, createSystemService } from "./services/system-checks";
import { createDiskFloor } from "./storage/disk-floor";
import { createStorage, storageWhere } from "./storage/create";
import type { ObjectStorage } from "./storage/storage";
import { APP_VERSION } from "./version";

/** How often, on SQLite, each process reads the settings again (a change made through another process). */
const SETTINGS_REFRESH_MS = 5000;

export interface StartedApp {
  /** The adapters (tests read the database and the environment through it). */
  deps: Infra;
  services: Services;
  http: RunningServer;
  /** Graceful stop: close HTTP (in-flight requests finish), then the database. */
  stop(): Promise<void>;
}

export interface BootOptions extends AppOptions {
  /** Replaces the engine RENDER_PROVIDER picks (tests, the benchmark). */
  renderProvider?: RenderModuleOptions["provider"];
  /** Worker settings beyond RENDER_CONCURRENCY and RENDER_DEADLINE_MS (tests: short backoff). */
  worker?: RenderModuleOptions["worker"];
  clock?: Clock;
  log?: Logger;
  /** false: jobs stay queued (tests that look at the queue itself). ROLE=web never starts it. */
  startWorker?: boolean;
  /**
   * An open database to use instead of opening env.DATABASE; stop() leaves it open. Tests that run
   * several instances in one process share one SQLite connection: a second connection's busy wait
   * would block the one thread the first needs to finish its transaction.
   */
  database?: AppDatabase;
  /** How often, on SQLite, the settings are read again (default 5 s; tests: shorter). */
  settingsRefreshMs?: number;
  /** The webhooks' delivery worker: how often it looks for work, how names resolve (tests). */
  webhooks?: WebhooksOptions;
  /** Wraps the store createStorage chose (tests: a disk of a given size). */
  storage?: (store: ObjectStorage) => ObjectStorage;
}

/** The adapters around an open, migrated database. */
export function buildInfra(env: Env, db: AppDatabase, log: Logger, clock: Clock, storage = createStorage(env)): Infra {
  return {
    env,
    db,
    log,
    clock,
    version: APP_VERSION,
    startedAt: clock.now(),
    mailer: createMailer(env, db, log, clock),
    secretBox: createSecretBox(loadAppSecret(env)),
    storage,
    // A store without a disk of its own (S3): the floor guards DATA_DIR's disk, where the database is.
    diskFloor: createDiskFloor(storage, env.DISK_FREE_FLOOR_MB, env.DATA_DIR),
    // Several instances may share a PostgreSQL database; they tell each other through it (decisions 082, 083).
    crossInstance: dialectOf(db) === "postgres" ? new PostgresNotifications(env.DATABASE, db, log) : null,
  };
}

/** Every capability, wired to the adapters and to each other. */
export function buildServices(infra: Infra, options: Pick<BootOptions, "renderProvider" | "worker" | "webhooks"> = {}): Services {
  const { db, clock, env } = infra;
  const settings = createSettingsModule(infra);
  // Spaces come first (render and projects ask it who is in which team); a member who leaves a team
  // has their open streams of the team's events closed by the render module, wired below.
  let dismissFromTeam = (_teamId: string, _userId: string): void => {};
  let deleteTeamWork = async (_teamId: string): Promise<void> => {};
  const spaces = createSpacesModule(infra, {
    people: createPeopleDirectory(infra),
    brandName: settings.brandName,
    onMemberGone: (teamId, userId) => dismissFromTeam(teamId, userId),
    // A deleted team's projects go first, with their pictures and files (the projects service, wired below).
    beforeTeamDeleted: (teamId) => deleteTeamWork(teamId),
  });
  // Styles of a space's own (decision 100): the render module resolves a render's custom style through it.
  const styles = createStylesModule(infra, { spaces });
  const projectDirectory = createProjectDirectory(infra, spaces);
  const render = createRenderModule(infra, {
    projects: projectDirectory,
    accounts: createAccountDirectory(infra),
    teams: spaces,
    credits: renderCreditLedger,
    // A custom style's content as a render takes it (decision 101).
    styles: {
      take: async (space, styleId) => {
        const { view, reference } = await styles.resolve(space, styleId);
        return { snapshot: snapshotOf(view, false), reference };
      },
    },
    provider: options.renderProvider,
    worker: options.worker,
    freeDemoRendersPerAddress: settings.demoRendersPerAddressPerDay,
    previewPaintCredits: () => settings.paint().previewCredits,
    brandName: settings.brandName,
    // Before a task falls back to an engine not seen up: the self-test's question to it (decision 088).
    engineHealth: async (engineId, config, timeoutMs) => {
      const result = await checkRenderProvider(config, { providerId: engineId, timeoutMs });
      return { ok: result.ok, detail: result.detail };
    },
  });
  // An engine saved in /admin → Studio replaces the one in force at once (no restart).
  settings.onEngineChange(() => render.useEngine(settings.engineEnv()));
  const roles = createRolesService(db, clock);
  const listing = createListingModule(infra, { render, brandName: settings.brandName, teams: spaces });
  const projects = createProjectsService(infra, render, spaces, listing);
  deleteTeamWork = async (teamId) => void (await projects.deleteTeamWork(teamId));
  const measures = createMeasuresModule(infra, {
    // A photo of the visitors' demo has no project of its own (it is not one of the projects table's).
    photos: {
      upload: async (owner, uploadId) => {
        const photo = await render.upload(owner, uploadId);
        return { ...photo, projectId: photo.projectId === RENDER.demoProjectId ? null : photo.projectId };
      },
      picture: (owner, id) => render.versionPicture(owner, id),
    },
    projects: { mayWorkIn: async (userId, projectId) => (await projectDirectory.projectAccess(userId, projectId)) !== null },
  });
  const review = createReviewModule(infra, {
    measures,
    render,
    projects,
    people: createPeopleDirectory(infra),
    activity: spaces,
    brandName: settings.brandName,
    // Review events reach the other instances too (PostgreSQL; decision 082).
    crossInstance: infra.crossInstance,
  });
  // A removed member's open streams of the team end at once: render events, review events and listing videos.
  dismissFromTeam = (teamId, userId) => {
    render.dismissFromTeam(teamId, userId);
    review.dismissFromTeam(teamId, userId);
    listing.dismissFromTeam(teamId, userId);
  };
  // Requests per address (and per API key), counted in the database so that limits hold across instances (decision 078).
  const rateCounts = createRateCounts(infra);
  // The public REST API (issue 31): keys, and /api/v1 on the same capabilities as the web app.
  // Webhooks (issue 31, decisions 095, 098): render and space events read after cursors of their own, shaped as the API shows them.
  const webhooks = createWebhooksModule(
    infra,
    {
      spaces,
      people: createPeopleDirectory(infra),
      brandName: settings.brandName,
      renders: {
        eventsAfter: (afterId, limit, types) => render.eventsAfter(afterId, limit, types),
        describe: (userId, teamId, jobId) => api.describeRender(userId, teamId, jobId),
      },
      // Credit balances that went down and listing exports made (decision 098).
      spaceEvents: { after: (afterId, limit) => spaceEventsAfter(db, afterId, limit) },
      listings: { describe: (userId, teamId, exportId) => api.describeListing(userId, teamId, exportId) },
    },
    options.webhooks,
  );
  // The marketplace of styles (decision 104): copies of a space's styles and finished renders, installed as copies.
  const marketplace = createMarketplaceModule(infra, {
    teams: spaces,
    people: { disabledIds: () => disabledAccountIds(infra) },
    styles: {
      read: (space, styleId) => styles.copyOf(space, styleId),
      insertCopies: (space, copies) => styles.insertCopies(space.userId, space.teamId, copies),
      overwrite: (userId, styleId, copy) => styles.overwrite(userId, styleId, copy),
      remove: (userId, styleId) => styles.delete(userId, styleId),
    },
    renders: {
      finished: async (space, jobId) => {
        const owner = userOwner(space.userId, space.teamId);
        const job = await render.job(owner, jobId).catch(() => null);
        if (!job || job.kind !== "render" || job.status !== "succeeded") return null;
        const picture = await render.versionPicture(owner, jobId).catch(() => null);
        return picture ? { roomType: job.roomType, picture: picture.data } : null;
      },
    },
  });
  // A render that ended on this instance: its webhooks go out at once, not at the next look.
  render.observeWrittenEvents((events) => {
    if (events.some((stored) => ["succeeded", "failed", "canceled"].includes(stored.event.type))) webhooks.kick();
  });
  const api = createApiModule(infra, {
    spaces,
    accounts: { isDisabled: (userId) => isAccountDisabled(infra, userId) },
    render,
    counts: rateCounts,
    webhooks,
    credits: {
      balance: (owner) => renderCreditLedger.balance(db, { userId: owner.userId ?? "", teamId: owner.teamId }),
      ledger: (owner, page) => creditLedgerPage(db, { userId: owner.userId ?? "", teamId: owner.teamId }, page),
    },
    projects,
    listing,
    styles,
    publicBase: (req) => mailBaseUrl(req, env),
  });
  // The community hub (decision 102): it publishes renders through the render module's port.
  const community = createCommunityModule(infra, {
    renders: { source: (userId, jobId) => render.publicationSource(userId, jobId), pictures: (jobId) => render.publicationPictures(jobId) },
    spaces,
    people: { ...createPeopleDirectory(infra), disabledIds: () => disabledAccountIds(infra) },
  });
  const payments = createPaymentsService({ ...infra, brandName: settings.brandName, teams: spaces });
  const backups = createBackupModule(infra);
  const accounts = createAccountsService(infra, render, projects, settings, spaces, community);
  const sessions = createSessionsService(db, clock);
  const analytics = createAnalyticsService(infra, render);
  // Each owner removes what is its own; the housekeeping module schedules and records the passes.
  const housekeeping = createHousekeeping(infra, [
    { name: "sessions", run: async () => ({ expiredSessions: await sessions.purgeExpired() }) },
    {
      name: "mail links and challenges",
      run: async () => {
        const removed = await accounts.purgeExpiredTokens();
        return { expiredMailLinks: removed.mailLinks, expiredTwoFactorChallenges: removed.twoFactorChallenges };
      },
    },
    { name: "analytics", run: async () => ({ oldAnalyticsEvents: await analytics.prune() }) },
    { name: "render", run: () => render.runHousekeeping() },
    { name: "rate counts", run: async () => ({ endedRateCounts: await rateCounts.prune() }) },
    { name: "webhook deliveries", run: async () => ({ oldWebhookDeliveries: await webhooks.pruneDeliveries() }) },
    { name: "space events", run: async () => ({ oldSpaceEvents: await forgetSpaceEventsBefore(db, clock.now() - SPACE_EVENTS_KEEP_MS) }) },
    {
      name: "API idempotency keys",
      run: async () => ({ oldIdempotencyKeys: await api.pruneIdempotency(), endedApiRenderSlots: await api.pruneRenderSlots() }),
    },
    { name: "API usage", run: async () => ({ oldApiUsageDays: await api.pruneUsage() }) },
    { name: "published copies", run: () => community.removeOrphanCopies() },
  ]);
  return {
    settings,
    accounts,
    sessions,
    lockout: createLockoutService(db, clock),
    twoFactor: createTwoFactorService({ ...infra, issuer: settings.brandName }),
    roles,
    spaces,
    styles,
    marketplace,
    teamCredits: createTeamCreditsService(infra, spaces, render),
    clients: createClientsModule(infra, { spaces, projects }),
    community,
    projects,
    render,
    listing,
    review,
    measures,
    api,
    webhooks,
    payments,
    admin: createAdminService(infra, render, roles, payments, backups, housekeeping, settings, spaces),
    analytics,
    housekeeping,
    selfTestRuns: createSelfTestRunsService(infra),
    system: createSystemService({ ...infra, render, backups, studio: settings }),
    backups,
    metrics: createMetrics({ render, backups, log: infra.log }),
    rateLimits: createRateLimits(rateCounts, clock, env.AUTH_RATE_LIMIT_PER_MINUTE, env.NEW_ACCOUNTS_PER_ADDRESS_PER_DAY),
  };
}

/** env → database → migrations → HTTP. Used by main.ts and by the integration tests. */
export async function startApp(env: Env, options: BootOptions = {}): Promise<StartedApp> {
  const log = options.log ?? createLogger(env.LOG_LEVEL, { format: env.LOG_FORMAT });
  const clock = options.clock ?? systemClock;
  // DATA_DIR holds the disk floor's and status pages' disk even when neither the database
  // (DATABASE_URL) nor the files (STORAGE_URL) are in it: made here, owner-only, if nothing made it.
  await mkdir(env.DATA_DIR, { recursive: true, mode: 0o700 });
  const db = options.database ?? openDatabase(env.DATABASE);
  // A database handed in stays open for whoever opened it.
  const closeDatabase = () => (options.database ? Promise.resolve() : db.destroy());
  try {
    for (const line of await migrateToLatest(db)) log.info(`database: ${line}`);
    log.info("database", { where: describeDatabase(env.DATABASE) });
  } catch (error) {
    await closeDatabase();
    throw error;
  }
  const store = createStorage(env);
  const infra = buildInfra(env, db, log, clock, options.storage ? options.storage(store) : store);
  log.info("stored files", { where: storageWhere(env) });
  let services: Services;
  try {
    services = buildServices(infra, options);
  } catch (error) {
    // A refusal at start (such as a REPLICATE_MODEL without a preset) ends here, with the database closed.
    infra.mailer.close();
    infra.storage.close?.();
    await closeDatabase();
    throw error;
  }
  const { render, settings } = services;
  await settings.ready;
  // The engine the settings describe, unless a test or the benchmark gave one.
  if (!options.renderProvider && settings.engineConfigured()) {
    try {
      render.useEngine(settings.engineEnv());
    } catch (error) {
      log.error("the engine saved in /admin → Studio cannot be built; rendering with the environment's engine", { error });
    }
  }
  const servesApp = env.ROLE !== "worker";
  // PostgreSQL: listen to the other instances before any stream or job runs (decisions 082, 083).
  try {
    await infra.crossInstance?.start();
  } catch (error) {
    infra.mailer.close();
    infra.storage.close?.();
    await closeDatabase();
    throw error;
  }
  if (servesApp) await applyAdminEmails(infra);
  if (env.ROLE !== "web" && options.startWorker !== false) await render.startWorker();
  // The app's timers run where the app is served; a worker only renders.
  if (servesApp) {
    services.housekeeping.start();
    services.listing.startHousekeeping();
    services.backups.start();
    services.webhooks.start();
  }
  const app = servesApp ? createApp(infra, services, options) : workerHealthRoute(infra, services);
  let http: RunningServer;
  try {
    http = await listen(app, env.PORT, env.HOST, { limits: connectionLimitsOf(env), log });
  } catch (error) {
    await render.stop();
    await services.webhooks.stop();
    await infra.crossInstance?.close();
    infra.storage.close?.();
    await closeDatabase();
    throw error;
  }

  // SQLite: processes on one box have no channel to tell each other of a settings change; each reads
  // the three settings rows again every few seconds instead (decision 083). PostgreSQL uses NOTIFY.
  const settingsRefresh = infra.crossInstance
    ? undefined
    : setInterval(() => void settings.refresh(), options.settingsRefreshMs ?? SETTINGS_REFRESH_MS);
  settingsRefresh?.unref();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Open event streams end first, so that HTTP can close without waiting on them.
      clearInterval(settingsRefresh);
      render.closeEventStreams();
      services.review.closeEventStreams();
      await http.close(env.SHUTDOWN_TIMEOUT_MS);
      await render.stop();
      await services.webhooks.stop();
      await infra.crossInstance?.close();
      await services.listing.stop();
      await services.housekeeping.stop();
      await services.backups.stop();
      infra.mailer.close();
      infra.storage.close?.();
      await closeDatabase();
    })();
    return stopping;
  };
  return { deps: infra, services, http, stop };
}

/**
 * All a worker (ROLE=worker) serves: GET /healthz, so that the image's HEALTHCHECK and an
 * orchestrator's probe work the same on every process. The app's pages and API answer 404 here.
 */
function workerHealthRoute(infra: Infra, services: Services): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if ((req.method === "GET" || req.method === "HEAD") && path === "/healthz") {
      void services.system
        .health()
        .catch(() => ({ ok: false }))
        .then((database) => {
          res.writeHead(database.ok ? 200 : 503, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
          res.end(
            JSON.stringify({
              ok: database.ok,
              db: database.ok ? "ok" : "error",
              version: infra.version,
              role: "worker",
              activeRenders: services.render.activeRenders(),
            }),
          );
        });
      return;
    }
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("Not found: this process is a render worker (ROLE=worker); the app is served by the web instances.\n");
  };
}
