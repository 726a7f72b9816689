/**
 * Clients (issue 28, decision 072): the people a studio works for, kept per space (a team's, or a
 * personal space's). Spec section 5 ("defined but not seen in use"): name required, at most 100;
 * phone of digits, spaces, dashes, plus and parentheses, 10 to 20 characters; address at most 200;
 * the e-mail follows the spec's e-mail rules (valid, at most 255) but is optional here, as are phone,
 * address and notes. Notes: at most 2,000 characters (decision 072). The client's form and the
 * server's procedures validate with these same schemas; an empty optional field is stored as null.
 */
import { z } from "zod";
import { VALIDATION_MESSAGES } from "./auth-schemas";
import { FIELD_LIMITS } from "./constants";
import { MESSAGES } from "./messages";

export const CLIENT_LIMITS = {
  nameMax: 100,
  phoneMin: 10,
  phoneMax: 20,
  addressMax: 200,
  emailMax: FIELD_LIMITS.emailMax,
  /** About a page of text: access codes, preferences, the brief; decision 072 says why not more. */
  notesMax: 2_000,
  /** Clients one space may keep (a real studio stays far below it; scripts do not). */
  perSpaceMax: 5_000,
} as const;

/** Digits, spaces, dashes, plus and parentheses (spec section 5). */
export const PHONE_PATTERN = /^[0-9 +()-]+$/;

const anEmail = z.email();

export const clientNameSchema = z
  .string()
  .trim()
  .min(1, { error: MESSAGES.clientNameRequired })
  .max(CLIENT_LIMITS.nameMax, { error: MESSAGES.clientNameTooLong });

/** Empty (no phone), or 10 to 20 of digits, spaces, dashes, plus and parentheses. */
export const clientPhoneSchema = z
  .string()
  .trim()
  .refine((phone) => phone === "" || PHONE_PATTERN.test(phone), { error: MESSAGES.clientPhoneInvalid, abort: true })
  .refine((phone) => phone === "" || (phone.length >= CLIENT_LIMITS.phoneMin && phone.length <= CLIENT_LIMITS.phoneMax), {
    error: MESSAGES.clientPhoneLength,
  });

/** Empty (no e-mail), or a valid address of at most 255 characters (the spec's e-mail messages). */
export const clientEmailSchema = z
  .string()
  .trim()
  .max(CLIENT_LIMITS.emailMax, { error: VALIDATION_MESSAGES.emailTooLong, abort: true })
  .refine((email) => email === "" || anEmail.safeParse(email).success, { error: VALIDATION_MESSAGES.emailInvalid });

export const clientAddressSchema = z.string().trim().max(CLIENT_LIMITS.addressMax, { error: MESSAGES.clientAddressTooLong });

export const clientNotesSchema = z.string().trim().max(CLIENT_LIMITS.notesMax, { error: MESSAGES.clientNotesTooLong });

/** An optional text field: absent, null or empty is "none" (null). */
const optional = <T extends z.ZodType<string, string>>(schema: T) => schema.nullish().transform((value) => (value ? value : null));

/** A client as the form sends it (create, and edit: every field, an empty one clears it). */
export const clientInputSchema = z.object({
  name: clientNameSchema,
  email: optional(clientEmailSchema),
  phone: optional(clientPhoneSchema),
  address: optional(clientAddressSchema),
  notes: optional(clientNotesSchema),
});
export type ClientInput = z.output<typeof clientInputSchema>;
export type ClientFormInput = z.input<typeof clientInputSchema>;
export const CLIENT_FIELDS = ["name", "email", "phone", "address", "notes"] as const;
export type ClientField = (typeof CLIENT_FIELDS)[number];

/** A client with its details, as Owner and Admin (and a personal space's keeper) see it. */
export interface ClientDetails {
  id: string;
  teamId: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  notes: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What a Member may know of a project's client: its name only (spec section 6). */
export interface ClientName {
  id: string;
  name: string;
}
