/**
 * The rest of the public REST API's resources (issue 31, decision 096), as a developer's script
 * would use them: re-roll, edits with a mask, upscales, projects, listing exports, the credits
 * ledger and the engines with their prices; each through the capability the web app calls (the web
 * app sees what the key made, charged the same), each only in the key's space, each scope held. And
 * the limits and the language: renders at once per key answered 429 with Retry-After, counted in the
 * database (a second instance sees the first's), and a key made in Spanish hears its errors in Spanish.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiScope } from "../../src/shared/api";
import { MESSAGES } from "../../src/shared/messages";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { roomPhoto, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { placeOf } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read loosely: each test says what it expects of it
type Json = Record<string, any>;

/**
 * The Preview engine, rendering at half the photo's size (so that an upscale has something to do),
 * with an upscaler; a note asking it to hold waits until canceled.
 */
const engine: RenderProvider = {
  ...localProvider,
  capabilities: { ...PREVIEW_CAPABILITIES, upscale: true },
  async render(request) {
    if (request.prompt === "hold")
      return new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }));
    const made = await localProvider.render(request);
    const { width = 2, height = 2 } = await sharp(made.image).metadata();
    return {
      ...made,
      image: await sharp(made.image)
        .resize(Math.round(width / 2), Math.round(height / 2))
        .jpeg()
        .toBuffer(),
    };
  },
  async upscale(request) {
    const image = await sharp(request.image).resize(request.targetWidth, request.targetHeight).jpeg().toBuffer();
    return { image, mime: "image/jpeg", model: "test/upscaler" };
  },
};

const ALL_SCOPES: ApiScope[] = ["renders:write", "renders:read", "projects", "credits:read"];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ API_RENDERS_AT_ONCE: "2" }, { renderProvider: engine });
});
afterAll(async () => {
  await server?.stop();
});

