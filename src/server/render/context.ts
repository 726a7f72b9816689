/**
 * What the parts of the render module share: the adapters they use, the event bus, the signals
 * between queue and worker, the engine's id, and the projects directory the module is given.
 */
import type { Language } from "../../shared/constants";
import type { EngineCapabilities } from "../../shared/render";
import type { Infra } from "../infra";
import type { RenderEventBus } from "./events";
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

export interface RenderContext extends Pick<Infra, "db" | "clock" | "env" | "storage" | "log"> {
  events: RenderEventBus;
  signals: RenderSignals;
  /** The engine new jobs are recorded with, and what it can do (the rules ai-render checks). */
  providerId: string;
  capabilities: EngineCapabilities;
  /** The engine bills each render: an unconfirmed account keeps its free credits (see credits.chargeForJob). */
  billedPerRender: boolean;
  projects: ProjectDirectory;
  accounts: AccountDirectory;
  /** Free demo renders per client address per day, as the operator set it (0: no demo). */
  freeDemoRendersPerAddress: () => number;
}
