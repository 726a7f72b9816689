/** What the parts of the spaces module share: the adapters, and the ports to accounts and live events. */
import type { Infra } from "../infra";

/** What the spaces module needs from accounts (which owns users and profiles). */
export interface PeopleDirectory {
  /** Names and addresses of these accounts (missing ids are absent from the map). */
  people(userIds: readonly string[]): Promise<Map<string, { name: string; email: string }>>;
  /** The account with this address, if there is one. */
  byEmail(email: string): Promise<{ id: string } | undefined>;
  /** Accounts whose address contains this text (any case), at most `max` of them: /admin's team search. */
  idsByEmailContaining(text: string, max: number): Promise<string[]>;
}

export interface SpacesContext extends Pick<Infra, "db" | "clock" | "env" | "log" | "mailer"> {
  people: PeopleDirectory;
  /** Called once a member is out of a team (removed or left): their open team streams close. */
  onMemberGone: (teamId: string, userId: string) => void;
  /** Removes a team's work and files (projects, renders, uploads) before its row goes. */
  beforeTeamDeleted: (teamId: string) => Promise<void>;
  /** The studio's name, written in the mails (invitations). */
  brandName: () => string;
}
