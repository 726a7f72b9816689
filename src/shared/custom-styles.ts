/**
 * Styles of a user's or a team's own (issue 32, decision 100), beside the twelve built-in ones: a
 * name, a description in their words (what an AI engine's prompt says of the look), what to avoid,
 * a palette and a tone (what the Preview engine grades with), and an optional reference picture
 * (engines that accept one: EngineCapabilities.styleReference). A render records the style's content
 * as it was used (StyleSnapshot), so editing the style later does not change what a past render says.
 */
import { z } from "zod";
import { hexColourSchema } from "./hex-colour";
import { MESSAGES } from "./messages";
import { DESIGN_STYLES, type DesignStyle } from "./styles";

/** The mood the Preview engine grades a custom style's pictures towards (and what the marketplace filters by). */
export const STYLE_TONES = ["light", "warm", "cool", "neutral", "dark", "bold"] as const;
export type StyleTone = (typeof STYLE_TONES)[number];

export const CUSTOM_STYLES = {
  nameMax: 40,
  descriptionMin: 10,
  descriptionMax: 600,
  avoidMax: 300,
  paletteMin: 1,
  paletteMax: 6,
  /** Styles one space (a user's personal one, or a team's) may keep. */
  perSpaceMax: 50,
  /** The reference picture: a JPEG or PNG of at most this many bytes, scaled to referenceLongEdge. */
  referenceMaxBytes: 10 * 1024 * 1024,
  referenceLongEdge: 1024,
  /** Every custom style's id starts so: a style key is a built-in id or one of these. */
  idPrefix: "cs_",
} as const;

/**
 * Where a custom style's reference picture is sent (PUT, the JPEG or PNG file as the raw body) and
 * read (GET, the JPEG kept): plain HTTP, as uploads are (decisions 013, 100), not a tRPC procedure.
 */
export const customStyleReferencePath = (id: string) => `/api/styles/${encodeURIComponent(id)}/reference`;

/** A custom style's id: "cs_" and 20 to 40 letters or digits. */
export const customStyleIdSchema = z.string().regex(/^cs_[A-Za-z0-9]{20,40}$/, { error: MESSAGES.customStyleNotFound });
export type CustomStyleId = `cs_${string}`;

/** What a render names as its style: a built-in one, or a custom style's id. */
export type StyleKey = DesignStyle | CustomStyleId;

export const isCustomStyleKey = (key: string): key is CustomStyleId => key.startsWith(CUSTOM_STYLES.idPrefix);
export const isBuiltInStyle = (key: string): key is DesignStyle => (DESIGN_STYLES as readonly string[]).includes(key);

const hexColour = hexColourSchema(MESSAGES.customStylePaletteInvalid);

/** One line of text: control characters and runs of spaces become one space (it reaches a prompt). */
const oneLine = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

export const customStyleInputSchema = z.object({
  name: z
    .string()
    .transform(oneLine)
    .pipe(
      z.string().min(1, { error: MESSAGES.customStyleNameRequired }).max(CUSTOM_STYLES.nameMax, { error: MESSAGES.customStyleNameTooLong }),
    ),
  description: z
    .string()
    .transform(oneLine)
    .pipe(
      z
        .string()
        .min(CUSTOM_STYLES.descriptionMin, { error: MESSAGES.customStyleDescriptionTooShort })
        .max(CUSTOM_STYLES.descriptionMax, { error: MESSAGES.customStyleDescriptionTooLong }),
    ),
  avoid: z
    .string()
    .transform(oneLine)
    .pipe(z.string().max(CUSTOM_STYLES.avoidMax, { error: MESSAGES.customStyleAvoidTooLong }))
    .default(""),
  palette: z
    .array(hexColour, { error: MESSAGES.customStylePaletteInvalid })
    .min(CUSTOM_STYLES.paletteMin, { error: MESSAGES.customStylePaletteInvalid })
    .max(CUSTOM_STYLES.paletteMax, { error: MESSAGES.customStylePaletteInvalid }),
  tone: z.enum(STYLE_TONES, { error: MESSAGES.customStyleToneInvalid }),
});
export type CustomStyleInput = z.infer<typeof customStyleInputSchema>;

/** A custom style as its space sees it. */
export interface CustomStyleView {
  id: CustomStyleId;
  name: string;
  description: string;
  avoid: string;
  palette: string[];
  tone: StyleTone;
  /** The team whose style it is; null: the maker's personal one. */
  teamId: string | null;
  /** Whether a reference picture is attached (engines that accept one use it). */
  hasReference: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A space's styles as its page and the pickers show them. */
export interface SpaceStyles {
  /** The team whose styles these are; null: the caller's personal ones. */
  teamId: string | null;
  /** Whether the caller may make, change and delete them (team right manageStyles; always in a personal space). */
  canManage: boolean;
  styles: CustomStyleView[];
}

/** A custom style as a render used it (kept with the render; the style may change or go later). */
export interface StyleSnapshot {
  id: CustomStyleId;
  name: string;
  description: string;
  avoid: string;
  palette: string[];
  tone: StyleTone;
  /** Whether its reference picture was sent to the engine (false also when the engine takes none). */
  referenceUsed: boolean;
}
