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
import { clearSessionCookie, readSessionToken, setSessionCookie } from "../http/cookies";
import { clientAddress, identifyRequest, mailBaseUrl, requestBaseUrl, type SessionUser } from "../http/identity";
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
    owner: ownerOf(user?.id ?? null, visitorId),
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
  readonly #req: Request;
  readonly #res: Response;
  readonly #env: Env;

  constructor(req: Request, res: Response, env: Env) {
    this.#req = req;
    this.#res = res;
    this.#env = env;
  }

  get current(): string | null {
    return readSessionToken(this.#req, this.#env) ?? null;
  }

  set(token: string, persistentUntil?: number): void {
    setSessionCookie(this.#req, this.#res, this.#env, token, persistentUntil);
  }

  clear(): void {
    clearSessionCookie(this.#req, this.#res, this.#env);
  }
}

/**
 * The context of an HTTP request. The language (parsed from Accept-Language) and the cookie's current
 * token are read when a procedure first asks: most calls never do, and every call paid for them
 * (decision 046). Both depend only on the request's headers, so reading them later gives the same answer.
 */
export async function createContext(services: Services, env: Env, req: Request, res: Response): Promise<Context> {
  const identity = await identifyRequest({ sessions: services.sessions, env }, req, res);
  let language: Language | undefined;
  // Named one by one: a spread followed by more properties takes V8's slow path (several µs a call).
  return {
    user: identity.user,
    session: identity.session,
    visitorId: identity.visitorId,
    owner: identity.owner,
    get language() {
      return (language ??= requestLanguage(req));
    },
    clientAddress: clientAddress(req),
    requestInfo: requestInfo(req),
    baseUrl: requestBaseUrl(req, env),
    mailBaseUrl: mailBaseUrl(req, env),
    sessionCookie: new BrowserSessionCookie(req, res, env),
    services,
  };
}
