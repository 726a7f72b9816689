/** The URLs under which stored pictures are served (each checks its owner, or a share token). */
import type { DownloadKind, RenderResultLinks } from "../../shared/render";

/** Where an edit's mask is stored (beside the edit's other files, removed with them). */
export const editMaskKey = (jobId: string) => `renders/${jobId}/mask.png`;
/** A custom style's reference picture as a render keeps it to send to its engine (StyleSnapshot.referenceUsed). */
export const styleReferenceKey = (jobId: string) => `renders/${jobId}/style-reference.jpg`;

export const FILE_ROUTES = {
  upload: (id: string, variant: "original" | "thumb") => `/files/uploads/${id}/${variant}`,
  render: (id: string, variant: "before" | "full" | "medium" | "thumb") => `/files/renders/${id}/${variant}`,
  download: (id: string, quality: "high" | DownloadKind) => `/files/renders/${id}/download/${quality}`,
  shared: (token: string, variant: "before" | "after") => `/files/shared/${token}/${variant}`,
  example: (id: string, variant: "before" | "after") => `/files/examples/${id}/${variant}`,
} as const;

export function resultLinks(jobId: string): RenderResultLinks {
  return {
    before: FILE_ROUTES.render(jobId, "before"),
    full: FILE_ROUTES.render(jobId, "full"),
    medium: FILE_ROUTES.render(jobId, "medium"),
    thumb: FILE_ROUTES.render(jobId, "thumb"),
    downloadHigh: FILE_ROUTES.download(jobId, "high"),
    downloadMedium: FILE_ROUTES.download(jobId, "medium"),
  };
}
