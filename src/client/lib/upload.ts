/**
 * Uploads go to UPLOAD_ENDPOINT as the raw file bytes (not through tRPC), with XMLHttpRequest so
 * that the page can show how far the upload is. The client checks type and size first for instant
 * feedback; the server checks the content and decides.
 */
import i18next from "i18next";
import { DEFAULT_LANGUAGE, SERVER_TIME_HEADER, UI_LANGUAGE_HEADER, UPLOAD } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { UPLOAD_ENDPOINT, type UploadResponse } from "../../shared/render";
import type { InputMode, RoomType } from "../../shared/styles";
import { recordServerTime } from "./serverClock";

export interface UploadQuery {
  mode: InputMode;
  roomType: RoomType;
  projectId?: string | undefined;
}

/** The file's image type, from its name when the browser gives none (some Android pickers). */
export function fileType(file: File): string {
  if (file.type) return file.type;
  const name = file.name.toLowerCase();
  if (name.endsWith(".png")) return "image/png";
  if (name.endsWith(".jpg") || name.endsWith(".jpeg")) return "image/jpeg";
  return "";
}

/** The server message a file would surely get, checked on the device; null when it may go. */
export function checkFile(file: File): string | null {
  if (!(UPLOAD.mimeTypes as readonly string[]).includes(fileType(file))) return MESSAGES.uploadUnsupportedType;
  if (file.size === 0) return MESSAGES.uploadEmpty;
  if (file.size > UPLOAD.maxBytes) return MESSAGES.uploadTooLarge;
  return null;
}

export class UploadAbortedError extends Error {
  override name = "UploadAbortedError";
  constructor() {
    super("Upload canceled");
  }
}

export interface UploadHandle {
  promise: Promise<UploadResponse>;
  abort(): void;
}

/**
 * Sends one file. onProgress gets 0..1 as bytes leave the device. The promise rejects with an
 * Error whose message is the server's (one of MESSAGES), "Network request failed", or
 * UploadAbortedError after abort().
 */
export function uploadImage(file: File, query: UploadQuery, onProgress?: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const params = new URLSearchParams({ mode: query.mode, roomType: query.roomType });
  if (query.projectId) params.set("projectId", query.projectId);

  const promise = new Promise<UploadResponse>((resolve, reject) => {
    xhr.open("POST", `${UPLOAD_ENDPOINT}?${params.toString()}`);
    xhr.setRequestHeader("Content-Type", fileType(file) || "application/octet-stream");
    // The interface's language, not the browser's: a first upload makes the user's first project,
    // named in it ("Mon premier projet" for someone who chose French on an English browser).
    xhr.setRequestHeader(UI_LANGUAGE_HEADER, i18next.resolvedLanguage ?? DEFAULT_LANGUAGE);
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      recordServerTime(xhr.getResponseHeader(SERVER_TIME_HEADER));
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === "object" && "imageId" in body) {
        onProgress?.(1);
        resolve(body as UploadResponse);
        return;
      }
      const message =
        body && typeof body === "object" && "error" in body && typeof body.error === "string"
          ? body.error
          : xhr.status === 413
            ? MESSAGES.uploadTooLarge
            : xhr.status === 429
              ? MESSAGES.tooManyRequests
              : MESSAGES.internalError;
      reject(new Error(message));
    };
    xhr.onerror = () => reject(new Error("Network request failed"));
    xhr.onabort = () => reject(new UploadAbortedError());
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}
