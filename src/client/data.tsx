/**
 * The data layer: tRPC's React client over React Query (with superjson), not part of the first
 * load (issue 15). It is fetched after the first load, or with the first page, drawer or action
 * that needs it (lazy.tsx). One query client and one tRPC client serve the whole tab; every lazily
 * loaded part that calls trpc.*.useQuery/useMutation is wrapped in DataProvider (withData). The
 * queries the first paint read through lib/queries are handed over to React Query here.
 */
import { QueryClientProvider, QueryObserver, type QueryObserverResult } from "@tanstack/react-query";
import { getUntypedClient } from "@trpc/client";
import { getQueryKey } from "@trpc/react-query";
import type { ComponentType, ReactNode } from "react";
import { installQueryBackend, SHARED_STALE_MS, type QueryBackend, type SharedPath } from "./lib/queries";
import { createQueryClient, createTrpcClient, trpc } from "./trpc";

export const queryClient = createQueryClient();
/** Also for calls outside React (sign-out, resending a confirmation mail): `trpcClient.auth.signOut.mutate()`. */
export const trpcClient = createTrpcClient();
const untypedClient = getUntypedClient(trpcClient);
// Refetching on reconnect, as QueryClientProvider would arrange; the tab keeps this client for good.
queryClient.mount();

export function DataProvider({ children }: { children: ReactNode }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

export function withData<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  const WithData = (props: P) => (
    <DataProvider>
      <Component {...props} />
    </DataProvider>
  );
  WithData.displayName = `WithData(${Component.displayName ?? Component.name})`;
  return WithData;
}

/** The key trpc.<path>.useQuery() caches its answer under. */
function queryKey(path: SharedPath): readonly unknown[] {
  const procedure = path.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], trpc);
  return getQueryKey(procedure as Parameters<typeof getQueryKey>[0], undefined, "query");
}

const isKey = (key: readonly unknown[], path: SharedPath) => JSON.stringify(key[0]) === JSON.stringify(queryKey(path)[0]);

const observers = new Set<QueryObserver>();

const backend: QueryBackend = {
  observe(path, onState) {
    const observer = new QueryObserver(queryClient, {
      queryKey: queryKey(path),
      queryFn: ({ signal }) => untypedClient.query(path, undefined, { signal }),
      staleTime: SHARED_STALE_MS[path],
    });
    const report = (result: QueryObserverResult) => onState({ data: result.data, error: result.error, isLoading: result.isLoading });
    const unsubscribe = observer.subscribe(report);
    report(observer.getCurrentResult());
    observers.add(observer);
    return () => {
      observers.delete(observer);
      unsubscribe();
    };
  },
  seed(path, data, updatedAt) {
    const key = queryKey(path);
    if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, data, { updatedAt });
  },
  setData(path, update) {
    queryClient.setQueryData(queryKey(path), update as (old: unknown) => unknown);
  },
  invalidate(path) {
    void queryClient.invalidateQueries(path ? { queryKey: queryKey(path) } : undefined);
  },
  removeAllExcept(keep) {
    queryClient.removeQueries({ predicate: (query) => !isKey(query.queryKey, keep) });
    queryClient.getMutationCache().clear();
    // Readers of a removed query follow a new one (fetched again), as useQuery does on its next render.
    for (const observer of observers) observer.setOptions(observer.options);
  },
};

installQueryBackend(backend);
