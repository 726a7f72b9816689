/**
 * Ordering renders through the public REST API (issue 31, decision 094), as a developer's script
 * would: upload a photo with a key, order a render and wait for it, read it and its picture, cancel
 * one still running. The same capabilities as the web app: one credit per render, refunded when
 * canceled; another space's key sees nothing; every refusal in the API's one error shape.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { roomPhoto, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

/** A JSON answer, read loosely: each test says what it expects of it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;

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
  server = await startTestServer({}, { renderProvider: holding });
});
afterAll(async () => {
  await server?.stop();
});

async function api(path: string, token: string, init: { method?: string; json?: unknown; body?: Buffer; type?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.body) {
    headers["content-type"] = init.type ?? "image/jpeg";
    body = new Uint8Array(init.body);
  }
  const response = await fetch(`${server.url}${path.startsWith("/api/") ? path : `/api/v1${path}`}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    type,
    json: type.includes("json") ? ((await response.json()) as Json) : null,
    bytes: type.includes("json") ? null : Buffer.from(await response.arrayBuffer()),
  };
}

async function developer() {
  const user = await signedInClient(server.url);
  const { token } = await user.client.developers.createKey.mutate({
    name: "Script",
    scopes: ["renders:write", "renders:read", "credits:read"],
    expiresInDays: null,
    teamId: null,
  });
  return { user, token };
}

describe("renders through the API", () => {
  it("uploads a photo, renders it waiting for the result, and downloads the picture; one credit", async () => {
    const { user, token } = await developer();
    const before = (await api("/credits", token)).json!.balance as number;
    const uploaded = await api("/uploads?roomType=bedroom", token, { body: await roomPhoto(1200, 900) });
    expect(uploaded).toMatchObject({
      status: 201,
      json: { width: 1200, height: 900, id: expect.any(String), projectId: expect.any(String) },
    });

    const ordered = await api("/renders?wait=30", token, { json: { imageId: uploaded.json!.id, style: "japandi" } });
    expect(ordered.status).toBe(201);
    const [render] = ordered.json!.renders as Json[];
    expect(render).toMatchObject({
      status: "succeeded",
      imageId: uploaded.json!.id,
      roomType: "bedroom",
      style: "japandi",
      engine: { id: "local", isAi: false, model: "preview-grade:japandi" },
      result: { width: 1200, height: 900, imageUrl: `/api/v1/renders/${render!.id}/image` },
    });
    expect(Date.parse(render!.finishedAt)).toBeGreaterThanOrEqual(Date.parse(render!.createdAt));
    expect((await api(`/renders/${render!.id}`, token)).json).toEqual(render);

    const picture = await api(render!.result.imageUrl, token);
    expect(picture).toMatchObject({ status: 200, type: "image/jpeg" });
    expect(await sharp(picture.bytes!).metadata()).toMatchObject({ width: 1200, height: 900 });
    expect((await api("/credits", token)).json!.balance).toBe(before - 1);
    // The web app sees the same render.
    expect((await user.client.render.job.query({ id: render!.id })).status).toBe("succeeded");
  });

  it("answers at once without wait, and cancels a render still running: canceled, its credit back", async () => {
    const { token } = await developer();
    const before = (await api("/credits", token)).json!.balance as number;
    const uploaded = await api("/uploads", token, { body: await roomPhoto(800, 600) });
    const ordered = await api("/renders", token, { json: { imageId: uploaded.json!.id, style: ["modern", "coastal"], note: "hold" } });
    expect(ordered.status).toBe(201);
    const renders = ordered.json!.renders as Array<{ id: string; status: string }>;
    expect(renders.map((r) => r.status).every((status) => ["queued", "preprocessing", "rendering"].includes(status))).toBe(true);
    expect((await api("/credits", token)).json!.balance).toBe(before - 2);
    await waitUntil(async () => (await api(`/renders/${renders[0]!.id}`, token)).json!.status, {
      message: "the render to start",
      until: (status) => status === "rendering",
    });
    const canceled = await api(`/renders/${renders[0]!.id}/cancel`, token, { method: "POST" });
    expect(canceled).toMatchObject({ status: 200, json: { id: renders[0]!.id, status: "canceled", result: null } });
    await api(`/renders/${renders[1]!.id}/cancel`, token, { method: "POST" });
    await waitUntil(async () => (await api("/credits", token)).json!.balance, { message: "both credits back", until: (n) => n === before });
  });

  it("keeps each space's renders to its keys, and refuses what breaks a rule in the API's error shape", async () => {
    const { token } = await developer();
    const uploaded = await api("/uploads", token, { body: await roomPhoto(800, 600) });
    const { json } = await api("/renders?wait=30", token, { json: { imageId: uploaded.json!.id, style: "modern" } });
    const id = (json!.renders as Array<{ id: string }>)[0]!.id;

    const stranger = await developer();
    const notFound = { error: { code: "not-found", message: MESSAGES.notFound } };
    expect(await api(`/renders/${id}`, stranger.token)).toMatchObject({ status: 404, json: notFound });
    expect(await api(`/renders/${id}/image`, stranger.token)).toMatchObject({ status: 404, json: notFound });
    expect(await api(`/renders/${id}/cancel`, stranger.token, { method: "POST" })).toMatchObject({ status: 404, json: notFound });
    expect(await api("/renders", stranger.token, { json: { imageId: uploaded.json!.id, style: "modern" } })).toMatchObject({
      status: 404,
      json: notFound,
    });

    // Bad input: a style that does not exist, a wait too long, no picture, a body that is not JSON.
    const bad = await api("/renders", token, { json: { imageId: uploaded.json!.id, style: "gothic" } });
    expect(bad).toMatchObject({ status: 400, json: { error: { code: "invalid" } } });
    expect((await api("/renders?wait=31", token, { json: { imageId: uploaded.json!.id, style: "modern" } })).status).toBe(400);
    expect(await api("/uploads", token, { body: Buffer.from("not a picture"), type: "text/plain" })).toMatchObject({
      status: 415,
      json: { error: { code: "unsupported-media" } },
    });
    const broken = await fetch(`${server.url}/api/v1/renders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe("invalid");

    // A key without renders:write cannot order, nor upload.
    const reader = await signedInClient(server.url);
    const { token: readOnly } = await reader.client.developers.createKey.mutate({
      name: "Reader",
      scopes: ["renders:read"],
      expiresInDays: null,
      teamId: null,
    });
    expect((await api("/uploads", readOnly, { body: await roomPhoto(800, 600) })).status).toBe(403);
  });
});

describe("Idempotency-Key", () => {
  it("answers a POST sent again with the same key once (charged once), refuses the key with another request, and holds under two at once", async () => {
    const { token } = await developer();
    const before = (await api("/credits", token)).json!.balance as number;
    const uploaded = await api("/uploads", token, { body: await roomPhoto(800, 600) });
    const order = (key: string, style: string) =>
      fetch(`${server.url}/api/v1/renders`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ imageId: uploaded.json!.id, style }),
      });
    const first = await order("order-1", "modern");
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const again = await order("order-1", "modern");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    const other = await order("order-1", "coastal");
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: { code: "conflict", message: MESSAGES.idempotencyKeyReused } });

    // Two copies at once: one render made, the other copy replayed or told to try again.
    const [a, b] = await Promise.all([order("order-2", "luxury"), order("order-2", "luxury")]);
    expect([a.status, b.status].sort()).toEqual(a.status === 409 || b.status === 409 ? [201, 409] : [201, 201]);
    const bad = await fetch(`${server.url}/api/v1/renders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": "a key with spaces" },
      body: JSON.stringify({ imageId: uploaded.json!.id, style: "modern" }),
    });
    expect(bad.status).toBe(400);
    await waitUntil(async () => (await api("/credits", token)).json!.balance, {
      message: "two renders charged, no more",
      until: (balance) => balance === before - 2,
    });
    expect(await server.deps.db.selectFrom("render_jobs").select("id").where("upload_id", "=", uploaded.json!.id).execute()).toHaveLength(
      2,
    );
  });
});

describe("lists", () => {
  it("pages through the space's renders newest first with a cursor, stable while new renders arrive", async () => {
    const { token } = await developer();
    const uploaded = await api("/uploads", token, { body: await roomPhoto(800, 600) });
    const made = await api("/renders?wait=30", token, {
      json: { imageId: uploaded.json!.id, style: ["modern", "coastal", "luxury", "japandi", "bohemian"] },
    });
    expect(made.status).toBe(201);
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await api(`/renders?limit=2${cursor ? `&cursor=${cursor}` : ""}`, token);
      expect(page.status).toBe(200);
      ids.push(...(page.json!.renders as Array<{ id: string }>).map((r) => r.id));
      cursor = page.json!.nextCursor as string | null;
      pages++;
      // A new render arrives after the first page: it is not on the later pages, and nothing is shown twice or skipped.
      if (pages === 1) await api("/renders?wait=30", token, { json: { imageId: uploaded.json!.id, style: "farmhouse" } });
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(5);
    expect(ids.sort()).toEqual((made.json!.renders as Array<{ id: string }>).map((r) => r.id).sort());
    // Newest first: the first page now starts with the newest.
    const first = await api("/renders?limit=1", token);
    expect((first.json!.renders as Array<{ style: string }>)[0]!.style).toBe("farmhouse");

    expect(await api("/renders?cursor=not-a-cursor", token)).toMatchObject({
      status: 400,
      json: { error: { code: "invalid", message: MESSAGES.apiCursorInvalid } },
    });
    expect((await api("/renders?limit=101", token)).status).toBe(400);
    // Another space's list does not hold them.
    const stranger = await developer();
    expect((await api("/renders", stranger.token)).json).toEqual({ renders: [], nextCursor: null });
  });
});
