/**
 * The listing video's making (issue 33) with the ffmpeg the registry package ships, read back with
 * ffprobe: H.264, yuv420p, the index before the data (faststart), the format's size, the length and
 * the frame count asked for; each picture first as it was, then wiped to the render; progress up to
 * done; an abort stops ffmpeg; a hostile request (1,000 pictures, ten minutes) is refused by the
 * request's checks with the user's message.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ffprobe from "@ffprobe-installer/ffprobe";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ffmpegArguments, ffmpegPath, makeListingVideo, VideoTooLargeError } from "../../src/server/listing/video";
import { LISTING_VIDEO, listingVideoRequestSchema } from "../../src/shared/listing-video";
import { MESSAGES } from "../../src/shared/messages";

const run = promisify(execFile);

/** A flat picture of one colour with a darker block, 1200 × 900. */
const picture = (colour: string) =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: colour } })
    .composite([{ input: { create: { width: 300, height: 200, channels: 3, background: "#333333" } }, left: 100, top: 600 }])
    .jpeg()
    .toBuffer();

async function probe(file: string) {
  const { stdout } = await run(ffprobe.path, [
    "-v",
    "error",
    "-count_frames",
    "-show_entries",
    "stream=codec_name,pix_fmt,width,height,nb_read_frames:format=duration",
    "-of",
    "json",
    file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: Array<Record<string, string | number>>; format: { duration: string } };
  return { ...parsed.streams[0]!, duration: Number(parsed.format.duration), streams: parsed.streams.length };
}

/** The MP4's top-level boxes in order (faststart puts moov before mdat). */
function topLevelBoxes(data: Buffer): string[] {
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= data.length;) {
    let size = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8));
    boxes.push(type);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

