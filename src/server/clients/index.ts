/**
 * The clients module (issue 28, decision 072): the clients a space keeps and the client each project
 * is for. It owns the tables clients and project_clients; it asks the spaces module who may do what
 * in a team and the projects service whether the caller may see a project (ports handed in by
 * boot.ts). Routers call this surface only.
 */
import type { ClientInput } from "../../shared/clients";
import type { Infra } from "../infra";
import { createClient, deleteClient, keptClient, clientView, listClients, updateClient } from "./clients";
import type { ClientProjects, ClientSpaces, ClientsContext } from "./context";
import { clientNamesOfProjects, projectClient, setProjectClient } from "./links";

export type { ProjectClient } from "./links";

export function createClientsModule(infra: Pick<Infra, "db" | "clock">, ports: { spaces: ClientSpaces; projects: ClientProjects }) {
  const deps: ClientsContext = { db: infra.db, clock: infra.clock, spaces: ports.spaces, projects: ports.projects };
  return {
    /** The current space's clients with their details (Owner, Admin, a personal space's keeper); none for a Member. */
    list: (userId: string) => listClients(deps, userId),
    /** One client with its details (who keeps it only). */
    get: async (userId: string, clientId: string) => clientView(await keptClient(deps, userId, clientId)),
    /** A new client in the caller's current space. */
    create: (userId: string, input: ClientInput) => createClient(deps, userId, input),
    update: (userId: string, clientId: string, input: ClientInput) => updateClient(deps, userId, clientId, input),
    delete: (userId: string, clientId: string) => deleteClient(deps, userId, clientId),

    /** The project's client: details for who keeps the space's clients, the name for a Member. */
    ofProject: (userId: string, projectId: string) => projectClient(deps, userId, projectId),
    /** Links a project to a client of its space, or (null) to none. */
    setProjectClient: (userId: string, projectId: string, clientId: string | null) => setProjectClient(deps, userId, projectId, clientId),
    /** The client's name of each project that has one (project views; the caller already sees these projects). */
    clientNamesOfProjects: (projectIds: readonly string[]) => clientNamesOfProjects(deps, projectIds),
  };
}

export type ClientsModule = ReturnType<typeof createClientsModule>;
