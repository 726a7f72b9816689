/**
 * The capabilities a request may call, as the tRPC context and the plain routes receive them.
 * Built once in boot.ts (the only place implementations are wired together).
 */
import type { LockoutService } from "./auth/lockout";
import type { SessionsService } from "./auth/sessions";
import type { BackupModule } from "./backup";
import type { ClientsModule } from "./clients";
import type { CommunityModule } from "./community";
import type { TwoFactorService } from "./auth/two-factor";
import type { RateLimits } from "./coordination";
import type { Housekeeping } from "./housekeeping";
import type { ListingModule } from "./listing";
import type { MeasuresModule } from "./measures";
import type { Metrics } from "./metrics";
import type { RenderModule } from "./render";
import type { ReviewModule } from "./review";
import type { AccountsService } from "./services/accounts";
import type { AdminService } from "./services/admin";
import type { AnalyticsService } from "./services/analytics";
import type { ApiModule } from "./api";
import type { WebhooksModule } from "./webhooks";
import type { PaymentsService } from "./services/payments";
import type { ProjectsService } from "./services/projects";
import type { RolesService } from "./services/roles";
import type { SelfTestRunsService } from "./services/self-test-runs";
import type { SettingsModule } from "./settings";
import type { TeamCreditsService } from "./services/credits";
import type { SpacesModule } from "./spaces";
import type { StylesModule } from "./styles";
import type { MarketplaceModule } from "./marketplace";
import type { SystemService } from "./services/system-checks";

export interface Services {
  /** The operator's settings (/admin → Studio): brand, free credits, engine. */
  settings: SettingsModule;
  accounts: AccountsService;
  sessions: SessionsService;
  lockout: LockoutService;
  twoFactor: TwoFactorService;
  roles: RolesService;
  /** Personal space and teams: roles, membership, the activity log; who may see what in a team. */
  spaces: SpacesModule;
  /** A team's balance, ledger, use per member, and credits moved in. */
  teamCredits: TeamCreditsService;
  /** Styles of a space's own (beside the built-in ones), with their reference pictures. */
  styles: StylesModule;
  /** Published renders (/gallery, /community): likes, saves, follows, reports and their moderation. */
  community: CommunityModule;
  /** The marketplace of styles: listings of a space's styles, installed elsewhere as copies. */
  marketplace: MarketplaceModule;
  /** The clients a space keeps, and the client of each project. */
  clients: ClientsModule;
  projects: ProjectsService;
  render: RenderModule;
  /** Listing exports with their disclosure and public page (signed-in users). */
  listing: ListingModule;
  /** Client review links: the studio makes them, clients comment and decide without an account. */
  review: ReviewModule;
  /** Lengths measured on a room's photos (and, later, in AR). */
  measures: MeasuresModule;
  /** The public REST API (/api/v1) and its keys. */
  api: ApiModule;
  /** Webhooks of the REST API: endpoints, the outbox and its delivery worker. */
  webhooks: WebhooksModule;
  payments: PaymentsService;
  admin: AdminService;
  analytics: AnalyticsService;
  selfTestRuns: SelfTestRunsService;
  system: SystemService;
  /** Scheduled and on-demand backups of the database, pictures and app secret. */
  backups: BackupModule;
  /** Scheduled clean-up passes, recorded for /admin. */
  housekeeping: Housekeeping;
  /** Prometheus metrics (GET /metrics). */
  metrics: Metrics;
  /** Per-address request budgets, enforced at the edge. */
  rateLimits: RateLimits;
}
