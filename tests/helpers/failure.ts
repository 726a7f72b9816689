import { TRPCClientError } from "@trpc/client";
import { expect } from "vitest";
import type { AppRouter } from "../../src/server/trpc/root";
/** A refused tRPC call as the tests read it: its message, and the error data the server formats. */
export interface CallFailure {
  message: string;
  data?: { code?: string; httpStatus?: number; zodError?: { fieldErrors: Record<string, string[]> } };
}

export const failure = (error: unknown) => error as CallFailure;

/** Awaits a tRPC call that must be refused, and reads the refusal: its message and tRPC code. */
export async function refusal(promise: Promise<unknown>): Promise<{ message: string; code: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<AppRouter>;
  return { message: e.message, code: (e.data as { code: string }).code };
}
