/** What the parts of the measures module share: the adapters, and the ports to the photos (the render module) and projects. */
import type { Infra } from "../infra";
import type { Owner } from "../render";

/**
 * What the measures module asks the render module: the photo, when the caller may use it (its author,
 * or any current member of its team: the render module's one check, decision 070); else it throws not-found.
 */
export interface MeasurePhotos {
  upload(owner: Owner, uploadId: string): Promise<{ id: string; projectId: string | null; width: number; height: number }>;
  /** A version of a photo (the photo, or a finished render or edit of it) at its largest; throws not-found likewise. */
  picture(owner: Owner, id: string): Promise<{ uploadId: string; data: Buffer; name: string }>;
}

/** What the measures module asks the projects service: may the user work in the project (its creator, or a member of its team)? */
export interface MeasureProjects {
  mayWorkIn(userId: string, projectId: string): Promise<boolean>;
}

export interface MeasuresContext extends Pick<Infra, "db" | "clock"> {
  photos: MeasurePhotos;
  projects: MeasureProjects;
}
