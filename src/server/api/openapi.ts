/**
 * The OpenAPI 3.1 description of /api/v1 (issue 31, decision 094), made from the same zod schemas
 * the routes validate and answer with (zod-openapi), so that it cannot drift from the code. Every
 * route is listed here with its schemas; routes.ts reads the same ones.
 */
import { createDocument } from "zod-openapi";
import { z } from "zod";
import { API_BASE, API_SCOPES, apiErrorSchema } from "../../shared/api";
import { RENDER_MODES } from "../../shared/render";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";

export const catalogueSchema = z
  .object({
    styles: z.array(z.enum(DESIGN_STYLES)).meta({ description: "The design styles a render may ask for" }),
    roomTypes: z.array(z.enum(ROOM_TYPES)),
    inputModes: z.array(z.enum(INPUT_MODES)).meta({ description: "What a picture shows: a room photo or a floor plan" }),
    renderModes: z.array(z.enum(RENDER_MODES)).meta({ description: "What to do with the room" }),
  })
  .meta({ id: "Catalogue" });

export const creditsSchema = z
  .object({
    balance: z.number().int().meta({ description: "Credits left in the key's space (its maker's personal space, or its team)" }),
  })
  .meta({ id: "Credits" });

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: ERROR_DESCRIPTIONS[status] ?? "Error", content: { "application/json": { schema: apiErrorSchema } } },
    ]),
  );

const ERROR_DESCRIPTIONS: Record<number, string> = {
  401: "No API key, or one that is unknown, revoked or expired",
  403: "The key lacks the scope this needs",
  404: "Not found, or not the key's to see",
};

let document: ReturnType<typeof createDocument> | null = null;

/** The document, made once (it depends only on the code). */
export function openApiDocument(version: string): ReturnType<typeof createDocument> {
  document ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "RoomCanvas API",
      version,
      description:
        'Order interior renders from your own tools. Authenticate with an API key from /developers as `Authorization: Bearer <key>`. Every error answers `{ "error": { "code", "message" } }`.',
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
    paths: {
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
    },
  });
  return document;
}
