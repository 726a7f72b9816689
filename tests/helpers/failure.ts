/** A refused tRPC call as the tests read it: its message, and the error data the server formats. */
export interface CallFailure {
  message: string;
  data?: { code?: string; httpStatus?: number; zodError?: { fieldErrors: Record<string, string[]> } };
}

export const failure = (error: unknown) => error as CallFailure;
