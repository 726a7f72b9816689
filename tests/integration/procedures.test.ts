/**
 * The procedure builders every later router uses: protected and admin procedures are enforced on
 * the server, input errors come back flattened for forms, unexpected errors never leak details.
 */
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, TRPCClientError } from "@trpc/client";
import { tracked } from "@trpc/server";
import { EventSource } from "eventsource";
import * as trpcExpress from "@trpc/server/adapters/express";
import express from "express";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openDatabase } from "../../src/server/db/client";
import type { Services } from "../../src/server/app-services";
import { buildInfra, buildServices } from "../../src/server/boot";
import { systemClock } from "../../src/server/clock";
import type { Infra } from "../../src/server/infra";
import { listen, type RunningServer } from "../../src/server/http/listen";
import { createLogger } from "../../src/server/logger";
import { createContextInner, type SessionUser } from "../../src/server/trpc/context";
import { DomainError, type DomainErrorKind } from "../../src/server/errors";
import { HTTP_STATUS } from "../../src/server/http/errors";
import {
  adminProcedure,
  createCallerFactory,
  DOMAIN_ERROR_CODES,
  protectedProcedure,
  publicProcedure,
  router,
} from "../../src/server/trpc/init";
import { MESSAGES } from "../../src/shared/messages";
import { makeTestEnv } from "../helpers/test-env";
import { expectConsoleError } from "../helpers/fail-on-console-error";

const DOMAIN_ERROR_KINDS = Object.keys(DOMAIN_ERROR_CODES) as [DomainErrorKind, ...DomainErrorKind[]];

const testRouter = router({
  whoAmI: protectedProcedure.query(({ ctx }) => ctx.user.email),
  adminOnly: adminProcedure.query(() => "secret"),
  signUpLike: publicProcedure
    .input(
      z.object({
        email: z.email({ error: "Please enter a valid email address" }),
        name: z.string().min(2, { error: "Name must be at least 2 characters" }),
      }),
    )
    .mutation(({ input }) => input.email),
  explode: publicProcedure.query(() => {
    throw new Error("database file /secret/path is corrupt");
  }),
  /** A capability's refusal, of the kind named. */
  refuse: publicProcedure.input(z.enum(DOMAIN_ERROR_KINDS)).query(({ input }) => {
    throw new DomainError(input, "notEnoughCredits");
  }),
  /** The same refusal thrown while a subscription streams. */
  refuseLater: publicProcedure.subscription(async function* () {
    yield tracked("1", "first");
    throw new DomainError("not-found", "notFound");
  }),
});

let deps: Infra;
let services: Services;
const ana: SessionUser = { id: "ana", email: "ana@example.com" };
const bob: SessionUser = { id: "bob", email: "bob@example.com" };

beforeAll(async () => {
  const env = makeTestEnv();
  const db = openDatabase(env.DATABASE);
  deps = buildInfra(env, db, createLogger("silent"), systemClock);
  services = buildServices(deps);
  for (const user of [ana, bob])
    await db
      .insertInto("users")
      .values({ ...user, updated_at: 0 })
      .execute();
  await db.insertInto("user_roles").values({ user_id: ana.id, role: "admin" }).execute();
  await db.insertInto("user_roles").values({ user_id: bob.id, role: "editor" }).execute();
});
afterAll(async () => {
  await deps.db.destroy();
});

const callerAs = (user: SessionUser | null) => createCallerFactory(testRouter)(createContextInner(services, deps.env, { user }));

describe("protectedProcedure", () => {
  it("refuses a visitor with UNAUTHORIZED", async () => {
    await expect(callerAs(null).whoAmI()).rejects.toMatchObject({ code: "UNAUTHORIZED", message: MESSAGES.notAuthenticated });
  });
  it("gives a signed-in user a non-null ctx.user", async () => {
    expect(await callerAs(bob).whoAmI()).toBe(bob.email);
  });
});

