/**
 * A client of a running server over its real HTTP protocol, as a browser is: cookies kept
 * between requests, tRPC over HTTP, and subscriptions over server-sent events (Node 20 has no
 * EventSource; the eventsource package stands in) with the same cookies. Used by the tests and
 * by scripts that talk to a server (bench).
 */
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import superjson from "superjson";
import type { AppRouter } from "../../src/server/trpc/root";

export /** Keeps cookies between requests, like a browser for one site. */
class CookieJar {
  readonly cookies = new Map<string, string>();
  /** Raw Set-Cookie headers seen, newest last. */
  readonly setCookieHeaders: string[] = [];

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      this.setCookieHeaders.push(line);
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || value === "";
      if (expired) this.cookies.delete(name!);
      else this.cookies.set(name!, value);
    }
  }

  fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (this.cookies.size > 0) headers.set("cookie", this.header());
    const response = await fetch(input, { ...init, headers });
    this.store(response);
    return response;
  };
}

/** A tRPC client with its own cookies that also subscribes over SSE. */
export function createStudioClient(baseUrl: string, jar = new CookieJar()) {
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url: `${baseUrl}/trpc`,
          transformer: superjson,
          EventSource,
          eventSourceOptions: () => ({ fetch: (input, init) => jar.fetch(input, init) }),
        }),
        false: httpLink({ url: `${baseUrl}/trpc`, transformer: superjson, fetch: jar.fetch }),
      }),
    ],
  });
  return { client, jar };
}

export type StudioClient = ReturnType<typeof createStudioClient>;