async function call(
  base: string,
  path: string,
  token: string,
  init: { method?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...init.headers };
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.body) {
    headers["content-type"] = "image/jpeg";
    body = new Uint8Array(init.body);
  }
  const response = await fetch(`${base}${path.startsWith("/api/") ? path : `/api/v1${path}`}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    type,
    json: type.includes("json") ? ((await response.json()) as Json) : null,
    bytes: type.includes("json") ? null : Buffer.from(await response.arrayBuffer()),
  };
}
const api = (path: string, token: string, init: Parameters<typeof call>[3] = {}) => call(server.url, path, token, init);

/** A signed-in user with a key; `language`: the interface language the key is made from (x-ui-language, as the web app sends it). */
async function developer(scopes: ApiScope[] = ALL_SCOPES, language?: "es" | "fr") {
  const user = await signedInClient(server.url);
  const input = { name: "Script", scopes, expiresInDays: null, teamId: null };
  if (!language) return { user, token: (await user.client.developers.createKey.mutate(input)).token };
  const response = await user.jar.fetch(`${server.url}/trpc/developers.createKey`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-ui-language": language },
    body: JSON.stringify({ json: input }),
  });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { result: { data: { json: { token: string } } } };
  return { user, token: answer.result.data.json.token };
}

/** A finished render of a 1600 × 1200 photo (800 × 600 as rendered), made through the API. */
async function finishedRender(token: string, style = "modern") {
  const uploaded = await api("/uploads", token, { body: await roomPhoto(1600, 1200) });
  expect(uploaded.status).toBe(201);
  const ordered = await api("/renders?wait=30", token, { json: { imageId: uploaded.json!.id, style } });
  expect(ordered.status).toBe(201);
  const render = (ordered.json!.renders as Json[])[0]!;
  expect(render).toMatchObject({ status: "succeeded", result: { width: 800, height: 600 } });
  return { render, upload: uploaded.json! };
}

/** A mask PNG: white (change) in a rectangle, black elsewhere. */
function mask(width: number, height: number, box = { left: 100, top: 100, width: 200, height: 150 }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000"/><rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const balance = async (token: string) => (await api("/credits", token)).json!.balance as number;
const notFound = { error: { code: "not-found", message: MESSAGES.notFound } };

describe("re-roll", () => {
  it("renders a finished render again as the web app's re-roll does: a new render of the same photo and style, one credit; sent again with its Idempotency-Key, charged once", async () => {
    const { user, token } = await developer();
    const { render } = await finishedRender(token, "coastal");
    const before = await balance(token);
    const reroll = (key: string) =>
      api(`/renders/${render.id}/reroll?wait=30`, token, { method: "POST", json: {}, headers: { "idempotency-key": key } });
    const first = await reroll("reroll-1");
    expect(first.status).toBe(201);
    const [again] = first.json!.renders as Json[];
    expect(again).toMatchObject({ status: "succeeded", imageId: render.imageId, style: "coastal" });
    expect(again!.id).not.toBe(render.id);
    const replay = await reroll("reroll-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
    expect(await balance(token)).toBe(before - 1);
    // The web app sees it among the photo's renders.
    expect((await user.client.render.job.query({ id: again!.id })).status).toBe("succeeded");
    // The same seed: this engine has none, so the web app's refusal, free.
    expect(await api(`/renders/${render.id}/reroll`, token, { json: { seed: "same" } })).toMatchObject({
      status: 400,
      json: { error: { code: "invalid", message: MESSAGES.engineCannot } },
    });
    expect(await balance(token)).toBe(before - 1);
  });
});

describe("edits", () => {
  it("repaints the masked region of a render (mask as base64 PNG), one credit; reads the edit; refuses a mask that is not a PNG or of the wrong size, free", async () => {
    const { token } = await developer();
    const { render } = await finishedRender(token);
    const before = await balance(token);
    const png = await mask(800, 600);
    const made = await api(`/renders/${render.id}/edits?wait=30`, token, {
      json: { instruction: "a green armchair", mask: png.toString("base64") },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      status: "succeeded",
      sourceId: render.id,
      instruction: "a green armchair",
      imageId: render.imageId,
      result: { width: expect.any(Number), height: expect.any(Number) },
    });
    expect(await balance(token)).toBe(before - 1);
    expect((await api(`/edits/${made.json!.id}`, token)).json).toEqual(made.json);
    const picture = await api(made.json!.result.imageUrl, token);
    expect(picture).toMatchObject({ status: 200, type: "image/png" });
    expect(await sharp(picture.bytes!).metadata()).toMatchObject({ width: made.json!.result.width, height: made.json!.result.height });
    // A render is not an edit.
    expect(await api(`/edits/${render.id}`, token)).toMatchObject({ status: 404, json: notFound });

    // The studio's checks, each free: not a PNG, the wrong size, nothing painted enough; a data URL is taken too.
    const refused = async (body: unknown) => (await api(`/renders/${render.id}/edits`, token, { json: body })).json;
    expect(await refused({ mask: Buffer.from("not a picture").toString("base64") })).toEqual({
      error: { code: "invalid", message: MESSAGES.maskNotPng },
    });
    expect(await refused({ mask: (await mask(400, 300)).toString("base64") })).toEqual({
      error: { code: "invalid", message: MESSAGES.maskWrongSize },
    });
    expect(
      await refused({
        mask: `data:image/png;base64,${(await mask(800, 600, { left: 0, top: 0, width: 5, height: 5 })).toString("base64")}`,
      }),
    ).toEqual({
      error: { code: "invalid", message: MESSAGES.maskTooSmall },
    });
    expect(await refused({ instruction: "x".repeat(301), mask: png.toString("base64") })).toEqual({
      error: { code: "invalid", message: MESSAGES.instructionTooLong },
    });
    expect(await balance(token)).toBe(before - 1);
  });
});

describe("upscales", () => {
  it("upscales a render to its photo's size, free and once, and says its state before and after", async () => {
    const { token } = await developer();
    const { render } = await finishedRender(token);
    const before = await balance(token);
    expect((await api(`/renders/${render.id}/upscale`, token)).json).toEqual({
      state: "none",
      available: true,
      width: null,
      height: null,
      model: null,
    });
    const made = await api(`/renders/${render.id}/upscale`, token, { method: "POST" });
    expect(made).toMatchObject({ status: 200, json: { state: "done", width: 1600, height: 1200, model: "test/upscaler" } });
    expect((await api(`/renders/${render.id}/upscale`, token)).json).toEqual(made.json);
    // The render's picture is now the upscale; nothing charged.
    const picture = await api(render.result.imageUrl, token);
    expect(await sharp(picture.bytes!).metadata()).toMatchObject({ width: 1600, height: 1200 });
    expect(await balance(token)).toBe(before);
  });
});

describe("projects", () => {
  it("creates, lists a page at a time, reads, renames and deletes the space's projects, as the web app does", async () => {
    const { user, token } = await developer();
    const names = ["Loft", "Cabin", "Studio"];
    const made: Json[] = [];
    for (const name of names) {
      const created = await api("/projects", token, { json: { name } });
      expect(created).toMatchObject({ status: 201, json: { name, teamId: null, id: expect.any(String) } });
      made.push(created.json!);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await api(`/projects?limit=2${cursor ? `&cursor=${cursor}` : ""}`, token);
      expect(page.status).toBe(200);
      seen.push(...(page.json!.projects as Json[]).map((project) => project.name as string));
      cursor = page.json!.nextCursor as string | null;
    } while (cursor);
    // Most recently changed first (the web app's order); nothing twice.
    expect(seen).toEqual(["Studio", "Cabin", "Loft"]);

    const id = made[0]!.id as string;
    expect((await api(`/projects/${id}`, token)).json).toEqual(made[0]);
    const renamed = await api(`/projects/${id}`, token, { method: "PATCH", json: { name: "Loft, top floor" } });
    expect(renamed).toMatchObject({ status: 200, json: { id, name: "Loft, top floor" } });
    expect((await user.client.projects.get.query({ id })).project.name).toBe("Loft, top floor");
    expect((await api(`/projects/${id}`, token, { method: "PATCH", json: { name: "" } })).status).toBe(400);
    expect(await api(`/projects/${id}`, token, { method: "DELETE" })).toMatchObject({ status: 200, json: { id, deleted: true } });
    expect(await api(`/projects/${id}`, token)).toMatchObject({ status: 404, json: notFound });

    // An upload may be filed in a project made here.
    const photo = await api(`/uploads?projectId=${made[1]!.id}`, token, { body: await roomPhoto(800, 600) });
    expect(photo.json!.projectId).toBe(made[1]!.id);
  });
});

describe("listing exports", () => {
  it("exports a finished render for a listing, lists its exports and serves the picture with the key", async () => {
    const { token } = await developer();
    const { render } = await finishedRender(token);
    const made = await api(`/renders/${render.id}/listing-exports`, token, { json: { language: "fr" } });
    expect(made).toMatchObject({
      status: 201,
      json: { renderId: render.id, language: "fr", publicUrl: expect.stringContaining("/l/"), width: expect.any(Number) },
    });
    expect((await api(`/renders/${render.id}/listing-exports`, token)).json).toEqual({ exports: [made.json] });
    const picture = await api(made.json!.imageUrl, token);
    expect(picture).toMatchObject({ status: 200, type: "image/jpeg" });
    expect((await sharp(picture.bytes!).metadata()).format).toBe("jpeg");
    // The public page is public.
    expect((await fetch(made.json!.publicUrl)).status).toBe(200);
  });
});

describe("credits and engines", () => {
  it("pages through the space's ledger newest first, and lists the engines with what they can do and cost", async () => {
    const { token } = await developer();
    const { render } = await finishedRender(token);
    await api(`/renders/${render.id}/reroll?wait=30`, token, { json: {} });
    const entries: Json[] = [];
    let cursor: string | null = null;
    do {
      const page = await api(`/credits/ledger?limit=1${cursor ? `&cursor=${cursor}` : ""}`, token);
      expect(page.status).toBe(200);
      entries.push(...(page.json!.entries as Json[]));
      cursor = page.json!.nextCursor as string | null;
    } while (cursor);
    // The sign-up grant, then two charges, newest first; they sum to the balance.
    expect(entries.map((entry) => entry.kind)).toEqual(["charge", "charge", "grant"]);
    expect(entries[1]).toMatchObject({ amount: -1, renderId: render.id });
    expect(entries.reduce((sum, entry) => sum + (entry.amount as number), 0)).toBe(await balance(token));
    expect(Date.parse(entries[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(entries[2]!.createdAt));

    const engines = await api("/engines", token);
    expect(engines).toMatchObject({
      status: 200,
      json: {
        engines: [{ id: "local", isAi: false, tasks: expect.arrayContaining(["render", "edit", "upscale"]) }],
        tasks: { render: ["local"], upscale: ["local"] },
        capabilities: { masks: true, upscale: true, seeds: false },
        prices: { render: 1, edit: 1, upscale: 0 },
      },
    });
  });
});

describe("scopes and spaces", () => {
  it("refuses a key without the scope, and answers 404 for another space's renders, edits, exports and projects", async () => {
    const { token } = await developer();
    const { render } = await finishedRender(token);
    const edit = await api(`/renders/${render.id}/edits?wait=30`, token, { json: { mask: (await mask(800, 600)).toString("base64") } });
    const exported = await api(`/renders/${render.id}/listing-exports`, token, { json: {} });
    const project = await api("/projects", token, { json: { name: "Mine" } });

    const reader = await developer(["renders:read"]);
    const forbidden = (path: string, init: Parameters<typeof call>[3] = {}) =>
      api(path, reader.token, init).then((answer) => [answer.status, answer.json!.error.code]);
    expect(await forbidden(`/renders/${render.id}/reroll`, { json: {} })).toEqual([403, "forbidden"]);
    expect(await forbidden(`/renders/${render.id}/edits`, { json: { mask: "x" } })).toEqual([403, "forbidden"]);
    expect(await forbidden(`/renders/${render.id}/upscale`, { method: "POST" })).toEqual([403, "forbidden"]);
    expect(await forbidden(`/renders/${render.id}/listing-exports`, { json: {} })).toEqual([403, "forbidden"]);
    expect(await forbidden("/projects")).toEqual([403, "forbidden"]);
    expect(await forbidden("/credits/ledger")).toEqual([403, "forbidden"]);

    // Another space's key with every scope: nothing of the first is found.
    const stranger = await developer();
    const missing = async (path: string, init: Parameters<typeof call>[3] = {}) => {
      const answer = await api(path, stranger.token, init);
      expect(answer, path).toMatchObject({ status: 404, json: notFound });
    };
    await missing(`/renders/${render.id}/reroll`, { json: {} });
    await missing(`/renders/${render.id}/edits`, { json: { mask: (await mask(800, 600)).toString("base64") } });
    await missing(`/edits/${edit.json!.id}`);
    await missing(`/renders/${render.id}/upscale`);
    await missing(`/renders/${render.id}/upscale`, { method: "POST" });
    await missing(`/renders/${render.id}/listing-exports`);
    await missing(`/renders/${render.id}/listing-exports`, { json: {} });
    await missing(exported.json!.imageUrl);
    await missing(`/projects/${project.json!.id}`);
    await missing(`/projects/${project.json!.id}`, { method: "PATCH", json: { name: "Theirs" } });
    await missing(`/projects/${project.json!.id}`, { method: "DELETE" });
    expect((await api(`/projects/${project.json!.id}`, token)).json!.name).toBe("Mine");
    expect((await api("/credits/ledger", stranger.token)).json!.entries).toHaveLength(1);
  });
});

describe("renders at once per key", () => {
  it("refuses an order past API_RENDERS_AT_ONCE with 429 and Retry-After, nothing charged, on every instance; takes it again once one has ended", async () => {
    const { user, token } = await developer();
    const uploaded = await api("/uploads", token, { body: await roomPhoto(800, 600) });
    const imageId = uploaded.json!.id as string;
    const held = await api("/renders", token, { json: { imageId, style: ["modern", "coastal"], note: "hold" } });
    expect(held.status).toBe(201);
    const before = await balance(token);

    const refused = await api("/renders", token, { json: { imageId, style: "luxury" }, headers: { "idempotency-key": "one-more" } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.json).toEqual({ error: { code: "rate-limited", message: expect.stringContaining("2 renders running") } });
    // A second instance on the same database counts the same renders.
    const second = await startTestServer(
      { ...placeOf(server.deps.env), API_RENDERS_AT_ONCE: "2" },
      {
        renderProvider: engine,
        database: server.deps.db,
        startWorker: false,
      },
    );
    try {
      const there = await call(second.url, "/renders", token, { json: { imageId, style: "luxury" } });
      expect(there.status).toBe(429);
    } finally {
      await second.stop();
    }
    expect(await balance(token)).toBe(before);
    // Another key of the same person has its own count.
    const { token: otherKey } = await user.client.developers.createKey.mutate({
      name: "Other script",
      scopes: ["renders:write"],
      expiresInDays: null,
      teamId: null,
    });
    expect((await api("/renders", otherKey, { json: { imageId, style: "bohemian" } })).status).toBe(201);

    // One ends (canceled): the order is taken, and the refused Idempotency-Key may be sent again.
    const [first] = held.json!.renders as Json[];
    await api(`/renders/${first!.id}/cancel`, token, { method: "POST" });
    const taken = await api("/renders", token, { json: { imageId, style: "luxury" }, headers: { "idempotency-key": "one-more" } });
    expect(taken.status).toBe(201);
    expect(taken.headers.get("idempotent-replayed")).toBeNull();
    const [, secondHeld] = held.json!.renders as Json[];
    await api(`/renders/${secondHeld!.id}/cancel`, token, { method: "POST" });
    await waitUntil(async () => (await api(`/renders/${(taken.json!.renders as Json[])[0]!.id}`, token)).json!.status, {
      message: "the third render to end",
      until: (status) => status === "succeeded",
    });
  });
});

describe("renders at once, two orders together", () => {
  it("lets exactly one of two orders racing for the last slot through", async () => {
    const { token } = await developer();
    const uploaded = await api("/uploads", token, { body: await roomPhoto(800, 600) });
    const imageId = uploaded.json!.id as string;
    const held = await api("/renders", token, { json: { imageId, style: "modern", note: "hold" } });
    expect(held.status).toBe(201);
    const before = await balance(token);
    const [a, b] = await Promise.all([
      api("/renders", token, { json: { imageId, style: "coastal", note: "hold" } }),
      api("/renders", token, { json: { imageId, style: "luxury", note: "hold" } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 429]);
    expect(await balance(token)).toBe(before - 1);
    const ids = [held, a, b].flatMap((answer) =>
      answer.status === 201 ? (answer.json!.renders as Json[]).map((r) => r.id as string) : [],
    );
    for (const id of ids) await api(`/renders/${id}/cancel`, token, { method: "POST" });
  });
});

describe("a team's key", () => {
  it("works in the team's space: its projects and ledger are the team's, and the maker's personal key does not see them", async () => {
    const owner = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Estudio API" });
    const { token: teamKey } = await owner.client.developers.createKey.mutate({
      name: "Team CRM",
      scopes: ALL_SCOPES,
      expiresInDays: null,
      teamId: team.id,
    });
    const { token: personalKey } = await owner.client.developers.createKey.mutate({
      name: "Mine",
      scopes: ALL_SCOPES,
      expiresInDays: null,
      teamId: null,
    });
    const made = await api("/projects", teamKey, { json: { name: "Team flat" } });
    expect(made).toMatchObject({ status: 201, json: { teamId: team.id } });
    expect((await api("/projects", teamKey)).json!.projects.map((p: Json) => p.id)).toEqual([made.json!.id]);
    expect((await api("/projects", personalKey)).json!.projects).toEqual([]);
    expect(await api(`/projects/${made.json!.id}`, personalKey)).toMatchObject({ status: 404, json: notFound });
    // The web app, working in the team, sees the project the key made.
    expect((await owner.client.projects.get.query({ id: made.json!.id })).project.teamId).toBe(team.id);
    const ledger = await api("/credits/ledger", teamKey);
    expect(ledger.status).toBe(200);
    expect(ledger.json!.entries.reduce((sum: number, entry: Json) => sum + (entry.amount as number), 0)).toBe(
      (await owner.client.teams.credits.query({ teamId: team.id })).balance,
    );
  });
});

describe("messages in the key's language", () => {
  it("words a key's errors in its maker's language (Spanish here), Accept-Language overriding; codes stay the same", async () => {
    const { token } = await developer(ALL_SCOPES, "es");
    const missing = await api("/renders/nothing-here", token);
    expect(missing).toMatchObject({ status: 404, json: { error: { code: "not-found", message: "No encontrado" } } });
    const french = await api("/renders/nothing-here", token, { headers: { "accept-language": "fr-FR,fr;q=0.9" } });
    expect(french.json!.error.code).toBe("not-found");
    expect(french.json!.error.message).not.toBe("No encontrado");
    expect(french.json!.error.message).not.toBe(MESSAGES.notFound);
    // A wildcard (what HTTP clients send by default) is no choice: the key's language stays.
    expect((await api("/renders/nothing-here", token, { headers: { "accept-language": "*" } })).json!.error.message).toBe("No encontrado");
    const scoped = await developer(["renders:read"], "es");
    const refused = await api("/projects", scoped.token);
    expect(refused.json!.error.message).toBe("A esta clave de API le falta el permiso necesario: projects");
    // Without a key, only the header can say.
    const anonymous = await fetch(`${server.url}/api/v1/renders`, { headers: { "accept-language": "es" } });
    expect(((await anonymous.json()) as Json).error.message).toBe("Envía una clave de API como Authorization: Bearer <clave>");
    // A key made in English hears English.
    const english = await developer();
    expect((await api("/renders/nothing-here", english.token)).json).toEqual(notFound);
  });
});

describe("the OpenAPI document", () => {
  it("still validates as OpenAPI 3.1 with these resources, each POST taking an Idempotency-Key", async () => {
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        "post /renders/{id}/reroll",
        "post /renders/{id}/edits",
        "get /edits/{id}",
        "get /renders/{id}/upscale",
        "post /renders/{id}/upscale",
        "get /renders/{id}/listing-exports",
        "post /renders/{id}/listing-exports",
        "get /listing-exports/{id}/image",
        "get /projects",
        "post /projects",
        "get /projects/{id}",
        "patch /projects/{id}",
        "delete /projects/{id}",
        "get /credits/ledger",
        "get /engines",
      ]),
    );
    for (const [path, methods] of Object.entries(document.paths)) {
      if (methods.post)
        expect(
          methods.post.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header"),
          path,
        ).toBe(true);
    }
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["Edit", "EditRequest", "Upscale", "ListingExport", "Project", "ProjectPage", "LedgerPage", "Engines"]),
    );
  });
});
