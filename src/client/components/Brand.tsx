import { useStudio } from "../lib/studio";

/**
 * The studio's mark: the shipped one, or the logo set in /admin → Studio. Both are always in the
 * page and the studio's CSS (shared/studio.ts, studioCss) shows one, so the pre-rendered landing
 * page and the app draw the same elements whichever the studio has.
 */
export function BrandMark({ className = "size-8" }: { className?: string }) {
  return (
    <span className={`inline-block ${className}`} aria-hidden="true">
      <svg viewBox="0 0 64 64" className="brand-mark-default size-full">
        <rect width="64" height="64" rx="14" className="fill-brand-600" />
        <path d="M14 30 32 16l18 14v18a2 2 0 0 1-2 2H16a2 2 0 0 1-2-2z" fill="#fff" />
        <rect x="26" y="36" width="12" height="14" rx="1.5" className="fill-accent-500" />
      </svg>
      <span className="brand-mark-logo hidden size-full" />
    </span>
  );
}

export function BrandName() {
  return <span className="text-lg font-bold tracking-tight [overflow-wrap:anywhere]">{useStudio().name}</span>;
}
