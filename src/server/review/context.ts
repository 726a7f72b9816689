/** What the parts of the review module share: the adapters, and the ports to projects, people, the render module and the team log. */
import type { ArMeasureView, PhotoMeasures } from "../../shared/measures";
import type { Infra } from "../infra";
import type { RenderModule } from "../render";
import type { ReviewEventBus } from "./events";

/** The project access check (the projects service): throws not-found when the caller may not see the project. */
export interface ReviewProjects {
  get(
    userId: string,
    projectId: string,
  ): Promise<{ project: { id: string; name: string; teamId?: string | null }; renders: ReadonlyArray<{ id: string; status: string }> }>;
}

/** Names and addresses of accounts (accounts owns them). */
export interface ReviewPeople {
  people(userIds: readonly string[]): Promise<Map<string, { name: string; email: string }>>;
}

/** The team's activity log (the spaces module): a decision on a link of a team project is recorded there. */
export interface ReviewActivity {
  record(teamId: string, actorId: string | null, action: "reviewDecision", details: Record<string, string | number | null>): Promise<void>;
}

/** The measures of each photo and the project's AR measures (the measures module): shown read-only on the client's page. */
export interface ReviewMeasures {
  ofPhotos(photos: ReadonlyArray<{ uploadId: string; width: number; height: number }>): Promise<PhotoMeasures[]>;
  arOf(projectId: string): Promise<ArMeasureView[]>;
}

export interface ReviewContext extends Pick<Infra, "db" | "clock" | "storage" | "log" | "mailer"> {
  render: Pick<RenderModule, "reviewPictures">;
  projects: ReviewProjects;
  people: ReviewPeople;
  activity: ReviewActivity;
  measures: ReviewMeasures;
  brandName: () => string;
  events: ReviewEventBus;
}
