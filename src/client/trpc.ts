import { QueryClient } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";
import superjson from "superjson";
import { QUERY_CACHE, SERVER_TIME_HEADER } from "../shared/constants";
import type { AppRouter } from "../server/trpc/root";
import { recordServerTime } from "./lib/serverClock";

export const trpc = createTRPCReact<AppRouter>();

/** Query caching as spec section 7 sets it. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_CACHE.staleTimeMs,
        gcTime: QUERY_CACHE.gcTimeMs,
        retry: QUERY_CACHE.retry,
        refetchOnWindowFocus: QUERY_CACHE.refetchOnWindowFocus,
      },
    },
  });
}

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: "/trpc",
        transformer: superjson,
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          recordServerTime(response.headers.get(SERVER_TIME_HEADER));
          return response;
        },
      }),
    ],
  });
}
