/**
 * What the parts of the render module share: the adapters they use, the event bus, the signals
 * between queue and worker, the engine's id, and the projects directory the module is given.
 */
import type { CustomStyleId, StyleSnapshot } from "../../shared/custom-styles";
import type { Transaction } from "kysely";
import type { Language } from "../../shared/constants";
import type { EngineCapabilities } from "../../shared/render";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";
import type { Infra } from "../infra";
import type { RenderEventBus } from "./live";
import type { RenderSignals } from "./signals";

/** What the render module needs from the projects capability (which owns the projects table). */
export interface ProjectDirectory {
  /**
   * The project an upload of this user goes to, with its team (null: personal): the one named, when
   * the user may work in it (else null); without a name, their latest project in the space they work
   * in (`spaceTeamId`), or a new one there named in their language.
   */
  projectForUpload(
    userId: string,
    projectId: string | undefined,
    language: Language,
    spaceTeamId: string | null,
  ): Promise<{ id: string; teamId: string | null } | null>;
  /** The project's team (null: personal) when the user may work in it; null when not (or no such project). */
  projectAccess(userId: string, projectId: string): Promise<{ teamId: string | null } | null>;
  /** Marks the project as just used (its place in "latest first" lists). */
  touch(projectId: string, now: number): Promise<void>;
}

/** What the render module needs from the spaces module (which owns teams and their members). */
export interface TeamDirectory {
  /** The user's membership of the team (with their monthly cap, null: none), or null when they are not a member. */
  membership(userId: string, teamId: string): Promise<{ monthlyCap: number | null } | null>;
}

/** What the render module needs from the accounts capability (which owns the users table). */
export interface AccountDirectory {
  /** True when the user's e-mail address is confirmed (Google accounts always are). */
  emailConfirmed(userId: string): Promise<boolean>;
}

/** A database handle or the transaction a render's change runs in. */
type Db = AppDatabase | Transaction<Database>;

/**
 * What the render module needs from the credits ledger (services/credits.ts, which owns the credit
 * tables). Charges and refunds take the render's own transaction, so a job and its credit commit
 * together; a refused charge is a DomainError ("notEnoughCredits", "freeCreditsNeedConfirmation").
 */
/**
 * Who pays for a job (decision 070): the user's own balance, or their team's when the job is in a
 * team's project, with the member's monthly cap there (null: none).
 */
export type Payer = { userId: string; teamId: null } | { userId: string; teamId: string; monthlyCap: number | null };

export interface CreditLedger {
  /** The payer's credits now (the team's for a team; 0 without a profile). */
  balance(db: Db, payer: Pick<Payer, "userId" | "teamId">): Promise<number>;
  /** The free credits among the user's own balance, counted as the last ones spent. */
  freeCreditsHeld(db: Db, userId: string): Promise<number>;
  /**
   * Takes one render's credit, or refuses; with keepFreeCredits the free credits stay untouched. A
   * team's charge counts against the member's monthly cap ("teamMonthlyCapReached").
   */
  chargeForJob(db: Db, payer: Payer, jobId: string, now: number, options?: { keepFreeCredits?: boolean }): Promise<void>;
  /** Gives a job's credit back once to whoever paid it; false when it was given back already. */
  refundJob(db: Db, payer: Pick<Payer, "userId" | "teamId">, jobId: string, now: number, reason: string): Promise<boolean>;
  /** The user's own charged and refunded credits per period (periods start at `starts`, the last ends before `end`). */
  useByPeriod(
    db: Db,
    userId: string,
    starts: readonly number[],
    end: number,
  ): Promise<Array<{ charged: number; refunded: number; refunds: number }>>;
}

/** What the render module needs from the styles module (which owns custom_styles; decision 101). */
export interface StyleDirectory {
  /**
   * The custom style as a render in the space uses it, with its reference picture (a JPEG) when it has
   * one; a DomainError "customStyleNotFound" outside the space.
   */
  take(
    space: { userId: string; teamId: string | null },
    styleId: CustomStyleId,
  ): Promise<{ snapshot: StyleSnapshot; reference: Buffer | null }>;
}

export interface RenderContext extends Pick<Infra, "db" | "clock" | "env" | "storage" | "diskFloor" | "log"> {
  events: RenderEventBus;
  signals: RenderSignals;
  /** The engine new jobs are recorded with, and what it can do (the rules ai-render checks). */
  providerId: string;
  capabilities: EngineCapabilities;
  /** The engine bills each render: an unconfirmed account keeps its free credits (see credits.chargeForJob). */
  billedPerRender: boolean;
  projects: ProjectDirectory;
  accounts: AccountDirectory;
  teams: TeamDirectory;
  credits: CreditLedger;
  styles: StyleDirectory;
  /** Free demo renders per client address per day, as the operator set it (0: no demo). */
  freeDemoRendersPerAddress: () => number;
  /** The studio's name in force (/admin → Studio): downloads are named after it. */
  brandName: () => string;
  /** What one paint edit costs now (issue 33): the operator's price when the Preview engine makes edits, else a render's. */
  paintPrice: () => number;
}
