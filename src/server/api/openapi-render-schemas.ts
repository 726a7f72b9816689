/**
 * The render's public shape and the wait parameter (decision 094), apart from openapi.ts so that
 * every group of paths that answers with renders (openapi-studio.ts) reads them without a cycle.
 */
import { z } from "zod";
import { API_WAIT_MAX_SECONDS } from "../../shared/api";
import { JOB_STATUSES, RENDER_MODES } from "../../shared/render";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";

export const waitQuerySchema = z.object({
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(API_WAIT_MAX_SECONDS)
    .default(0)
    .meta({ description: `Seconds to wait for the renders to end before answering (at most ${API_WAIT_MAX_SECONDS})` }),
});

export const renderViewSchema = z
  .object({
    id: z.string(),
    status: z.enum(JOB_STATUSES),
    imageId: z.string(),
    projectId: z.string().nullable(),
    style: z
      .string()
      .nullable()
      .meta({
        description: `A built-in style (${DESIGN_STYLES.join(", ")}) or a custom style's id (cs_…); null for an edit of the photo itself`,
      }),
    styleName: z.string().nullable().meta({ description: "A custom style's name as the render used it; null for a built-in style" }),
    roomType: z.enum(ROOM_TYPES),
    mode: z.enum(INPUT_MODES),
    renderMode: z.enum(RENDER_MODES),
    note: z.string().nullable(),
    percent: z.number().int().nullable(),
    position: z.number().int().nullable().meta({ description: "Place in the queue while queued" }),
    error: z.string().nullable(),
    engine: z.object({ id: z.string(), isAi: z.boolean(), model: z.string().nullable() }),
    seed: z.number().int().nullable(),
    createdAt: z.string().meta({ description: "ISO 8601" }),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    result: z
      .object({
        width: z.number().int(),
        height: z.number().int(),
        imageUrl: z.string().meta({ description: "The picture at its largest, served to this key's space (GET, with the key)" }),
      })
      .nullable(),
  })
  .meta({ id: "Render" });

export const rendersSchema = z.object({ renders: z.array(renderViewSchema) }).meta({ id: "RenderList" });
