/**
 * What every page knows of the studio (/admin → Studio), without zod: the landing page's first load
 * reads it. The accent colour's palette and its WCAG contrast check live here too, shared by the
 * server (which refuses a colour that fails and writes the palette into each page) and /admin.
 */
import { CREDITS, PRODUCT_NAME } from "./constants";

/** The accent of the shipped theme (Tailwind's indigo-600): no override is sent while it is the accent. */
export const DEFAULT_ACCENT = "#4f46e5";

/** What every page knows of the studio (sent inside each HTML page, so the first paint shows it). */
export interface PublicStudio {
  name: string;
  supportEmail: string;
  /** The accent colour: buttons, links, focus rings (brand-600 of the theme). */
  accentColor: string;
  logo: { url: string; width: number; height: number } | null;
  signUpCredits: number;
  hasTerms: boolean;
  hasPrivacy: boolean;
}

export const DEFAULT_PUBLIC_STUDIO: PublicStudio = {
  name: PRODUCT_NAME,
  supportEmail: "support@roomcanvas.local",
  accentColor: DEFAULT_ACCENT,
  logo: null,
  signUpCredits: CREDITS.signUpGrant,
  hasTerms: false,
  hasPrivacy: false,
};

/**
 * The studio's name as the start of a downloaded file's name: "Casa Nová Studio" →
 * "casa-nova-studio" (letters and digits only, accents dropped), so that a renamed studio's
 * downloads carry its name; the shipped name when nothing usable is left.
 */
export function fileNamePrefix(studioName: string): string {
  const slug = studioName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug || PRODUCT_NAME.toLowerCase();
}

// ---- The accent's palette and its contrast (WCAG 2.2 AA) ----

type Rgb = readonly [number, number, number];

const toLinear = (channel: number) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);
const fromLinear = (value: number) => (value <= 0.0031308 ? 12.92 * value : 1.055 * value ** (1 / 2.4) - 0.055);

function parseHex(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255];
}

function toHex(rgb: Rgb): string {
  return `#${rgb
    .map((channel) =>
      Math.round(Math.min(1, Math.max(0, channel)) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** sRGB → OKLCH (Björn Ottosson's OKLab). */
function toOklch(rgb: Rgb): [number, number, number] {
  const [r, g, b] = rgb.map(toLinear) as unknown as Rgb;
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return [L, Math.hypot(A, B), Math.atan2(B, A)];
}

/** OKLCH → linear sRGB (may be out of gamut). */
function oklchToLinear(L: number, C: number, h: number): Rgb {
  const A = C * Math.cos(h);
  const B = C * Math.sin(h);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** The colour at lightness L and hue h with as much of chroma C as sRGB can show. */
function inGamut(L: number, C: number, h: number): string {
  let chroma = C;
  for (let step = 0; step < 40; step++) {
    const linear = oklchToLinear(L, chroma, h);
    if (linear.every((channel) => channel >= -0.0005 && channel <= 1.0005)) return toHex(linear.map(fromLinear) as unknown as Rgb);
    chroma *= 0.9;
  }
  return toHex(oklchToLinear(L, 0, h).map(fromLinear) as unknown as Rgb);
}

/** The theme's brand shades (styles.css's --color-brand-*) made from one accent: 600 is the accent itself. */
export function brandPalette(accent: string): Record<"50" | "100" | "500" | "600" | "700", string> {
  const color = accent.toLowerCase();
  const [L, C, h] = toOklch(parseHex(color));
  // The lightness steps and chroma ratios of Tailwind's indigo around its 600, applied to this hue.
  return {
    "50": inGamut(0.962, C * 0.07, h),
    "100": inGamut(0.93, C * 0.13, h),
    "500": inGamut(Math.min(0.95, L + 0.074), C * 0.89, h),
    "600": color,
    "700": inGamut(Math.max(0.05, L - 0.054), C * 0.92, h),
  };
}

/** WCAG 2.x relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map(toLinear) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The pairs the interface draws with the accent, per theme, and the ratio each needs (text 4.5:1, focus ring 3:1). */
export type ContrastPair = "buttonText" | "linkOnPage" | "textOnTint" | "textOnDarkTint" | "focusRing";
export interface ContrastCheck {
  theme: "light" | "dark";
  pair: ContrastPair;
  ratio: number;
  needs: number;
  ok: boolean;
}

const WHITE = "#ffffff";
/** slate-900 and slate-950: the dark theme's surfaces. */
const DARK_SURFACE = "#0f172a";
const DARK_PAGE = "#020617";

/** Every accent pair checked against WCAG AA in both themes; ok when all pass. */
export function accentContrast(accent: string): { ok: boolean; checks: ContrastCheck[] } {
  const palette = brandPalette(accent);
  const check = (theme: ContrastCheck["theme"], pair: ContrastPair, a: string, b: string, needs: number): ContrastCheck => {
    const ratio = Math.floor(contrastRatio(a, b) * 100) / 100;
    return { theme, pair, ratio, needs, ok: ratio >= needs };
  };
  const checks = [
    check("light", "buttonText", WHITE, palette["600"], 4.5),
    check("light", "linkOnPage", palette["600"], WHITE, 4.5),
    check("light", "textOnTint", palette["700"], palette["50"], 4.5),
    check("dark", "buttonText", WHITE, palette["600"], 4.5),
    check("dark", "textOnDarkTint", palette["100"], DARK_SURFACE, 4.5),
    check("dark", "focusRing", palette["500"], DARK_PAGE, 3),
  ];
  return { ok: checks.every((item) => item.ok), checks };
}

/**
 * The CSS a page needs for the studio's accent and logo: the theme's brand variables (styles.css
 * holds the shipped ones) and the logo in place of the shipped mark (components/Brand.tsx).
 */
export function studioCss(studio: Pick<PublicStudio, "accentColor" | "logo">): string {
  const rules: string[] = [];
  if (studio.accentColor !== DEFAULT_ACCENT) {
    const variables = Object.entries(brandPalette(studio.accentColor)).map(([shade, color]) => `--color-brand-${shade}:${color}`);
    rules.push(`:root{${variables.join(";")}}`);
  }
  if (studio.logo) {
    rules.push(
      `.brand-mark-default{display:none}.brand-mark-logo{display:block;background:url("${studio.logo.url}") center/contain no-repeat}`,
    );
  }
  return rules.join("");
}
