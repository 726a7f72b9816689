/**
 * Portfolio pages of the social hub (issue 32, decision 105): a user's public page at /p/<handle>
 * with their published work, their studio's brand when they present as one of their teams, the
 * links they chose and how to contact them. Limits and the form's schema, read by the server
 * (src/server/community/portfolio.ts) and the client alike.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";
import type { PublicationView } from "./community";

export const PORTFOLIO = {
  handleMin: 3,
  handleMax: 30,
  displayNameMax: 80,
  headlineMax: 300,
  linksMax: 5,
  linkLabelMax: 40,
  linkUrlMax: 300,
  emailMax: 254,
  phoneMax: 40,
  /** Publications one portfolio page shows (newest first). */
  publicationsMax: 60,
} as const;

/** Where a portfolio lives. */
export const portfolioPath = (handle: string) => `/p/${handle}`;

/** Lower-case letters, digits and single hyphens inside: what reads well in an address. */
const HANDLE_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const portfolioHandleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(PORTFOLIO.handleMin, { error: MESSAGES.portfolioHandleInvalid })
  .max(PORTFOLIO.handleMax, { error: MESSAGES.portfolioHandleInvalid })
  .regex(HANDLE_PATTERN, { error: MESSAGES.portfolioHandleInvalid });

const linkSchema = z.object({
  label: z
    .string()
    .trim()
    .min(1, { error: MESSAGES.portfolioLinkLabelInvalid })
    .max(PORTFOLIO.linkLabelMax, { error: MESSAGES.portfolioLinkLabelInvalid }),
  url: z
    .string()
    .trim()
    .max(PORTFOLIO.linkUrlMax, { error: MESSAGES.portfolioLinkUrlInvalid })
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
        } catch {
          return false;
        }
      },
      { error: MESSAGES.portfolioLinkUrlInvalid },
    ),
});
export type PortfolioLink = z.infer<typeof linkSchema>;

export const portfolioInputSchema = z.object({
  handle: portfolioHandleSchema,
  displayName: z
    .string()
    .trim()
    .min(1, { error: MESSAGES.portfolioNameRequired })
    .max(PORTFOLIO.displayNameMax, { error: MESSAGES.portfolioNameTooLong }),
  headline: z.string().trim().max(PORTFOLIO.headlineMax, { error: MESSAGES.portfolioHeadlineTooLong }).default(""),
  links: z.array(linkSchema).max(PORTFOLIO.linksMax, { error: MESSAGES.portfolioTooManyLinks }).default([]),
  contactEmail: z
    .string()
    .trim()
    .max(PORTFOLIO.emailMax, { error: MESSAGES.portfolioEmailInvalid })
    .pipe(z.union([z.literal(""), z.email({ error: MESSAGES.portfolioEmailInvalid })]))
    .default(""),
  contactPhone: z
    .string()
    .trim()
    .max(PORTFOLIO.phoneMax, { error: MESSAGES.portfolioPhoneInvalid })
    .regex(/^$|^\+?[0-9 ().-]{5,}$/, { error: MESSAGES.portfolioPhoneInvalid })
    .default(""),
  /** Present as this team (its name heads the page and its published work is shown); null: as oneself. */
  brandTeamId: z.string().min(1).max(64).nullable().default(null),
  /** Whether the page is public; a hidden page answers 404 and keeps its settings. */
  visible: z.boolean().default(true),
});
export type PortfolioInput = z.input<typeof portfolioInputSchema>;
export type PortfolioSettings = z.output<typeof portfolioInputSchema>;

/** A portfolio page as visitors see it. */
export interface PortfolioView {
  handle: string;
  displayName: string;
  headline: string;
  links: PortfolioLink[];
  contactEmail: string;
  contactPhone: string;
  /** The studio the page presents, when its owner chose one of their teams. */
  studio: { id: string; name: string } | null;
  publications: PublicationView[];
}

/** The owner's side: their settings (null before the first save), and the teams they may present as. */
export interface MyPortfolio {
  settings: PortfolioSettings | null;
  teams: Array<{ id: string; name: string }>;
  /** A free handle to start from (from the user's name), when there are no settings yet. */
  suggestedHandle: string;
  /** The name from the user's profile, to start from. */
  suggestedName: string;
}
