import { createTRPCClient, httpBatchLink, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../../src/server/trpc/root";

/** A real tRPC client over HTTP, as the browser and the self-test CLI use. */
export function createHttpClient(baseUrl: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${baseUrl}/trpc`, transformer: superjson })],
  });
}

/** Keeps cookies between requests, like a browser for one site. */
export class CookieJar {
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

/** A tRPC client with its own cookie jar (one "browser"); one request per call. */
export function createBrowserLikeClient(baseUrl: string, jar = new CookieJar(), extraHeaders: Record<string, string> = {}) {
  const client = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, transformer: superjson, fetch: jar.fetch, headers: () => extraHeaders })],
  });
  return { client, jar };
}
