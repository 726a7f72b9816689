/**
 * Portfolio pages (decision 105): a user's public page at /p/<handle>, with the name, introduction,
 * links and contact they chose, and their published work: what they published under their own name,
 * and, when the page presents one of their teams, what that studio published under its name. Work
 * published without a name never appears here (a portfolio would give the name away), and a hidden
 * or unpublished picture is gone from it at once, as from every public page.
 */
import {
  PORTFOLIO,
  portfolioHandleSchema,
  type MyPortfolio,
  type PortfolioLink,
  type PortfolioSettings,
  type PortfolioView,
} from "../../shared/portfolio";
import { roleMay } from "../../shared/teams";
import { isUniqueViolation } from "../db/errors";
import type { Portfolio } from "../db/schema";
import { DomainError } from "../errors";
import type { CommunityContext } from "./context";
import { viewsOf } from "./feed";
import { presentedStudio } from "./portfolio-studio";
import { withdrawnPublishers } from "./publications";

const portfolioNotFound = () => new DomainError("not-found", "portfolioNotFound");

function settingsOf(row: Portfolio): PortfolioSettings {
  return {
    handle: row.handle,
    displayName: row.display_name,
    headline: row.headline,
    links: JSON.parse(row.links) as PortfolioLink[],
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    brandTeamId: row.brand_team_id,
    visible: row.visible === 1,
  };
}

/** The teams the user may present: those where they may publish work. */
async function presentableTeams(deps: CommunityContext, userId: string) {
  return (await deps.spaces.teamsOf(userId)).filter((team) => roleMay(team.role, "publishWork")).map(({ id, name }) => ({ id, name }));
}

/** A handle made from a name: "Ana María Lima" → "ana-maria-lima" (accents dropped), within the limits. */
export function handleFromName(name: string): string {
  const words = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, PORTFOLIO.handleMax - 4)
    .replace(/-+$/, "");
  return words.length >= PORTFOLIO.handleMin ? words : "studio";
}

async function handleTaken(deps: CommunityContext, handle: string, exceptUserId: string): Promise<boolean> {
  const row = await deps.db.selectFrom("portfolios").select("user_id").where("handle", "=", handle).executeTakeFirst();
  return row !== undefined && row.user_id !== exceptUserId;
}

/** The owner's settings, the teams they may present, and a free handle to start from. */
export async function myPortfolio(deps: CommunityContext, userId: string): Promise<MyPortfolio> {
  const row = await deps.db.selectFrom("portfolios").selectAll().where("user_id", "=", userId).executeTakeFirst();
  const teams = await presentableTeams(deps, userId);
  if (row) return { settings: settingsOf(row), teams, suggestedHandle: row.handle, suggestedName: row.display_name };
  const suggestedName = ((await deps.people.people([userId])).get(userId)?.name ?? "").slice(0, PORTFOLIO.displayNameMax);
  const base = handleFromName(suggestedName);
  let suggestedHandle = base;
  for (let n = 2; (await handleTaken(deps, suggestedHandle, userId)) && n < 1000; n += 1) suggestedHandle = `${base}-${n}`;
  return { settings: null, teams, suggestedHandle, suggestedName };
}

/** Creates or changes the user's portfolio (the schema checked the fields; here: the handle is free, the team theirs). */
export async function savePortfolio(deps: CommunityContext, userId: string, input: PortfolioSettings): Promise<PortfolioSettings> {
  if (input.brandTeamId !== null && !(await presentableTeams(deps, userId)).some((team) => team.id === input.brandTeamId)) {
    throw new DomainError("forbidden", "portfolioStudioNotAllowed");
  }
  if (await handleTaken(deps, input.handle, userId)) throw new DomainError("conflict", "portfolioHandleTaken");
  const now = deps.clock.now();
  const values = {
    handle: input.handle,
    display_name: input.displayName,
    headline: input.headline,
    links: JSON.stringify(input.links),
    contact_email: input.contactEmail,
    contact_phone: input.contactPhone,
    brand_team_id: input.brandTeamId,
    visible: input.visible ? 1 : 0,
    updated_at: now,
  };
  try {
    await deps.db
      .insertInto("portfolios")
      .values({ user_id: userId, created_at: now, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
      .execute();
  } catch (error) {
    // Taken meanwhile by another request.
    if (isUniqueViolation(error)) throw new DomainError("conflict", "portfolioHandleTaken");
    throw error;
  }
  return input;
}

/** Removes the page (its address becomes free). */
export async function removePortfolio(deps: CommunityContext, userId: string): Promise<void> {
  await deps.db.deleteFrom("portfolios").where("user_id", "=", userId).execute();
}

/** A visible portfolio as visitors see it; not found for an unknown, malformed or hidden one. */
export async function portfolioView(deps: CommunityContext, handle: string): Promise<PortfolioView> {
  const parsed = portfolioHandleSchema.safeParse(handle);
  if (!parsed.success) throw portfolioNotFound();
  const row = await deps.db
    .selectFrom("portfolios")
    .selectAll()
    .where("handle", "=", parsed.data)
    .where("visible", "=", 1)
    .executeTakeFirst();
  const withdrawn = await withdrawnPublishers(deps);
  if (!row || withdrawn.includes(row.user_id)) throw portfolioNotFound();
  const studio = await presentedStudio(deps, row);
  const rows = await deps.db
    .selectFrom("publications")
    .selectAll()
    .where("hidden_at", "is", null)
    .where("user_id", "not in", withdrawn)
    .where("show_name", "=", 1)
    .where((eb) =>
      eb.or([eb.and([eb("team_id", "is", null), eb("user_id", "=", row.user_id)]), ...(studio ? [eb("team_id", "=", studio.id)] : [])]),
    )
    .orderBy("published_at", "desc")
    .orderBy("id", "desc")
    .limit(PORTFOLIO.publicationsMax)
    .execute();
  const settings = settingsOf(row);
  return {
    handle: settings.handle,
    displayName: settings.displayName,
    headline: settings.headline,
    links: settings.links,
    contactEmail: settings.contactEmail,
    contactPhone: settings.contactPhone,
    studio,
    publications: await viewsOf(deps, rows),
  };
}
