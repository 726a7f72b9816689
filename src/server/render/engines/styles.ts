/**
 * The style a render is made in, as engines use it (decision 101): a built-in style's words and grade
 * come from the code; a custom style's from its snapshot (the user's description and what to avoid
 * for the AI engines' prompts, its palette and tone for the Preview engine's grade).
 */
import { isBuiltInStyle, type StyleKey, type StyleSnapshot, type StyleTone } from "../../../shared/custom-styles";
import type { DesignStyle } from "../../../shared/styles";

/** How each style looks, in the words an image model understands. */
export const STYLE_DESCRIPTIONS: Record<DesignStyle, string> = {
  modern:
    "modern style: clean lines, a neutral palette of white, grey and black, sleek low-profile furniture, polished surfaces, minimal ornament and integrated lighting",
  scandinavian:
    "Scandinavian style: light wood, white walls, soft wool and linen textiles, simple functional furniture, cosy throws, green plants and plenty of daylight",
  industrial:
    "industrial style: exposed brick, raw concrete, black metal frames, reclaimed wood, leather seating, Edison bulb pendant lights and an open loft feel",
  minimalist:
    "minimalist style: an uncluttered space, a calm monochrome palette, few carefully chosen pieces of furniture, hidden storage, smooth surfaces and soft diffuse light",
  "mid-century-modern":
    "mid-century modern style: walnut and teak furniture with tapered legs, organic curves, mustard, teal and burnt orange accents, graphic patterns and iconic 1950s-60s lamps",
  japandi:
    "Japandi style: a blend of Japanese and Scandinavian design, pale oak and dark wood, low furniture, natural linen and paper, earthy muted tones, wabi-sabi ceramics and calm order",
  bohemian:
    "bohemian style: layered patterned rugs and textiles, rattan and macrame, warm terracotta and jewel tones, floor cushions, many plants and collected eclectic decor",
  coastal:
    "coastal style: airy whites with soft blues and sandy beige, whitewashed wood, linen slipcovered sofas, rattan and jute, striped textiles and a breezy beach-house light",
  farmhouse:
    "modern farmhouse style: shiplap walls, rustic reclaimed wood beams, a farmhouse table, cream and sage tones, black iron hardware, woven baskets and vintage accents",
  traditional:
    "traditional style: classic symmetrical arrangement, rich dark wood furniture, tufted upholstery, damask and floral fabrics, crown moulding, table lamps and a warm elegant palette",
  "art-deco":
    "Art Deco style: bold geometric patterns, brass and gold accents, velvet upholstery in emerald and navy, lacquered surfaces, marble, mirrored details and glamorous lighting",
  luxury:
    "contemporary luxury style: marble surfaces, brushed brass details, plush velvet and boucle furniture, statement chandelier, designer pieces, rich layered lighting and a refined neutral palette",
};

export interface RenderStyle {
  /** A built-in style's id, or a custom style's (cs_…). */
  key: StyleKey;
  /** The look in the words an image model understands ("Japandi style: …"). */
  look: string;
  /** What to keep out of the picture, in the user's words ("" for nothing). */
  avoid: string;
  /** A custom style's palette and tone (the Preview engine grades with them); null for a built-in style. */
  palette: string[] | null;
  tone: StyleTone | null;
}

export function builtInRenderStyle(style: DesignStyle): RenderStyle {
  return { key: style, look: STYLE_DESCRIPTIONS[style], avoid: "", palette: null, tone: null };
}

export function customRenderStyle(snapshot: StyleSnapshot): RenderStyle {
  return {
    key: snapshot.id,
    look: `the "${snapshot.name}" style: ${snapshot.description}`,
    avoid: snapshot.avoid,
    palette: snapshot.palette,
    tone: snapshot.tone,
  };
}

/** The style of a job's row: a built-in id, or a custom style's id with its snapshot. */
export function renderStyleOf(key: StyleKey, snapshot: StyleSnapshot | null): RenderStyle {
  if (isBuiltInStyle(key)) return builtInRenderStyle(key);
  if (!snapshot) throw new Error(`The render's custom style ${key} has no snapshot`);
  return customRenderStyle(snapshot);
}
