/**
 * A drawn swatch of each design style: a small room in the style's colours with one telling
 * detail, and its palette. Drawn here (inline SVG), never an image from elsewhere. A custom style's
 * room is drawn from its own palette (lookOfPalette).
 */
import type { DesignStyle } from "../../../shared/styles";

type Detail =
  "arcLamp" | "plant" | "pendant" | "none" | "sideboard" | "bonsai" | "macrame" | "stripes" | "shiplap" | "frame" | "arch" | "chandelier";

interface Look {
  wall: string;
  floor: string;
  sofa: string;
  cushion: string;
  rug: string;
  detail: Detail;
  /** The palette chips under the room. */
  palette: readonly string[];
}

export const STYLE_LOOKS: Record<DesignStyle, Look> = {
  modern: {
    wall: "#e5e7eb",
    floor: "#9ca3af",
    sofa: "#1f2937",
    cushion: "#3b82f6",
    rug: "#d1d5db",
    detail: "arcLamp",
    palette: ["#111827", "#e5e7eb", "#3b82f6", "#9ca3af"],
  },
  scandinavian: {
    wall: "#f8f5ef",
    floor: "#e3c9a0",
    sofa: "#cbd5e1",
    cushion: "#f1e3c6",
    rug: "#ffffff",
    detail: "plant",
    palette: ["#f8f5ef", "#e3c9a0", "#cbd5e1", "#6b8f71"],
  },
  industrial: {
    wall: "#8b5e4a",
    floor: "#44403c",
    sofa: "#92400e",
    cushion: "#1c1917",
    rug: "#57534e",
    detail: "pendant",
    palette: ["#8b5e4a", "#44403c", "#92400e", "#1c1917"],
  },
  minimalist: {
    wall: "#fafafa",
    floor: "#e5e5e5",
    sofa: "#d4d4d4",
    cushion: "#fafafa",
    rug: "#f5f5f5",
    detail: "none",
    palette: ["#fafafa", "#e5e5e5", "#a3a3a3", "#171717"],
  },
  "mid-century-modern": {
    wall: "#f5e6c8",
    floor: "#a0522d",
    sofa: "#0f766e",
    cushion: "#ea580c",
    rug: "#fcd34d",
    detail: "sideboard",
    palette: ["#0f766e", "#ea580c", "#fcd34d", "#a0522d"],
  },
  japandi: {
    wall: "#ede4d3",
    floor: "#b08d6a",
    sofa: "#d6cbb8",
    cushion: "#3f3f2e",
    rug: "#e7dccb",
    detail: "bonsai",
    palette: ["#ede4d3", "#b08d6a", "#3f3f2e", "#8a9a5b"],
  },
  bohemian: {
    wall: "#f3d9b1",
    floor: "#c2703d",
    sofa: "#b45309",
    cushion: "#be185d",
    rug: "#7c2d12",
    detail: "macrame",
    palette: ["#b45309", "#be185d", "#15803d", "#f3d9b1"],
  },
  coastal: {
    wall: "#eaf4fb",
    floor: "#e7d8bd",
    sofa: "#ffffff",
    cushion: "#60a5fa",
    rug: "#bfdbfe",
    detail: "stripes",
    palette: ["#eaf4fb", "#60a5fa", "#1e3a8a", "#e7d8bd"],
  },
  farmhouse: {
    wall: "#f4efe6",
    floor: "#8b6b4a",
    sofa: "#e7e0d3",
    cushion: "#4d7c0f",
    rug: "#d6cfc2",
    detail: "shiplap",
    palette: ["#f4efe6", "#8b6b4a", "#4d7c0f", "#e7e0d3"],
  },
  traditional: {
    wall: "#e8dcc4",
    floor: "#7c4a2d",
    sofa: "#7f1d1d",
    cushion: "#b7913f",
    rug: "#9a3412",
    detail: "frame",
    palette: ["#7f1d1d", "#b7913f", "#e8dcc4", "#7c4a2d"],
  },
  "art-deco": {
    wall: "#0f3d3e",
    floor: "#1c1917",
    sofa: "#b8860b",
    cushion: "#0f3d3e",
    rug: "#292524",
    detail: "arch",
    palette: ["#0f3d3e", "#d4af37", "#1c1917", "#f5f0e1"],
  },
  luxury: {
    wall: "#f1ece2",
    floor: "#d6d3d1",
    sofa: "#334155",
    cushion: "#c9a227",
    rug: "#e7e5e4",
    detail: "chandelier",
    palette: ["#334155", "#c9a227", "#f1ece2", "#78716c"],
  },
};

