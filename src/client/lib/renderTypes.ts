/** The render flow's data as the server's procedures return it (types only, from the router). */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type Allowance = Outputs["render"]["allowance"];
export type JobView = Outputs["render"]["job"];
export type UploadView = Outputs["render"]["upload"];
export type ProjectSummary = Outputs["projects"]["list"]["projects"][number];
export type GalleryPair = Outputs["render"]["gallery"]["examples"][number];
export type SharedRender = Outputs["render"]["shared"];
export type ListingVideoView = Outputs["listing"]["video"];
