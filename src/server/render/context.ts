/**
 * What the parts of the render module share: the adapters they use, the event bus, the signals
 * between queue and worker, the engine's id, and the projects directory the module is given.
 */
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
   * The project an upload of this user goes to: the one named, when it is theirs (else null);
   * without a name, their latest project, or a new one named in their language.
   */
  projectForUpload(userId: string, projectId: string | undefined, language: Language): Promise<string | null>;
  /** True when the project exists and is the user's. */
  isOwnProject(userId: string, projectId: string): Promise<boolean>;
  /** Marks the project as just used (its place in "latest first" lists). */
  touch(projectId: string, now: number): Promise<void>;
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
export interface CreditLedger {
  /** The user's credits now (0 without a profile). */
  balance(db: Db, userId: string): Promise<number>;
  /** The free credits among the balance, counted as the last ones spent. */
  freeCreditsHeld(db: Db, userId: string): Promise<number>;
  /** Takes one render's credit, or refuses; with keepFreeCredits the free credits stay untouched. */
  chargeForJob(db: Db, userId: string, jobId: string, now: number, options?: { keepFreeCredits?: boolean }): Promise<void>;
  /** Gives a job's credit back once; false when it was given back already. */
  refundJob(db: Db, userId: string, jobId: string, now: number, reason: string): Promise<boolean>;
  /** Charged and refunded credits per period (periods start at `starts`, the last ends before `end`). */
  useByPeriod(
    db: Db,
    userId: string,
    starts: readonly number[],
    end: number,
  ): Promise<Array<{ charged: number; refunded: number; refunds: number }>>;
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
  credits: CreditLedger;
  /** Free demo renders per client address per day, as the operator set it (0: no demo). */
  freeDemoRendersPerAddress: () => number;
  /** The studio's name in force (/admin → Studio): downloads are named after it. */
  brandName: () => string;
}
