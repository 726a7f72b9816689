/**
 * The public REST API driven by a client generated from its OpenAPI document (issue 31, decision
 * 097): openapi-typescript's types (tests/generated/api-v1.d.ts) with openapi-fetch, against a real
 * server, as a developer's program would. The committed types are checked against what the served
 * document generates now, so that they (and this test's calls) cannot drift from the routes.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import createClient, { type Client } from "openapi-fetch";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TYPES_FILE, generateApiTypes } from "../../scripts/lib/api-types";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import type { paths } from "../generated/api-v1";
import { roomPhoto, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

/** The Preview engine, except for notes asking it to hold: those wait until canceled. */
const holding: RenderProvider = {
  ...localProvider,
  capabilities: PREVIEW_CAPABILITIES,
  render: (request) =>
    request.prompt === "hold"
      ? new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }))
      : localProvider.render(request),
};

let server: TestServer;
beforeAll(async () => {
  // Webhooks to this machine's receiver (loopback is refused unless the operator allows it).
  server = await startTestServer({ WEBHOOKS_ALLOW_LOOPBACK: "true" }, { renderProvider: holding });
});
afterAll(async () => {
  await server?.stop();
});

/** A typed client with a new key of a new user's personal space. */
async function apiClient(): Promise<Client<paths>> {
  const user = await signedInClient(server.url);
  const { token } = await user.client.developers.createKey.mutate({
    name: "Generated client",
    scopes: ["renders:write", "renders:read", "credits:read", "webhooks"],
    expiresInDays: null,
    teamId: null,
  });
  return createClient<paths>({ baseUrl: `${server.url}/api/v1`, headers: { Authorization: `Bearer ${token}` } });
}

async function uploadPhoto(api: Client<paths>, width = 800, height = 600) {
  const photo = new Blob([new Uint8Array(await roomPhoto(width, height))], { type: "image/jpeg" });
  const { data, response } = await api.POST("/uploads", {
    params: { query: { roomType: "bedroom" } },
    body: photo,
    headers: { "Content-Type": "image/jpeg" },
    bodySerializer: (body) => body,
  });
  expect(response.status).toBe(201);
  return data!;
}

describe("the generated types", () => {
  it("are what the served OpenAPI document generates now (run `npm run api:types` after changing the API)", async () => {
    const served = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as object;
    expect(await generateApiTypes(served)).toBe(fs.readFileSync(API_TYPES_FILE, "utf8"));
  });
});

