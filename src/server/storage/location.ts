/**
 * STORAGE_URL: where the stored files live when they are not under DATA_DIR. `s3://bucket` or
 * `s3://bucket/some/prefix`; each of the app's buckets is a folder under the prefix
 * (s3://bucket/prefix/project-uploads/<key>), as it is under DATA_DIR/storage on disk.
 */
export interface S3Location {
  bucket: string;
  /** Without leading or trailing '/'; "" for the bucket's top. */
  prefix: string;
}

/** S3's rules for a bucket name usable in any region and addressing style. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** One folder of the prefix: no ".", "..", empty segments or characters that need encoding. */
const PREFIX_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

export const STORAGE_URL_EXPECTED =
  "expected s3://bucket or s3://bucket/prefix (a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens; a prefix of folders made of letters, digits, '.', '_' and '-')";

/** The bucket and prefix of a STORAGE_URL; null when it is not one. */
export function parseStorageUrl(text: string): S3Location | null {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text.trim());
  if (!match) return null;
  const bucket = match[1]!;
  const prefix = (match[2] ?? "").replace(/\/+$/, "");
  if (!BUCKET_NAME.test(bucket) || bucket.includes("..")) return null;
  if (prefix !== "" && !prefix.split("/").every((segment) => PREFIX_SEGMENT.test(segment))) return null;
  return { bucket, prefix };
}
