/**
 * A request and its response as identity and the tRPC context read them (decision 055): Node's own
 * objects, which are given Express's API only when something asks for it.
 *
 * Express gives every request and response its prototypes (`Object.setPrototypeOf`, in app.handle).
 * V8 then gives each of them a map of its own, so every property read on them afterwards, in Express,
 * in Node's HTTP code and in ours, misses its inline cache: measured, a bare Express app spends more
 * than half of a small request there. GET queries on the edge's short road (http/edge.ts) never get
 * them: the session cookie and whether the request came over HTTPS are read from the headers and the
 * socket, as Express reads them, and the first field that needs Express (the address, the language, a
 * cookie to set or clear) turns the pair into Express's request and response, as app.handle would have.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Express, Request, Response } from "express";

export interface HttpExchange {
  readonly headers: IncomingHttpHeaders;
  /** Express's `req.secure`: the request reached this server over HTTPS (or a trusted proxy says it did). */
  secure(): boolean;
  /** The request and response with Express's API. */
  express(): { req: Request; res: Response };
}

/** A request that has been through Express already (its routes, tRPC's adapter). */
export function expressExchange(req: Request, res: Response): HttpExchange {
  return new ExpressExchange(req, res);
}

class ExpressExchange implements HttpExchange {
  readonly #req: Request;
  readonly #res: Response;

  constructor(req: Request, res: Response) {
    this.#req = req;
    this.#res = res;
  }

  get headers(): IncomingHttpHeaders {
    return this.#req.headers;
  }

  secure(): boolean {
    return this.#req.secure;
  }

  express(): { req: Request; res: Response } {
    return { req: this.#req, res: this.#res };
  }
}

type TrustProxy = (address: string | undefined, hop: number) => boolean;

/**
 * Express's `req.protocol` (express/lib/request.js), without Express: "https" on a TLS socket, else
 * "http", unless the app trusts the peer as a proxy; then the first value of X-Forwarded-Proto.
 * tests/unit/http-exchange.test.ts compares it with Express's on the same requests.
 */
export function requestProtocol(req: IncomingMessage, trust: TrustProxy): string {
  const proto = (req.socket as Partial<TLSSocket>).encrypted ? "https" : "http";
  if (!trust(req.socket.remoteAddress, 0)) return proto;
  const given = req.headers["x-forwarded-proto"];
  const header = (typeof given === "string" ? given : undefined) || proto;
  const index = header.indexOf(",");
  return index !== -1 ? header.substring(0, index).trim() : header.trim();
}

/** A request as Node's HTTP server handed it to the edge: `app` gives it Express's API on demand. */
export function nodeExchange(app: Express, req: IncomingMessage, res: ServerResponse): HttpExchange {
  return new NodeExchange(app, req, res);
}

class NodeExchange implements HttpExchange {
  readonly #app: Express;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;

  constructor(app: Express, req: IncomingMessage, res: ServerResponse) {
    this.#app = app;
    this.#req = req;
    this.#res = res;
  }

  get headers(): IncomingHttpHeaders {
    return this.#req.headers;
  }

  secure(): boolean {
    // A request that went through Express (the app's own /trpc mount) asks Express.
    if (isExpressRequest(this.#app, this.#req)) return this.#req.secure;
    return requestProtocol(this.#req, this.#app.get("trust proxy fn") as TrustProxy) === "https";
  }

  express(): { req: Request; res: Response } {
    return asExpress(this.#app, this.#req, this.#res);
  }
}

function isExpressRequest(app: Express, req: IncomingMessage): req is Request {
  return Object.getPrototypeOf(req) === app.request;
}

/**
 * The request and response given Express's API in place, as `app.handle` and its router do before the
 * first middleware (circular references, prototypes, `res.locals`, `baseUrl` and `originalUrl` at the
 * top level). Nothing happens to a pair that has it already. The app does not send X-Powered-By.
 */
export function asExpress(app: Express, req: IncomingMessage, res: ServerResponse): { req: Request; res: Response } {
  const request = req as Request;
  const response = res as Response;
  if (!isExpressRequest(app, req)) {
    request.res = response;
    response.req = request;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    response.locals ??= Object.create(null) as Response["locals"];
    request.originalUrl ||= req.url!;
    request.baseUrl = "";
  }
  return { req: request, res: response };
}
