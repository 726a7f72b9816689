/**
 * The OpenAPI description (decision 096) of what the studio does with a finished render: re-roll,
 * edits with a mask, the AI upscale, and listing exports; made from the same zod schemas
 * routes-studio.ts parses and answers with.
 */
import { z } from "zod";
import { EDIT, EDIT_PRESETS } from "../../shared/edits";
import { LISTING } from "../../shared/listing";
import { MESSAGES } from "../../shared/messages";
import { STRUCTURE_STRENGTHS } from "../../shared/render";
import { SUPPORTED_LANGUAGES } from "../../shared/constants";
import { renderViewSchema, rendersSchema, waitQuerySchema } from "./openapi-render-schemas";
import { errors, idempotencyHeader, idParams, type ApiPaths } from "./openapi-parts";

export const rerollSchema = z
  .object({
    seed: z
      .enum(["new", "same"])
      .default("new")
      .meta({ description: "new: another variation (re-roll); same: the same seed again (engines with seeds)" }),
    structure: z
      .enum(STRUCTURE_STRENGTHS)
      .optional()
      .meta({ description: "How strongly the room's lines are held; default the render's own" }),
  })
  .meta({ id: "RerollRequest" });

export const editCreateSchema = z
  .object({
    instruction: z
      .string()
      .trim()
      .max(EDIT.instructionMax, { error: MESSAGES.instructionTooLong })
      .default("")
      .meta({ description: "What to do in the painted region; empty: remove what is there and fill it in naturally" }),
    mask: z
      .string()
      .min(1, { error: MESSAGES.maskNotPng })
      .max(EDIT.maskDataUrlMax, { error: MESSAGES.maskNotPng })
      .meta({
        description:
          "A PNG, base64 (a data:image/png;base64,… URL also does): white or opaque where the picture changes. Its size is the render's " +
          "result size scaled down to a long edge of at most 1024 px (a 2048 × 1536 result takes a 1024 × 768 mask). " +
          `At least ${EDIT.maskMinPaintedPixels} pixels painted, at most ${EDIT.maskMaxPaintedShare * 100}% of the picture.`,
      }),
    preset: z.enum(EDIT_PRESETS).optional(),
  })
  .meta({ id: "EditRequest" });

export const editViewSchema = renderViewSchema
  .extend({
    sourceId: z.string().nullable().meta({ description: "The render or edit it was made from" }),
    instruction: z.string().nullable(),
  })
  .meta({ id: "Edit" });

export const upscaleViewSchema = z
  .object({
    state: z.enum(["none", "done"]).meta({ description: "none: not made (yet); done: the render's imageUrl serves it" }),
    available: z.boolean().meta({ description: "This server's engines can upscale, and the render is smaller than its photo" }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    model: z.string().nullable(),
  })
  .meta({ id: "Upscale" });

export const listingCreateSchema = z
  .object({
    disclosure: z
      .string()
      .max(2000, { error: MESSAGES.listingDisclosureTooLong })
      .optional()
      .meta({
        description: `The words burnt in below the picture (at most ${LISTING.disclosureMax} characters); default the law's wording`,
      }),
    language: z.enum(SUPPORTED_LANGUAGES).optional().meta({ description: "Of the disclosure and the public page; default the key's" }),
  })
  .meta({ id: "ListingExportRequest" });

export const listingExportSchema = z
  .object({
    id: z.string(),
    renderId: z.string(),
    disclosure: z.string(),
    language: z.enum(SUPPORTED_LANGUAGES),
    publicUrl: z.string().meta({ description: "The public page (its QR code is on the picture): the unaltered photo beside the render" }),
    imageUrl: z.string().meta({ description: "The exported JPEG, served to this key's space (GET, with the key)" }),
    width: z.number().int(),
    height: z.number().int(),
    createdAt: z.string().meta({ description: "ISO 8601" }),
  })
  .meta({ id: "ListingExport" });

export const listingExportsSchema = z.object({ exports: z.array(listingExportSchema) }).meta({ id: "ListingExportList" });

const jpeg = { "image/jpeg": { schema: { type: "string" as const, contentMediaType: "image/jpeg" } } };

/** Re-roll, edits, upscales, listing exports. */
export const studioPaths: ApiPaths = {
  "/renders/{id}/reroll": {
    post: {
      operationId: "rerollRender",
      summary:
        "Render a finished render again: another variation, or the same seed (scope renders:write); one credit, like the web app's re-roll. An edit is repeated with its mask and instruction",
      requestParams: { path: idParams, query: waitQuerySchema, header: idempotencyHeader },
      requestBody: { required: false, content: { "application/json": { schema: rerollSchema } } },
      responses: {
        "201": { description: "Queued (or ended, when waited for)", content: { "application/json": { schema: rendersSchema } } },
        ...errors(400, 401, 402, 403, 404, 409),
      },
    },
  },
  "/renders/{id}/edits": {
    post: {
      operationId: "createEdit",
      summary: "Repaint the masked region of a finished render (scope renders:write); one credit, the same checks as the web app's studio",
      requestParams: { path: idParams, query: waitQuerySchema, header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: editCreateSchema } } },
      responses: {
        "201": { description: "Queued (or ended, when waited for)", content: { "application/json": { schema: editViewSchema } } },
        ...errors(400, 401, 402, 403, 404, 409),
      },
    },
  },
  "/edits/{id}": {
    get: {
      operationId: "getEdit",
      summary: "An edit's state and result (scope renders:read); its picture is at result.imageUrl",
      requestParams: { path: idParams },
      responses: {
        "200": { description: "The edit", content: { "application/json": { schema: editViewSchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
  "/renders/{id}/upscale": {
    get: {
      operationId: "getUpscale",
      summary: "Whether the render has its AI upscale (scope renders:read)",
      requestParams: { path: idParams },
      responses: {
        "200": { description: "The upscale's state", content: { "application/json": { schema: upscaleViewSchema } } },
        ...errors(401, 403, 404),
      },
    },
    post: {
      operationId: "upscaleRender",
      summary:
        "Upscale a finished render to its photo's size with the engine's upscaler (scope renders:write); no credit, made once and kept. Answers when made",
      requestParams: { path: idParams, header: idempotencyHeader },
      responses: {
        "200": { description: "Made (or made before)", content: { "application/json": { schema: upscaleViewSchema } } },
        ...errors(400, 401, 403, 404, 409, 503),
      },
    },
  },
  "/renders/{id}/listing-exports": {
    get: {
      operationId: "listListingExports",
      summary: "A render's current listing exports, newest first (scope renders:read)",
      requestParams: { path: idParams },
      responses: {
        "200": { description: "The exports", content: { "application/json": { schema: listingExportsSchema } } },
        ...errors(401, 403, 404),
      },
    },
    post: {
      operationId: "createListingExport",
      summary:
        "Export a finished render for a property listing (California B&P Code §10140.8): a JPEG with the disclosure and a QR code of a public page showing the unaltered photo (scope renders:write)",
      requestParams: { path: idParams, header: idempotencyHeader },
      requestBody: { required: false, content: { "application/json": { schema: listingCreateSchema } } },
      responses: {
        "201": { description: "Made", content: { "application/json": { schema: listingExportSchema } } },
        ...errors(400, 401, 403, 404, 409, 412),
      },
    },
  },
  "/listing-exports/{id}/image": {
    get: {
      operationId: "getListingExportImage",
      summary: "The exported JPEG (scope renders:read)",
      requestParams: { path: idParams },
      responses: { "200": { description: "The picture", content: jpeg }, ...errors(401, 403, 404) },
    },
  },
};
