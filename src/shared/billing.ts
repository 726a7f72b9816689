/**
 * Credit packages (spec sections 6 and 9: "starter" is the spec's; prices and the others are
 * ours) and their licences. Credits never expire; a purchase may be refunded within 30 days.
 */
export type Licence = "personal" | "commercial";

export interface CreditPackage {
  id: string;
  credits: number;
  /** In the currency's smallest unit (cents). */
  priceCents: number;
  currency: "usd" | "eur";
  licence: Licence;
}

export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: "starter", credits: 25, priceCents: 900, currency: "usd", licence: "personal" },
  { id: "pro", credits: 100, priceCents: 2900, currency: "usd", licence: "commercial" },
  { id: "studio", credits: 500, priceCents: 9900, currency: "usd", licence: "commercial" },
];

export type CreditPackageId = (typeof CREDIT_PACKAGES)[number]["id"];

export function findCreditPackage(id: string): CreditPackage | undefined {
  return CREDIT_PACKAGES.find((pack) => pack.id === id);
}
