import type { Request } from "express";
import type { SessionRequestInfo } from "../auth/sessions";

/** Who is asking: recorded with sessions and failed sign-ins. */
export function requestInfo(req: Request | undefined): SessionRequestInfo {
  return { userAgent: req?.get("user-agent") ?? null, ipAddress: req?.ip ?? null };
}
