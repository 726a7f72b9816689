/**
 * Measures on a room's photo (issue 30, decision 089): its reference (something of known size) and
 * lengths between two points, for whoever may use the photo (its author, or its team's members);
 * anyone else gets "Not found". The lengths are computed by the server from the points. Measures made in
 * AR on a phone (decision 092) belong to a project, for whoever may work in it.
 */
import {
  addArMeasureInputSchema,
  addMeasureInputSchema,
  deleteArMeasureInputSchema,
  projectMeasuresInputSchema,
  deleteMeasureInputSchema,
  measuresOfPhotoInputSchema,
  setReferenceInputSchema,
  type MeasureReference,
} from "../../../shared/measures";
import { notFound } from "../../errors";
import type { Owner } from "../../render";
import type { Context } from "../context";
import { protectedProcedure, router } from "../init";

function requireOwner(ctx: Pick<Context, "owner">): Owner {
  if (!ctx.owner) throw notFound();
  return ctx.owner;
}

export const measuresRouter = router({
  ofPhoto: protectedProcedure
    .input(measuresOfPhotoInputSchema)
    .query(({ ctx, input }) => ctx.services.measures.ofPhoto(requireOwner(ctx), input.uploadId)),

  setReference: protectedProcedure
    .input(setReferenceInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.measures.setReference(requireOwner(ctx), input.uploadId, input.reference as MeasureReference | null),
    ),

  add: protectedProcedure
    .input(addMeasureInputSchema)
    .mutation(({ ctx, input: { uploadId, ...measure } }) => ctx.services.measures.add(requireOwner(ctx), uploadId, measure)),

  delete: protectedProcedure
    .input(deleteMeasureInputSchema)
    .mutation(({ ctx, input }) => ctx.services.measures.delete(requireOwner(ctx), input.uploadId, input.measureId)),

  ofProject: protectedProcedure
    .input(projectMeasuresInputSchema)
    .query(({ ctx, input }) => ctx.services.measures.arOfProject(requireOwner(ctx), input.projectId)),

  addAr: protectedProcedure
    .input(addArMeasureInputSchema)
    .mutation(({ ctx, input: { projectId, ...measure } }) => ctx.services.measures.addAr(requireOwner(ctx), projectId, measure)),

  deleteAr: protectedProcedure
    .input(deleteArMeasureInputSchema)
    .mutation(({ ctx, input }) => ctx.services.measures.deleteAr(requireOwner(ctx), input.projectId, input.measureId)),
});
