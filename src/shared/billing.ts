/**
 * Credit packages (spec sections 6 and 9: "starter" is the spec's; prices and the others are
 * ours) and their licences. Credits never expire; a purchase may be refunded within 30 days.
 */
export type Licence = "personal" | "commercial";

export interface CreditPackage {
  id: string;
  /** The admin's name for it; null for the packages the product ships with (named by the interface, translated). */
  name?: string | null;
  credits: number;
  /** In the currency's smallest unit (cents). */
  priceCents: number;
  currency: "usd" | "eur";
  licence: Licence;
}

/** The packages a new installation starts with (migration 0017 seeds them; an admin changes them in /admin). */
export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: "starter", credits: 25, priceCents: 900, currency: "usd", licence: "personal" },
  { id: "pro", credits: 100, priceCents: 2900, currency: "usd", licence: "commercial" },
  { id: "studio", credits: 500, priceCents: 9900, currency: "usd", licence: "commercial" },
];

/** The longest reason an admin may give for a credit adjustment (a user's or a team's). */
export const CREDIT_ADJUSTMENT_REASON_MAX = 200;
