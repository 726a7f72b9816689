/**
 * A render's or an upload's picture that may be gone: the server answers 404 when its file was
 * deleted (cleanup, a restore without files). Instead of a blank or broken tile, a fallback tile in
 * the same box says so briefly. One component for every tile (dashboard, gallery, render page, studio).
 */
import { ImageOff } from "lucide-react";
import { useState, type CSSProperties, type ImgHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";

/** The fallback in place of a missing picture; `className` gives it the picture's box. */
export function MissingPicture({
  className = "",
  style,
  compact = false,
}: {
  className?: string;
  style?: CSSProperties;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="img"
      aria-label={`${t("flows.missingPicture.title")}. ${t("flows.missingPicture.reason")}`}
      className={`flex flex-col items-center justify-center gap-1 overflow-hidden bg-slate-100 p-2 text-center text-slate-500 dark:bg-slate-800 dark:text-slate-400 ${className}`}
      style={style}
      data-testid="missing-picture"
    >
      <ImageOff className={compact ? "size-5 shrink-0" : "size-7 shrink-0"} aria-hidden="true" />
      <span className="text-xs font-semibold text-slate-700 dark:text-slate-200">{t("flows.missingPicture.title")}</span>
      {compact ? null : <span className="text-xs leading-snug">{t("flows.missingPicture.reason")}</span>}
    </div>
  );
}

/** Remembers which picture failed to load, so a new `src` gets its own chance. */
export function usePictureFailure(src: string) {
  const [failed, setFailed] = useState<string | null>(null);
  return { failed: failed === src, onError: () => setFailed(src) };
}

type PictureProps = ImgHTMLAttributes<HTMLImageElement> & {
  src: string;
  /** Only the title in the fallback (a small tile). */
  compact?: boolean;
  /** Added to the fallback's classes: a box whose height came from the picture needs one of its own. */
  fallbackClassName?: string;
};

/** An <img> that turns into the fallback tile (same classes, so the same box) when its file is missing. */
export function Picture({ src, className, style, compact, fallbackClassName, onError, ...rest }: PictureProps) {
  const failure = usePictureFailure(src);
  if (failure.failed) return <MissingPicture className={`${className ?? ""} ${fallbackClassName ?? ""}`} style={style} compact={compact} />;
  return (
    <img
      {...rest}
      src={src}
      className={className}
      style={style}
      onError={(event) => {
        failure.onError();
        onError?.(event);
      }}
    />
  );
}
