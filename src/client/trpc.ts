import { QueryClient } from "@tanstack/react-query";
import { httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import { createTRPCReact } from "@trpc/react-query";
import superjson from "superjson";
import { DEFAULT_LANGUAGE, QUERY_CACHE, SERVER_TIME_HEADER, TRPC_MAX_BATCH_CALLS, UI_LANGUAGE_HEADER } from "../shared/constants";
import i18next from "i18next";
import type { AppRouter } from "../server/trpc/root";
import { recordServerTime } from "./lib/serverClock";
import { signingOutHome } from "./lib/signOutHome";

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

/**
 * While a sign-out is under way, queries are not sent: once the session ends the server refuses them
 * (401), which the browser logs, and their answers would be dropped with the account's data anyway.
 * A page mounting at that moment (a lazily loaded menu) would otherwise ask as the ended account.
 */
const holdQueriesWhileSigningOut: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    op.type === "query" && signingOutHome()
      ? observable((observer) => observer.error(TRPCClientError.from(new Error("Signing out")) as TRPCClientError<AppRouter>))
      : next(op);

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      holdQueriesWhileSigningOut,
      // Live render progress comes over server-sent events (it reconnects with the last event id
      // by itself); everything else goes in batched HTTP requests.
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: "/trpc", transformer: superjson }),
        false: httpBatchLink({
          url: "/trpc",
          transformer: superjson,
          maxItems: TRPC_MAX_BATCH_CALLS,
          // The server checks the value; it only picks the language of mails.
          headers: () => ({ [UI_LANGUAGE_HEADER]: i18next.resolvedLanguage ?? DEFAULT_LANGUAGE }),
          fetch: async (input, init) => {
            const response = await fetch(input, init);
            recordServerTime(response.headers.get(SERVER_TIME_HEADER));
            return response;
          },
        }),
      }),
    ],
  });
}
