/**
 * Every migration, in order. Listed statically (not discovered by reading the folder) so that they
 * load the same way under tsx, vitest and any bundler; a test checks every file here is listed.
 */
import type { Migration } from "kysely";
import * as m0001 from "./0001-init";
import * as m0002 from "./0002-accounts";

export const migrations: Record<string, Migration> = {
  "0001-init": m0001,
  "0002-accounts": m0002,
};
