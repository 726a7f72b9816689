/**
 * The disk store's size is a running total (decision 044): counted by one walk, then kept by put and
 * remove, and equal to a fresh walk after any sequence of writes, replacements and removals.
 */
import { describe, expect, it } from "vitest";
import { createDiskStorage } from "../../src/server/storage/storage";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { makeTempDir } from "../helpers/test-env";

const bytes = (count: number) => Buffer.alloc(count, 1);

describe("disk storage size", () => {
  it("keeps a running total equal to a walk over the files", async () => {
    const dataDir = makeTempDir();
    const storage = createDiskStorage(dataDir);
    await storage.put(UPLOAD_BUCKET, "a/one.jpg", bytes(100), "image/jpeg");
    expect(await storage.size(UPLOAD_BUCKET)).toBe(100);

    await storage.put(UPLOAD_BUCKET, "a/two.jpg", bytes(50), "image/jpeg");
    await storage.put(UPLOAD_BUCKET, "a/one.jpg", bytes(30), "image/jpeg");
    await storage.remove(UPLOAD_BUCKET, "a/missing.jpg");
    await storage.remove(UPLOAD_BUCKET, "a/two.jpg");
    await storage.put(UPLOAD_BUCKET, "b/three.png", bytes(7), "image/png");
    expect(await storage.size(UPLOAD_BUCKET)).toBe(37);
    // A second store over the same files walks them afresh: the same figure.
    expect(await createDiskStorage(dataDir).size(UPLOAD_BUCKET)).toBe(37);
  });

  it("does not keep a walk that a write overlapped", async () => {
    const storage = createDiskStorage(makeTempDir());
    await storage.put(UPLOAD_BUCKET, "x/first.jpg", bytes(10), "image/jpeg");
    const [size] = await Promise.all([storage.size(UPLOAD_BUCKET), storage.put(UPLOAD_BUCKET, "x/second.jpg", bytes(5), "image/jpeg")]);
    expect([10, 15]).toContain(size);
    expect(await storage.size(UPLOAD_BUCKET)).toBe(15);
    await storage.put(UPLOAD_BUCKET, "x/third.jpg", bytes(1), "image/jpeg");
    expect(await storage.size(UPLOAD_BUCKET)).toBe(16);
  });
});
