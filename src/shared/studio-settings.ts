/**
 * The operator's settings of /admin → Studio (issue 16): brand, free credits and the render engine,
 * checked on both sides. Also the accent colour's palette and its WCAG contrast check, which the
 * server enforces and the admin page shows live while a colour is chosen.
 */
import { z } from "zod";
import { hexColourSchema } from "./hex-colour";
import { MESSAGES } from "./messages";
import type { EngineTask } from "./render";
import { accentContrast } from "./studio";

export const STUDIO_LIMITS = {
  nameMax: 60,
  legalTextMax: 50_000,
  logoBytesMax: 1024 * 1024,
  logoMinSide: 16,
  logoMaxSide: 4096,
  freeCreditsMax: 1000,
  demoRendersMax: 1000,
} as const;

export const ENGINE_IDS = ["local", "comfyui", "replicate", "openai"] as const;
export type EngineId = (typeof ENGINE_IDS)[number];
/** The engines whose key an admin may enter (ComfyUI's is the optional token of a proxy in front of it). */
export const KEYED_ENGINES = ["replicate", "openai", "comfyui"] as const;
export type KeyedEngine = (typeof KEYED_ENGINES)[number];

const hexColor = hexColourSchema(MESSAGES.accentColorInvalid);

export const brandInputSchema = z.object({
  name: z.string().trim().min(1, { error: MESSAGES.studioNameRequired }).max(STUDIO_LIMITS.nameMax, { error: MESSAGES.studioNameTooLong }),
  supportEmail: z.email({ error: MESSAGES.supportEmailInvalid }),
  accentColor: hexColor.refine((color) => accentContrast(color).ok, { error: MESSAGES.accentColorContrast }),
  termsText: z.string().trim().max(STUDIO_LIMITS.legalTextMax, { error: MESSAGES.legalTextTooLong }),
  privacyText: z.string().trim().max(STUDIO_LIMITS.legalTextMax, { error: MESSAGES.legalTextTooLong }),
});
export type BrandInput = z.infer<typeof brandInputSchema>;

const wholeNumber = (max: number) =>
  z
    .number({ error: MESSAGES.studioNumberInvalid })
    .int({ error: MESSAGES.studioNumberInvalid })
    .min(0, { error: MESSAGES.studioNumberInvalid })
    .max(max, { error: MESSAGES.studioNumberInvalid });

export const freeCreditsInputSchema = z.object({
  /** Credits a new account receives. */
  signUpCredits: wholeNumber(STUDIO_LIMITS.freeCreditsMax),
  /** Free demo renders per client address per day, on top of one per visitor's browser; 0 turns the demo off. */
  demoRendersPerAddressPerDay: wholeNumber(STUDIO_LIMITS.demoRendersMax),
});
export type FreeCreditsInput = z.infer<typeof freeCreditsInputSchema>;

/** A key typed into the form: undefined keeps the stored one, "" removes it. */
const keyInput = z.string().trim().max(500, { error: MESSAGES.engineKeyInvalid }).optional();

export const engineInputSchema = z.object({
  engine: z.enum(ENGINE_IDS),
  replicateModel: z
    .string()
    .trim()
    .regex(/^[\w.-]+\/[\w.-]+(:[0-9a-f]{64})?$/, { error: MESSAGES.engineModelInvalid }),
  openaiModel: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,100}$/, { error: MESSAGES.engineModelInvalid }),
  comfyuiUrl: z.union([z.literal(""), z.url({ protocol: /^https?$/, error: MESSAGES.engineUrlInvalid })]),
  /** ComfyUI's upscale model file (models/upscale_models); "" = no AI upscale; left out = unchanged. */
  comfyuiUpscaleModel: z
    .string()
    .trim()
    .regex(/^(|[^/\\\s][^\\]{0,199})$/, { error: MESSAGES.engineUpscaleModelInvalid })
    .optional(),
  /** A light refine pass after ComfyUI's upscale; left out = unchanged. */
  comfyuiUpscaleRefine: z.boolean().optional(),
  keys: z.object({ replicate: keyInput, openai: keyInput, comfyui: keyInput }),
});
export type EngineInput = z.infer<typeof engineInputSchema>;

/** Most engines one task may list (there are four). */
export const ENGINES_PER_TASK_MAX = ENGINE_IDS.length;

const engineList = z
  .array(z.enum(ENGINE_IDS))
  .max(ENGINES_PER_TASK_MAX)
  .refine((list) => new Set(list).size === list.length, { error: MESSAGES.missingRequiredFields });

/** Each task's engines in the order they are tried (issue 30); an empty list leaves the task to the studio's engine. */
export const engineRoutesInputSchema = z.object({
  render: engineList,
  stage: engineList,
  declutter: engineList,
  exterior: engineList,
  edit: engineList,
  upscale: engineList,
} satisfies Record<EngineTask, typeof engineList>);
export type EngineRoutesInput = z.infer<typeof engineRoutesInputSchema>;
