/**
 * What the public pages read (decision 102): /gallery's newest publications, one publication, and
 * /community's feed (newest or most liked, by style and room type, keyset pages), with the caller's
 * likes, saves and follows. Only published, unhidden publications are ever read here.
 */
import { sql, type ExpressionBuilder, type SqlBool, type Expression } from "kysely";
import {
  COMMUNITY,
  publicationFile,
  type feedInputSchema,
  type CommunityAuthor,
  type FeedCursor,
  type FeedItem,
  type PublicationLayout,
  type PublicationView,
} from "../../shared/community";
import { isBuiltInStyle } from "../../shared/custom-styles";
import type { z } from "zod";
import type { Database, Publication } from "../db/schema";
import { DomainError, notFound } from "../errors";
import type { CommunityContext } from "./context";
import { portfoliosOfAuthors } from "./portfolio-studio";
import { visiblePublication, withdrawnPublishers } from "./publications";

type Eb = ExpressionBuilder<Database, "publications">;

/** The authors the publications show (only those whose publisher chose to show a name). */
async function authorsOf(deps: CommunityContext, rows: readonly Publication[]): Promise<Map<string, CommunityAuthor>> {
  const shown = rows.filter((row) => row.show_name === 1);
  const [people, teams] = await Promise.all([
    deps.people.people(shown.filter((row) => row.team_id === null).map((row) => row.user_id)),
    deps.spaces.names(shown.filter((row) => row.team_id !== null).map((row) => row.team_id!)),
  ]);
  const authors = new Map<string, CommunityAuthor>();
  for (const row of shown) {
    if (row.team_id !== null) {
      const name = teams.get(row.team_id);
      if (name !== undefined) authors.set(row.id, { kind: "team", id: row.team_id, name, portfolio: null });
    } else {
      const person = people.get(row.user_id);
      // A name the publisher gave in their profile; never their e-mail address.
      if (person) authors.set(row.id, { kind: "user", id: row.user_id, name: person.name, portfolio: null });
    }
  }
  return withPortfolios(deps, authors);
}

/** The authors with the handles of their portfolio pages. */
async function withPortfolios<K>(deps: CommunityContext, authors: Map<K, CommunityAuthor>): Promise<Map<K, CommunityAuthor>> {
  const handles = await portfoliosOfAuthors(deps, [...authors.values()]);
  for (const author of authors.values()) author.portfolio = handles.get(`${author.kind}:${author.id}`) ?? null;
  return authors;
}

function viewOf(row: Publication, author: CommunityAuthor | null): PublicationView {
  const layout = row.layout as PublicationLayout;
  return {
    id: row.id,
    title: row.title,
    layout,
    style: row.style,
    styleName: row.style_name,
    builtInStyle: isBuiltInStyle(row.style),
    roomType: row.room_type,
    before: layout === "before-after" ? publicationFile(row.id, "before") : null,
    after: publicationFile(row.id, "after"),
    author,
    likes: Number(row.like_count),
    publishedAt: Number(row.published_at),
  };
}

export async function viewsOf(deps: CommunityContext, rows: readonly Publication[]): Promise<PublicationView[]> {
  const authors = await authorsOf(deps, rows);
  return rows.map((row) => viewOf(row, authors.get(row.id) ?? null));
}

/** /gallery: the newest publications, for anyone. */
export async function galleryPublications(deps: CommunityContext): Promise<PublicationView[]> {
  const rows = await deps.db
    .selectFrom("publications")
    .selectAll()
    .where("hidden_at", "is", null)
    .where("user_id", "not in", await withdrawnPublishers(deps))
    .orderBy("published_at", "desc")
    .orderBy("id", "desc")
    .limit(COMMUNITY.galleryMax)
    .execute();
  return viewsOf(deps, rows);
}

/**
 * What the user published (the social hub's share links), newest first, hidden ones included and
 * marked: their pictures answer 404 like every other public address of theirs.
 */
