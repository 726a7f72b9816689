/**
 * The account forms' validation (spec section 5), word for word. The client's forms and the
 * server's procedures validate with these same schemas.
 */
import { z } from "zod";
import { FIELD_LIMITS } from "./constants";

export const VALIDATION_MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  emailTooLong: "Email must be less than 255 characters",
  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 8 characters",
  passwordTooLong: "Password must be less than 128 characters",
  passwordNeedsUppercase: "Password must contain at least one uppercase letter",
  passwordNeedsLowercase: "Password must contain at least one lowercase letter",
  passwordNeedsNumber: "Password must contain at least one number",
  nameTooShort: "Name must be at least 2 characters",
  nameTooLong: "Name must be less than 100 characters",
  nameInvalidCharacters: "Name can only contain letters, spaces, hyphens, and apostrophes",
  codeRequired: "Please enter a verification code",
  codeInvalid: "Invalid verification code",
} as const;

export type ValidationMessage = (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES];

const M = VALIDATION_MESSAGES;

export const emailSchema = z
  .string({ error: M.emailRequired })
  .trim()
  .min(1, { error: M.emailRequired })
  .max(FIELD_LIMITS.emailMax, { error: M.emailTooLong })
  .pipe(z.email({ error: M.emailInvalid }));

/** Sign-in only requires a password; the account's own rules were checked when it was set. */
export const signInPasswordSchema = z
  .string({ error: M.passwordRequired })
  .min(1, { error: M.passwordRequired })
  // Bounds argon2's work per request; no valid password is longer.
  .max(FIELD_LIMITS.passwordMax, { error: M.passwordTooLong });

export const newPasswordSchema = z
  .string({ error: M.passwordRequired })
  .min(FIELD_LIMITS.passwordMin, { error: M.passwordTooShort })
  .max(FIELD_LIMITS.passwordMax, { error: M.passwordTooLong })
  .regex(/[A-Z]/, { error: M.passwordNeedsUppercase })
  .regex(/[a-z]/, { error: M.passwordNeedsLowercase })
  .regex(/[0-9]/, { error: M.passwordNeedsNumber });

/** Letters of any script (with their combining marks), spaces, hyphens and apostrophes. */
export const FULL_NAME_PATTERN = /^[\p{L}\p{M}\s'’-]+$/u;

export const fullNameSchema = z
  .string()
  .trim()
  .min(FIELD_LIMITS.fullNameMin, { error: M.nameTooShort })
  .max(FIELD_LIMITS.fullNameMax, { error: M.nameTooLong })
  .regex(FULL_NAME_PATTERN, { error: M.nameInvalidCharacters });

export const signInSchema = z.object({
  email: emailSchema,
  password: signInPasswordSchema,
  rememberMe: z.boolean().default(false),
});
export type SignInInput = z.input<typeof signInSchema>;

export const signUpSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  fullName: fullNameSchema,
});
export type SignUpInput = z.input<typeof signUpSchema>;

export const resetRequestSchema = z.object({ resetEmail: emailSchema });

export const emailOnlySchema = z.object({ email: emailSchema });

/** Two-factor code: 6 digits from an authenticator, or an 8-character backup code (uppercased). */
export const twoFactorCodeSchema = z
  .object({
    code: z.string().trim(),
    backup: z.boolean().default(false),
  })
  .transform((value) => ({ ...value, code: value.backup ? value.code.toUpperCase() : value.code }))
  .superRefine((value, ctx) => {
    if (value.code === "") {
      ctx.addIssue({ code: "custom", path: ["code"], message: M.codeRequired });
      return;
    }
    const valid = value.backup
      ? value.code.length === FIELD_LIMITS.backupCodeLength && /^[A-Z0-9]+$/.test(value.code)
      : value.code.length === FIELD_LIMITS.totpCodeLength && /^\d+$/.test(value.code);
    if (!valid) ctx.addIssue({ code: "custom", path: ["code"], message: M.codeInvalid });
  });

/** The five criteria of the strength meter (spec section 5). */
export const PASSWORD_CRITERIA = [
  { id: "length", test: (password: string) => password.length >= FIELD_LIMITS.passwordMin },
  { id: "lowercase", test: (password: string) => /[a-z]/.test(password) },
  { id: "uppercase", test: (password: string) => /[A-Z]/.test(password) },
  { id: "number", test: (password: string) => /[0-9]/.test(password) },
  { id: "special", test: (password: string) => /[^A-Za-z0-9]/.test(password) },
] as const;

export type PasswordStrength = "weak" | "medium" | "strong";

/** Weak below 3 criteria met, Medium at 3, Strong at 4 or more. */
export function passwordStrength(password: string): { met: number; strength: PasswordStrength } {
  const met = PASSWORD_CRITERIA.filter((criterion) => criterion.test(password)).length;
  return { met, strength: met < 3 ? "weak" : met === 3 ? "medium" : "strong" };
}
