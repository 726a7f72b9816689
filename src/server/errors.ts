/**
 * Domain errors: what services and the render module throw for expected refusals. They name a
 * kind (what went wrong, in the domain's words) and a message of src/shared/messages.ts (what the
 * user reads, translated by the client). They know nothing of tRPC or HTTP: trpc/init.ts and
 * http/errors.ts each map them once.
 */
import { keyedMessage, MESSAGES, type MessageName, type MessageParams } from "../shared/messages";

export type DomainErrorKind =
  | "invalid" // the request is malformed or breaks a rule
  | "unauthenticated" // a signed-in user is needed
  | "forbidden" // signed in, but not allowed
  | "not-found" // no such thing, or not the caller's (never says which)
  | "conflict" // the thing is not in a state that allows it
  | "payment-required" // not enough credits
  | "too-large" // the request body or file is over its limit
  | "unsupported-media" // a file of a kind we do not take
  | "rate-limited" // too many requests from this address
  | "not-configured" // the installation lacks a setting this needs
  | "unavailable"; // an outside service failed

export class DomainError extends Error {
  override name = "DomainError";

  constructor(
    readonly kind: DomainErrorKind,
    readonly messageName: MessageName,
    options?: { cause?: unknown; params?: MessageParams },
  ) {
    // With parameters ({{cap}}, ...) the message travels keyed, and the client translates it with them.
    super(options?.params ? keyedMessage(messageName, options.params) : MESSAGES[messageName], options);
  }
}

/** The refusal for anything missing or not the caller's. */
export const notFound = () => new DomainError("not-found", "notFound");
