/**
 * Reports and what admins do about them (decision 102): a signed-in user reports a publication (one
 * open report per user and publication); an admin hides or unhides a publication, dismisses a report,
 * and stops an account from publishing (or allows it again). Each admin action keeps who did it
 * (hidden_by, resolved_by, blocked_by). The admin role is checked by the router (adminProcedure).
 */
import type { z } from "zod";
import { publicationFile, type ReportReason, type reportInputSchema } from "../../shared/community";
import { generateSecureRandomString } from "../auth/tokens";
import { isUniqueViolation } from "../db/errors";
import { DomainError, notFound } from "../errors";
import type { CommunityContext } from "./context";
import { publicationNotFound, visiblePublication } from "./publications";

const alreadyReported = () => new DomainError("conflict", "alreadyReported");

export async function report(deps: CommunityContext, userId: string, input: z.output<typeof reportInputSchema>): Promise<void> {
  const publication = await visiblePublication(deps, input.id);
  const open = await deps.db
    .selectFrom("publication_reports")
    .select("id")
    .where("publication_id", "=", publication.id)
    .where("reporter_id", "=", userId)
    .where("resolved_at", "is", null)
    .executeTakeFirst();
  if (open) throw alreadyReported();
  try {
    await deps.db
      .insertInto("publication_reports")
      .values({
        id: `rep_${generateSecureRandomString()}`,
        publication_id: publication.id,
        reporter_id: userId,
        reason: input.reason,
        note: input.note,
        created_at: deps.clock.now(),
        resolved_at: null,
        resolution: null,
        resolved_by: null,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyReported();
    throw error;
  }
}

export interface OpenReport {
  id: string;
  reason: ReportReason;
  note: string;
  createdAt: number;
  reporter: { id: string; email: string };
  publication: {
    id: string;
    title: string;
    style: string;
    styleName: string | null;
    hidden: boolean;
    /** The public picture while it is visible (admins see what visitors see). */
    after: string | null;
    publisher: { id: string; email: string; name: string; blocked: boolean };
  };
}

/** Open reports, oldest first (what waits longest is seen first). */
export async function openReports(deps: CommunityContext): Promise<OpenReport[]> {
  const rows = await deps.db
    .selectFrom("publication_reports")
    .innerJoin("publications", "publications.id", "publication_reports.publication_id")
    .select([
      "publication_reports.id",
      "publication_reports.reason",
      "publication_reports.note",
      "publication_reports.created_at",
      "publication_reports.reporter_id",
      "publications.id as publication_id",
      "publications.title",
      "publications.style",
      "publications.style_name",
      "publications.hidden_at",
      "publications.user_id",
    ])
    .where("publication_reports.resolved_at", "is", null)
    .orderBy("publication_reports.created_at", "asc")
    .limit(200)
    .execute();
  const people = await deps.people.people(rows.flatMap((row) => [row.reporter_id, row.user_id]));
  const blocked = new Set(
    rows.length === 0
      ? []
      : (
          await deps.db
            .selectFrom("publishing_blocks")
            .select("user_id")
            .where(
              "user_id",
              "in",
              rows.map((row) => row.user_id),
            )
            .execute()
        ).map((row) => row.user_id),
  );
  return rows.map((row) => ({
    id: row.id,
    reason: row.reason as ReportReason,
    note: row.note,
    createdAt: Number(row.created_at),
    reporter: { id: row.reporter_id, email: people.get(row.reporter_id)?.email ?? "" },
    publication: {
      id: row.publication_id,
      title: row.title,
      style: row.style,
      styleName: row.style_name,
      hidden: row.hidden_at !== null,
      after: row.hidden_at === null ? publicationFile(row.publication_id, "after") : null,
      publisher: {
        id: row.user_id,
        email: people.get(row.user_id)?.email ?? "",
        name: people.get(row.user_id)?.name ?? "",
        blocked: blocked.has(row.user_id),
      },
    },
  }));
}

/** Hides (or shows again) a publication; hiding settles its open reports as "hidden". */
export async function setHidden(deps: CommunityContext, adminId: string, id: string, hidden: boolean): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("publications")
      .set(hidden ? { hidden_at: now, hidden_by: adminId } : { hidden_at: null, hidden_by: null })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw publicationNotFound();
    if (hidden) {
      await trx
        .updateTable("publication_reports")
        .set({ resolved_at: now, resolution: "hidden", resolved_by: adminId })
        .where("publication_id", "=", id)
        .where("resolved_at", "is", null)
        .execute();
    }
  });
}

export async function dismissReport(deps: CommunityContext, adminId: string, reportId: string): Promise<void> {
  const updated = await deps.db
    .updateTable("publication_reports")
    .set({ resolved_at: deps.clock.now(), resolution: "dismissed", resolved_by: adminId })
    .where("id", "=", reportId)
    .where("resolved_at", "is", null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw notFound();
}

/** Stops an account from publishing (what it published stays until hidden or unpublished), or allows it again. */
export async function setBlocked(deps: CommunityContext, adminId: string, userId: string, blocked: boolean): Promise<void> {
  if (!blocked) {
    await deps.db.deleteFrom("publishing_blocks").where("user_id", "=", userId).execute();
    return;
  }
  if (!(await deps.people.people([userId])).has(userId)) throw notFound();
  await deps.db
    .insertInto("publishing_blocks")
    .values({ user_id: userId, blocked_by: adminId, created_at: deps.clock.now() })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}

/** Accounts stopped from publishing, and hidden publications: what an admin may undo. */
export async function moderationState(deps: CommunityContext) {
  const [blocks, hidden] = await Promise.all([
    deps.db.selectFrom("publishing_blocks").select(["user_id", "created_at"]).orderBy("created_at", "desc").limit(200).execute(),
    deps.db
      .selectFrom("publications")
      .select(["id", "title", "style", "style_name", "user_id", "hidden_at"])
      .where("hidden_at", "is not", null)
      .orderBy("hidden_at", "desc")
      .limit(200)
      .execute(),
  ]);
  const people = await deps.people.people([...blocks.map((row) => row.user_id), ...hidden.map((row) => row.user_id)]);
  return {
    blocked: blocks.map((row) => ({ userId: row.user_id, email: people.get(row.user_id)?.email ?? "", since: Number(row.created_at) })),
    hidden: hidden.map((row) => ({
      id: row.id,
      title: row.title,
      style: row.style,
      styleName: row.style_name,
      publisherEmail: people.get(row.user_id)?.email ?? "",
      hiddenAt: Number(row.hidden_at),
    })),
  };
}
