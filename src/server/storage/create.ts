/**
 * The one place the store is chosen (decision 076): the disk under DATA_DIR by default, an
 * S3-compatible bucket when STORAGE_URL is set. The server (boot.ts) and the commands use it.
 */
import type { Env } from "../env";
import { parseStorageUrl } from "./location";
import { createS3Storage } from "./s3";
import { createDiskStorage, type ObjectStorage } from "./storage";

export type StorageEnv = Pick<
  Env,
  "DATA_DIR" | "STORAGE_URL" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_FORCE_PATH_STYLE"
>;

export function createStorage(env: StorageEnv): ObjectStorage {
  if (!env.STORAGE_URL) return createDiskStorage(env.DATA_DIR);
  const location = parseStorageUrl(env.STORAGE_URL);
  // parseEnv refused a malformed STORAGE_URL already; this guards other callers.
  if (!location) throw new Error(`STORAGE_URL is not s3://bucket/prefix: ${env.STORAGE_URL}`);
  return createS3Storage({
    ...location,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
  });
}

/** Where the files are, for logs and status pages: the bucket and prefix, or the folder. */
export function storageWhere(env: Pick<Env, "DATA_DIR" | "STORAGE_URL" | "S3_ENDPOINT">): string {
  if (!env.STORAGE_URL) return `${env.DATA_DIR}/storage`;
  return env.S3_ENDPOINT ? `${env.STORAGE_URL} at ${env.S3_ENDPOINT}` : env.STORAGE_URL;
}
