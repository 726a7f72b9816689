/**
 * The measures module (issue 30, decision 089): lengths measured in a room. On a photo, the user marks
 * something of known size (the photo's reference) and then two points per measure; every length is
 * computed from the stored points by the shared geometry (src/shared/measure-geometry.ts) when read,
 * so a changed reference re-measures them all, and no number sent by a browser is stored. Measures made
 * in AR on a phone (source "ar", decision 092) belong to a project: two points in metres, whose length the
 * server computes. It owns measure_references and room_measures, and asks the render module whether the
 * caller may use a photo, and the projects service whether they may work in a project (ports handed in by boot.ts).
 * Routers call this surface only.
 */
import type { Infra } from "../infra";
import type { Owner, OwnerOfRequest } from "../render";
import { measureRoutes } from "./routes";
import type { MeasurePhotos, MeasureProjects, MeasuresContext } from "./context";
import { addArMeasure, arMeasuresOf, arMeasuresOfProject, deleteArMeasure, type NewArMeasure } from "./ar";
import { addMeasure, deleteMeasure, measuresOfPhoto, measuresOfPhotos, setReference, type NewMeasure } from "./measures";
import type { MeasureReference } from "../../shared/measures";

export type { MeasurePhotos, MeasureProjects } from "./context";

export function createMeasuresModule(infra: Pick<Infra, "db" | "clock">, ports: { photos: MeasurePhotos; projects: MeasureProjects }) {
  const deps: MeasuresContext = { db: infra.db, clock: infra.clock, photos: ports.photos, projects: ports.projects };
  return {
    /** The photo's reference and measures (who may use the photo only). */
    ofPhoto: (owner: Owner, uploadId: string) => measuresOfPhoto(deps, owner, uploadId),
    /** Sets (or with null removes) the photo's reference; its measures are re-measured from it. */
    setReference: (owner: Owner, uploadId: string, reference: MeasureReference | null) => setReference(deps, owner, uploadId, reference),
    add: (owner: Owner, uploadId: string, measure: NewMeasure) => addMeasure(deps, owner, uploadId, measure),
    delete: (owner: Owner, uploadId: string, measureId: string) => deleteMeasure(deps, owner, uploadId, measureId),
    /**
     * The measures of these photos, for a page whose access was checked by its own module (a client review
     * link shows a project's pictures): sizes are the photos' own.
     */
    ofPhotos: (photos: ReadonlyArray<{ uploadId: string; width: number; height: number }>) => measuresOfPhotos(deps, photos),
    /** The project's measures made in AR (who may work in the project only). */
    arOfProject: (owner: Owner, projectId: string) => arMeasuresOfProject(deps, owner, projectId),
    /** Saves a measure made in AR: its length is computed here from the two points (1 cm to 50 m). */
    addAr: (owner: Owner, projectId: string, measure: NewArMeasure) => addArMeasure(deps, owner, projectId, measure),
    deleteAr: (owner: Owner, projectId: string, measureId: string) => deleteArMeasure(deps, owner, projectId, measureId),
    /** A project's AR measures for a page whose access was checked by its own module (a client review link). */
    arOf: (projectId: string) => arMeasuresOf(deps, projectId),
    /** A version of a photo downloaded with its measures drawn in; `ownerOfRequest` says who is asking. */
    routes: (ownerOfRequest: OwnerOfRequest) => measureRoutes(deps, ownerOfRequest),
  };
}

export type MeasuresModule = ReturnType<typeof createMeasuresModule>;
