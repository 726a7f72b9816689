/**
 * The text prompts the AI engines receive. Pure functions: the same choices always give the same
 * words, so a render can be explained and repeated. Every prompt asks the engine to leave the
 * walls, windows, doors and layout where they are, the thing users of these apps ask for most.
 */
import { isExteriorMode, type FloorPlanRender, type RenderMode } from "../../../shared/render";
import type { InputMode, RoomType } from "../../../shared/styles";
import type { StyleKey, StyleSnapshot } from "../../../shared/custom-styles";
import { rgbOfHex, type PaintSurface } from "../../../shared/paint";
import { renderStyleOf } from "./styles";

/** Room types as plain English nouns. */
export const ROOM_TYPE_NAMES: Record<RoomType, string> = {
  "living-room": "living room",
  bedroom: "bedroom",
  kitchen: "kitchen",
  bathroom: "bathroom",
  "dining-room": "dining room",
  "home-office": "home office",
  "kids-room": "children's room",
  "outdoor-patio": "outdoor patio",
  exterior: "house, seen from outside",
};

export const MAX_NOTE_LENGTH = 500;

/**
 * The user's note as it goes into the prompt: one line (a newline could read as a new
 * instruction to some engines), control characters removed, trimmed, at most MAX_NOTE_LENGTH
 * characters (counted in code points so an emoji is never cut in half).
 */
export function cleanUserNote(note: string | undefined): string {
  if (!note) return "";
  const oneLine = note
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(oneLine).slice(0, MAX_NOTE_LENGTH).join("").trim();
}

export interface PromptChoices {
  style: StyleKey;
  /** A custom style's content (required with a cs_ id). */
  customStyle?: StyleSnapshot;
  roomType: RoomType;
  /** What the picture shows: a room photo or a floor plan. */
  mode: InputMode;
  /** What to do with the room (default redesign). */
  renderMode?: RenderMode;
  /** The user's optional note. */
  note?: string;
  /** For a floor plan: what the engine makes of it (its capabilities.floorPlan; default an eye-level view). */
  planView?: PlanView;
  /**
   * A second picture is sent: the custom style's reference picture when the style's snapshot says it
   * was kept for the engine (referenceUsed), else another room of the same home whose look this one follows.
   */
  reference?: boolean;
}

/** The two things an engine can make of a plan. */
export type PlanView = Exclude<FloorPlanRender, "none">;

const KEEP_STRUCTURE = "Keep the walls, windows, doors and room layout exactly where they are, from the same camera angle and perspective.";

/** What to draw, by input and render mode. */
function subject(room: string, look: string, mode: InputMode, renderMode: RenderMode, planView: PlanView): string[] {
  if (mode === "floor-plan" && planView === "top-down") {
    // Engines that hold the drawing's lines keep its viewpoint: the plan itself, built and furnished, seen from above.
    return [
      `A photorealistic top-down 3D render of this floor plan of a ${room}, seen from directly above with the ceiling removed, furnished in ${look}.`,
      "Keep every wall, window and door exactly where the plan draws it; fill the rooms with floors, furniture and rugs to scale.",
    ];
  }
  if (mode === "floor-plan") {
    // A plan has no camera: the picture is the plan's room as if standing inside it, furnished.
    return [
      `A photorealistic interior render of the ${room} described by this floor plan, seen at eye level as if standing inside it, furnished in ${look}.`,
      "Keep the walls, windows, doors and room layout where the plan puts them, with realistic proportions and ceiling height.",
    ];
  }
  switch (renderMode) {
    case "stage":
      return [
        `A photorealistic photo of this empty ${room}, virtually staged: furnished and decorated in ${look}.`,
        `${KEEP_STRUCTURE} Keep the floor, ceiling and wall finishes; add furniture, rugs, lighting, plants and decor only.`,
      ];
    case "declutter":
      // Decluttering removes, it does not restyle: the style stays out of the prompt.
      return [
        `The same photo of this ${room} with the clutter removed: take away loose items, boxes, cables, laundry, personal belongings and mess.`,
        `Leave the furniture, finishes, lighting and decor that belong to the room as they are. ${KEEP_STRUCTURE}`,
      ];
    case "redesign":
      return [`A photorealistic photo of this ${room}, redesigned in ${look}.`, KEEP_STRUCTURE];
    // Exteriors (issue 33): what changes is named, and everything else is kept; the style plays no part.
    case "sky":
      return [
        "The same photo of this house from outside with the overcast or dull sky replaced by a clear blue sky with a few light white clouds, in daylight.",
        `Change only the sky and the light it casts. ${KEEP_HOUSE}`,
      ];
    case "twilight":
      return [
        "The same photo of this house from outside at dusk: a deep blue twilight sky with a warm glow at the horizon, every window lit warmly from inside, exterior lights on.",
        `Change only the sky, the light and the lit windows. ${KEEP_HOUSE}`,
      ];
    case "garden":
      return [
        "The same photo of this house from outside with the garden refreshed: a healthy, evenly green and mown lawn, tidy planting beds with fresh mulch and healthy shrubs, clean paths.",
        `Change only the lawn, plants and beds. ${KEEP_HOUSE}`,
      ];
  }
}

/** What an exterior's modes keep: the house itself, and what is around it. */
const KEEP_HOUSE =
  "Keep the house, its roof, walls, windows, doors, driveway and neighbouring buildings exactly as they are, from the same camera angle and perspective; add nothing that is not there.";

