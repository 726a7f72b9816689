/**
 * The short road for GET queries (src/server/trpc/fast-queries.ts, decision 044) answers exactly as
 * tRPC's own adapter does: the same status and body for results, domain errors, validation errors,
 * refusals and mixed batches; what it does not take (mutations, unknown paths) reaches the adapter.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import * as trpcExpress from "@trpc/server/adapters/express";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextInner } from "../../src/server/trpc/context";
import { fastQueries } from "../../src/server/trpc/fast-queries";
import { appRouter } from "../../src/server/trpc/root";
import { callerWorld, type CallerWorld } from "../helpers/callers";

let world: CallerWorld;
let server: Server;
let base: string;
let fastAnswered = 0;

beforeAll(async () => {
  world = callerWorld();
  const ana = await world.user("ana@example.com");
  await world.as(ana).projects.create({ name: "Loft" });
  await world.as(ana).projects.create({ name: "Attic" });
  const createContext = async (req: express.Request) =>
    createContextInner(world.services, world.infra.env, { user: req.headers["x-user"] === "ana" ? ana : null });
  const adapter = trpcExpress.createExpressMiddleware({ router: appRouter, createContext: ({ req }) => createContext(req) });
  const app = express();
  app.use("/slow", adapter);
  app.use(
    "/fast",
    fastQueries({
      router: appRouter,
      createContext: (req: express.Request) => {
        fastAnswered++;
        return createContext(req);
      },
    }),
    adapter,
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await world.close();
});

const input = (value: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(value)));
const batchInput = (values: unknown[]) =>
  encodeURIComponent(JSON.stringify(Object.fromEntries(values.map((value, index) => [index, superjson.serialize(value)]))));

async function both(path: string, user = true) {
  const headers = user ? { "x-user": "ana" } : undefined;
  const [slow, fast] = await Promise.all([fetch(`${base}/slow/${path}`, { headers }), fetch(`${base}/fast/${path}`, { headers })]);
  return {
    slow: { status: slow.status, type: slow.headers.get("content-type"), body: await slow.json() },
    fast: { status: fast.status, type: fast.headers.get("content-type"), body: await fast.json() },
  };
}

describe("fast GET queries", () => {
  it.each([
    ["a query without input", "system.landingStats", true],
    ["a query with input", `projects.list?input=${input({ limit: 1 })}`, true],
    ["a domain error (not found)", `projects.get?input=${input({ id: "nope" })}`, true],
    ["a validation error", `projects.get?input=${input({ id: "" })}`, true],
    ["a signed-out caller", "account.profile", false],
    ["a batch of results", `projects.list,system.landingStats?batch=1&input=${batchInput([{ limit: 1 }])}`, true],
    ["a mixed batch (207)", `projects.list,projects.get?batch=1&input=${batchInput([{}, { id: "nope" }])}`, true],
    ["a mutation over GET (left to tRPC)", `projects.create?input=${input({ name: "No" })}`, true],
    ["an unknown procedure (left to tRPC)", "projects.nothing", true],
    ["unreadable input (left to tRPC)", "projects.get?input=%7Bnot-json", true],
  ])("answers %s as tRPC's adapter does", async (_, path, user) => {
    const { slow, fast } = await both(path, user);
    expect(fast).toEqual(slow);
  });

  it("takes queries, and leaves the rest to tRPC", async () => {
    const before = fastAnswered;
    await both("system.landingStats");
    expect(fastAnswered).toBe(before + 1);
    await both(`projects.create?input=${input({ name: "No" })}`);
    await both(`projects.list,projects.create?batch=1&input=${batchInput([{}, { name: "No" }])}`);
    expect(fastAnswered).toBe(before + 1);
  });
});
