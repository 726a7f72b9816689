/**
 * The webhooks' outbox under several instances and PostgreSQL's commit order (decision 095): two
 * instances on one database send each delivery once and in order (claims with a lease); on
 * PostgreSQL an event whose transaction commits after a later id was read is still delivered, once,
 * and the cursor waits for a missing id until GAP_WAIT_MS has passed (a rolled-back insert).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { StartedApp } from "../../src/server/boot";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { startInstance, stopInstances } from "../helpers/instances";
import { roomPhoto, signedInClient } from "../helpers/render";
import { TestClock } from "../helpers/test-clock";
import { databaseLane, makeTestEnv } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";

afterEach(stopInstances);

/** The Preview engine, holding every render until it is canceled. */
const holding: RenderProvider = {
  ...localProvider,
  capabilities: PREVIEW_CAPABILITIES,
  render: (request) =>
    new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true })),
};

/** `count` web instances on one new database, each with its webhooks worker looking every 5 ms. */
async function startInstances(clock: TestClock, count: number): Promise<StartedApp[]> {
  const env = makeTestEnv({ WEBHOOKS_ALLOW_LOOPBACK: "true", API_REQUESTS_PER_MINUTE: "100000" });
  const apps: StartedApp[] = [];
  for (let n = 0; n < count; n += 1)
    apps.push(await startInstance(env, "web", { clock, renderProvider: holding, startWorker: n === 0, webhooks: { pollMs: 5 } }));
  return apps;
}

/** A render of a new picture, held until canceled; its id. */
async function heldRender(url: string, user: Awaited<ReturnType<typeof signedInClient>>): Promise<string> {
  const { token } = await user.client.developers.createKey.mutate({
    name: "k",
    scopes: ["renders:write"],
    expiresInDays: null,
    teamId: null,
  });
  const headers = { authorization: `Bearer ${token}` };
  const upload = (await (
    await fetch(`${url}/api/v1/uploads`, {
      method: "POST",
      headers: { ...headers, "content-type": "image/jpeg" },
      body: new Uint8Array(await roomPhoto(320, 240)),
    })
  ).json()) as { id: string };
  const ordered = (await (
    await fetch(`${url}/api/v1/renders`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ imageId: upload.id, style: "modern" }),
    })
  ).json()) as { renders: Array<{ id: string }> };
  return ordered.renders[0]!.id;
}

/** A receiver that answers 200 and keeps what it got. */
async function receiver() {
  const got: Array<{ id: string; type: string; jobId?: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { type: string; data: { id?: string } };
      got.push({ id: String(req.headers["webhook-id"]), type: parsed.type, jobId: parsed.data.id });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
    got,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("the webhooks' outbox", () => {
  it("two instances on one database send each delivery once, in order", async () => {
    const clock = new TestClock(Date.now());
    const [first, second] = await startInstances(clock, 2);
    const hooks = await receiver();
    try {
      const user = await signedInClient(first!.http.url);
      const { endpoint } = await user.client.webhooks.create.mutate({
        url: hooks.url,
        events: ["render.succeeded"],
        description: "",
        teamId: null,
      });
      const sent: string[] = [];
      for (let n = 0; n < 12; n += 1) {
        const via = n % 2 === 0 ? first! : second!;
        sent.push((await via.services.webhooks.sendTest({ userId: user.userId }, endpoint.id)).id);
      }
      await waitUntil(() => hooks.got.length, { message: "twelve deliveries", until: (n) => n >= 12 });
      // Both instances look every few milliseconds; give a second sending of any delivery a chance to show.
      await first!.services.webhooks.sendTest({ userId: user.userId }, endpoint.id);
      await waitUntil(() => hooks.got.length, { message: "the thirteenth", until: (n) => n >= 13 });
      expect(hooks.got.slice(0, 12).map((entry) => entry.id)).toEqual(sent);
      expect(new Set(hooks.got.map((entry) => entry.id)).size).toBe(hooks.got.length);
    } finally {
      await hooks.close();
    }
  });

  it.skipIf(databaseLane() !== "postgres")(
    "PostgreSQL: delivers an event committed after a later one, once, and waits out a missing id",
    async () => {
      const clock = new TestClock(Date.now());
      const [app] = await startInstances(clock, 1);
      const db = app!.deps.db;
      const hooks = await receiver();
      try {
        // Two spaces, each with an endpoint and a render still running.
        const spaces = [await signedInClient(app!.http.url), await signedInClient(app!.http.url)];
        const jobs: string[] = [];
        for (const user of spaces) {
          await user.client.webhooks.create.mutate({ url: hooks.url, events: ["render.canceled"], description: "", teamId: null });
          jobs.push(await heldRender(app!.http.url, user));
        }
        const canceled = (owner: string, jobId: string) => ({
          job_id: jobId,
          owner,
          type: "canceled",
          payload: JSON.stringify({ type: "canceled", jobId, at: clock.now(), refunded: true }),
          created_at: clock.now(),
        });
        const cursor = async () =>
          Number(
            (await db.selectFrom("webhook_cursor").select("last_id").where("name", "=", "render_events").executeTakeFirstOrThrow()).last_id,
          );

        // A's event takes its id first and commits last.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let heldId = 0;
        const late = db.transaction().execute(async (trx) => {
          heldId = (
            await trx
              .insertInto("render_events")
              .values(canceled(`u:${spaces[0]!.userId}`, jobs[0]!))
              .returning("id")
              .executeTakeFirstOrThrow()
          ).id;
          await held;
        });
        await waitUntil(() => heldId, { message: "the held insert" });
        await db
          .insertInto("render_events")
          .values(canceled(`u:${spaces[1]!.userId}`, jobs[1]!))
          .execute();
        app!.services.webhooks.kick();
        await waitUntil(() => hooks.got.map((entry) => entry.jobId), { message: "B's event", until: (ids) => ids.includes(jobs[1]!) });
        expect(await cursor()).toBeLessThan(heldId);
        release();
        await late;
        app!.services.webhooks.kick();
        await waitUntil(() => hooks.got.map((entry) => entry.jobId), { message: "A's event", until: (ids) => ids.includes(jobs[0]!) });
        await waitUntil(cursor, { message: "the cursor past both", until: (at) => at >= heldId + 1 });
        expect(hooks.got.map((entry) => entry.jobId).sort()).toEqual([...jobs].sort());

        // An insert rolled back leaves a hole: events after it go out at once, but the cursor waits
        // before the hole until it has been missing for a minute.
        await db
          .transaction()
          .execute(async (trx) => {
            await trx.insertInto("render_events").values(canceled("u:nobody", "nothing")).execute();
            throw new Error("rolled back");
          })
          .catch(() => undefined);
        const after = (
          await db
            .insertInto("render_events")
            .values(canceled(`u:${spaces[1]!.userId}`, jobs[1]!))
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
        app!.services.webhooks.kick();
        await waitUntil(() => hooks.got.length, { message: "the event after the hole", until: (n) => n === 3 });
        expect(await cursor()).toBe(after - 2);
        await waitUntil(
          async () => {
            clock.advance(61_000);
            app!.services.webhooks.kick();
            return cursor();
          },
          { message: "the cursor past the hole", until: (at) => at >= after },
        );
        expect(hooks.got).toHaveLength(3);
      } finally {
        await hooks.close();
      }
    },
  );
});
