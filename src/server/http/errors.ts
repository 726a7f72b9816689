/** The one mapping of domain errors to HTTP statuses for the plain routes (tRPC has its own in trpc/init.ts). */
import type { Response } from "express";
import { DomainError, type DomainErrorKind } from "../errors";

export const HTTP_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "payment-required": 402,
  "too-large": 413,
  "unsupported-media": 415,
  "rate-limited": 429,
  "not-configured": 412,
  unavailable: 503,
};

/** Answers a domain error with its status and message; false for anything else (the caller rethrows). */
export function sendDomainError(res: Response, error: unknown): boolean {
  if (!(error instanceof DomainError)) return false;
  res.status(HTTP_STATUS[error.kind]).json({ error: error.message });
  return true;
}
