import { createTRPCClient, httpBatchLink, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../../src/server/trpc/root";
import { CookieJar } from "../../scripts/lib/studio-client";

export { CookieJar };

/** A real tRPC client over HTTP, as the browser and the self-test CLI use. */
export function createHttpClient(baseUrl: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${baseUrl}/trpc`, transformer: superjson })],
  });
}

/** A tRPC client with its own cookie jar (one "browser"); one request per call. */
export function createBrowserLikeClient(baseUrl: string, jar = new CookieJar(), extraHeaders: Record<string, string> = {}) {
  const client = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, transformer: superjson, fetch: jar.fetch, headers: () => extraHeaders })],
  });
  return { client, jar };
}
