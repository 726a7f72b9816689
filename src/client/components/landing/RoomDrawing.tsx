/**
 * The landing page's and the demo's own pictures: one living room, drawn (inline SVG), as it is
 * ("before": bare walls, an old sofa, a bare bulb) and restyled in Scandinavian style ("after").
 * Nothing is fetched or hot-linked.
 */
import { useId, type ReactNode } from "react";

const WIDTH = 480;
const HEIGHT = 320;

function BeforeRoom() {
  return (
    <g>
      <rect width={WIDTH} height={HEIGHT} fill="#cbc5bb" />
      {/* A stain and a crack: the room has not been touched in years. */}
      <ellipse cx="120" cy="70" rx="40" ry="18" fill="#bfb8ad" />
      <path d="M400 20 L392 48 L402 70 L396 96" stroke="#a8a196" strokeWidth="2" fill="none" />
      <rect y="228" width={WIDTH} height="92" fill="#8f8473" />
      <g stroke="#7d7262" strokeWidth="2">
        <line x1="0" y1="252" x2={WIDTH} y2="252" />
        <line x1="0" y1="282" x2={WIDTH} y2="282" />
      </g>
      <rect y="222" width={WIDTH} height="8" fill="#b1a897" />
      {/* Window with a dull blind half down. */}
      <rect x="290" y="52" width="130" height="110" fill="#d9e2e8" stroke="#9c958a" strokeWidth="6" />
      <rect x="293" y="55" width="124" height="54" fill="#c9bfae" />
      <line x1="355" y1="52" x2="355" y2="162" stroke="#9c958a" strokeWidth="4" />
      {/* Bare bulb. */}
      <line x1="200" y1="0" x2="200" y2="46" stroke="#57534e" strokeWidth="2" />
      <circle cx="200" cy="52" r="7" fill="#f5f0dc" stroke="#78716c" strokeWidth="1.5" />
      {/* Old boxy sofa. */}
      <rect x="60" y="170" width="190" height="50" rx="4" fill="#736b5f" />
      <rect x="50" y="200" width="210" height="40" rx="4" fill="#665e53" />
      <rect x="44" y="190" width="22" height="52" rx="3" fill="#5c554b" />
      <rect x="244" y="190" width="22" height="52" rx="3" fill="#5c554b" />
      {/* A cardboard box instead of a table. */}
      <rect x="300" y="206" width="62" height="44" fill="#b08d5b" />
      <line x1="300" y1="220" x2="362" y2="220" stroke="#8f6f44" strokeWidth="2" />
    </g>
  );
}

