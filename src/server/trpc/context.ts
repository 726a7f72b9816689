import type { Request, Response } from "express";
import type { AppDeps } from "../deps";

/** The signed-in user as procedures see it. Filled from the session cookie by the accounts layer. */
export interface SessionUser {
  id: string;
  email: string;
}

export interface Context extends AppDeps {
  user: SessionUser | null;
  /** Present for HTTP calls; absent for createCaller in tests and scripts. */
  req?: Request;
  res?: Response;
}

/** The context without HTTP: used by tests (createCaller) and by the per-request factory. */
export function createContextInner(deps: AppDeps, user: SessionUser | null = null): Context {
  return { ...deps, user };
}
