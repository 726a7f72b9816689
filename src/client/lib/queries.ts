/**
 * The few queries that the first paint's parts read (the session, the render engine, the landing
 * page's figures and examples), without tRPC's client, React Query and
 * superjson in the first load (issue 15, decision 042).
 *
 * Until src/client/data.tsx is loaded (after the first load, or with the first page that needs it)
 * they are fetched here, batched into one GET to tRPC's own endpoint (the server's short road for
 * queries answers it). From then on React Query holds them under the keys trpc.<path>.useQuery
 * uses: what was fetched here is handed over, each reader follows the query as useQuery would
 * (fetching it when stale), and invalidations, setData and removals anywhere in the app show here.
 */
import { startTransition, useEffect, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/trpc/root";
import { DEFAULT_LANGUAGE, MINUTE_MS, QUERY_CACHE, SERVER_TIME_HEADER, UI_LANGUAGE_HEADER } from "../../shared/constants";
import { recordServerTime } from "./serverClock";

type Outputs = inferRouterOutputs<AppRouter>;

/** The queries read before React Query is loaded, with what each returns. */
export interface SharedQueries {
  "auth.session": Outputs["auth"]["session"];
  "render.allowance": Outputs["render"]["allowance"];
  "render.gallery": Outputs["render"]["gallery"];
  "system.landingStats": Outputs["system"]["landingStats"];
}
export type SharedPath = keyof SharedQueries;

/** How long an answer counts as fresh, per query (the values the app's useQuery calls used). */
export const SHARED_STALE_MS: Record<SharedPath, number> = {
  "auth.session": MINUTE_MS,
  "render.allowance": 5 * MINUTE_MS,
  "render.gallery": 5 * MINUTE_MS,
  "system.landingStats": QUERY_CACHE.staleTimeMs,
};

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  /** No answer yet, and one is on its way (React Query's isLoading). */
  isLoading: boolean;
}

/** React Query's side, installed by data.tsx once it is loaded. */
export interface QueryBackend {
  /** Follows the query as one useQuery would (fetching when stale); calls back with each state. */
  observe(path: SharedPath, onState: (state: QueryState<unknown>) => void): () => void;
  /** Hands over an answer fetched here (kept only when the cache has none). */
  seed(path: SharedPath, data: unknown, updatedAt: number): void;
  setData<P extends SharedPath>(path: P, update: (old: SharedQueries[P] | undefined) => SharedQueries[P] | undefined): void;
  /** Marks queries stale and fetches the followed ones again: one, or every tRPC query. */
  invalidate(path?: SharedPath): void;
  /** Drops every cached query (and mutation) except `keep`'s: an account's data must not outlive its sign-out. */
  removeAllExcept(keep: SharedPath): void;
}

interface Entry {
  state: QueryState<unknown>;
  fetchedAt: number;
  fetching: boolean;
  listeners: Set<() => void>;
}

const PENDING: QueryState<never> = { data: undefined, error: null, isLoading: true };
const IDLE: QueryState<never> = { data: undefined, error: null, isLoading: false };

const entries = new Map<SharedPath, Entry>();
let backend: QueryBackend | null = null;
/** Every reader following a query, so that the backend can take them over when it arrives. */
const readers = new Set<{ path: SharedPath; stop: (() => void) | null }>();

function entry(path: SharedPath): Entry {
  let found = entries.get(path);
  if (!found) {
    found = { state: PENDING, fetchedAt: 0, fetching: false, listeners: new Set() };
    entries.set(path, found);
  }
  return found;
}

function setState(path: SharedPath, state: QueryState<unknown>): void {
  const found = entry(path);
  const old = found.state;
  if (old.data === state.data && old.error === state.error && old.isLoading === state.isLoading) return;
  found.state = state;
  for (const listener of [...found.listeners]) listener();
}

// ---- Before React Query: one batched GET per tick ----

let batch: Set<SharedPath> | null = null;

/** tRPC's answer to one call, read without superjson when it needs none (these answers are plain JSON). */
async function readResult(item: { result?: { data?: { json?: unknown; meta?: unknown } }; error?: { json?: { message?: string } } }) {
  if (item.error || !item.result?.data) throw new Error(item.error?.json?.message ?? "The server's answer could not be read");
  const data = item.result.data;
  if (data.meta === undefined) return data.json;
  const { default: superjson } = await import("superjson");
  return superjson.deserialize(data as Parameters<typeof superjson.deserialize>[0]);
}

