/**
 * Router logic without an HTTP server: the real services over a real SQLite file (a copy of the
 * migrated template), called through appRouter's createCaller as a visitor, a user or an admin.
 */
import type { Services } from "../../src/server/app-services";
import { buildInfra, buildServices } from "../../src/server/boot";
import type { Clock } from "../../src/server/clock";
import { openDatabase } from "../../src/server/db/client";
import type { SessionUser } from "../../src/server/http/identity";
import type { Infra } from "../../src/server/infra";
import { createLogger } from "../../src/server/logger";
import { createContextInner } from "../../src/server/trpc/context";
import { createCaller } from "../../src/server/trpc/root";
import { TestClock } from "./test-clock";
import { makeTestEnv } from "./test-env";

export interface CallerWorld {
  infra: Infra;
  services: Services;
  clock: TestClock;
  /** A caller for a visitor (optionally with a visitor cookie id) or a signed-in user. */
  as(who: SessionUser | { visitorId: string } | null): ReturnType<typeof createCaller>;
  /** Signs up a user through the accounts service; admin: true also grants the admin role. */
  user(email: string, options?: { admin?: boolean }): Promise<SessionUser>;
  close(): Promise<void>;
}

export function callerWorld(envOverrides: Record<string, string> = {}, clock: Clock = new TestClock()): CallerWorld {
  const env = makeTestEnv(envOverrides);
  const infra = buildInfra(env, openDatabase(env.DATABASE), createLogger("silent"), clock);
  const services = buildServices(infra);
  return {
    infra,
    services,
    clock: clock as TestClock,
    as(who) {
      const options = who === null ? {} : "visitorId" in who ? { visitorId: who.visitorId } : { user: who };
      return createCaller(createContextInner(services, env, options));
    },
    async user(email, options = {}) {
      const { userId } = await services.accounts.signUp(
        { email, password: "Password123", fullName: "Ana Test" },
        { baseUrl: "http://localhost", language: "en" },
      );
      if (options.admin) await services.roles.grant(userId, "admin");
      return { id: userId, email };
    },
    async close() {
      await services.render.stop();
      await infra.db.destroy();
    },
  };
}
