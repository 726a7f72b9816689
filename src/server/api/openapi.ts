/**
 * The OpenAPI 3.1 description of /api/v1 (issue 31, decision 094), made from the same zod schemas
 * the routes validate and answer with (zod-openapi), so that it cannot drift from the code. Every
 * route is listed here with its schemas; routes.ts reads the same ones.
 */
import { createDocument } from "zod-openapi";
import { z } from "zod";
import { API_BASE, API_SCOPES } from "../../shared/api";
import { cursorQuerySchema, errors, idempotencyHeader, idParams, type ApiPaths } from "./openapi-parts";
import { webhookPaths } from "./openapi-webhooks";
import { renderViewSchema, rendersSchema, waitQuerySchema } from "./openapi-render-schemas";
import { studioPaths } from "./openapi-studio";
import { projectPaths } from "./openapi-projects";
import { creditPaths } from "./openapi-credits";

export { renderViewSchema, rendersSchema, waitQuerySchema } from "./openapi-render-schemas";
import { RENDER, RENDER_MODES, STRUCTURE_STRENGTHS } from "../../shared/render";
import { usagePaths } from "./routes-usage";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";
import { STYLE_TONES } from "../../shared/custom-styles";

export const catalogueSchema = z
  .object({
    styles: z.array(z.enum(DESIGN_STYLES)).meta({ description: "The design styles a render may ask for" }),
    roomTypes: z.array(z.enum(ROOM_TYPES)),
    inputModes: z.array(z.enum(INPUT_MODES)).meta({ description: "What a picture shows: a room photo or a floor plan" }),
    renderModes: z.array(z.enum(RENDER_MODES)).meta({ description: "What to do with the room" }),
    customStyles: z
      .array(
        z.object({
          id: z.string().meta({ description: "What a render's style names to use it (cs_…)" }),
          name: z.string(),
          description: z.string().meta({ description: "What an AI engine is told of the look" }),
          avoid: z.string(),
          palette: z.array(z.string()).meta({ description: "One to six #rrggbb colours (the Preview engine grades with them)" }),
          tone: z.enum(STYLE_TONES),
          hasReference: z.boolean().meta({ description: "A reference picture is attached (engines that accept one follow it)" }),
        }),
      )
      .meta({ description: "The styles of the key's space's own (its maker's personal ones, or its team's), newest change first" }),
  })
  .meta({ id: "Catalogue" });

export const creditsSchema = z
  .object({
    balance: z.number().int().meta({ description: "Credits left in the key's space (its maker's personal space, or its team)" }),
  })
  .meta({ id: "Credits" });

export const uploadViewSchema = z
  .object({
    id: z.string().meta({ description: "The picture's id: what a render's imageId names" }),
    projectId: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "Upload" });

export const uploadQuerySchema = z.object({
  mode: z.enum(INPUT_MODES).default("room-photo").meta({ description: "What the picture shows" }),
  roomType: z.enum(ROOM_TYPES).default("living-room"),
  projectId: z.string().max(64).optional().meta({ description: "The project to file it in; a new one when left out" }),
});

export const renderCreateSchema = z
  .object({
    imageId: z.string().min(1).max(64).meta({ description: "An uploaded picture's id" }),
    style: z.union([z.enum(DESIGN_STYLES), z.array(z.enum(DESIGN_STYLES)).min(1).max(RENDER.maxStylesPerRequest)]),
    renderMode: z.enum(RENDER_MODES).optional(),
    note: z.string().max(RENDER.noteMax).optional().meta({ description: "A wish added to the prompt" }),
    variations: z.number().int().min(1).max(RENDER.maxVariations).optional().meta({ description: "Per style, one credit each" }),
    seed: z.number().int().min(0).max(RENDER.maxSeed).optional(),
    structure: z.enum(STRUCTURE_STRENGTHS).optional().meta({ description: "How strongly the room's lines are held" }),
  })
  .meta({ id: "RenderRequest" });

export const renderPageSchema = z
  .object({
    renders: z.array(renderViewSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last" }),
  })
  .meta({ id: "RenderPage" });

export const pageQuerySchema = cursorQuerySchema.extend({ projectId: z.string().max(64).optional() });

let document: ReturnType<typeof createDocument> | null = null;

/** The document, made once (it depends only on the code). */
export function openApiDocument(version: string): ReturnType<typeof createDocument> {
  document ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "RoomCanvas API",
      version,
      description:
        'Order interior renders from your own tools. Authenticate with an API key from /developers as `Authorization: Bearer <key>`. Every error answers `{ "error": { "code", "message" } }`: `code` to branch on, `message` in the key\'s language (its maker\'s when it was made: en, es or fr), or the one an `Accept-Language` header names.',
    },
    servers: [{ url: API_BASE }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: `A key made on /developers (rck_…), with one or more scopes: ${API_SCOPES.join(", ")}.`,
        },
      },
    },
    tags: RESOURCES.map(({ tag, description }) => ({ name: tag, description })),
    paths: tagged({
      ...renderPaths,
      ...studioPaths,
      ...projectPaths,
      ...creditPaths,
      ...webhookPaths,
      ...usagePaths,
    }),
  });
  return document;
}

