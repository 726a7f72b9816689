/**
 * The listing-ready export (California Business and Professions Code §10140.8): a render with its
 * disclosure burned in, and a public page with the unaltered original. Limits, default disclosures
 * and the URLs both sides use.
 */
import type { Language } from "./constants";
import { isExteriorMode, type ExteriorMode, type RenderMode } from "./render";

export const LISTING = {
  /** Longest disclosure text: it must stay legible in the band below the picture, beside the QR code. */
  disclosureMax: 80,
  /** Characters of the public code (base64url: 6 random bits each, 72 in all). */
  codeLength: 12,
  /** Long edge of the original shown on the public page. */
  originalLongEdge: 2048,
} as const;

/**
 * The wording agents use, per language: staging adds furniture; an exterior names what it changed
 * (California's AB 723 asks that a replaced sky or view be disclosed); anything else changed the photo.
 */
export const DEFAULT_DISCLOSURES: Record<Language, Record<"stage" | "altered" | ExteriorMode, string>> = {
  en: {
    stage: "Virtually staged",
    altered: "Digitally altered",
    sky: "Digitally altered: sky replaced",
    twilight: "Digitally altered: virtual twilight (sky and lighting changed)",
    garden: "Digitally altered: lawn and plants enhanced",
  },
  es: {
    stage: "Amueblado virtualmente",
    altered: "Imagen modificada digitalmente",
    sky: "Imagen modificada digitalmente: cielo reemplazado",
    twilight: "Imagen modificada: crepúsculo virtual (cielo e iluminación cambiados)",
    garden: "Imagen modificada digitalmente: césped y plantas mejorados",
  },
  fr: {
    stage: "Meublé virtuellement",
    altered: "Image modifiée numériquement",
    sky: "Image modifiée numériquement : ciel remplacé",
    twilight: "Image modifiée : crépuscule virtuel (ciel et éclairage changés)",
    garden: "Image modifiée numériquement : pelouse et plantes embellies",
  },
};

export function defaultDisclosure(language: Language, renderMode: RenderMode): string {
  const texts = DEFAULT_DISCLOSURES[language];
  if (isExteriorMode(renderMode)) return texts[renderMode];
  return texts[renderMode === "stage" ? "stage" : "altered"];
}

/** Public codes: URL-safe, long enough to be unguessable; anything else is not looked up. */
export const LISTING_CODE_PATTERN = /^[A-Za-z0-9_-]{10,64}$/;

export const LISTING_ROUTES = {
  /** The public page (no sign-in) and its two pictures. */
  page: (code: string) => `/l/${code}`,
  original: (code: string) => `/l/${code}/original.jpg`,
  altered: (code: string) => `/l/${code}/altered.jpg`,
  /** The owner's exported picture: shown in the dialog, and as a download. */
  picture: (exportId: string) => `/files/listing/${exportId}/picture.jpg`,
  download: (exportId: string) => `/files/listing/${exportId}/download`,
  /** Every current export of a project, with originals and manifest.csv (owner only). */
  projectZip: (projectId: string) => `/files/listing/projects/${projectId}/zip`,
  /** Only a set's pictures ("Apply to the whole project"), the newest export of each. */
  setZip: (projectId: string, setId: string) => `/files/listing/projects/${projectId}/zip?set=${encodeURIComponent(setId)}`,
} as const;
