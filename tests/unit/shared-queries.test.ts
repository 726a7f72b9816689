/**
 * lib/queries: the first paint's queries without React Query (issue 15). Asked together in one
 * batched GET on tRPC's endpoint; once the data layer installs React Query's side, what was
 * fetched is handed over and every change (auth events) goes to React Query.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as QueriesModule from "../../src/client/lib/queries";
import type { QueryBackend, SharedPath } from "../../src/client/lib/queries";

type Queries = typeof QueriesModule;

let queries: Queries;
let fetchMock: ReturnType<typeof vi.fn>;

function answer(body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { "x-server-time": String(Date.now()) } }));
}

beforeEach(async () => {
  vi.resetModules();
  vi.stubGlobal("window", {});
  vi.stubGlobal("document", { documentElement: { lang: "fr" } });
  fetchMock = vi.fn((url: string) => {
    const paths = decodeURIComponent(new URL(url, "http://app").pathname.slice("/trpc/".length)).split(",");
    return answer(paths.map((path) => ({ result: { data: { json: { path } } } })));
  });
  vi.stubGlobal("fetch", fetchMock);
  queries = await import("../../src/client/lib/queries");
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function fakeBackend() {
  const calls: string[] = [];
  const backend: QueryBackend = {
    observe: (path) => {
      calls.push(`observe ${path}`);
      return () => calls.push(`stop ${path}`);
    },
    seed: (path, data) => void calls.push(`seed ${path} ${JSON.stringify(data)}`),
    setData: (path) => void calls.push(`setData ${path}`),
    invalidate: (path?: SharedPath) => void calls.push(`invalidate ${path ?? "all"}`),
    removeAllExcept: (keep) => void calls.push(`removeAllExcept ${keep}`),
  };
  return { backend, calls };
}

describe("shared queries", () => {
  it("asks the queries of one tick in one batched GET, with the interface language", async () => {
    queries.prefetchQueries(["auth.session", "render.allowance"]);
    queries.prefetchQueries(["auth.session", "render.gallery"]);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]! as [string, RequestInit];
    expect(url).toBe("/trpc/auth.session,render.allowance,render.gallery?batch=1");
    expect(init.headers).toEqual({ "x-ui-language": "fr" });
    // Fresh answers are not asked again.
    queries.prefetchQueries(["auth.session"]);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("hands what it fetched to React Query's side, which answers every change from then on", async () => {
    queries.prefetchQueries(["system.landingStats"]);
    const { backend, calls } = fakeBackend();
    // Installed before or after the answer came, the answer is handed over.
    queries.installQueryBackend(backend);
    await vi.waitFor(() => expect(calls).toEqual([`seed system.landingStats {"path":"system.landingStats"}`]));

    queries.setSharedData("auth.session", () => ({ user: null, session: null }));
    queries.invalidateShared();
    queries.invalidateShared("auth.session");
    queries.removeSharedExcept("auth.session");
    expect(calls.slice(1)).toEqual(["setData auth.session", "invalidate all", "invalidate auth.session", "removeAllExcept auth.session"]);
    // Nothing is fetched here any more.
    queries.prefetchQueries(["render.allowance"]);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("reads an answer with superjson's meta through superjson", async () => {
    const when = new Date("2026-11-23T05:00:00Z");
    fetchMock.mockImplementationOnce(() =>
      answer([{ result: { data: { json: { when: when.toISOString() }, meta: { values: { when: ["Date"] } } } } }]),
    );
    queries.prefetchQueries(["system.landingStats"]);
    const seeded: unknown[] = [];
    queries.installQueryBackend({ ...fakeBackend().backend, seed: (_path, data) => void seeded.push(data) });
    await vi.waitFor(() => expect(seeded).toEqual([{ when }]));
    expect((seeded[0] as { when: unknown }).when).toBeInstanceOf(Date);
  });
});
