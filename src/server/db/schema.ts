/**
 * Types of the SQLite tables as Kysely sees them. Times are Unix milliseconds (INTEGER);
 * JSON columns are TEXT holding JSON. Keep in step with db/migrations.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** A column the database fills in on insert and that is never updated. */
type CreatedAt = ColumnType<number, number | undefined, never>;

export interface UsersTable {
  id: string;
  email: string;
  email_confirmed_at: number | null;
  confirmation_sent_at: number | null;
  password_hash: string | null;
  disabled_at: number | null;
  created_at: CreatedAt;
  updated_at: number;
}

export interface ProfilesTable {
  user_id: string;
  email: string;
  full_name: string;
  credits_remaining: Generated<number>;
  created_at: CreatedAt;
  updated_at: number;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
  created_at: CreatedAt;
}

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  project_type: string;
  /** JSON object */
  settings: string;
  created_at: CreatedAt;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  user_roles: UserRolesTable;
  projects: ProjectsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
export type Project = Selectable<ProjectsTable>;
export type NewProject = Insertable<ProjectsTable>;
