/**
 * What a client does on a review link: comment on a picture (plain text, at most 2,000
 * characters, a limited number per address and link), and approve it or ask for changes. Each is
 * published to the studio's open streams; a decision also mails the link's maker and, on a team
 * project, is recorded in the team's log.
 */
import { REVIEW, type ReviewComment, type ReviewDecision, type ReviewDecisionState } from "../../shared/review";
import { DomainError, notFound } from "../errors";
import type { ReviewContext } from "./context";
import { pictureOfLink, requireLiveLink } from "./links";
import { decisionMail } from "./mails";

const WINDOW_MS = REVIEW.commentWindowMinutes * 60_000;

export async function addComment(
  deps: ReviewContext,
  input: { token: string; jobId: string; author: string; text: string },
  clientAddress: string,
): Promise<ReviewComment> {
  const link = await requireLiveLink(deps, input.token);
  if (!(await pictureOfLink(deps, link, input.jobId))) throw notFound();
  const now = deps.clock.now();
  const comment = await deps.db.transaction().execute(async (trx) => {
    const recent = await trx
      .selectFrom("review_comments")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("link_id", "=", link.id)
      .where("client_address", "=", clientAddress)
      .where("created_at", ">", now - WINDOW_MS)
      .executeTakeFirstOrThrow();
    if (Number(recent.count) >= REVIEW.commentsPerWindow) {
      throw new DomainError("rate-limited", "reviewTooManyComments", {
        params: { count: REVIEW.commentsPerWindow, minutes: REVIEW.commentWindowMinutes },
      });
    }
    return trx
      .insertInto("review_comments")
      .values({
        link_id: link.id,
        job_id: input.jobId,
        author_name: input.author,
        text: input.text,
        client_address: clientAddress,
        created_at: now,
      })
      .returning(["id"])
      .executeTakeFirstOrThrow();
  });
  const view: ReviewComment = { id: comment.id, author: input.author, text: input.text, at: now };
  deps.events.publish(link.project_id, { type: "comment", linkId: link.id, jobId: input.jobId, comment: view });
  return view;
}

export async function addDecision(
  deps: ReviewContext,
  input: { token: string; jobId: string; author: string; state: ReviewDecisionState },
  mailBaseUrl: string | null,
): Promise<ReviewDecision> {
  const link = await requireLiveLink(deps, input.token);
  if (!(await pictureOfLink(deps, link, input.jobId))) throw notFound();
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto("review_decisions")
    .values({ link_id: link.id, job_id: input.jobId, state: input.state, author_name: input.author, created_at: now })
    .returning(["id"])
    .executeTakeFirstOrThrow();
  const decision: ReviewDecision = { id: row.id, state: input.state, author: input.author, at: now };
  deps.events.publish(link.project_id, { type: "decision", linkId: link.id, jobId: input.jobId, decision });

  // The mail and the log entry are told, not waited for by the client: a failure is logged, the decision stands.
  try {
    if (link.team_id) {
      await deps.activity.record(link.team_id, null, "reviewDecision", {
        client: input.author,
        state: input.state,
        project: link.project_name,
        linkId: link.id,
        jobId: input.jobId,
      });
    }
    const maker = link.created_by ? (await deps.people.people([link.created_by])).get(link.created_by) : undefined;
    if (maker && mailBaseUrl !== null) {
      await deps.mailer.send(
        decisionMail(link.language, maker.email, {
          client: input.author,
          project: link.project_name,
          state: input.state,
          link: `${mailBaseUrl}/dashboard?project=${encodeURIComponent(link.project_id)}`,
          studio: deps.brandName(),
        }),
      );
    } else if (maker) {
      deps.log.warn("a review decision's mail was not sent: the request came for a host this server does not know; set PUBLIC_URL");
    }
  } catch (error) {
    deps.log.warn("could not tell the studio of a review decision", { error, linkId: link.id });
  }
  return decision;
}