async function fetchBatch(paths: SharedPath[]): Promise<void> {
  const language = document.documentElement.lang || DEFAULT_LANGUAGE;
  let items: unknown[];
  try {
    const response = await fetch(`/trpc/${paths.join(",")}?batch=1`, { headers: { [UI_LANGUAGE_HEADER]: language } });
    recordServerTime(response.headers.get(SERVER_TIME_HEADER));
    const body: unknown = await response.json();
    if (!Array.isArray(body) || body.length !== paths.length) throw new Error(`Unexpected answer (HTTP ${response.status})`);
    items = body;
  } catch (error) {
    items = paths.map(() => ({ error: { json: { message: error instanceof Error ? error.message : String(error) } } }));
  }
  await Promise.all(
    paths.map(async (path, index) => {
      const found = entry(path);
      found.fetching = false;
      try {
        const data = await readResult(items[index] as Parameters<typeof readResult>[0]);
        found.fetchedAt = Date.now();
        if (backend) backend.seed(path, data, found.fetchedAt);
        else setState(path, { data, error: null, isLoading: false });
      } catch (error) {
        // React Query, once here, asks again (it retries); until then the readers see the error.
        if (!backend) setState(path, { data: found.state.data, error, isLoading: false });
      }
    }),
  );
}

function fetchLater(path: SharedPath): void {
  const found = entry(path);
  if (found.fetching || typeof window === "undefined") return;
  found.fetching = true;
  if (!found.state.data && !found.state.isLoading) setState(path, { ...found.state, isLoading: true });
  if (!batch) {
    batch = new Set();
    queueMicrotask(() => {
      const paths = [...batch!];
      batch = null;
      void fetchBatch(paths);
    });
  }
  batch.add(path);
}

function isStale(path: SharedPath): boolean {
  const found = entry(path);
  return found.state.data === undefined || Date.now() - found.fetchedAt > SHARED_STALE_MS[path];
}

/** Starts fetching these queries now (before any part reads them), unless fresh or on their way. */
export function prefetchQueries(paths: SharedPath[]): void {
  if (backend) return;
  for (const path of paths) if (isStale(path)) fetchLater(path);
}

// ---- Readers ----

function subscribe(path: SharedPath, listener: () => void): () => void {
  const found = entry(path);
  found.listeners.add(listener);
  const reader = { path, stop: null as (() => void) | null };
  readers.add(reader);
  if (backend) reader.stop = backend.observe(path, (state) => setState(path, state));
  else if (isStale(path)) fetchLater(path);
  return () => {
    found.listeners.delete(listener);
    readers.delete(reader);
    reader.stop?.();
  };
}

/**
 * True while React hydrates the pre-rendered page (main.tsx sets it, App's first effect clears it):
 * parts mounted then start from the state the page was rendered with.
 */
export const hydration = { active: false };

/**
 * The query's state, like trpc.<path>.useQuery() (no input). A part mounted while React hydrates
 * the pre-rendered page starts from the pending state the page was rendered with. Answers arrive as
 * transitions: React renders them in slices between the browser's other work, where an external
 * store's update would be rendered and committed in one long task (Total Blocking Time, issue 15).
 */
export function useSharedQuery<P extends SharedPath>(path: P, options: { enabled?: boolean } = {}): QueryState<SharedQueries[P]> {
  const enabled = options.enabled ?? true;
  const [state, setLocal] = useState<QueryState<unknown>>(() => (hydration.active ? PENDING : entry(path).state));
  useEffect(() => {
    if (!enabled) return;
    const update = () => startTransition(() => setLocal(entry(path).state));
    const stop = subscribe(path, update);
    update();
    return stop;
  }, [path, enabled]);
  const typed = state as QueryState<SharedQueries[P]>;
  // Disabled and never answered: not loading (React Query's isLoading needs a fetch on its way).
  return !enabled && typed.data === undefined && typed.error === null ? IDLE : typed;
}

// ---- React Query takes over ----

/** Called by data.tsx once: answers fetched so far go to React Query, and every reader follows it from now on. */
export function installQueryBackend(next: QueryBackend): void {
  if (backend) return;
  backend = next;
  for (const [path, found] of entries) {
    if (found.state.data !== undefined) next.seed(path, found.state.data, found.fetchedAt);
  }
  for (const reader of readers) reader.stop = next.observe(reader.path, (state) => setState(reader.path, state));
}

// ---- Changes (auth events, sign-out) ----

export function setSharedData<P extends SharedPath>(
  path: P,
  update: (old: SharedQueries[P] | undefined) => SharedQueries[P] | undefined,
): void {
  if (backend) {
    backend.setData(path, update);
    return;
  }
  const found = entry(path);
  const data = update(found.state.data as SharedQueries[P] | undefined);
  found.fetchedAt = Date.now();
  setState(path, { data, error: null, isLoading: false });
}

/** Fetches again what is read (one query, or all of them). */
export function invalidateShared(path?: SharedPath): void {
  if (backend) {
    backend.invalidate(path);
    return;
  }
  for (const [name, found] of entries) {
    if (path && name !== path) continue;
    found.fetchedAt = 0;
    if (found.listeners.size > 0) fetchLater(name);
  }
}

/** Forgets every answer except `keep`'s (fetching again what is read). */
export function removeSharedExcept(keep: SharedPath): void {
  if (backend) {
    backend.removeAllExcept(keep);
    return;
  }
  for (const [name, found] of entries) {
    if (name === keep) continue;
    found.fetchedAt = 0;
    setState(name, found.listeners.size > 0 ? PENDING : IDLE);
    if (found.listeners.size > 0) fetchLater(name);
  }
}
