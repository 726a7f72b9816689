/**
 * Where files come in: dropped on the zone, chosen with the file picker, or taken with the
 * phone's camera (capture="environment" opens the back camera on phones; elsewhere it is a picker).
 * While disabled it takes no file, whichever way it comes.
 */
import { Camera, FolderOpen, ImageUp } from "lucide-react";
import { useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { UPLOAD } from "../../../shared/constants";
import { buttonClass } from "../ui/buttons";

const ACCEPT = UPLOAD.mimeTypes.join(",");

export function DropZone({
  onFiles,
  multiple = false,
  disabled = false,
}: {
  onFiles(files: File[]): void;
  multiple?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const take = (list: FileList | null) => {
    if (disabled) return;
    const files = list ? [...list] : [];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (disabled) return;
    event.dataTransfer.dropEffect = "copy";
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files);
  };

  return (
    <div
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="drop-zone"
      data-over={over || undefined}
      data-disabled={disabled || undefined}
      aria-disabled={disabled || undefined}
      className={`flex flex-col items-center gap-4 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors sm:py-10 ${
        over
          ? "border-brand-500 bg-brand-50 dark:bg-brand-700/20"
          : "border-slate-300 bg-slate-50/60 dark:border-slate-700 dark:bg-slate-900/60"
      } ${disabled ? "opacity-60" : ""}`}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
        <ImageUp className="size-6" aria-hidden="true" />
      </span>
      <div>
        <p className="font-semibold">{multiple ? t("upload.dropMany") : t("upload.dropOne")}</p>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t("upload.limits")}</p>
      </div>
      <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
        <button type="button" className={buttonClass.primary} disabled={disabled} onClick={() => picker.current?.click()}>
          <FolderOpen className="size-4" aria-hidden="true" />
          {multiple ? t("upload.chooseFiles") : t("upload.chooseFile")}
        </button>
        <button type="button" className={buttonClass.secondary} disabled={disabled} onClick={() => camera.current?.click()}>
          <Camera className="size-4" aria-hidden="true" />
          {t("upload.takePhoto")}
        </button>
      </div>
      <input
        ref={picker}
        type="file"
        accept={ACCEPT}
        multiple={multiple}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="file-input"
        onChange={(event) => {
          take(event.target.files);
          event.target.value = "";
        }}
      />
      <input
        ref={camera}
        type="file"
        accept={ACCEPT}
        capture="environment"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="camera-input"
        onChange={(event) => {
          take(event.target.files);
          event.target.value = "";
        }}
      />
    </div>
  );
}