/** The positive prompt: what to draw and what to keep. */
export function buildPrompt({
  style,
  customStyle,
  roomType,
  mode,
  renderMode = "redesign",
  note,
  planView = "eye-level",
  reference,
}: PromptChoices): string {
  const parts = subject(ROOM_TYPE_NAMES[roomType], renderStyleOf(style, customStyle ?? null).look, mode, renderMode, planView);
  parts.push(
    isExteriorMode(renderMode)
      ? "Professional real estate exterior photography, realistic materials, high detail."
      : "Professional interior design photography, natural light, realistic materials, high detail.",
  );
  if (reference && customStyle?.referenceUsed)
    parts.push(
      "The second picture shows the look of this style: take its colours, materials, light and furniture families, not its room. Keep the first picture's room, walls and windows.",
    );
  else if (reference)
    parts.push(
      "The second picture shows another room of the same home, already designed: use the same colours, materials and furniture families, so both rooms look like one home. Keep the first picture's room, walls and windows.",
    );
  const cleanNote = cleanUserNote(note);
  if (cleanNote) parts.push(`The client also asks: ${cleanNote}`);
  return parts.join(" ");
}

/** What the engine should avoid: the usual image defects, and anything that moves the structure. */
export function buildNegativePrompt(
  mode: InputMode,
  renderMode: RenderMode = "redesign",
  planView: PlanView = "eye-level",
  customStyle?: Pick<StyleSnapshot, "avoid">,
): string {
  const common = [
    "blurry",
    "low quality",
    "lowres",
    "distorted",
    "deformed furniture",
    "warped walls",
    "moved or extra windows",
    "extra doors",
    "changed room layout",
    "people",
    "text",
    "watermark",
    "cartoon",
    "oversaturated",
  ];
  // A plan-to-room render tends to copy the drawing itself unless told not to.
  // A top view of the plan is what a top-down engine is asked for: only the drawing's look is avoided there.
  const planOnly =
    planView === "top-down"
      ? ["blueprint", "line drawing", "sketch", "diagram", "dimensions", "perspective view"]
      : ["floor plan", "blueprint", "top-down view", "line drawing", "diagram", "dimensions"];
  const byMode: Record<RenderMode, string[]> = {
    redesign: [],
    stage: ["empty room", "bare floor"],
    declutter: ["clutter", "mess", "boxes", "new furniture", "different style"],
    sky: ["overcast sky", "grey sky", "changed house", "new buildings"],
    twilight: ["daylight", "dark windows", "changed house", "new buildings"],
    garden: ["brown lawn", "weeds", "bare soil", "changed house", "new buildings"],
  };
  // What a custom style says to avoid (decluttering leaves the style out, and its avoidances with it).
  const styleAvoids = renderMode !== "declutter" && customStyle?.avoid ? [cleanUserNote(customStyle.avoid)] : [];
  return [...common, ...(mode === "floor-plan" ? planOnly : []), ...byMode[renderMode], ...styleAvoids].join(", ");
}

/**
 * For engines without a negative prompt field (instruction editors such as gpt-image-1,
 * FLUX.1 Kontext, Gemini): the positive prompt, then what to avoid, in words.
 */
export function buildInstructionPrompt(choices: PromptChoices): string {
  return `${buildPrompt(choices)} Avoid: ${buildNegativePrompt(choices.mode, choices.renderMode, choices.planView, choices.customStyle)}.`;
}

/**
 * A targeted edit of a painted region: what the client asked for there (cleaned like a note), to
 * fit the rest of the photo. Without a wish the region is filled in as if the object had never
 * been there. A paint edit names its exact colour instead (buildPaintPrompt).
 */
export function buildInpaintPrompt(wish: string | undefined, paint?: { colour: string; surface: PaintSurface }): string {
  if (paint) return buildPaintPrompt(paint);
  const fit = "photorealistic, matching the perspective, lighting and materials of the rest of the room";
  const clean = cleanUserNote(wish);
  return clean ? `${clean}, ${fit}.` : `The same room with this area filled in naturally, as if nothing had been there, ${fit}.`;
}

/** How a paint edit's prompt names what is painted. */
const PAINTED_SURFACE: Record<PaintSurface, string> = {
  walls: "wall",
  ceiling: "ceiling",
  cabinets: "cabinets",
  doors: "door",
  trim: "trim",
  other: "surface",
};

/**
 * A paint edit on an AI engine (issue 33): the region repainted in one exact colour, named by its
 * code and its RGB values (models read both), everything else kept. The Preview engine does not read
 * it: it recolours exactly.
 */
export function buildPaintPrompt(paint: { colour: string; surface: PaintSurface }): string {
  const [r, g, b] = rgbOfHex(paint.colour);
  return (
    `Repaint the ${PAINTED_SURFACE[paint.surface]} in this area with paint of the exact colour ${paint.colour.toUpperCase()} ` +
    `(RGB ${r}, ${g}, ${b}), an even matte finish, keeping its shading, shadows, light and texture; ` +
    "change nothing else, photorealistic."
  );
}

/**
 * The light refine pass after an AI upscale (ComfyUI's upscale-refine workflow): the same picture,
 * sharper. Nothing in the room is to change; the low denoise does the holding, the words the look.
 */
export function buildRefinePrompt(): string {
  return "The same interior photograph at high resolution: sharp focus, fine detail, crisp edges, realistic textures of wood, fabric, stone and metal, natural light.";
}
