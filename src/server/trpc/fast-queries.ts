/**
 * A shorter road for tRPC queries over GET (decision 044): single and batched (httpBatchLink) calls
 * whose procedures are all queries are answered here; everything else (mutations, subscriptions,
 * jsonl streaming, unknown paths, unreadable input, a GET naming a Content-Type) goes on to tRPC's own
 * adapter, unchanged.
 *
 * tRPC's Express adapter turns each request into a Fetch Request and its answer into a Fetch
 * Response written through web streams, with an AbortController per call: measured, that was about
 * 40 % of a session-checked query's time. This calls the same procedure (middlewares, input
 * validation and output included) and answers with the same body and status, built with tRPC's own
 * getErrorShape, transformTRPCResponse and getHTTPStatusCode. tests/integration/fast-queries.test.ts
 * compares both roads' answers, and tests/integration/trpc-wire-contract.test.ts every query's, byte
 * for byte, with tRPC's handler's (decision 053).
 *
 * A result is written as transformTRPCResponse writes it, `{ result: { data: serialize(data) } }`, without
 * its object spreads (decision 046); errors still go through it. The app mounts this before compression
 * and hands the finished body to `send` (http/compression.ts endCompressible), so the compression
 * middleware only wraps answers large enough to compress.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { getErrorShape, getTRPCErrorFromUnknown, transformTRPCResponse, type AnyTRPCRouter, type TRPCError } from "@trpc/server";
import { getHTTPStatusCode } from "@trpc/server/http";

/**
 * The request and response are Node's own when the edge (http/edge.ts) hands them over, Express's when the
 * road is mounted in an Express app: the road reads only what both have (method, url, headers).
 */
export interface FastQueryOptions<TContext> {
  router: AnyTRPCRouter;
  createContext(req: IncomingMessage, res: ServerResponse): Promise<TContext>;
  onError?(options: { error: TRPCError; path: string; input: unknown; ctx: TContext; type: "query"; req: IncomingMessage }): void;
  /** Sends the finished JSON body (status and headers set); by default with its Content-Length. */
  send?(req: IncomingMessage, res: ServerResponse, body: string): void;
}

export interface FastQueries {
  /** As Express middleware, mounted where tRPC's adapter is: what it does not take goes to `next`. */
  (req: Request, res: Response, next: NextFunction): void;
  /**
   * For Node's own request: `procedures` is the path after the mount ("a.b" or "a,b"), still encoded, and
   * `search` the query string. False, having done nothing, when the request is not one for this road;
   * an error while answering goes to `fail`.
   */
  take(
    req: IncomingMessage,
    res: ServerResponse,
    procedures: string,
    search: string,
    fail: (error: unknown, req: IncomingMessage, res: ServerResponse) => void,
  ): boolean;
}

/** The call's getRawInput (made by a function: an arrow in the call's object literal would get its name set on every call under tsx). */
const inputGetter = (input: unknown) => async () => input;

function sendWithLength(_req: IncomingMessage, res: ServerResponse, body: string): void {
  res.setHeader("content-length", Buffer.byteLength(body));
  res.end(body);
}

/** The calls of a GET request when every one is a query, with its deserialised input; null otherwise. */
function queryCalls(router: AnyTRPCRouter, req: IncomingMessage, encodedPath: string, search: string) {
  if (req.method !== "GET") return null;
  // Streaming (httpBatchStreamLink's trpc-accept, or an Accept listing application/jsonl, which tRPC
  // streams when batched and refuses otherwise) and server-sent events keep tRPC's adapter.
  const accept = req.headers.accept;
  const streaming =
    req.headers["trpc-accept"] !== undefined || accept?.includes("application/jsonl") || accept?.includes("text/event-stream");
  if (streaming) return null;
  // tRPC's adapter reads a request by its Content-Type, and refuses some on GET (multipart/form-data,
  // application/octet-stream); tRPC's client sends none with a GET, so any is left to the adapter.
  if (req.headers["content-type"] !== undefined) return null;
  const params = new URLSearchParams(search);
  const batch = params.get("batch") === "1";
  let path: string;
  try {
    path = decodeURIComponent(encodedPath);
  } catch {
    return null;
  }
  const paths = batch ? path.split(",") : [path];
  const procedures = router._def.procedures as Record<string, { _def: { type: string } } | undefined>;
  if (paths.some((name) => procedures[name]?._def.type !== "query")) return null;
  const rawInput = params.get("input");
  const deserialize = router._def._config.transformer.input.deserialize;
  try {
    const parsed: unknown = rawInput ? JSON.parse(rawInput) : undefined;
    // A batch's input must be an object (not an array): tRPC's adapter answers anything else with its own error.
    if (batch && parsed !== undefined && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))) return null;
    const inputs = paths.map((_, index) => {
      const raw = batch ? (parsed as Record<string, unknown> | undefined)?.[index] : parsed;
      return raw === undefined ? undefined : (deserialize(raw) as unknown);
    });
    return { batch, calls: paths.map((name, index) => ({ path: name, input: inputs[index] })) };
  } catch {
    // tRPC's adapter answers unreadable input with its own error.
    return null;
  }
}

export function fastQueries<TContext>(options: FastQueryOptions<TContext>): FastQueries {
  const { router } = options;
  const config = router._def._config;
  const procedures = router._def.procedures as Record<string, (call: object) => Promise<unknown>>;
  const serialize = config.transformer.output.serialize;
  const send = options.send ?? sendWithLength;

  async function call(req: IncomingMessage, ctx: TContext, path: string, input: unknown, batchIndex: number) {
    try {
      const data = await procedures[path]!({ path, getRawInput: inputGetter(input), ctx, type: "query", signal: undefined, batchIndex });
      return { result: { data } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      options.onError?.({ error, path, input, ctx, type: "query", req });
      return { error: getErrorShape({ config, ctx, error, input, path, type: "query" }) };
    }
  }

  /** Answers the calls; a failure (the context, the transformer) goes to `fail`, so the promise never rejects. */
  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    batch: boolean,
    calls: Array<{ path: string; input: unknown }>,
    fail: (error: unknown, req: IncomingMessage, res: ServerResponse) => void,
  ) {
    try {
      const ctx = await options.createContext(req, res);
      const results = batch
        ? await Promise.all(calls.map(({ path, input }, batchIndex) => call(req, ctx, path, input, batchIndex)))
        : [await call(req, ctx, calls[0]!.path, calls[0]!.input, 0)];
      const single = batch ? undefined : results[0]!;
      // One result answers 200, as getHTTPStatusCode says for it, without its Set and arrays.
      res.statusCode = single?.result ? 200 : getHTTPStatusCode(single ?? results);
      const items = results.map((item) =>
        item.result ? { result: { data: serialize(item.result.data) as unknown } } : transformTRPCResponse(config, item),
      );
      res.setHeader("vary", "trpc-accept, accept");
      res.setHeader("content-type", "application/json");
      send(req, res, JSON.stringify(batch ? items : items[0]));
    } catch (error) {
      fail(error, req, res);
    }
  }

  const take: FastQueries["take"] = (req, res, procedures, search, fail) => {
    const found = queryCalls(router, req, procedures, search);
    if (!found) return false;
    void answer(req, res, found.batch, found.calls, fail);
    return true;
  };
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const query = req.url.indexOf("?");
    if (!take(req, res, req.path.slice(1), query === -1 ? "" : req.url.slice(query + 1), (error) => next(error))) next();
  };
  return Object.assign(middleware, { take });
}
