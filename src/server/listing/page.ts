/**
 * The public page of an export, server-rendered: the unaltered original and the altered picture
 * side by side (stacked on a phone), the disclosure and the export date, in the export's language.
 * No script, no cookie, no outside resource; light and dark follow the reader's system.
 */
import type { Language } from "../../shared/constants";
import { LISTING_ROUTES } from "../../shared/listing";

const PAGE_TEXTS: Record<
  Language,
  {
    title: string;
    intro: string;
    original: string;
    originalNote: string;
    altered: string;
    disclosure: string;
    exported: string;
    video: string;
    paints: string;
  }
> = {
  en: {
    title: "Original and altered photo",
    intro: "The listing shows a digitally altered picture of this room. Here is the original photo, unaltered, to compare.",
    original: "Original photo",
    originalNote: "Unaltered",
    altered: "Altered picture",
    disclosure: "Disclosure",
    exported: "Published on {date}",
    video: "Video of the listing (digitally altered pictures)",
    paints: "Paint colours in the altered picture",
  },
  es: {
    title: "Foto original y foto modificada",
    intro:
      "El anuncio muestra una imagen modificada digitalmente de esta estancia. Aquí tiene la foto original, sin modificar, para comparar.",
    original: "Foto original",
    originalNote: "Sin modificar",
    altered: "Imagen modificada",
    disclosure: "Aviso",
    exported: "Publicado el {date}",
    video: "Vídeo del anuncio (imágenes modificadas digitalmente)",
    paints: "Colores de pintura de la imagen modificada",
  },
  fr: {
    title: "Photo originale et photo modifiée",
    intro: "L’annonce montre une image modifiée numériquement de cette pièce. Voici la photo originale, non retouchée, pour comparer.",
    original: "Photo originale",
    originalNote: "Non retouchée",
    altered: "Image modifiée",
    disclosure: "Mention",
    exported: "Publié le {date}",
    video: "Vidéo de l’annonce (images modifiées numériquement)",
    paints: "Couleurs de peinture de l’image modifiée",
  },
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

/** Inline styles: the app's CSP allows them (style-src 'unsafe-inline'); it allows no inline script, and there is none. */
const STYLE = `
:root { color-scheme: light dark; --bg: #f8fafc; --fg: #0f172a; --muted: #475569; --card: #ffffff; --line: #e2e8f0; --badge-bg: #111111; --badge-fg: #ffffff; --accent: #fbbf24; }
@media (prefers-color-scheme: dark) { :root { --bg: #020617; --fg: #f1f5f9; --muted: #94a3b8; --card: #0f172a; --line: #1e293b; --badge-bg: #f8fafc; --badge-fg: #0f172a; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 16px 40px; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 8px; }
p { margin: 0 0 12px; color: var(--muted); }
.disclosure { display: inline-flex; flex-wrap: wrap; align-items: baseline; gap: 8px; margin: 4px 0 16px; padding: 8px 14px; border-left: 4px solid var(--accent); background: var(--badge-bg); color: var(--badge-fg); border-radius: 6px; font-weight: 700; font-size: 1.125rem; }
.disclosure span { font-weight: 500; font-size: 0.875rem; opacity: 0.8; }
.pair { display: grid; grid-template-columns: 1fr; gap: 16px; margin-top: 8px; }
@media (min-width: 720px) { .pair { grid-template-columns: 1fr 1fr; } h1 { font-size: 1.875rem; } main { padding: 40px 24px 56px; } }
figure { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 12px; overflow: hidden; }
img { display: block; width: 100%; height: auto; background: var(--line); }
.video { margin-top: 24px; } .video h2 { font-size: 1.125rem; margin: 0 0 8px; } video { display: block; max-width: 100%; max-height: 80vh; border-radius: 12px; background: #000; }
figcaption { padding: 10px 14px; font-weight: 600; display: flex; justify-content: space-between; gap: 8px; flex-wrap: wrap; }
figcaption span { font-weight: 400; color: var(--muted); }
.date { margin-top: 20px; font-size: 0.875rem; }
.paints { margin-top: 16px; } .paints h2 { font-size: 1rem; margin: 0 0 6px; } .paints ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 16px; }
.paints li { display: inline-flex; align-items: center; gap: 8px; font-variant-numeric: tabular-nums; } .swatch { width: 20px; height: 20px; border-radius: 4px; border: 1px solid var(--line); }
`;

export interface ListingPageData {
  code: string;
  language: Language;
  disclosure: string;
  createdAt: number;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  /** The owner shows the project's listing video on its pages (issue 33). */
  video?: boolean;
  /** The exact paint colours in the altered picture's making, named in the export's language (issue 33). */
  paints?: Array<{ label: string; colour: string }>;
}

export function listingPageHtml(data: ListingPageData): string {
  const texts = PAGE_TEXTS[data.language];
  const date = new Intl.DateTimeFormat(data.language, { dateStyle: "long", timeZone: "UTC" }).format(data.createdAt);
  const disclosure = escapeHtml(data.disclosure);
  return `<!doctype html>
<html lang="${data.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(texts.title)} · ${disclosure}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(texts.title)}</h1>
<p>${escapeHtml(texts.intro)}</p>
<p class="disclosure" data-testid="listing-disclosure"><span>${escapeHtml(texts.disclosure)}:</span> ${disclosure}</p>
<div class="pair">
<figure>
<img src="${LISTING_ROUTES.original(data.code)}" width="${data.originalWidth}" height="${data.originalHeight}" alt="${escapeHtml(texts.original)}">
<figcaption>${escapeHtml(texts.original)} <span>${escapeHtml(texts.originalNote)}</span></figcaption>
</figure>
<figure>
<img src="${LISTING_ROUTES.altered(data.code)}" width="${data.width}" height="${data.height}" alt="${escapeHtml(texts.altered)}: ${disclosure}">
<figcaption>${escapeHtml(texts.altered)} <span>${disclosure}</span></figcaption>
</figure>
</div>
${
  data.paints?.length
    ? `<section class="paints" data-testid="listing-paints"><h2>${escapeHtml(texts.paints)}</h2><ul>${data.paints
        .map(
          (paint) =>
            `<li><span class="swatch" style="background:${escapeHtml(paint.colour)}" aria-hidden="true"></span>${escapeHtml(paint.label)}</li>`,
        )
        .join("")}</ul></section>\n`
    : ""
}${
    data.video
      ? `<section class="video"><h2>${escapeHtml(texts.video)}</h2><video controls preload="metadata" playsinline src="${LISTING_ROUTES.page(data.code)}/video.mp4" data-testid="listing-video"></video></section>\n`
      : ""
  }<p class="date" data-testid="listing-date">${escapeHtml(texts.exported.replace("{date}", () => date))}</p>
</main>
</body>
</html>
`;
}

/** What a missing or revoked code answers: nothing about what was there. */
export const NOT_FOUND_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>Not found</title>
<style>:root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:48px 16px;text-align:center}</style></head>
<body><h1>404</h1><p>Not found</p></body></html>
`;