/** The reference's sections, in its order: each path goes under the first whose pattern it matches. */
const RESOURCES: Array<{ tag: string; description: string; paths: RegExp }> = [
  { tag: "Catalogue", description: "The styles and room types a render may ask for", paths: /^\/catalogue/ },
  { tag: "Uploads", description: "Photos and floor plans to render from, checked as the web app checks them", paths: /^\/uploads/ },
  { tag: "Edits", description: "A masked region of a render repainted by an instruction", paths: /^\/(edits|renders\/\{id\}\/edits)/ },
  {
    tag: "Listing exports",
    description: "A render made ready for a property listing, with its disclosure and public page",
    paths: /^\/(listing-exports|renders\/\{id\}\/listing-exports)/,
  },
  { tag: "Renders", description: "Ordering renders, waiting for them, their pictures, re-rolls and upscales", paths: /^\/renders/ },
  { tag: "Projects", description: "The folders renders are kept in", paths: /^\/projects/ },
  {
    tag: "Credits and engines",
    description: "The balance, its ledger, and the engines with what they can do and cost",
    paths: /^\/(credits|engines)/,
  },
  { tag: "Webhooks", description: "Signed POSTs to your server when something happens in the key's space", paths: /^\/webhooks/ },
  { tag: "Usage", description: "Requests per key and day", paths: /^\/usage/ },
];

/** Every operation tagged with its path's section. */
function tagged(paths: ApiPaths): ApiPaths {
  const methods = ["get", "put", "post", "delete", "patch"] as const;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const resource = RESOURCES.find((candidate) => candidate.paths.test(path));
      if (!resource) throw new Error(`The API reference has no section for ${path}`);
      const operations = Object.fromEntries(
        methods.filter((method) => item[method]).map((method) => [method, { ...item[method], tags: [resource.tag] }]),
      );
      return [path, { ...item, ...operations }];
    }),
  );
}

/** Uploads, renders, the catalogue and credits. */
const renderPaths: ApiPaths = {
  "/catalogue": {
    get: {
      operationId: "getCatalogue",
      summary: "The styles, room types and modes a render may ask for",
      responses: {
        "200": { description: "The catalogue", content: { "application/json": { schema: catalogueSchema } } },
        ...errors(401),
      },
    },
  },
  "/uploads": {
    post: {
      operationId: "createUpload",
      summary: "Upload a room photo or a floor plan (scope renders:write): the picture's bytes as the body",
      requestParams: { query: uploadQuerySchema, header: idempotencyHeader },
      requestBody: {
        required: true,
        content: {
          "image/jpeg": { schema: { type: "string", contentMediaType: "image/jpeg" } },
          "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
          "image/webp": { schema: { type: "string", contentMediaType: "image/webp" } },
        },
      },
      responses: {
        "201": { description: "Stored", content: { "application/json": { schema: uploadViewSchema } } },
        ...errors(400, 401, 403, 413, 415),
      },
    },
  },
  "/renders": {
    get: {
      operationId: "listRenders",
      summary: "The space's renders, newest first, a page at a time (scope renders:read)",
      requestParams: { query: pageQuerySchema },
      responses: {
        "200": { description: "A page", content: { "application/json": { schema: renderPageSchema } } },
        ...errors(400, 401, 403),
      },
    },
    post: {
      operationId: "createRenders",
      summary: "Render an uploaded picture in one or more styles (scope renders:write); one credit per style and variation",
      requestParams: { query: waitQuerySchema, header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: renderCreateSchema } } },
      responses: {
        "201": { description: "Queued (or ended, when waited for)", content: { "application/json": { schema: rendersSchema } } },
        ...errors(400, 401, 402, 403, 404, 409),
      },
    },
  },
  "/renders/{id}": {
    get: {
      operationId: "getRender",
      summary: "A render's state and result (scope renders:read)",
      requestParams: { path: idParams },
      responses: {
        "200": { description: "The render", content: { "application/json": { schema: renderViewSchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
  "/renders/{id}/cancel": {
    post: {
      operationId: "cancelRender",
      summary: "Cancel a render that has not ended; its credit comes back (scope renders:write)",
      requestParams: { path: idParams, header: idempotencyHeader },
      responses: {
        "200": { description: "The render, canceled (or as it ended)", content: { "application/json": { schema: renderViewSchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
  "/renders/{id}/image": {
    get: {
      operationId: "getRenderImage",
      summary: "A finished render's (or edit's) picture at its largest, its AI upscale once made (scope renders:read)",
      requestParams: { path: idParams },
      responses: {
        "200": {
          description: "The picture (an edit's is PNG)",
          content: {
            "image/jpeg": { schema: { type: "string", contentMediaType: "image/jpeg" } },
            "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
            "image/webp": { schema: { type: "string", contentMediaType: "image/webp" } },
          },
        },
        ...errors(401, 403, 404),
      },
    },
  },
  "/credits": {
    get: {
      operationId: "getCredits",
      summary: "The credits left in the key's space (scope credits:read)",
      responses: {
        "200": { description: "The balance", content: { "application/json": { schema: creditsSchema } } },
        ...errors(401, 403),
      },
    },
  },
};
