import { createTRPCClient, httpBatchLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../../src/server/trpc/root";

/** A real tRPC client over HTTP, as the browser and the self-test CLI use. */
export function createHttpClient(baseUrl: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${baseUrl}/trpc`, transformer: superjson })],
  });
}