/** The colour at the frame's centre at `seconds`. */
async function centreAt(file: string, seconds: number): Promise<[number, number, number]> {
  const { stdout } = await run(
    ffmpegPath(),
    ["-v", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"],
    {
      encoding: "buffer",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const { data, info } = await sharp(stdout).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 3) * info.width + Math.floor(info.width / 2)) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** The largest channel difference between two colours (H.264 moves a flat colour by a few levels). */
const distance = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((value, index) => Math.abs(value - b[index]!)));

describe("a listing video", () => {
  it("is H.264 yuv420p with faststart, of the format's size, length and frame count, each picture wiped from before to after", async () => {
    const [red, blue, green, white] = await Promise.all(["#c0392b", "#2e6da4", "#3c8d2f", "#eeeeee"].map(picture));
    const progress: number[] = [];
    const made = await makeListingVideo(
      {
        pictures: [
          { before: red!, after: blue!, caption: "Digitally altered: sky replaced" },
          { before: green!, after: white!, caption: null },
        ],
        format: "landscape",
        seconds: 4,
        brand: "Casa Studio",
      },
      { onProgress: (fraction) => progress.push(fraction) },
    );
    expect(made).toMatchObject({ width: 1920, height: 1080, frames: 100, seconds: 4 });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "video-test-"));
    try {
      const file = path.join(dir, "video.mp4");
      await fs.writeFile(file, made.data);
      const probed = await probe(file);
      expect(probed).toMatchObject({
        codec_name: "h264",
        pix_fmt: "yuv420p",
        width: 1920,
        height: 1080,
        nb_read_frames: "100",
        streams: 1,
      });
      expect(probed.duration).toBeCloseTo(4, 1);
      const boxes = topLevelBoxes(made.data);
      expect(boxes.indexOf("moov")).toBeGreaterThanOrEqual(0);
      expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));
      // Picture 1 (2 s): the photo before its wipe (0.4 s to 1.2 s), the render after; then picture 2.
      expect(distance(await centreAt(file, 0.2), [0xc0, 0x39, 0x2b]), "at 0.2 s").toBeLessThanOrEqual(16);
      expect(distance(await centreAt(file, 1.8), [0x2e, 0x6d, 0xa4]), "at 1.8 s").toBeLessThanOrEqual(16);
      expect(distance(await centreAt(file, 2.2), [0x3c, 0x8d, 0x2f]), "at 2.2 s").toBeLessThanOrEqual(16);
      expect(distance(await centreAt(file, 3.9), [0xee, 0xee, 0xee]), "at 3.9 s").toBeLessThanOrEqual(16);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((value, index) => index === 0 || value >= progress[index - 1]!)).toBe(true);
  });

  it("is 1080 × 1920 in portrait", async () => {
    const before = await picture("#c0392b");
    const made = await makeListingVideo({
      pictures: [{ before, after: before, caption: null }],
      format: "portrait",
      seconds: 3,
      brand: "Casa",
    });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "video-test-"));
    try {
      await fs.writeFile(path.join(dir, "v.mp4"), made.data);
      expect(await probe(path.join(dir, "v.mp4"))).toMatchObject({ width: 1080, height: 1920, nb_read_frames: "75" });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("is refused past its size limit, ffmpeg writing no more than the limit", async () => {
    const before = await picture("#c0392b");
    const after = await picture("#2e86c1");
    const request = {
      pictures: [{ before, after, caption: "Digitally altered" }],
      format: "landscape" as const,
      seconds: 3,
      brand: "Casa",
    };
    const made = await makeListingVideo(request);
    await expect(makeListingVideo(request, { maxBytes: Math.floor(made.data.length / 2) })).rejects.toBeInstanceOf(VideoTooLargeError);
    // The limit is on ffmpeg's command line: the file never grows far past it.
    expect(ffmpegArguments(1, "landscape", 75, "out.mp4", "dir", 1000).slice(-3)).toEqual(["-fs", "1001", "out.mp4"]);
  });

  it("stops ffmpeg when aborted", async () => {
    const before = await picture("#c0392b");
    const controller = new AbortController();
    const making = makeListingVideo(
      {
        pictures: Array.from({ length: 4 }, () => ({ before, after: before, caption: null })),
        format: "landscape",
        seconds: 60,
        brand: "Casa",
      },
      {
        signal: controller.signal,
        // Once ffmpeg is encoding (past the stills' tenth), the user cancels.
        onProgress: (fraction) => {
          if (fraction > 0.1) controller.abort(new Error("canceled"));
        },
      },
    );
    await expect(making).rejects.toThrow("canceled");
  });

  it("refuses a hostile request with the user's message: 1,000 pictures, ten minutes, too many pictures for its length, one picture twice", () => {
    const refusal = (input: Record<string, unknown>) =>
      listingVideoRequestSchema.safeParse({ projectId: "p", jobIds: ["a"], format: "landscape", seconds: 10, ...input }).error?.issues[0]
        ?.message;
    expect(refusal({ jobIds: Array.from({ length: 1000 }, (_, index) => `job-${index}`) })).toBe(MESSAGES.videoTooManyPictures);
    expect(refusal({ seconds: 600 })).toBe(MESSAGES.videoLengthInvalid);
    expect(refusal({ seconds: 2 })).toBe(MESSAGES.videoLengthInvalid);
    expect(refusal({ jobIds: Array.from({ length: 20 }, (_, index) => `job-${index}`), seconds: 20 })).toBe(
      MESSAGES.videoTooShortForPictures,
    );
    expect(refusal({ jobIds: ["a", "a"] })).toBe(MESSAGES.videoPictureRepeated);
    expect(refusal({ jobIds: [] })).toBe(MESSAGES.videoPicturesRequired);
    expect(refusal({ format: "square" })).toBe(MESSAGES.videoFormatInvalid);
    expect(
      listingVideoRequestSchema.safeParse({ projectId: "p", jobIds: ["a", "b"], format: "portrait", seconds: LISTING_VIDEO.secondsMax })
        .success,
    ).toBe(true);
  });
});
