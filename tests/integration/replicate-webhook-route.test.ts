/**
 * The whole server rendering through (a fake) Replicate with webhooks: PUBLIC_URL and the signing
 * secret set, the finished prediction arrives at /webhooks/replicate (raw body, signature checked,
 * past the CSRF check), and the render ends long before the 5 s fallback poll would have seen it.
 */
import { freePort } from "../../scripts/lib/free-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postSignedWebhook, signReplicateWebhook, startFakeReplicate, type FakeReplicate } from "../helpers/fake-replicate";
import { collectEvents, confirmAddress, isFinal, roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

const SECRET = `whsec_${Buffer.from("a signing secret of enough length!").toString("base64")}`;

describe("Replicate webhooks through the server", () => {
  let fake: FakeReplicate;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeReplicate({ webhookSecret: SECRET });
    const port = await freePort();
    server = await startTestServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RENDER_PROVIDER: "replicate",
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.url,
      REPLICATE_WEBHOOK_SECRET: SECRET,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("a render finishes by webhook, before the next poll", async () => {
    fake.script({ completeAfterMs: 300, final: "succeeded" });
    const user = await signedInClient(server.url);
    // Replicate bills each render: free credits need the confirmed address.
    await confirmAddress(server.url, server.deps.db, user.email);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(400, 300));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    // Timed from the prediction's creation, which the next poll would follow by 5 s: the worker's
    // preparation before it is no part of what the webhook saves.
    const created = waitUntil(() => fake.creates().length, {
      until: (count) => count === 1,
      message: "the prediction",
      intervalMs: 5,
    }).then(() => Date.now());
    const events = await collectEvents(user, { jobId: jobs[0]!.id }, (seen) => seen.some((e) => isFinal(e.event)));
    expect(events.at(-1)!.event.type).toBe("succeeded");
    expect(Date.now() - (await created)).toBeLessThan(4000);
    expect(fake.creates()[0]!.json).toMatchObject({
      webhook: `${server.deps.env.PUBLIC_URL}/webhooks/replicate`,
      webhook_events_filter: ["completed"],
    });
    expect(fake.webhookDeliveries).toEqual([{ url: `${server.deps.env.PUBLIC_URL}/webhooks/replicate`, status: 200 }]);
    expect(fake.polls()).toHaveLength(0);
  });

  it("keeps each webhook-id once: a replay is acknowledged without effect, and housekeeping forgets old receipts", async () => {
    const url = `${server.url}/webhooks/replicate`;
    const body = JSON.stringify({ id: "replayed", status: "succeeded" });
    const timestamp = Math.floor(Date.now() / 1000);
    const post = () =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": "msg_replayed",
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signReplicateWebhook({ secret: SECRET, id: "msg_replayed", timestamp, body }),
        },
        body,
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
    expect(await post()).toEqual({ status: 200, body: { received: true } });
    expect(await post()).toEqual({ status: 200, body: { received: true, duplicate: true } });
    const receipts = () =>
      server.deps.db.selectFrom("webhook_receipts").select("webhook_id").where("webhook_id", "=", "msg_replayed").execute();
    expect(await receipts()).toHaveLength(1);

    // Past the replay window the receipt goes (the signature's timestamp refuses such a replay by then).
    const later = { now: () => Date.now() + 2 * 60 * 60 * 1000 };
    expect((await server.services.render.runHousekeeping(later)).webhookReceipts).toBeGreaterThanOrEqual(1);
    expect(await receipts()).toEqual([]);
  });

  it("refuses a webhook signed with another secret", async () => {
    const other = `whsec_${Buffer.from("somebody else's secret, not ours").toString("base64")}`;
    expect(await postSignedWebhook(`${server.url}/webhooks/replicate`, JSON.stringify({ id: "x", status: "succeeded" }), other)).toBe(401);
  });
});
