/** The credit package form of /admin → Credits, checked on both sides (kept apart from billing.ts: no zod for the pricing constants). */
import { z } from "zod";
import { MESSAGES } from "./messages";

export const CURRENCIES = ["usd", "eur"] as const;
export const LICENCES = ["personal", "commercial"] as const;

/** What an admin sets for a package (/admin → Credits). Stripe takes at least 0.50 in either currency. */
export const creditPackageInputSchema = z.object({
  name: z.string().trim().min(1, { error: MESSAGES.packageNameRequired }).max(40, { error: MESSAGES.packageNameTooLong }),
  credits: z
    .number({ error: MESSAGES.packageCreditsInvalid })
    .int({ error: MESSAGES.packageCreditsInvalid })
    .min(1, { error: MESSAGES.packageCreditsInvalid })
    .max(100_000, { error: MESSAGES.packageCreditsInvalid }),
  priceCents: z
    .number({ error: MESSAGES.packagePriceInvalid })
    .int({ error: MESSAGES.packagePriceInvalid })
    .min(50, { error: MESSAGES.packagePriceInvalid })
    .max(10_000_000, { error: MESSAGES.packagePriceInvalid }),
  currency: z.enum(CURRENCIES),
  licence: z.enum(LICENCES),
});
export type CreditPackageInput = z.infer<typeof creditPackageInputSchema>;
