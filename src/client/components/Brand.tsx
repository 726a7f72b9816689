import { PRODUCT_NAME } from "../../shared/constants";

export function BrandMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <rect width="64" height="64" rx="14" className="fill-brand-600" />
      <path d="M14 30 32 16l18 14v18a2 2 0 0 1-2 2H16a2 2 0 0 1-2-2z" fill="#fff" />
      <rect x="26" y="36" width="12" height="14" rx="1.5" className="fill-accent-500" />
    </svg>
  );
}

export function BrandName() {
  return <span className="text-lg font-bold tracking-tight">{PRODUCT_NAME}</span>;
}