describe("adminProcedure", () => {
  it("refuses a visitor", async () => {
    await expect(callerAs(null).adminOnly()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
  it("refuses a user without the admin role, with the spec's message", async () => {
    await expect(callerAs(bob).adminOnly()).rejects.toMatchObject({ code: "FORBIDDEN", message: MESSAGES.adminRequired });
  });
  it("lets an admin through, and reads the role on every call", async () => {
    expect(await callerAs(ana).adminOnly()).toBe("secret");
    await deps.db.deleteFrom("user_roles").where("user_id", "=", ana.id).execute();
    await expect(callerAs(ana).adminOnly()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await deps.db.insertInto("user_roles").values({ user_id: ana.id, role: "admin" }).execute();
  });
});

describe("over HTTP", () => {
  let http: RunningServer;
  let client: ReturnType<typeof createTRPCClient<typeof testRouter>>;

  beforeAll(async () => {
    const app = express();
    app.use(
      "/trpc",
      trpcExpress.createExpressMiddleware({ router: testRouter, createContext: () => createContextInner(services, deps.env) }),
    );
    http = await listen(app, 0, "127.0.0.1");
    client = createTRPCClient<typeof testRouter>({ links: [httpBatchLink({ url: `${http.url}/trpc`, transformer: superjson })] });
  });
  afterAll(async () => {
    await http.close(1000);
  });

  it("returns zod errors flattened per field, with the schema's messages", async () => {
    const error = await client.signUpLike.mutate({ email: "nope", name: "A" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCClientError);
    const data = (error as TRPCClientError<typeof testRouter>).data as {
      code: string;
      httpStatus: number;
      zodError: { fieldErrors: Record<string, string[]> };
    };
    expect(data.code).toBe("BAD_REQUEST");
    expect(data.httpStatus).toBe(400);
    expect(data.zodError.fieldErrors).toEqual({
      email: ["Please enter a valid email address"],
      name: ["Name must be at least 2 characters"],
    });
  });

  it("answers unexpected failures with a generic message and no stack or internals", async () => {
    expectConsoleError(/./); // tRPC itself may report the thrown error
    const error = (await client.explode.query().catch((caught: unknown) => caught)) as TRPCClientError<typeof testRouter>;
    expect(error.message).toBe(MESSAGES.internalError);
    expect(JSON.stringify(error.shape)).not.toContain("/secret/path");
    expect((error.data as { stack?: string }).stack).toBeUndefined();
  });

  it("maps each domain error once: its tRPC code, the HTTP status the plain routes use for it too, and its message", async () => {
    const expected: Record<DomainErrorKind, [string, number]> = {
      invalid: ["BAD_REQUEST", 400],
      unauthenticated: ["UNAUTHORIZED", 401],
      forbidden: ["FORBIDDEN", 403],
      "not-found": ["NOT_FOUND", 404],
      conflict: ["CONFLICT", 409],
      "payment-required": ["PAYMENT_REQUIRED", 402],
      "too-large": ["PAYLOAD_TOO_LARGE", 413],
      "unsupported-media": ["UNSUPPORTED_MEDIA_TYPE", 415],
      "rate-limited": ["TOO_MANY_REQUESTS", 429],
      "not-configured": ["PRECONDITION_FAILED", 412],
      unavailable: ["SERVICE_UNAVAILABLE", 503],
    };
    for (const kind of DOMAIN_ERROR_KINDS) {
      const error = (await client.refuse.query(kind).catch((caught: unknown) => caught)) as TRPCClientError<typeof testRouter>;
      const data = error.data as { code: string; httpStatus: number };
      expect([data.code, data.httpStatus], kind).toEqual(expected[kind]);
      expect(HTTP_STATUS[kind], kind).toBe(expected[kind][1]);
      expect(error.message).toBe(MESSAGES.notEnoughCredits);
    }
  });

  it("maps a domain error thrown inside a subscription's stream too (not an internal error)", async () => {
    const subscriber = createTRPCClient<typeof testRouter>({
      links: [httpSubscriptionLink({ url: `${http.url}/trpc`, transformer: superjson, EventSource })],
    });
    const received: unknown[] = [];
    const failure = await new Promise<TRPCClientError<typeof testRouter>>((resolve) => {
      const subscription = subscriber.refuseLater.subscribe(undefined, {
        onData: (data) => received.push(data),
        onError: (error) => {
          subscription.unsubscribe();
          resolve(error);
        },
      });
    });
    expect(received.map((item) => (item as { data: unknown }).data)).toEqual(["first"]);
    expect(failure.message).toBe(MESSAGES.notFound);
    expect((failure.data as { code: string }).code).toBe("NOT_FOUND");
  });

  it("refuses the protected procedure to a visitor with 401", async () => {
    const error = (await client.whoAmI.query().catch((caught: unknown) => caught)) as TRPCClientError<typeof testRouter>;
    expect((error.data as { httpStatus: number }).httpStatus).toBe(401);
    expect(error.message).toBe(MESSAGES.notAuthenticated);
  });
});
