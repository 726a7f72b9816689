/**
 * The one initTRPC of the server and the procedures every router builds on:
 * - publicProcedure: anyone.
 * - protectedProcedure: a signed-in user; narrows ctx.user to non-null.
 * - adminProcedure: a signed-in user holding the "admin" role, read from user_roles on every call.
 * Validation errors carry zod's flattened errors in error.data.zodError so forms show field messages;
 * unexpected errors are logged and answered with a generic message, never a stack trace.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError, z } from "zod";
import { MESSAGES } from "../../shared/messages";
import type { Context } from "./context";

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  isDev: false,
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? z.flattenError(error.cause) : null;
    const message = error.code === "INTERNAL_SERVER_ERROR" ? MESSAGES.internalError : shape.message;
    return { ...shape, message, data: { ...shape.data, zodError } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const publicProcedure = t.procedure;

export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: MESSAGES.notAuthenticated });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export const ADMIN_ROLE = "admin";

export const adminProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const role = await ctx.db
    .selectFrom("user_roles")
    .select("role")
    .where("user_id", "=", ctx.user.id)
    .where("role", "=", ADMIN_ROLE)
    .executeTakeFirst();
  if (!role) throw new TRPCError({ code: "FORBIDDEN", message: MESSAGES.adminRequired });
  return next();
});
