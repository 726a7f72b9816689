/** What a database-only backup records of the bucket that keeps the files (decision 085): never a key. */
import { describe, expect, it } from "vitest";
import { FILES_IN_OBJECT_STORE_NOTE, objectStoreRecord, objectStoreWords } from "../../src/server/backup/archive";

describe("the bucket a database-only backup names", () => {
  it("keeps STORAGE_URL and the endpoint, without any user or password written into the endpoint", () => {
    const record = objectStoreRecord({ url: "s3://studio-files/prod", endpoint: "https://key:secret@s3.example.com:9000/" });
    expect(record).toEqual({ url: "s3://studio-files/prod", endpoint: "https://s3.example.com:9000", note: FILES_IN_OBJECT_STORE_NOTE });
    expect(JSON.stringify(record)).not.toMatch(/key|secret/);
    expect(objectStoreWords(record)).toBe("s3://studio-files/prod at https://s3.example.com:9000");
  });

  it("AWS itself (no S3_ENDPOINT): the bucket alone", () => {
    const record = objectStoreRecord({ url: "s3://studio-files" });
    expect(record).toEqual({ url: "s3://studio-files", note: FILES_IN_OBJECT_STORE_NOTE });
    expect(objectStoreWords(record)).toBe("s3://studio-files");
    expect(record.note).toContain("object store's own tools");
  });
});
