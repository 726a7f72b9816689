/**
 * Stored files in an S3-compatible store (STORAGE_URL=s3://bucket/prefix, decision 076), through
 * the official AWS SDK: AWS itself, or any store that speaks the protocol (S3_ENDPOINT). Object
 * names mirror the disk's folders: <prefix>/<bucket>/<key>. Keys are checked as on disk before any
 * request, so nothing but a generated key ever names an object.
 *
 * What the disk store has and this one leaves out: localFile (sharp is handed the bytes instead),
 * freeBytes (a bucket does not fill up; the disk floor measures DATA_DIR's disk, where the
 * database is) and size (byte totals come from the database's rows).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { S3Location } from "./location";
import { assertValidObject, BUCKETS, contentTypeOf, isValidKey, type Bucket, type ObjectStorage } from "./storage";

export interface S3StorageOptions extends S3Location {
  /** An S3-compatible store's address (http(s)://host:port); unset: AWS. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own chain (AWS_* variables, a profile, the instance's role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** http://endpoint/bucket/key instead of http://bucket.endpoint/key (most self-hosted stores). */
  forcePathStyle: boolean;
  /** Objects per ListObjectsV2 page (S3's most is 1000; tests page with fewer). */
  pageSize?: number;
  /** How long one request may take before it fails (and is retried by the SDK, twice); default a minute. */
  requestTimeoutMs?: number;
}

/** Connecting takes at most this long; then the request fails (and is retried). */
const CONNECT_TIMEOUT_MS = 5_000;

/** What S3 and other stores answer for an object stored without a content type. */
const GENERIC_TYPES = new Set(["binary/octet-stream", "application/octet-stream"]);

/** A missing object, not a missing bucket (that is a broken setting, and must not read as "no such file"). */
function isMissingObject(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === "NoSuchKey" || error.name === "NotFound") return true;
  return error.$metadata.httpStatusCode === 404 && error.name !== "NoSuchBucket";
}

export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    forcePathStyle: options.forcePathStyle,
    // The SDK waits forever by default: a store that stops answering would hold an upload or a
    // download (and its worker slot) open for good.
    requestHandler: {
      connectionTimeout: Math.min(CONNECT_TIMEOUT_MS, options.requestTimeoutMs ?? CONNECT_TIMEOUT_MS),
      requestTimeout: options.requestTimeoutMs ?? 60_000,
      throwOnRequestTimeout: true,
    },
    // Other stores than AWS often refuse or mishandle the checksums the SDK adds by default since
    // early 2025; with them, checksums only where the operation requires one.
    ...(options.endpoint ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
  });
  const base = options.prefix ? `${options.prefix}/` : "";
  const nameOf = (bucket: Bucket, key: string) => {
    assertValidObject(bucket, key);
    return `${base}${bucket}/${key}`;
  };
  return {
    async put(bucket, key, data, contentType) {
      await client.send(new PutObjectCommand({ Bucket: options.bucket, Key: nameOf(bucket, key), Body: data, ContentType: contentType }));
    },
    async get(bucket, key) {
      const name = nameOf(bucket, key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: name }));
        const bytes = object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
        // A generic type (an object copied in by a tool that did not set one) reads by its extension, as on disk.
        const stated = object.ContentType && !GENERIC_TYPES.has(object.ContentType) ? object.ContentType : null;
        return { data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: stated ?? contentTypeOf(key) };
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async remove(bucket, key) {
      // S3 answers a delete of a missing object with success, as the interface wants.
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: nameOf(bucket, key) }));
    },
    async *list(bucket) {
      if (!BUCKETS.includes(bucket)) throw new Error(`unknown bucket: ${bucket}`);
      const folder = `${base}${bucket}/`;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: options.bucket, Prefix: folder, ContinuationToken: token, MaxKeys: options.pageSize }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(folder.length);
          // Only names this app would have made: anything else under the prefix is not ours to list (or remove).
          if (!key || !isValidKey(key)) continue;
          yield { key, bytes: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    close() {
      client.destroy();
    },
  };
}
