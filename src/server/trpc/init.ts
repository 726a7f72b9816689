/**
 * The one initTRPC of the server and the procedures every router builds on:
 * - publicProcedure: anyone.
 * - protectedProcedure: a signed-in user; narrows ctx.user to non-null.
 * - adminProcedure: a signed-in user holding the "admin" role, read from user_roles on every call.
 * Domain errors thrown by services become tRPC errors here, once (DOMAIN_ERROR_CODES): routers throw
 * no TRPCError of their own and import nothing of @trpc/server but types (decision 054; dependency-cruiser
 * rule routers-throw-domain-errors), so what they need of it at run time comes from here. Validation
 * errors carry zod's flattened errors in error.data.zodError so forms show field messages;
 * unexpected errors are logged and answered with a generic message, never a stack trace.
 */
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { ZodError, z } from "zod";
import { MESSAGES, type MessageName } from "../../shared/messages";
import { DomainError, type DomainErrorKind } from "../errors";
import type { RateLimitedAction } from "../coordination";
import type { Context, SessionUser } from "./context";
import { transformer } from "./transformer";

export const DOMAIN_ERROR_CODES: Record<DomainErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: "BAD_REQUEST",
  unauthenticated: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  "not-found": "NOT_FOUND",
  conflict: "CONFLICT",
  "payment-required": "PAYMENT_REQUIRED",
  "too-large": "PAYLOAD_TOO_LARGE",
  "unsupported-media": "UNSUPPORTED_MEDIA_TYPE",
  "rate-limited": "TOO_MANY_REQUESTS",
  "not-configured": "PRECONDITION_FAILED",
  unavailable: "SERVICE_UNAVAILABLE",
};

/** A domain error as the tRPC error the client receives (same message, the kind's code). */
export function toTRPCError(error: DomainError): TRPCError {
  return new TRPCError({ code: DOMAIN_ERROR_CODES[error.kind], message: error.message, cause: error });
}

const t = initTRPC.context<Context>().create({
  transformer,
  isDev: false,
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? z.flattenError(error.cause) : null;
    // A domain error thrown while a subscription streams never passes the middleware below.
    if (error.cause instanceof DomainError && error.code === "INTERNAL_SERVER_ERROR") {
      const mapped = toTRPCError(error.cause);
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[mapped.code],
        message: mapped.message,
        data: { ...shape.data, code: mapped.code, httpStatus: getHTTPStatusCodeFromError(mapped), zodError },
      };
    }
    const message = error.code === "INTERNAL_SERVER_ERROR" ? MESSAGES.internalError : shape.message;
    return { ...shape, message, data: { ...shape.data, zodError } };
  },
});

/** A subscription's event with its id, for resuming after lastEventId (render.events). */
export { tracked } from "@trpc/server";

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** A DomainError from a capability leaves as its tRPC error. */
function mapDomainError<R extends { ok: true } | { ok: false; error: TRPCError }>(result: R): R {
  if (!result.ok && result.error.cause instanceof DomainError) throw toTRPCError(result.error.cause);
  return result;
}

/** Every procedure: domain errors mapped. */
export const publicProcedure = t.procedure.use(async ({ next }) => mapDomainError(await next()));

/**
 * A signed-in user, in one middleware (the sign-in check and publicProcedure's mapping): tRPC copies
 * a call's options at each middleware, and a context passed to next() is copied key by key, which
 * every call paid for (decision 046). ctx already holds the user: next({}) passes it on as it is,
 * typed non-null because it was just checked.
 */
export const protectedProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: MESSAGES.notAuthenticated });
  return mapDomainError(await next<{ user: SessionUser }>({}));
});

/** Counts one request in the address's budget for the action (across instances); over budget answers "Too many requests". */
export async function enforceRateLimit(
  ctx: Pick<Context, "services" | "clientAddress">,
  action: RateLimitedAction,
  message: MessageName = "tooManyRequests",
): Promise<void> {
  if (!(await ctx.services.rateLimits[action].take(ctx.clientAddress))) {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: MESSAGES[message] });
  }
}

export const adminProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  if (!(await ctx.services.roles.isAdmin(ctx.user.id))) throw new TRPCError({ code: "FORBIDDEN", message: MESSAGES.adminRequired });
  return next();
});
