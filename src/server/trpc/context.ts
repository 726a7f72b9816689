/**
 * What every procedure receives: who is asking (user, session, owner), the request's language,
 * address and base URL, the browser's session cookie when there is a browser, and the services
 * it may call. Procedures hold no database and no adapters: they call capabilities.
 */
import type { Request, Response } from "express";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/constants";
import type { Services } from "../app-services";
import type { SessionInfo, SessionRequestInfo } from "../auth/sessions";
import type { Env } from "../env";
import { clearSessionCookie, readIdentityCookies, setSessionCookie } from "../http/cookies";
import { expressExchange, type HttpExchange } from "../http/exchange";
import { clientAddress, identify, mailBaseUrl, requestBaseUrl, type SessionUser } from "../http/identity";
import { requestInfo } from "../http/request-info";
import { requestLanguage } from "../http/request-language";
import { ownerOf, type Owner } from "../render";

export type { SessionUser } from "../http/identity";

/** The browser's session cookie, as procedures that sign in or out use it. */
export interface SessionCookie {
  /** The token the browser holds now (its session ends when a new one starts). */
  readonly current: string | null;
  /** persistentUntil: a date for remember-me sessions; undefined makes a browser-session cookie. */
  set(token: string, persistentUntil?: number): void;
  clear(): void;
}

export interface Context {
  user: SessionUser | null;
  session: SessionInfo | null;
  /** The anonymous id of a visitor's free demo render (cookie), when there is one. */
  visitorId: string | null;
  /** The user, else the visitor, else nobody: whose uploads and renders this request may see. */
  owner: Owner | null;
  /** The interface language the request came from (for mails): the client's header, else Accept-Language, else en. */
  language: Language;
  /** The request's address, for per-address limits. */
  clientAddress: string;
  /** Who is asking (user agent and address), recorded with sessions and failed sign-ins. */
  requestInfo: SessionRequestInfo;
  /** Where links for this request point (Stripe's return address, share and listing links). */
  baseUrl: string;
  /** Where links in mails may point; null when the request's host is not one the server knows (see mailBaseUrl). */
  mailBaseUrl: string | null;
  /** Null without a browser (createCaller in tests and scripts): no session cookie is set then. */
  sessionCookie: SessionCookie | null;
  services: Services;
}

export interface InnerContextOptions {
  user?: SessionUser | null;
  session?: SessionInfo | null;
  visitorId?: string | null;
  language?: Language;
}

/** The context without HTTP: used by tests (createCaller) and by the per-request factory. */
export function createContextInner(services: Services, env: Pick<Env, "PUBLIC_URL" | "PORT">, options: InnerContextOptions = {}): Context {
  const user = options.user ?? null;
  const visitorId = options.visitorId ?? null;
  return {
    user,
    session: options.session ?? null,
    visitorId,
    owner: ownerOf(user?.id ?? null, visitorId, user?.spaceTeamId ?? null),
    language: options.language ?? DEFAULT_LANGUAGE,
    clientAddress: clientAddress(undefined),
    requestInfo: requestInfo(undefined),
    baseUrl: requestBaseUrl(undefined, env),
    mailBaseUrl: requestBaseUrl(undefined, env),
    sessionCookie: null,
    services,
  };
}

/**
 * The browser's session cookie for one request. A class, so a request costs one object and no
 * closures (each closure in an object literal also gets its name set when it is made, under tsx).
 */
class BrowserSessionCookie implements SessionCookie {
  readonly #http: HttpExchange;
  readonly #env: Env;

  constructor(http: HttpExchange, env: Env) {
    this.#http = http;
    this.#env = env;
  }

  get current(): string | null {
    return readIdentityCookies(this.#http, this.#env).token ?? null;
  }

  set(token: string, persistentUntil?: number): void {
    const { req, res } = this.#http.express();
    setSessionCookie(req, res, this.#env, token, persistentUntil);
  }

  clear(): void {
    const { req, res } = this.#http.express();
    clearSessionCookie(req, res, this.#env);
  }
}

/**
 * The context of a request that went through Express (tRPC's adapter, tests). Its address and base URLs
 * are read at once, as they always were: a procedure that reads them after a long await (a sign-in's
 * password check) still finds them if the browser has gone in between.
 */
export async function createContext(services: Services, env: Env, req: Request, res: Response): Promise<Context> {
  const ctx = await contextOf(services, env, expressExchange(req, res));
  readNow(ctx.clientAddress, ctx.requestInfo, ctx.baseUrl, ctx.mailBaseUrl);
  return ctx;
}

/** Reads getters for their side effect (each keeps what it read). */
function readNow(..._values: unknown[]): void {}

/**
 * The context of an HTTP request. Only who is asking is read at once; the language (parsed from
 * Accept-Language), the address, the base URLs and the cookie's current token when a procedure first asks:
 * most calls never do, and each needs Express's request (decisions 046 and 055). All of them depend only
 * on the request and its connection, so reading them later in the call gives the same answer; each is
 * read once. The GET queries that read one (render.allowance: the address) read it before any await.
 */
export async function contextOf(services: Services, env: Env, http: HttpExchange): Promise<Context> {
  const identity = await identify({ sessions: services.sessions, env }, http);
  let language: Language | undefined;
  let address: string | undefined;
  let info: SessionRequestInfo | undefined;
  let baseUrl: string | undefined;
  let mailBase: string | null | undefined;
  // Named one by one: a spread followed by more properties takes V8's slow path (several µs a call).
  return {
    user: identity.user,
    session: identity.session,
    visitorId: identity.visitorId,
    owner: identity.owner,
    get language() {
      return (language ??= requestLanguage(http.express().req));
    },
    get clientAddress() {
      return (address ??= clientAddress(http.express().req));
    },
    get requestInfo() {
      return (info ??= requestInfo(http.express().req));
    },
    get baseUrl() {
      return (baseUrl ??= requestBaseUrl(http.express().req, env));
    },
    get mailBaseUrl() {
      return mailBase !== undefined ? mailBase : (mailBase = mailBaseUrl(http.express().req, env));
    },
    sessionCookie: new BrowserSessionCookie(http, env),
    services,
  };
}