export async function myPublications(deps: CommunityContext, userId: string): Promise<Array<PublicationView & { hidden: boolean }>> {
  const rows = await deps.db
    .selectFrom("publications")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("published_at", "desc")
    .orderBy("id", "desc")
    .limit(COMMUNITY.mineMax)
    .execute();
  const views = await viewsOf(deps, rows);
  return views.map((view, index) => ({ ...view, hidden: rows[index]!.hidden_at !== null }));
}

/** One publication, for anyone (not found once unpublished or hidden). */
export async function publicationView(deps: CommunityContext, id: string): Promise<PublicationView> {
  return (await viewsOf(deps, [await visiblePublication(deps, id)]))[0]!;
}

const after = (cursor: FeedCursor, sort: "newest" | "liked") => (eb: Eb) => {
  const newer: Expression<SqlBool> = eb.or([
    eb("publications.published_at", "<", cursor.at),
    eb.and([eb("publications.published_at", "=", cursor.at), eb("publications.id", "<", cursor.id)]),
  ]);
  if (sort === "newest") return newer;
  return eb.or([eb("publications.like_count", "<", cursor.likes), eb.and([eb("publications.like_count", "=", cursor.likes), newer])]);
};

/** /community's feed: a page of publications and where the next one starts (null: the last page). */
export async function feed(
  deps: CommunityContext,
  userId: string,
  input: z.output<typeof feedInputSchema>,
): Promise<{ items: FeedItem[]; next: FeedCursor | null }> {
  let query = deps.db
    .selectFrom("publications")
    .selectAll("publications")
    .where("publications.hidden_at", "is", null)
    .where("publications.user_id", "not in", await withdrawnPublishers(deps));
  if (input.style) {
    const style = input.style;
    query = query.where((eb) => eb.or([eb("publications.style", "=", style), eb("publications.style_name", "=", style)]));
  }
  if (input.roomType) query = query.where("publications.room_type", "=", input.roomType);
  if (input.view === "saved") {
    query = query.where("publications.id", "in", (eb) =>
      eb.selectFrom("publication_saves").select("publication_saves.publication_id").where("publication_saves.user_id", "=", userId),
    );
  }
  if (input.view === "following") {
    const followed = (kind: "user" | "team") => (eb: ExpressionBuilder<Database, "publications">) =>
      eb
        .selectFrom("community_follows")
        .select("community_follows.target_id")
        .where("community_follows.follower_id", "=", userId)
        .where("community_follows.target_kind", "=", kind);
    query = query.where((eb) =>
      eb.and([
        eb("publications.show_name", "=", 1),
        eb.or([
          eb.and([eb("publications.team_id", "is", null), eb("publications.user_id", "in", followed("user")(eb))]),
          eb("publications.team_id", "in", followed("team")(eb)),
        ]),
      ]),
    );
  }
  if (input.cursor) query = query.where(after(input.cursor, input.sort));
  if (input.sort === "liked") query = query.orderBy("publications.like_count", "desc");
  const rows = await query
    .orderBy("publications.published_at", "desc")
    .orderBy("publications.id", "desc")
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const next = rows.length > input.limit && last ? { likes: Number(last.like_count), at: Number(last.published_at), id: last.id } : null;
  return { items: await feedItems(deps, userId, page), next };
}

async function feedItems(deps: CommunityContext, userId: string, rows: readonly Publication[]): Promise<FeedItem[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [views, liked, saved, follows] = await Promise.all([
    viewsOf(deps, rows),
    deps.db
      .selectFrom("publication_likes")
      .select("publication_id")
      .where("user_id", "=", userId)
      .where("publication_id", "in", ids)
      .execute(),
    deps.db
      .selectFrom("publication_saves")
      .select("publication_id")
      .where("user_id", "=", userId)
      .where("publication_id", "in", ids)
      .execute(),
    deps.db.selectFrom("community_follows").select(["target_kind", "target_id"]).where("follower_id", "=", userId).execute(),
  ]);
  const likedIds = new Set(liked.map((row) => row.publication_id));
  const savedIds = new Set(saved.map((row) => row.publication_id));
  const followed = new Set(follows.map((row) => `${row.target_kind}:${row.target_id}`));
  return views.map((view, index) => ({
    ...view,
    liked: likedIds.has(view.id),
    saved: savedIds.has(view.id),
    followingAuthor: view.author !== null && followed.has(`${view.author.kind}:${view.author.id}`),
    mine: rows[index]!.user_id === userId,
  }));
}

