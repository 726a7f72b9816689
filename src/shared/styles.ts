/**
 * Design styles and room types the studio offers. Names are translated in the client
 * (i18n keys styles.<id> and roomTypes.<id>); the ids are what the server stores and renders.
 * Modern, Scandinavian and Industrial come first, as in the demo.
 */
export const DESIGN_STYLES = [
  "modern",
  "scandinavian",
  "industrial",
  "minimalist",
  "mid-century-modern",
  "japandi",
  "bohemian",
  "coastal",
  "farmhouse",
  "traditional",
  "art-deco",
  "luxury",
] as const;
export type DesignStyle = (typeof DESIGN_STYLES)[number];

export const ROOM_TYPES = [
  "living-room",
  "bedroom",
  "kitchen",
  "bathroom",
  "dining-room",
  "home-office",
  "kids-room",
  "outdoor-patio",
  // The front or back of a house, from outside (issue 33): its own modes (sky, twilight, garden).
  "exterior",
] as const;
export type RoomType = (typeof ROOM_TYPES)[number];

/** What the uploaded picture shows. */
export const INPUT_MODES = ["room-photo", "floor-plan"] as const;
export type InputMode = (typeof INPUT_MODES)[number];

/**
 * Words in a photo's file name that say which room it shows, in English, Spanish and French
 * ("IMG_2041-kitchen.jpg", "salle-de-bain.jpg"). Checked in this order: a kids' bedroom is a
 * kids' room, a bathroom is not a bedroom.
 */
const ROOM_WORDS: ReadonlyArray<readonly [RoomType, readonly string[]]> = [
  ["kids-room", ["kid", "child", "nursery", "enfant", "nino", "infantil", "bebe"]],
  ["bathroom", ["bath", "bano", "salle de bain", "salle d eau", "sdb", "toilet", "wc", "aseo", "shower", "douche"]],
  ["dining-room", ["dining", "comedor", "salle a manger"]],
  ["kitchen", ["kitchen", "cocina", "cuisine"]],
  ["home-office", ["office", "study", "bureau", "despacho", "oficina", "estudio"]],
  ["exterior", ["exterior", "exterieur", "facade", "fachada", "frontage", "curb appeal"]],
  ["outdoor-patio", ["patio", "terrace", "terraza", "terrasse", "garden", "jardin", "balcon", "deck", "porch", "yard"]],
  ["bedroom", ["bed", "chambre", "dormitorio", "habitacion", "recamara"]],
  ["living-room", ["living", "lounge", "family room", "salon", "sala", "sejour"]],
];

/** The room a photo's file name names, or null when it names none (the user then chooses). */
export function guessRoomType(fileName: string): RoomType | null {
  const words = ` ${fileName
    .replace(/\.[a-z0-9]+$/i, "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")} `;
  for (const [room, names] of ROOM_WORDS) {
    // A name counts at the start of a word ("bedroom2", "kitchen-1"), not inside one ("embed").
    if (names.some((name) => words.includes(` ${name}`))) return room;
  }
  return null;
}
