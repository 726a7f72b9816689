/**
 * The mask tools: smart selection, brush, eraser and rectangle (one pressed at a time), undo, redo and clear, the
 * brush size and mask opacity sliders, and the list of keyboard shortcuts. Every control has a
 * visible or accessible name and shows its shortcut in its tooltip.
 */
import { Brush, Eraser, Keyboard, Redo2, RectangleHorizontal, Trash2, Undo2, MousePointerClick } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BRUSH, MASK_OPACITY, type MaskTool } from "../../lib/maskPainting";

interface StudioToolsProps {
  tool: MaskTool;
  onTool(tool: MaskTool): void;
  brushSize: number;
  onBrushSize(size: number): void;
  opacity: number;
  onOpacity(opacity: number): void;
  canUndo: boolean;
  canRedo: boolean;
  canClear: boolean;
  onUndo(): void;
  onRedo(): void;
  onClear(): void;
}

const toolButton =
  "inline-flex size-11 items-center justify-center rounded-lg border text-slate-700 transition-colors disabled:cursor-not-allowed " +
  "disabled:opacity-40 border-slate-300 bg-white hover:bg-slate-50 aria-pressed:border-brand-600 aria-pressed:bg-brand-600 " +
  "aria-pressed:text-white dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 " +
  "dark:aria-pressed:border-brand-500 dark:aria-pressed:bg-brand-600 [&>svg]:size-5";

function ToolButton({
  label,
  shortcut,
  pressed,
  disabled,
  onClick,
  children,
  testId,
}: {
  label: string;
  shortcut: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick(): void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <button
      type="button"
      className={toolButton}
      aria-label={label}
      aria-keyshortcuts={shortcut}
      title={`${label} (${shortcut.replace(/\+/g, " + ")})`}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

export function StudioTools(props: StudioToolsProps) {
  const { t } = useTranslation();
  const { tool, onTool } = props;
  return (
    <div className="space-y-3" data-testid="studio-tools">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t("studio.tools.label")}>
        <div className="flex gap-1.5" role="group" aria-label={t("studio.tools.paintTools")}>
          <ToolButton
            label={t("paint.select.tool")}
            shortcut="W"
            pressed={tool === "select"}
            onClick={() => onTool("select")}
            testId="tool-select"
          >
            <MousePointerClick aria-hidden="true" />
          </ToolButton>
          <ToolButton
            label={t("studio.tools.brush")}
            shortcut="B"
            pressed={tool === "brush"}
            onClick={() => onTool("brush")}
            testId="tool-brush"
          >
            <Brush aria-hidden="true" />
          </ToolButton>
          <ToolButton
            label={t("studio.tools.eraser")}
            shortcut="E"
            pressed={tool === "eraser"}
            onClick={() => onTool("eraser")}
            testId="tool-eraser"
          >
            <Eraser aria-hidden="true" />
          </ToolButton>
          <ToolButton
            label={t("studio.tools.rectangle")}
            shortcut="R"
            pressed={tool === "rectangle"}
            onClick={() => onTool("rectangle")}
            testId="tool-rectangle"
          >
            <RectangleHorizontal aria-hidden="true" />
          </ToolButton>
        </div>
        <span className="mx-1 h-8 w-px bg-slate-200 dark:bg-slate-700" aria-hidden="true" />
        <div className="flex gap-1.5">
          <ToolButton
            label={t("studio.tools.undo")}
            shortcut="Control+Z"
            disabled={!props.canUndo}
            onClick={props.onUndo}
            testId="tool-undo"
          >
            <Undo2 aria-hidden="true" />
          </ToolButton>
          <ToolButton
            label={t("studio.tools.redo")}
            shortcut="Control+Shift+Z"
            disabled={!props.canRedo}
            onClick={props.onRedo}
            testId="tool-redo"
          >
            <Redo2 aria-hidden="true" />
          </ToolButton>
          <ToolButton
            label={t("studio.tools.clear")}
            shortcut="Delete"
            disabled={!props.canClear}
            onClick={props.onClear}
            testId="tool-clear"
          >
            <Trash2 aria-hidden="true" />
          </ToolButton>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Slider
          id="studio-brush-size"
          label={t("studio.tools.brushSize")}
          valueText={t("studio.tools.pixels", { value: props.brushSize })}
          min={BRUSH.min}
          max={BRUSH.max}
          step={BRUSH.step}
          value={props.brushSize}
          onChange={props.onBrushSize}
        />
        <Slider
          id="studio-mask-opacity"
          label={t("studio.tools.opacity")}
          valueText={`${props.opacity} %`}
          min={MASK_OPACITY.min}
          max={MASK_OPACITY.max}
          step={5}
          value={props.opacity}
          onChange={props.onOpacity}
        />
      </div>
    </div>
  );
}

function Slider({
  id,
  label,
  valueText,
  min,
  max,
  step,
  value,
  onChange,
}: {
  id: string;
  label: string;
  valueText: string;
  min: number;
  max: number;
  step: number;
  value: number;
  onChange(value: number): void;
}) {
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between gap-2 text-sm">
        <label htmlFor={id} className="font-medium text-slate-700 dark:text-slate-200">
          {label}
        </label>
        <span className="tabular-nums text-slate-500 dark:text-slate-400" aria-hidden="true">
          {valueText}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={valueText}
        onChange={(event) => onChange(Number(event.target.value))}
        className="h-6 w-full cursor-pointer accent-brand-600"
      />
    </div>
  );
}

/** The keyboard shortcuts, listed on the page. */
export function ShortcutList() {
  const { t } = useTranslation();
  // Keys by the names printed on the reader's keyboard (Mayús, Maj; Supr, Suppr).
  const shift = t("studio.keys.shift");
  const rows: Array<[string[], string]> = [
    [["W"], t("paint.select.tool")],
    [["B"], t("studio.tools.brush")],
    [["E"], t("studio.tools.eraser")],
    [["R"], t("studio.tools.rectangle")],
    [["[", "]"], t("studio.shortcuts.size")],
    [["Ctrl/⌘ + Z"], t("studio.tools.undo")],
    [[`Ctrl/⌘ + ${shift} + Z`, "Ctrl + Y"], t("studio.tools.redo")],
    [[t("studio.keys.delete")], t("studio.tools.clear")],
    [["← ↑ → ↓"], t("studio.shortcuts.moveBox")],
    [[`${shift} + ← ↑ → ↓`], t("studio.shortcuts.resizeBox")],
    [[t("studio.keys.enter"), t("studio.keys.space")], t("studio.shortcuts.markBox")],
  ];
  return (
    <details className="rounded-lg border border-slate-200 text-sm dark:border-slate-800" data-testid="shortcuts">
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 font-medium">
        <Keyboard className="size-4" aria-hidden="true" />
        {t("studio.shortcuts.title")}
      </summary>
      {/* Keys beside their action; on a phone under it, so that long key names leave the action room. */}
      <dl className="grid grid-cols-1 gap-x-4 border-t border-slate-200 px-3 py-3 sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-y-1.5 dark:border-slate-800">
        {rows.map(([keys, action]) => (
          <div key={action} className="contents">
            <dt className="flex flex-wrap items-start gap-1">
              {keys.map((key) => (
                <kbd
                  key={key}
                  className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-800"
                >
                  {key}
                </kbd>
              ))}
            </dt>
            <dd className="mt-0.5 mb-2.5 text-slate-600 sm:m-0 dark:text-slate-300">{action}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
