/** The account procedures' results as the server declares them (inferred from the router). */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/trpc/root";

type AuthOutputs = inferRouterOutputs<AppRouter>["auth"];

export type SignInResult = AuthOutputs["signIn"];
export type Lockout = Extract<SignInResult, { status: "locked" }>["lockout"];
