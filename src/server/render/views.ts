/** What clients see of uploads and jobs: links instead of storage keys, never another owner's data. */
import type { JobStatus, RenderResultLinks } from "../../shared/render";
import type { DesignStyle, InputMode, RoomType } from "../../shared/styles";
import type { RenderJob, Upload } from "../db/schema";
import { FILE_ROUTES, resultLinks } from "./links";

export interface UploadView {
  id: string;
  projectId: string;
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
  style: DesignStyle;
  roomType: RoomType;
  mode: InputMode;
  note: string | null;
  status: JobStatus;
  percent: number | null;
  /** Place in the queue while queued. */
  position: number | null;
  error: string | null;
  providerLabel: string;
  attempts: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** The "before" picture: the engine's input once made, else the upload's thumbnail. */
  before: string;
  result: RenderResultLinks | null;
  shareUrl: string | null;
  inGallery: boolean;
}

export function uploadView(upload: Upload, demoProjectId: string): UploadView {
  return {
    id: upload.id,
    projectId: upload.project_id ?? demoProjectId,
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

export function jobView(job: RenderJob, providerLabel: string, position: number | null): JobView {
  return {
    id: job.id,
    projectId: job.project_id,
    uploadId: job.upload_id,
    style: job.style,
    roomType: job.room_type,
    mode: job.mode,
    note: job.note,
    status: job.status,
    percent: job.percent,
    position: job.status === "queued" ? position : null,
    error: job.error,
    providerLabel,
    attempts: job.attempts,
    createdAt: job.created_at,
    startedAt: job.started_at,
    finishedAt: job.finished_at,
    before: job.input_key ? FILE_ROUTES.render(job.id, "before") : FILE_ROUTES.upload(job.upload_id, "thumb"),
    result: job.status === "succeeded" ? resultLinks(job.id) : null,
    shareUrl: job.share_token ? shareUrlOf(job.share_token) : null,
    inGallery: job.shared_in_gallery_at !== null,
  };
}
