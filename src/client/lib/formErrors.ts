/**
 * Field errors of the account forms, from the shared zod schemas on the client or from the
 * server's flattened zod errors (error.data.zodError). Messages stay the spec's English texts
 * here; components translate them with translateMessage.
 */
import type { ZodError } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

/** The first problem of the form, for forms that show one error at a time (sign-in, spec §5). */
export function firstFieldError(error: ZodError): { field: string; message: string } | null {
  const issue = error.issues[0];
  if (!issue) return null;
  return { field: String(issue.path[0] ?? ""), message: issue.message };
}

/** The first message of each field, for forms that show errors per field (sign-up, spec §5). */
export function fieldErrorsOf(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The server's per-field messages of a tRPC validation error (first message per field), or null
 * when the error is not a validation error.
 */
export function serverFieldErrors(error: unknown): FieldErrors | null {
  const data = error && typeof error === "object" && "data" in error ? (error as { data: unknown }).data : null;
  const zodError = data && typeof data === "object" && "zodError" in data ? (data as { zodError: unknown }).zodError : null;
  if (!zodError || typeof zodError !== "object" || !("fieldErrors" in zodError)) return null;
  const fieldErrors = (zodError as { fieldErrors: Record<string, unknown> }).fieldErrors;
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(fieldErrors ?? {})) {
    if (Array.isArray(messages) && typeof messages[0] === "string") errors[field] = messages[0];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
