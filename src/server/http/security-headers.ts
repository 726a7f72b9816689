/**
 * The security headers every response carries (helmet's, with our CSP: decision 006).
 *
 * helmet is a chain of a dozen small middlewares, one per header, run for every request. Our policy
 * has no per-request part (no nonces), so helmet is asked once, at start, what it sets and removes,
 * and each response gets that list in one pass (decision 046). helmet stays the source of the values:
 * tests/integration/response-headers.test.ts compares the two on real responses.
 *
 * Scripts come from 'self', and the two the pre-rendered landing page carries inline (its theme and
 * boot scripts, decision 056) by their SHA-256, which the build lists (scripts/prerender.ts): never
 * 'unsafe-inline'.
 */
import type { ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";

/** Our options, scripts from 'self' and the inline scripts with these CSP sources (`'sha256-<base64>'`). */
function options(inlineScripts: readonly string[]): Readonly<HelmetOptions> {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScripts],
        // Toast and menu libraries inject <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // No upgrade-insecure-requests: self-hosted boxes are often reached over plain HTTP on a LAN.
      },
    },
    // HSTS only makes sense when this server itself is reached over HTTPS; a proxy sets it then.
    strictTransportSecurity: false,
  };
}

/** Our options without inline scripts (an API-only server, or a build without the pre-rendered page). */
export const HELMET_OPTIONS = options([]);

/** Our options allowing the inline scripts with these SHA-256 sources (`'sha256-<base64>'`), and no other. */
export function helmetOptions(inlineScripts: readonly string[]): Readonly<HelmetOptions> {
  for (const source of inlineScripts) {
    if (!/^'sha256-[A-Za-z0-9+/]{43}='$/.test(source)) throw new Error(`not a script's SHA-256 source: ${source}`);
  }
  return inlineScripts.length === 0 ? HELMET_OPTIONS : options(inlineScripts);
}

export interface SecurityHeaders {
  /** What helmet sets, in its order: [name, value]. */
  readonly set: ReadonlyArray<readonly [string, string]>;
  /** What helmet removes (X-Powered-By). */
  readonly removed: readonly string[];
  /** Puts them on a response. */
  apply(res: ServerResponse): void;
}

/** Runs helmet once against a recording response and returns what it did, to be applied to every response. */
export function securityHeaders(options: Readonly<HelmetOptions> = HELMET_OPTIONS): SecurityHeaders {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== "string") throw new Error(`helmet set ${name} to a non-string value`);
      set.push([name, value]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let failure: unknown;
  let finished = false;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    failure = error;
    finished = true;
  });
  // A policy that needed the request (a nonce function) or answered later could not be computed once.
  if (failure !== undefined || !finished)
    throw new Error("helmet's headers depend on the request; they cannot be computed once", { cause: failure });
  return {
    set,
    removed,
    apply(res) {
      for (const name of removed) res.removeHeader(name);
      for (const [name, value] of set) res.setHeader(name, value);
    },
  };
}