function AfterRoom() {
  return (
    <g>
      <rect width={WIDTH} height={HEIGHT} fill="#f6f2ea" />
      <rect y="228" width={WIDTH} height="92" fill="#e2c79d" />
      <g stroke="#d3b588" strokeWidth="2">
        <line x1="0" y1="252" x2={WIDTH} y2="252" />
        <line x1="0" y1="282" x2={WIDTH} y2="282" />
        <line x1="90" y1="228" x2="70" y2="320" />
        <line x1="260" y1="228" x2="250" y2="320" />
        <line x1="420" y1="228" x2="430" y2="320" />
      </g>
      <rect y="222" width={WIDTH} height="8" fill="#ffffff" />
      {/* Bright window with sheer curtains. */}
      <rect x="290" y="52" width="130" height="110" fill="#cfe8f7" stroke="#ffffff" strokeWidth="6" />
      <line x1="355" y1="52" x2="355" y2="162" stroke="#ffffff" strokeWidth="4" />
      <path d="M280 46 Q292 110 282 170 L272 170 L272 46 Z" fill="#ffffff" opacity="0.9" />
      <path d="M430 46 Q418 110 428 170 L438 170 L438 46 Z" fill="#ffffff" opacity="0.9" />
      {/* Framed prints over the sofa. */}
      <rect x="92" y="82" width="48" height="60" fill="#ffffff" stroke="#c8a97e" strokeWidth="3" />
      <circle cx="116" cy="104" r="12" fill="#e9b872" />
      <rect x="152" y="94" width="58" height="48" fill="#ffffff" stroke="#c8a97e" strokeWidth="3" />
      <path d="M158 134 L174 112 L186 126 L194 118 L204 134 Z" fill="#6b8f71" />
      {/* Pendant lamp, lit. */}
      <line x1="200" y1="0" x2="200" y2="34" stroke="#374151" strokeWidth="1.5" />
      <path d="M182 50 Q200 22 218 50 Z" fill="#f1e3c6" stroke="#d6c3a0" strokeWidth="1" />
      <ellipse cx="200" cy="52" rx="10" ry="3" fill="#fde68a" />
      {/* Rug, then a soft sofa with cushions and a throw. */}
      <ellipse cx="170" cy="268" rx="150" ry="22" fill="#ffffff" />
      <ellipse cx="170" cy="268" rx="128" ry="16" fill="none" stroke="#e5ddd0" strokeWidth="2" />
      <rect x="62" y="168" width="186" height="50" rx="16" fill="#cbd5e1" />
      <rect x="50" y="200" width="210" height="40" rx="12" fill="#bcc7d6" />
      <rect x="42" y="186" width="24" height="54" rx="11" fill="#b3bfcf" />
      <rect x="244" y="186" width="24" height="54" rx="11" fill="#b3bfcf" />
      <rect x="80" y="180" width="42" height="30" rx="8" fill="#f1e3c6" />
      <rect x="186" y="180" width="42" height="30" rx="8" fill="#6b8f71" />
      <path d="M140 200 L176 200 L172 240 L144 240 Z" fill="#e9dcc6" />
      <line x1="64" y1="240" x2="60" y2="252" stroke="#a07850" strokeWidth="4" />
      <line x1="246" y1="240" x2="250" y2="252" stroke="#a07850" strokeWidth="4" />
      {/* Round wooden side table with a vase. */}
      <ellipse cx="330" cy="212" rx="34" ry="7" fill="#c8a97e" />
      <line x1="312" y1="214" x2="306" y2="252" stroke="#a07850" strokeWidth="4" />
      <line x1="348" y1="214" x2="354" y2="252" stroke="#a07850" strokeWidth="4" />
      <rect x="322" y="190" width="14" height="20" rx="6" fill="#ffffff" stroke="#d6d3d1" />
      <path d="M329 190 Q322 172 314 168 M329 190 Q334 170 344 166" stroke="#6b8f71" strokeWidth="2" fill="none" />
      {/* A tall plant by the window. */}
      <rect x="432" y="220" width="30" height="34" rx="4" fill="#ffffff" stroke="#d6d3d1" />
      <ellipse cx="438" cy="186" rx="14" ry="30" fill="#6b8f71" transform="rotate(-14 438 186)" />
      <ellipse cx="458" cy="182" rx="12" ry="28" fill="#57795c" transform="rotate(16 458 182)" />
      <ellipse cx="448" cy="170" rx="10" ry="30" fill="#7fa686" />
    </g>
  );
}

interface DrawingProps {
  /** The picture's text for screen readers; without it the drawing is decorative. */
  label?: string;
  className?: string;
}

function Frame({ label, className = "", children }: DrawingProps & { children: ReactNode }) {
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className={`block h-auto w-full ${className}`}
      preserveAspectRatio="xMidYMid slice"
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
    >
      {children}
    </svg>
  );
}

export function RoomBefore(props: DrawingProps) {
  return (
    <Frame {...props}>
      <BeforeRoom />
    </Frame>
  );
}

export function RoomAfter(props: DrawingProps) {
  return (
    <Frame {...props}>
      <AfterRoom />
    </Frame>
  );
}

/** Both at once: the room as it is on the left, restyled on the right, split by a handle. */
export function RoomSplit(props: DrawingProps) {
  const id = useId().replace(/:/g, "");
  const half = WIDTH / 2;
  return (
    <Frame {...props}>
      <defs>
        <clipPath id={`${id}-left`}>
          <rect x="0" y="0" width={half} height={HEIGHT} />
        </clipPath>
        <clipPath id={`${id}-right`}>
          <rect x={half} y="0" width={half} height={HEIGHT} />
        </clipPath>
      </defs>
      <g clipPath={`url(#${id}-left)`}>
        <BeforeRoom />
      </g>
      <g clipPath={`url(#${id}-right)`}>
        <AfterRoom />
      </g>
      <rect x={half - 2} y="0" width="4" height={HEIGHT} fill="#ffffff" />
      <circle cx={half} cy={HEIGHT / 2} r="15" fill="#ffffff" stroke="#4f46e5" strokeWidth="3" />
      <path d={`M${half - 6} ${HEIGHT / 2} l5 -5 v10 z M${half + 6} ${HEIGHT / 2} l-5 -5 v10 z`} fill="#4f46e5" />
    </Frame>
  );
}

export const ROOM_DRAWING_RATIO = `${WIDTH} / ${HEIGHT}`;
