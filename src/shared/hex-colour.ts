/** A colour typed as a code: what the studio's brand, custom styles' palettes and the Paint tool share. */
import { z } from "zod";

/**
 * A colour as #rrggbb (trimmed; stored lower-case). `message` is the field's own refusal ("Pick a
 * colour as #rrggbb" for the brand's accent, "Choose one to six colours, each as #rrggbb" for a
 * style's palette…).
 */
export const hexColourSchema = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: message })
    .transform((value) => value.toLowerCase());
