/** What an uploaded image must pass, and what is kept of it. Real sharp, real files on disk. */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MAX_INPUT_PIXELS, prepareUpload } from "../../src/server/images/prepare-upload";
import { createDiskStorage } from "../../src/server/storage/storage";
import { pngBomb } from "../fixtures/png-bomb";
import { makeTempDir } from "../helpers/test-env";

const photo = (width = 160, height = 120) =>
  sharp({ create: { width, height, channels: 3, background: "#8a6d4b" } })
    .jpeg()
    .toBuffer();

describe("preparing an upload", () => {
  it("accepts a JPEG and a PNG, keeping their format and size", async () => {
    const jpeg = await prepareUpload(await photo());
    expect(jpeg).toMatchObject({ ok: true, format: "jpeg", width: 160, height: 120 });
    const png = await prepareUpload(
      await sharp({ create: { width: 150, height: 100, channels: 4, background: "#fff0" } })
        .png()
        .toBuffer(),
    );
    expect(png).toMatchObject({ ok: true, format: "png", width: 150, height: 100 });
  });

  it("refuses a file that is not an image, whatever its name", async () => {
    expect(await prepareUpload(Buffer.from("<html>definitely not a photo</html>"))).toEqual({ ok: false, reason: "unsupported-type" });
    const webp = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } })
      .webp()
      .toBuffer();
    expect(await prepareUpload(webp)).toEqual({ ok: false, reason: "unsupported-type" });
  });

  it("refuses more than 10 MB before decoding anything", async () => {
    const big = Buffer.concat([await photo(), Buffer.alloc(11 * 1024 * 1024)]);
    expect(await prepareUpload(big)).toEqual({ ok: false, reason: "too-large" });
  });

  it("refuses a small file that decodes past the pixel cap", async () => {
    const bomb = pngBomb(10_000, 10_000);
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(10_000 * 10_000).toBeGreaterThan(MAX_INPUT_PIXELS);
    // A valid image under the cap, made the same way, passes: the refusal is about pixels.
    expect(await prepareUpload(pngBomb(2_000, 2_000))).toMatchObject({ ok: true, width: 2_000, height: 2_000 });
    expect(await prepareUpload(bomb)).toEqual({ ok: false, reason: "too-many-pixels" });
  });

  it("refuses a picture under the minimum side or past the longest ratio, whichever way it is turned", async () => {
    expect(await prepareUpload(await photo(99, 400))).toEqual({ ok: false, reason: "too-small" });
    expect(await prepareUpload(await photo(1001, 100))).toEqual({ ok: false, reason: "too-narrow" });
    const turned = await sharp({ create: { width: 1000, height: 100, channels: 3, background: "#336699" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await prepareUpload(turned)).toMatchObject({ ok: true, width: 100, height: 1000 });
  });

  it("refuses a truncated JPEG", async () => {
    const whole = await sharp({
      create: { width: 400, height: 300, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 40 } },
    })
      .jpeg()
      .toBuffer();
    expect(await prepareUpload(whole.subarray(0, Math.floor(whole.length / 2)))).toEqual({ ok: false, reason: "unreadable" });
  });

  it("turns the photo upright and removes every piece of metadata, GPS included", async () => {
    const input = await sharp({ create: { width: 200, height: 100, channels: 3, background: "#336699" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Artist: "Ana Ruiz" }, IFD3: { GPSMapDatum: "SECRET-GPS-DATUM", GPSLatitudeRef: "N" } })
      .toBuffer();
    expect(input.toString("latin1")).toContain("SECRET-GPS-DATUM");

    const prepared = await prepareUpload(input);
    expect(prepared).toMatchObject({ ok: true, width: 100, height: 200 });
    if (!prepared.ok) return;
    const metadata = await sharp(prepared.data).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(prepared.data.toString("latin1")).not.toContain("SECRET-GPS-DATUM");
    expect(prepared.data.toString("latin1")).not.toContain("Ana Ruiz");
  });
});

describe("disk storage", () => {
  it("stores, reads, sizes and removes objects under DATA_DIR", async () => {
    const storage = createDiskStorage(makeTempDir());
    const data = await photo();
    await storage.put(UPLOAD_BUCKET, "u1/abc123.jpg", data, "image/jpeg");
    expect(await storage.get(UPLOAD_BUCKET, "u1/abc123.jpg")).toEqual({ data, contentType: "image/jpeg" });
    expect(await storage.size(UPLOAD_BUCKET)).toBe(data.length);
    await storage.remove(UPLOAD_BUCKET, "u1/abc123.jpg");
    expect(await storage.get(UPLOAD_BUCKET, "u1/abc123.jpg")).toBeNull();
    await expect(storage.remove(UPLOAD_BUCKET, "u1/abc123.jpg")).resolves.toBeUndefined();
  });

  it("refuses any key that could leave its bucket", async () => {
    const storage = createDiskStorage(makeTempDir());
    for (const key of ["../app.db", "u1/../../app-secret.png", "/etc/passwd.jpg", "U1/Photo.JPG", "u1//a.jpg", "a.jpg/", "noextension"]) {
      await expect(storage.put(UPLOAD_BUCKET, key, Buffer.from("x"), "image/jpeg"), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.get(UPLOAD_BUCKET, key), key).rejects.toThrow(/invalid storage key/);
    }
  });
});