function DetailShape({ detail, look }: { detail: Detail; look: Look }) {
  const accent = look.palette[1];
  switch (detail) {
    case "arcLamp":
      return (
        <g>
          <path d="M100 62 V28 Q100 14 84 16" fill="none" stroke="#111827" strokeWidth="2" />
          <circle cx="82" cy="19" r="5" fill="#fde68a" stroke="#111827" strokeWidth="1.5" />
        </g>
      );
    case "plant":
      return (
        <g>
          <rect x="98" y="50" width="10" height="12" rx="2" fill="#ffffff" stroke="#d6d3d1" />
          <ellipse cx="103" cy="42" rx="7" ry="10" fill="#6b8f71" />
        </g>
      );
    case "pendant":
      return (
        <g>
          <line x1="60" y1="0" x2="60" y2="14" stroke="#1c1917" strokeWidth="1.5" />
          <path d="M53 20 L60 13 L67 20 Z" fill="#1c1917" />
          <circle cx="60" cy="21" r="2" fill="#fde68a" />
        </g>
      );
    case "sideboard":
      return (
        <g>
          <rect x="92" y="44" width="22" height="12" rx="1.5" fill="#a0522d" />
          <line x1="95" y1="56" x2="94" y2="62" stroke="#3f2a1a" strokeWidth="1.5" />
          <line x1="111" y1="56" x2="112" y2="62" stroke="#3f2a1a" strokeWidth="1.5" />
          <circle cx="103" cy="38" r="5" fill="#ea580c" />
        </g>
      );
    case "bonsai":
      return (
        <g>
          <rect x="96" y="56" width="14" height="5" rx="1" fill="#3f3f2e" />
          <path d="M103 56 Q101 50 104 46" stroke="#5b4636" strokeWidth="1.5" fill="none" />
          <ellipse cx="104" cy="44" rx="8" ry="4" fill="#8a9a5b" />
        </g>
      );
    case "macrame":
      return (
        <g>
          <line x1="20" y1="8" x2="40" y2="8" stroke="#7c2d12" strokeWidth="2" />
          {[22, 26, 30, 34, 38].map((x) => (
            <line key={x} x1={x} y1="8" x2={x} y2="24" stroke="#fef3c7" strokeWidth="1.5" />
          ))}
          <ellipse cx="104" cy="44" rx="9" ry="12" fill="#15803d" />
          <rect x="98" y="52" width="12" height="10" rx="2" fill="#be185d" />
        </g>
      );
    case "stripes":
      return (
        <g>
          <rect x="16" y="10" width="30" height="20" rx="1" fill="#bfdbfe" stroke="#ffffff" strokeWidth="2" />
          <path d="M16 24 Q24 20 31 24 T46 24" stroke="#1e3a8a" strokeWidth="1.5" fill="none" />
        </g>
      );
    case "shiplap":
      return (
        <g stroke="#e2d9c8" strokeWidth="1">
          {[12, 20, 28, 36, 44].map((y) => (
            <line key={y} x1="0" y1={y} x2="120" y2={y} />
          ))}
        </g>
      );
    case "frame":
      return (
        <g>
          <rect x="46" y="8" width="28" height="18" fill="#9a3412" stroke="#b7913f" strokeWidth="3" />
        </g>
      );
    case "arch":
      return (
        <g>
          <path d="M46 30 V16 A14 14 0 0 1 74 16 V30" fill="none" stroke="#d4af37" strokeWidth="2" />
          <path d="M52 30 V18 A8 8 0 0 1 68 18 V30" fill="none" stroke="#d4af37" strokeWidth="1" />
        </g>
      );
    case "chandelier":
      return (
        <g>
          <line x1="60" y1="0" x2="60" y2="8" stroke={accent} strokeWidth="1.5" />
          <path d="M48 12 Q60 20 72 12" fill="none" stroke={accent} strokeWidth="2" />
          {[48, 54, 60, 66, 72].map((x) => (
            <circle key={x} cx={x} cy={x === 60 ? 18 : 14} r="1.8" fill="#fde68a" />
          ))}
        </g>
      );
    default:
      return null;
  }
}

