/** What clients see of uploads and jobs: links instead of storage keys, never another owner's data. */
import {
  AI_ENGINE_IDS,
  ENGINE_NAMES,
  RENDER,
  type JobStatus,
  type RenderDownload,
  type RenderDurations,
  type RenderMode,
  type RenderResultLinks,
  type StructureStrength,
} from "../../shared/render";
import type { InputMode, RoomType } from "../../shared/styles";
import type { StyleKey, StyleSnapshot } from "../../shared/custom-styles";
import type { JobKind } from "../../shared/edits";
import type { RenderJob, Upload } from "../db/schema";
import { FILE_ROUTES, resultLinks } from "./links";

export interface UploadView {
  id: string;
  projectId: string;
  /** The team whose space holds it (null: personal, or a visitor's): whose custom styles a render of it may use. */
  teamId: string | null;
  width: number;
  height: number;
  url: string;
  thumbUrl: string;
  mode: InputMode;
  roomType: RoomType;
}

export interface JobView {
  id: string;
  projectId: string | null;
  uploadId: string;
  /** "render", or "edit" (modification studio). */
  kind: JobKind;
  /** Null for an edit made from the photo itself. */
  style: StyleKey | null;
  /** A custom style's name as the render used it; null for a built-in style (named by the client). */
  styleName: string | null;
  roomType: RoomType;
  mode: InputMode;
  note: string | null;
  status: JobStatus;
  percent: number | null;
  /** Place in the queue while queued. */
  position: number | null;
  error: string | null;
  providerLabel: string;
  /** "Variation 2 of 4" of the request that made it; null when the request made one picture. */
  variation: { number: number; of: number } | null;
  attempts: number;
  renderMode: RenderMode;
  structure: StructureStrength;
  /** Provenance: which engine and model made it, with which seed, prompt and parameters. */
  engine: { id: string; isAi: boolean };
  /** Why another engine than the task's first made it (a keyed message, decision 088); null when the first did. */
  fallbackReason: string | null;
  /** The engine that made the upscale, and why another was skipped; null when none was made (or before decision 088). */
  upscaleEngine: { id: string; fallbackReason: string | null } | null;
  model: string | null;
  modelVersion: string | null;
  seed: number | null;
  prompt: string | null;
  parameters: Record<string, unknown> | null;
  durations: RenderDurations;
  /** 0..1: how much of the room's lines the result kept; null until measured. */
  structureScore: number | null;
  /** True when the score is below RENDER.structureWarningBelow: walls or windows may have moved. */
  structureFlagged: boolean;
  resultWidth: number | null;
  resultHeight: number | null;
  /** What can be downloaded, each with its true size. */
  downloads: RenderDownload[];
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** The "before" picture: the engine's input once made, else the upload's thumbnail. */
  before: string;
  result: RenderResultLinks | null;
  shareUrl: string | null;
}

export function uploadView(upload: Upload, demoProjectId: string): UploadView {
  return {
    id: upload.id,
    projectId: upload.project_id ?? demoProjectId,
    teamId: upload.team_id,
    width: upload.width,
    height: upload.height,
    url: FILE_ROUTES.upload(upload.id, "original"),
    thumbUrl: FILE_ROUTES.upload(upload.id, "thumb"),
    mode: upload.mode,
    roomType: upload.room_type,
  };
}

export function shareUrlOf(token: string): string {
  return `/render?share=${token}`;
}

const between = (from: number | null, to: number | null) => (from !== null && to !== null ? Math.max(0, to - from) : null);

/** The medium variant's size: the result fitted inside RENDER.mediumLongEdge, never enlarged. */
function mediumSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, RENDER.mediumLongEdge / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

function downloads(job: RenderJob): RenderDownload[] {
  if (job.status !== "succeeded" || !job.result_width || !job.result_height) return [];
  const list: RenderDownload[] = [
    { kind: "rendered", url: FILE_ROUTES.download(job.id, "rendered"), width: job.result_width, height: job.result_height },
  ];
  if (job.upscaled_key && job.upscaled_width && job.upscaled_height) {
    const engine = job.upscale_provider ?? job.provider;
    list.push({
      kind: "upscaled",
      url: FILE_ROUTES.download(job.id, "upscaled"),
      width: job.upscaled_width,
      height: job.upscaled_height,
      upscaledWith: { model: job.upscale_model ?? "", engine: ENGINE_NAMES[engine] ?? engine },
    });
  }
  const medium = mediumSize(job.result_width, job.result_height);
  if (medium.width < job.result_width) list.push({ kind: "medium", url: FILE_ROUTES.download(job.id, "medium"), ...medium });
  return list;
}

function parseParameters(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A job's style, or null for an edit made from the photo itself (stored as ""). */
export const styleOf = (style: StyleKey | ""): StyleKey | null => (style === "" ? null : style);

/** A custom style's name as the render used it (its snapshot); null for a built-in style, which the client names. */
export function styleNameOf(job: Pick<RenderJob, "style_snapshot">): string | null {
  if (job.style_snapshot === null) return null;
  return (JSON.parse(job.style_snapshot) as StyleSnapshot).name;
}

export function jobView(job: RenderJob, providerLabel: string, position: number | null): JobView {
  // A render of a plan has no meaningful structure figure (decision 067): one stored before that
  // (a Preview engine's tinted plan scored "100 %") is not shown.
  const structureScore = job.mode === "floor-plan" && job.kind !== "edit" ? null : job.structure_score;
  return {
    id: job.id,
    projectId: job.project_id,
    uploadId: job.upload_id,
    kind: job.kind,
    style: styleOf(job.style),
    styleName: styleNameOf(job),
    roomType: job.room_type,
    mode: job.mode,
    note: job.note,
    status: job.status,
    percent: job.percent,
    position: job.status === "queued" ? position : null,
    error: job.error,
    providerLabel,
    variation: job.variation !== null && job.variation_count !== null ? { number: job.variation, of: job.variation_count } : null,
    attempts: job.attempts,
    renderMode: job.render_mode,
    structure: job.structure,
    engine: { id: job.provider, isAi: AI_ENGINE_IDS.includes(job.provider) },
    fallbackReason: job.fallback_reason,
    upscaleEngine: job.upscale_provider ? { id: job.upscale_provider, fallbackReason: job.upscale_fallback_reason } : null,
    model: job.model,
    modelVersion: job.model_version,
    seed: job.seed,
    prompt: job.prompt,
    parameters: parseParameters(job.parameters),
    durations: {
      queuedMs: between(job.created_at, job.started_at),
      preprocessingMs: between(job.started_at, job.engine_started_at),
      engineMs: between(job.engine_started_at, job.engine_finished_at),
      savingMs: between(job.engine_finished_at, job.finished_at),
    },
    structureScore,
    structureFlagged: structureScore !== null && structureScore < RENDER.structureWarningBelow,
    resultWidth: job.result_width,
    resultHeight: job.result_height,
    downloads: downloads(job),
    createdAt: job.created_at,
    startedAt: job.started_at,
    finishedAt: job.finished_at,
    before: job.input_key ? FILE_ROUTES.render(job.id, "before") : FILE_ROUTES.upload(job.upload_id, "thumb"),
    result: job.status === "succeeded" ? resultLinks(job.id) : null,
    shareUrl: job.share_token ? shareUrlOf(job.share_token) : null,
  };
}
