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
] as const;
export type RoomType = (typeof ROOM_TYPES)[number];

/** What the uploaded picture shows. */
export const INPUT_MODES = ["room-photo", "floor-plan"] as const;
export type InputMode = (typeof INPUT_MODES)[number];