describe("a generated client", () => {
  it("uploads a photo, orders a render waiting for it, and downloads its picture", async () => {
    const api = await apiClient();
    const before = (await api.GET("/credits")).data!.balance;
    const upload = await uploadPhoto(api, 1200, 900);
    expect(upload).toMatchObject({ width: 1200, height: 900 });

    const { data, response } = await api.POST("/renders", {
      params: { query: { wait: 30 } },
      body: { imageId: upload.id, style: "japandi" },
    });
    expect(response.status).toBe(201);
    const render = data!.renders[0]!;
    expect(render).toMatchObject({ status: "succeeded", roomType: "bedroom", style: "japandi", result: { width: 1200, height: 900 } });
    expect((await api.GET("/renders/{id}", { params: { path: { id: render.id } } })).data).toEqual(render);

    const picture = await api.GET("/renders/{id}/image", { params: { path: { id: render.id } }, parseAs: "arrayBuffer" });
    expect(picture.response.headers.get("content-type")).toBe("image/jpeg");
    expect(await sharp(Buffer.from(picture.data!)).metadata()).toMatchObject({ width: 1200, height: 900 });
    expect((await api.GET("/credits")).data!.balance).toBe(before - 1);
  });

  it("lists renders newest first a page at a time, stable when a render is ordered between two pages", async () => {
    const api = await apiClient();
    const upload = await uploadPhoto(api);
    const ordered = await api.POST("/renders", { body: { imageId: upload.id, style: ["modern", "coastal", "japandi"] } });
    const ids = ordered.data!.renders.map((render) => render.id);

    const first = await api.GET("/renders", { params: { query: { limit: 2 } } });
    expect(first.data!.renders).toHaveLength(2);
    expect(first.data!.nextCursor).toEqual(expect.any(String));
    // A render ordered now is newer than the first page: the next page neither repeats nor skips.
    const later = await api.POST("/renders", { body: { imageId: upload.id, style: "industrial" } });
    const second = await api.GET("/renders", { params: { query: { limit: 2, cursor: first.data!.nextCursor! } } });
    expect(second.data!.nextCursor).toBeNull();
    const listed = [...first.data!.renders, ...second.data!.renders].map((render) => render.id);
    expect([...listed].sort()).toEqual([...ids].sort());
    expect(listed).not.toContain(later.data!.renders[0]!.id);
    const fresh = await api.GET("/renders", { params: { query: { limit: 1 } } });
    expect(fresh.data!.renders[0]!.id).toBe(later.data!.renders[0]!.id);

    const refused = await api.GET("/renders", { params: { query: { cursor: "not-ours" } } });
    expect(refused.response.status).toBe(400);
    expect(refused.error!.error.code).toBe("invalid");
  });

  it("cancels a render still running, and its credit comes back", async () => {
    const api = await apiClient();
    const before = (await api.GET("/credits")).data!.balance;
    const upload = await uploadPhoto(api);
    const { data } = await api.POST("/renders", { body: { imageId: upload.id, style: "modern", note: "hold" } });
    const id = data!.renders[0]!.id;
    await waitUntil(async () => (await api.GET("/renders/{id}", { params: { path: { id } } })).data!.status, {
      message: "the render to start",
      until: (status) => status === "rendering",
    });
    const canceled = await api.POST("/renders/{id}/cancel", { params: { path: { id } } });
    expect(canceled.data).toMatchObject({ id, status: "canceled", result: null });
    await waitUntil(async () => (await api.GET("/credits")).data!.balance, { message: "the credit back", until: (n) => n === before });
  });

  it("retries an order with the same Idempotency-Key: the first answer again, charged once; another order with it is refused", async () => {
    const api = await apiClient();
    const before = (await api.GET("/credits")).data!.balance;
    const upload = await uploadPhoto(api);
    const order = { params: { header: { "Idempotency-Key": "order-42" } }, body: { imageId: upload.id, style: "scandinavian" as const } };
    const first = await api.POST("/renders", order);
    const retry = await api.POST("/renders", order);
    expect(first.response.status).toBe(201);
    expect(retry.response.status).toBe(201);
    expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.data).toEqual(first.data);
    expect((await api.GET("/credits")).data!.balance).toBe(before - 1);

    const other = await api.POST("/renders", { ...order, body: { imageId: upload.id, style: "bohemian" } });
    expect(other.response.status).toBe(409);
    expect(other.error!.error.code).toBe("conflict");
    expect((await api.GET("/credits")).data!.balance).toBe(before - 1);
  });

  it("registers a webhook, sends it a test event, and it is told when an ordered render has succeeded", async () => {
    const received: { id: string; type: string; data: { id?: string } }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        const event = JSON.parse(body) as { type: string; data: { id?: string } };
        received.push({ id: String(req.headers["webhook-id"]), type: event.type, data: event.data });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const api = await apiClient();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const created = await api.POST("/webhooks", { body: { url, events: ["render.succeeded"], description: "CRM" } });
      expect(created.response.status).toBe(201);
      expect(created.data!.secret).toMatch(/^whsec_/);
      const webhookId = created.data!.id;
      expect((await api.GET("/webhooks")).data!.webhooks.map((webhook) => webhook.url)).toEqual([url]);

      const test = await api.POST("/webhooks/{id}/test", { params: { path: { id: webhookId } } });
      expect(test.response.status).toBe(201);
      await waitUntil(() => received.some((event) => event.type === "webhook.test" && event.id === test.data!.id), {
        message: "the test event was not received",
      });

      const upload = await uploadPhoto(api);
      const { data } = await api.POST("/renders", { params: { query: { wait: 30 } }, body: { imageId: upload.id, style: "coastal" } });
      const render = data!.renders[0]!;
      expect(render.status).toBe("succeeded");
      await waitUntil(() => received.some((event) => event.type === "render.succeeded" && event.data.id === render.id), {
        message: "the render's webhook was not received",
      });
      const log = await api.GET("/webhooks/{id}/deliveries", { params: { path: { id: webhookId } } });
      expect(log.data!.deliveries.map((delivery) => [delivery.type, delivery.status])).toEqual([
        ["render.succeeded", "succeeded"],
        ["webhook.test", "succeeded"],
      ]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
