/**
 * Drawings of the information pages (inline SVG, drawn here, never images from elsewhere).
 * They are decorative: the text next to them says what they show. Colours follow the theme
 * through Tailwind's fill and stroke classes.
 */

const frame = "block h-auto w-full";
const paper = "fill-white dark:fill-slate-800";
const line = "stroke-slate-300 dark:stroke-slate-600";
const ink = "fill-slate-700 dark:fill-slate-200";
const brand = "fill-brand-600 dark:fill-brand-500";
const soft = "fill-brand-100 dark:fill-brand-700/40";

/** A small room: wall, floor, window and sofa, in the given colours. */
function Room({
  x,
  y,
  w,
  h,
  wall,
  floor,
  sofa,
}: {
  x: number;
  y: number;
  w: number;
  h: number;
  wall: string;
  floor: string;
  sofa: string;
}) {
  return (
    <g>
      <rect x={x} y={y} width={w} height={h * 0.72} fill={wall} />
      <rect x={x} y={y + h * 0.72} width={w} height={h * 0.28} fill={floor} />
      <rect x={x + w * 0.62} y={y + h * 0.14} width={w * 0.26} height={h * 0.3} fill="#dbeafe" stroke="#f8fafc" strokeWidth="2" />
      <rect x={x + w * 0.1} y={y + h * 0.5} width={w * 0.42} height={h * 0.22} rx="4" fill={sofa} />
      <rect x={x + w * 0.14} y={y + h * 0.42} width={w * 0.34} height={h * 0.14} rx="4" fill={sofa} opacity="0.85" />
    </g>
  );
}

/** Step 1: a photo of a room going up, with the accepted formats. */
export function UploadDrawing() {
  return (
    <svg viewBox="0 0 240 160" className={frame} aria-hidden="true">
      <rect x="8" y="8" width="224" height="144" rx="14" className={soft} />
      <rect x="34" y="34" width="112" height="96" rx="8" className={paper} />
      <Room x={42} y={42} w={96} h={66} wall="#b8a98f" floor="#7c5f43" sofa="#6b6f76" />
      <rect x="42" y="114" width="40" height="8" rx="4" className="fill-slate-200 dark:fill-slate-600" />
      <rect x="156" y="50" width="58" height="64" rx="8" fill="none" strokeDasharray="5 4" strokeWidth="2" className="stroke-brand-500" />
      <circle cx="185" cy="76" r="14" className={brand} />
      <path
        d="M185 84 V69 M178 75 L185 68 L192 75"
        stroke="#fff"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <text x="185" y="106" textAnchor="middle" fontSize="9" fontWeight="600" className={ink}>
        JPG · PNG
      </text>
    </svg>
  );
}

/** Step 3: a render on its way, with its stages and a progress bar. */
export function ProgressDrawing() {
  const stages = [40, 80, 120, 160, 200];
  return (
    <svg viewBox="0 0 240 160" className={frame} aria-hidden="true">
      <rect x="8" y="8" width="224" height="144" rx="14" className={soft} />
      <rect x="28" y="24" width="184" height="112" rx="10" className={paper} />
      <Room x={40} y={36} w={72} h={56} wall="#f8f5ef" floor="#e3c9a0" sofa="#cbd5e1" />
      <rect x="40" y="36" width="72" height="56" fill="url(#shimmer)" opacity="0.5" />
      <defs>
        <linearGradient id="shimmer" x1="0" x2="1">
          <stop offset="0" stopColor="#fff" stopOpacity="0" />
          <stop offset="0.5" stopColor="#fff" stopOpacity="0.9" />
          <stop offset="1" stopColor="#fff" stopOpacity="0" />
        </linearGradient>
      </defs>
      <rect x="124" y="40" width="76" height="8" rx="4" className="fill-slate-200 dark:fill-slate-600" />
      <rect x="124" y="56" width="56" height="8" rx="4" className="fill-slate-200 dark:fill-slate-600" />
      <rect x="124" y="76" width="76" height="10" rx="5" className="fill-slate-200 dark:fill-slate-700" />
      <rect x="124" y="76" width="48" height="10" rx="5" className={brand} />
      <line x1="40" y1="116" x2="200" y2="116" strokeWidth="2" className={line} />
      {stages.map((cx, index) => (
        <circle key={cx} cx={cx} cy="116" r="6" className={index < 3 ? brand : "fill-slate-300 dark:fill-slate-600"} />
      ))}
      <path
        d="M37 116 L39.5 118.5 L43 113.5 M77 116 L79.5 118.5 L83 113.5"
        stroke="#fff"
        strokeWidth="1.6"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** Step 5: a project folder, a download and a share link. */
export function KeepDrawing() {
  return (
    <svg viewBox="0 0 240 160" className={frame} aria-hidden="true">
      <rect x="8" y="8" width="224" height="144" rx="14" className={soft} />
      <path
        d="M30 46 a6 6 0 0 1 6 -6 h34 l10 10 h60 a6 6 0 0 1 6 6 v70 a6 6 0 0 1 -6 6 h-104 a6 6 0 0 1 -6 -6 z"
        className="fill-amber-200 dark:fill-amber-700/60"
      />
      <rect x="40" y="60" width="44" height="34" rx="3" className={paper} />
      <Room x={43} y={63} w={38} h={28} wall="#0f3d3e" floor="#1c1917" sofa="#b8860b" />
      <rect x="90" y="60" width="44" height="34" rx="3" className={paper} />
      <Room x={93} y={63} w={38} h={28} wall="#f5e6c8" floor="#a0522d" sofa="#0f766e" />
      <rect x="40" y="100" width="94" height="8" rx="4" className="fill-amber-100 dark:fill-amber-900/60" />
      <circle cx="184" cy="52" r="20" className={brand} />
      <path
        d="M184 42 V60 M176 53 L184 61 L192 53"
        stroke="#fff"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="184" cy="108" r="20" className="fill-emerald-600 dark:fill-emerald-500" />
      {/* The share sign: three dots joined. */}
      <path d="M178 108 L190 101 M178 108 L190 115" stroke="#fff" strokeWidth="2.4" />
      <circle cx="177" cy="108" r="4" fill="#fff" />
      <circle cx="191" cy="100" r="4" fill="#fff" />
      <circle cx="191" cy="116" r="4" fill="#fff" />
    </svg>
  );
}
