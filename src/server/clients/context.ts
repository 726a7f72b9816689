/** What the parts of the clients module share: the adapters, and the ports to spaces and projects. */
import type { TeamRight, TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";

/** What the clients module asks the spaces module (who may do what in a team, the log). */
export interface ClientSpaces {
  currentSpace(userId: string): Promise<string | null>;
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
  requireRight(userId: string, teamId: string, right: TeamRight): Promise<TeamRole>;
  record(
    teamId: string,
    actorId: string | null,
    action: "clientAdded" | "clientChanged" | "clientRemoved",
    details: { name: string },
  ): Promise<void>;
}

/**
 * What the clients module asks the projects service: the project if the caller may see it (else it
 * throws not-found), with its team (teamId; absent or null: a personal project).
 */
export interface ClientProjects {
  get(userId: string, projectId: string): Promise<{ project: { id: string; teamId?: string | null } }>;
}

export interface ClientsContext extends Pick<Infra, "db" | "clock"> {
  spaces: ClientSpaces;
  projects: ClientProjects;
}