const channels = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
const toHex = (rgb: number[]) => `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, "0")).join("")}`;
/** The colour moved `amount` (0–1) of the way towards `to`. */
const mix = (hex: string, to: string, amount: number) => {
  const [from, target] = [channels(hex), channels(to)];
  return toHex(from.map((value, index) => value + (target[index]! - value) * amount));
};
const lightness = (hex: string) => {
  const [red, green, blue] = channels(hex);
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
};
const saturation = (hex: string) => Math.max(...channels(hex)) - Math.min(...channels(hex));

/**
 * A custom style's room, drawn from its palette (one to six #rrggbb colours): the lightest colour
 * on the walls, the darkest on the floor, the sofa in a middle one, the cushions in the most
 * vivid; a palette of one colour gets lighter and darker shades of it.
 */
export function lookOfPalette(palette: readonly string[]): Look {
  const colours = palette.length > 0 ? [...palette] : ["#cbd5e1"];
  const byLightness = [...colours].sort((a, b) => lightness(b) - lightness(a));
  const lightest = byLightness[0]!;
  const darkest = byLightness[byLightness.length - 1]!;
  const middle = byLightness[Math.floor(byLightness.length / 2)]!;
  const vivid = [...colours].sort((a, b) => saturation(b) - saturation(a))[0]!;
  const single = colours.length === 1;
  return {
    wall: single ? mix(lightest, "#ffffff", 0.7) : lightest,
    floor: single ? mix(darkest, "#000000", 0.35) : darkest,
    sofa: middle === lightest || middle === darkest ? mix(middle, "#000000", 0.15) : middle,
    cushion: vivid === middle ? mix(vivid, "#ffffff", 0.35) : vivid,
    rug: mix(byLightness[Math.min(1, byLightness.length - 1)]!, "#ffffff", 0.4),
    detail: "none",
    palette: colours,
  };
}

/** The drawn room of a style; decorative (the card around it names the style). */
export function StyleSwatch({ style, className }: { style: DesignStyle; className?: string }) {
  return <RoomSwatch look={STYLE_LOOKS[style]} className={className} />;
}

/** A custom style's drawn room and palette; decorative. */
export function PaletteSwatch({ palette, className }: { palette: readonly string[]; className?: string }) {
  return <RoomSwatch look={lookOfPalette(palette)} className={className} />;
}

function RoomSwatch({ look, className }: { look: Look; className?: string }) {
  return (
    <div className={className} aria-hidden="true">
      <svg viewBox="0 0 120 80" className="block h-auto w-full" preserveAspectRatio="xMidYMid slice">
        <rect width="120" height="62" fill={look.wall} />
        <DetailShape detail={look.detail} look={look} />
        <rect y="62" width="120" height="18" fill={look.floor} />
        <ellipse cx="56" cy="70" rx="36" ry="5" fill={look.rug} opacity="0.9" />
        {/* Sofa: back, seat, arms, legs. */}
        <rect x="28" y="40" width="56" height="14" rx="4" fill={look.sofa} />
        <rect x="24" y="50" width="64" height="10" rx="3" fill={look.sofa} />
        <rect x="22" y="46" width="8" height="14" rx="3" fill={look.sofa} />
        <rect x="82" y="46" width="8" height="14" rx="3" fill={look.sofa} />
        <rect x="36" y="43" width="12" height="8" rx="2" fill={look.cushion} />
        <rect x="64" y="43" width="12" height="8" rx="2" fill={look.cushion} />
        <rect x="27" y="60" width="2" height="3" fill="#292524" />
        <rect x="83" y="60" width="2" height="3" fill="#292524" />
        {/* A thin outline so pale styles stay visible on white cards. */}
        <rect x="0.5" y="0.5" width="119" height="79" fill="none" stroke="#0f172a" strokeOpacity="0.08" />
      </svg>
      <div className="flex h-2.5">
        {look.palette.map((colour, index) => (
          <span key={`${index}${colour}`} className="flex-1" style={{ backgroundColor: colour }} />
        ))}
      </div>
    </div>
  );
}
