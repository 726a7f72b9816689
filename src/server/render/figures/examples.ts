/**
 * The gallery's example pairs, made by the app itself: three rooms drawn as SVG, each graded by
 * the Preview engine in one style. Made once on first request and kept in storage.
 */
import sharp from "sharp";
import { UPLOAD_BUCKET } from "../../../shared/constants";
import type { DesignStyle, RoomType } from "../../../shared/styles";
import type { RenderContext } from "../context";
import { FILE_ROUTES } from "../links";
import { localProvider } from "../engines";

export interface GalleryPair {
  id: string;
  style: DesignStyle;
  roomType: RoomType;
  before: string;
  after: string;
}

interface Example {
  id: string;
  style: DesignStyle;
  roomType: RoomType;
  svg: string;
}

const room = (wall: string, floor: string, furniture: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640" viewBox="0 0 960 640">
    <rect width="960" height="640" fill="${wall}"/>
    <polygon points="0,470 960,470 960,640 0,640" fill="${floor}"/>
    <rect x="600" y="90" width="240" height="220" fill="#dbeafe" stroke="#f8fafc" stroke-width="14"/>
    <line x1="720" y1="90" x2="720" y2="310" stroke="#f8fafc" stroke-width="8"/>
    ${furniture}
  </svg>`;

const EXAMPLES: Example[] = [
  {
    id: "living-room-scandinavian",
    style: "scandinavian",
    roomType: "living-room",
    svg: room(
      "#b8a98f",
      "#7c5f43",
      `<rect x="90" y="360" width="380" height="120" rx="18" fill="#6b6f76"/><rect x="110" y="320" width="340" height="60" rx="16" fill="#80848c"/><rect x="520" y="430" width="160" height="50" fill="#5b4636"/><circle cx="880" cy="400" r="40" fill="#4d7c4f"/><rect x="872" y="430" width="16" height="50" fill="#3f2d20"/>`,
    ),
  },
  {
    id: "bedroom-modern",
    style: "modern",
    roomType: "bedroom",
    svg: room(
      "#a89f91",
      "#8a7a66",
      `<rect x="120" y="340" width="420" height="150" rx="10" fill="#e5e1da"/><rect x="120" y="280" width="420" height="80" rx="10" fill="#5e5448"/><rect x="160" y="320" width="140" height="40" rx="12" fill="#f5f5f4"/><rect x="580" y="400" width="90" height="80" fill="#57534e"/><circle cx="625" cy="375" r="22" fill="#fde68a"/>`,
    ),
  },
  {
    id: "kitchen-industrial",
    style: "industrial",
    roomType: "kitchen",
    svg: room(
      "#c4b9a7",
      "#6b6358",
      `<rect x="60" y="330" width="520" height="150" fill="#8d8476"/><rect x="60" y="310" width="520" height="24" fill="#d6d3d1"/><rect x="90" y="130" width="200" height="110" fill="#a39a8c"/><rect x="330" y="130" width="200" height="110" fill="#a39a8c"/><rect x="640" y="380" width="200" height="100" fill="#57534e"/><line x1="740" y1="0" x2="740" y2="200" stroke="#292524" stroke-width="4"/><circle cx="740" cy="215" r="24" fill="#fcd34d"/>`,
    ),
  },
];

const keyOf = (id: string, variant: "before" | "after") => `examples/${id}/${variant}.jpg`;

/** Per storage (each test server has its own), made once. */
const ready = new WeakMap<object, Promise<void>>();

async function makeExamples(deps: Pick<RenderContext, "storage">): Promise<void> {
  for (const example of EXAMPLES) {
    if (await deps.storage.get(UPLOAD_BUCKET, keyOf(example.id, "after"))) continue;
    const before = await sharp(Buffer.from(example.svg)).jpeg({ quality: 88 }).toBuffer();
    const after = await localProvider.render({
      image: before,
      width: 960,
      height: 640,
      style: example.style,
      roomType: example.roomType,
      mode: "room-photo",
      signal: new AbortController().signal,
    });
    await deps.storage.put(UPLOAD_BUCKET, keyOf(example.id, "before"), before, "image/jpeg");
    await deps.storage.put(UPLOAD_BUCKET, keyOf(example.id, "after"), after.image, "image/jpeg");
  }
}

/** The example pairs, made on first use (a failure is retried on the next request). */
export async function exampleGalleryPairs(deps: Pick<RenderContext, "storage">): Promise<GalleryPair[]> {
  let making = ready.get(deps.storage);
  if (!making) {
    making = makeExamples(deps).catch((error: unknown) => {
      ready.delete(deps.storage);
      throw error;
    });
    ready.set(deps.storage, making);
  }
  await making;
  return EXAMPLES.map(({ id, style, roomType }) => ({
    id,
    style,
    roomType,
    before: FILE_ROUTES.example(id, "before"),
    after: FILE_ROUTES.example(id, "after"),
  }));
}

/** The stored key of an example picture, or null for an unknown one. */
export function exampleKey(id: string, variant: string): string | null {
  if (!EXAMPLES.some((example) => example.id === id) || (variant !== "before" && variant !== "after")) return null;
  return keyOf(id, variant);
}
