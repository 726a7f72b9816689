/**
 * The benchmark's photo: a 4000×3000 (12 MP) JPEG at quality 90 that compresses and decodes like
 * a real room photo. A room drawn in SVG (gradients for the light on walls and floor, furniture,
 * a window) with sharp's Gaussian noise laid over it as sensor grain; a flat colour would
 * compress to almost nothing and decode unrealistically fast.
 */
import sharp from "sharp";

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

function roomSvg(width: number, height: number): string {
  const floorY = height * 0.68;
  const planks = Array.from({ length: 24 }, (_, index) => {
    const x = (index / 24) * width;
    return `<line x1="${x}" y1="${floorY}" x2="${x - width * 0.3 + (index / 24) * width * 0.6}" y2="${height}" stroke="#5a4330" stroke-width="6" opacity="0.5"/>`;
  }).join("");
  const books = Array.from({ length: 18 }, (_, index) => {
    const hue = (index * 47) % 360;
    return `<rect x="${width * 0.72 + index * 34}" y="${height * 0.3 + (index % 3) * 12}" width="28" height="${180 - (index % 3) * 12}" fill="hsl(${hue},45%,42%)"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="0.4">
      <stop offset="0" stop-color="#e9e1d3"/><stop offset="0.55" stop-color="#c9b99f"/><stop offset="1" stop-color="#8f7f69"/>
    </linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#8a6a4b"/><stop offset="1" stop-color="#4e3826"/>
    </linearGradient>
    <radialGradient id="light" cx="0.3" cy="0.35" r="0.6">
      <stop offset="0" stop-color="#fff6e0" stop-opacity="0.55"/><stop offset="1" stop-color="#fff6e0" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="sofa" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#6f7d8c"/><stop offset="1" stop-color="#3d4650"/>
    </linearGradient>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#9cc7ee"/><stop offset="1" stop-color="#e3f0fa"/>
    </linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#wall)"/>
  <rect x="${width * 0.08}" y="${height * 0.12}" width="${width * 0.26}" height="${height * 0.36}" fill="url(#sky)" stroke="#f4f1ea" stroke-width="40"/>
  <line x1="${width * 0.21}" y1="${height * 0.12}" x2="${width * 0.21}" y2="${height * 0.48}" stroke="#f4f1ea" stroke-width="24"/>
  <rect y="${floorY}" width="100%" height="${height - floorY}" fill="url(#floor)"/>
  ${planks}
  <rect x="${width * 0.7}" y="${height * 0.26}" width="${width * 0.2}" height="${height * 0.42}" fill="#5b4636"/>
  ${books}
  <rect x="${width * 0.22}" y="${height * 0.5}" width="${width * 0.42}" height="${height * 0.2}" rx="60" fill="url(#sofa)"/>
  <rect x="${width * 0.25}" y="${height * 0.45}" width="${width * 0.1}" height="${height * 0.1}" rx="30" fill="#c98f5a"/>
  <rect x="${width * 0.5}" y="${height * 0.45}" width="${width * 0.1}" height="${height * 0.1}" rx="30" fill="#d9c27a"/>
  <ellipse cx="${width * 0.45}" cy="${height * 0.86}" rx="${width * 0.2}" ry="${height * 0.07}" fill="#a44a3f" opacity="0.8"/>
  <circle cx="${width * 0.12}" cy="${height * 0.6}" r="${height * 0.08}" fill="#3e6b48"/>
  <rect x="${width * 0.1}" y="${height * 0.62}" width="${width * 0.04}" height="${height * 0.1}" fill="#b0876a"/>
  <rect width="100%" height="100%" fill="url(#light)"/>
</svg>`;
}

/** Share of the grain laid over the drawing: about 3 MB at quality 90, like a phone's 12 MP photo. */
const GRAIN_OPACITY = 0.3;

/** The JPEG bytes (takes a few seconds: 12 MP of noise). */
export async function makeRoomPhoto(width = PHOTO_WIDTH, height = PHOTO_HEIGHT): Promise<Buffer> {
  const drawing = await sharp(Buffer.from(roomSvg(width, height)))
    .removeAlpha()
    .raw()
    .toBuffer();
  const grain = await sharp({
    create: { width, height, channels: 3, background: "#000000", noise: { type: "gaussian", mean: 128, sigma: 30 } },
  })
    .ensureAlpha(GRAIN_OPACITY)
    .raw()
    .toBuffer();
  return sharp(drawing, { raw: { width, height, channels: 3 } })
    .composite([{ input: grain, raw: { width, height, channels: 4 }, blend: "over" }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