/** Likes or saves (idempotent), and what the publication counts now. */
export async function react(
  deps: CommunityContext,
  userId: string,
  id: string,
  what: "like" | "save",
  on: boolean,
): Promise<{ on: boolean; likes: number }> {
  const publication = await visiblePublication(deps, id);
  const table = what === "like" ? "publication_likes" : "publication_saves";
  return deps.db.transaction().execute(async (trx) => {
    let change = 0;
    if (on) {
      const inserted = await trx
        .insertInto(table)
        .values({ publication_id: publication.id, user_id: userId, created_at: deps.clock.now() })
        .onConflict((oc) => oc.columns(["publication_id", "user_id"]).doNothing())
        .executeTakeFirst();
      change = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? 1 : 0;
    } else {
      const deleted = await trx
        .deleteFrom(table)
        .where("publication_id", "=", publication.id)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      change = Number(deleted.numDeletedRows) > 0 ? -1 : 0;
    }
    if (what === "like" && change !== 0) {
      await trx
        .updateTable("publications")
        .set({ like_count: sql<number>`like_count + ${change}` })
        .where("id", "=", publication.id)
        .execute();
    }
    const { like_count } = await trx
      .selectFrom("publications")
      .select("like_count")
      .where("id", "=", publication.id)
      .executeTakeFirstOrThrow();
    return { on, likes: Number(like_count) };
  });
}

/**
 * Follows (or stops following) a designer or a studio. Only an author the community shows can be
 * followed: one with a published, unhidden publication under their name (else not found).
 */
export async function follow(deps: CommunityContext, userId: string, target: { kind: "user" | "team"; id: string }, on: boolean) {
  if (!on) {
    await deps.db
      .deleteFrom("community_follows")
      .where("follower_id", "=", userId)
      .where("target_kind", "=", target.kind)
      .where("target_id", "=", target.id)
      .execute();
    return { following: false };
  }
  if (target.kind === "user" && target.id === userId) throw new DomainError("invalid", "followSelf");
  const shown = await deps.db
    .selectFrom("publications")
    .select("id")
    .where("hidden_at", "is", null)
    .where("user_id", "not in", await withdrawnPublishers(deps))
    .where("show_name", "=", 1)
    .where((eb) =>
      target.kind === "team" ? eb("team_id", "=", target.id) : eb.and([eb("team_id", "is", null), eb("user_id", "=", target.id)]),
    )
    .limit(1)
    .executeTakeFirst();
  if (!shown) throw notFound();
  await deps.db
    .insertInto("community_follows")
    .values({ follower_id: userId, target_kind: target.kind, target_id: target.id, created_at: deps.clock.now() })
    .onConflict((oc) => oc.columns(["follower_id", "target_kind", "target_id"]).doNothing())
    .execute();
  return { following: true };
}

/** The designers and studios the user follows, with the names the community shows. */
export async function following(deps: CommunityContext, userId: string): Promise<CommunityAuthor[]> {
  const rows = await deps.db
    .selectFrom("community_follows")
    .select(["target_kind", "target_id"])
    .where("follower_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  const [people, teams] = await Promise.all([
    deps.people.people(rows.filter((row) => row.target_kind === "user").map((row) => row.target_id)),
    deps.spaces.names(rows.filter((row) => row.target_kind === "team").map((row) => row.target_id)),
  ]);
  const authors = new Map(
    rows.flatMap((row): Array<[string, CommunityAuthor]> => {
      const name = row.target_kind === "team" ? teams.get(row.target_id) : people.get(row.target_id)?.name;
      return name === undefined
        ? []
        : [[`${row.target_kind}:${row.target_id}`, { kind: row.target_kind, id: row.target_id, name, portfolio: null }]];
    }),
  );
  return [...(await withPortfolios(deps, authors)).values()];
}
