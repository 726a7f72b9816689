/**
 * A listing video made with ffmpeg (issue 33): each picture on screen for the same time, first as it
 * was, then wiped from left to right to the render, which holds; the studio's name in a corner and,
 * on an altered picture, its disclosure as a caption. H.264, yuv420p, the index at the front
 * (faststart) so it plays while it downloads; silent.
 *
 * sharp makes the stills (each picture fitted on a blurred, darkened fill of itself, so a 4:3 photo
 * fills a 9:16 frame without being cropped) and the overlay of text; ffmpeg animates the wipe with a
 * moving mask (cheap per frame) and encodes. Its progress comes from `-progress`; an abort kills it.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { LISTING_VIDEO, VIDEO_FORMATS, type VideoFormat } from "../../shared/listing-video";

/** One picture of the video: the photo before, the render after, and the caption an altered one carries. */
export interface VideoPicture {
  before: Buffer;
  after: Buffer;
  /** The disclosure shown under an altered picture (null: none). */
  caption: string | null;
}

export interface VideoRequest {
  pictures: VideoPicture[];
  format: VideoFormat;
  seconds: number;
  /** The studio's name, in the top corner of every frame. */
  brand: string;
}

export interface MadeVideo {
  data: Buffer;
  width: number;
  height: number;
  frames: number;
  seconds: number;
}

/** Within a picture's time: the "before" holds, then the wipe, then the render holds. */
const HOLD_BEFORE = 0.2;
const WIPE = 0.4;

const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** The ffmpeg binary: FFMPEG_PATH, else the one the registry package ships (@ffmpeg-installer). */
export function ffmpegPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FFMPEG_PATH) return env.FFMPEG_PATH;
  const require = createRequire(import.meta.url);
  return (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
}

/** A picture fitted to the frame: whole, on a blurred and darkened fill of itself. */
async function still(picture: Buffer, width: number, height: number): Promise<Buffer> {
  const fill = await sharp(picture).rotate().resize(width, height, { fit: "cover" }).blur(24).modulate({ brightness: 0.55 }).toBuffer();
  const fitted = await sharp(picture).rotate().resize(width, height, { fit: "inside" }).toBuffer({ resolveWithObject: true });
  return sharp(fill)
    .composite([
      {
        input: fitted.data,
        left: Math.round((width - fitted.info.width) / 2),
        top: Math.round((height - fitted.info.height) / 2),
      },
    ])
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** The text over every frame: the brand at the top, the caption (if any) in a band at the bottom. */
async function textOverlay(brand: string, caption: string | null, width: number, height: number): Promise<Buffer> {
  const unit = Math.round(Math.min(width, height) / 30);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`,
    `<rect x="${unit}" y="${unit}" width="${Math.min(width - 2 * unit, Math.round(unit * 0.68 * brand.length + 2 * unit))}" height="${Math.round(unit * 2)}" rx="${Math.round(unit / 2)}" fill="#000" fill-opacity="0.55"/>`,
    `<text x="${2 * unit}" y="${Math.round(unit * 2.35)}" font-family="${FONT_FAMILY}" font-weight="700" font-size="${unit}" fill="#fff">${escapeXml(brand)}</text>`,
  ];
  if (caption) {
    const band = Math.round(unit * 2.4);
    parts.push(
      `<rect x="0" y="${height - band}" width="${width}" height="${band}" fill="#111" fill-opacity="0.8"/>`,
      `<text x="${width / 2}" y="${height - Math.round(band * 0.38)}" text-anchor="middle" font-family="${FONT_FAMILY}" font-weight="700" font-size="${Math.round(unit * 0.9)}" fill="#fff">${escapeXml(caption)}</text>`,
    );
  }
  parts.push("</svg>");
  return sharp(Buffer.from(parts.join("")))
    .png()
    .toBuffer();
}

/**
 * The ffmpeg arguments: three inputs per picture (before, after, text), a wipe per picture (a white
 * box sliding over a black mask gives the render's alpha), the pictures joined, then H.264.
 */
export function ffmpegArguments(
  pictureCount: number,
  format: VideoFormat,
  framesPerPicture: number,
  output: string,
  dir: string,
  maxBytes: number = LISTING_VIDEO.bytesMax,
): string[] {
  const { width, height } = VIDEO_FORMATS[format];
  const fps = LISTING_VIDEO.framesPerSecond;
  const seconds = framesPerPicture / fps;
  const holdBefore = (seconds * HOLD_BEFORE).toFixed(3);
  const wipe = (seconds * WIPE).toFixed(3);
  const inputs: string[] = [];
  const filters: string[] = [];
  // Each still is read and decoded once, then repeated by the loop filter (an image input looped by
  // the demuxer would be decoded again for every frame).
  const repeated = `loop=loop=${framesPerPicture - 1}:size=1:start=0,setpts=N/(${fps}*TB)`;
  for (let index = 0; index < pictureCount; index++) {
    for (const name of ["before", "after", "text"]) inputs.push("-i", path.join(dir, `${index}-${name}.png`));
    const [before, after, text] = [index * 3, index * 3 + 1, index * 3 + 2];
    filters.push(
      `[${before}:v]format=yuv420p,${repeated}[before${index}]`,
      `[${after}:v]format=yuva420p,${repeated}[after${index}]`,
      `[${text}:v]format=yuva420p,${repeated}[text${index}]`,
      // The mask: a white box sliding over black, left to right, during the wipe.
      `color=c=black:s=${width}x${height}:r=${fps}:d=${seconds.toFixed(3)},format=gray[black${index}]`,
      `color=c=white:s=${width}x${height}:r=${fps}:d=${seconds.toFixed(3)},format=gray[white${index}]`,
      `[black${index}][white${index}]overlay=x='-w+w*clip((t-${holdBefore})/${wipe},0,1)':y=0:eval=frame[mask${index}]`,
      `[after${index}][mask${index}]alphamerge[revealed${index}]`,
      `[before${index}][revealed${index}]overlay=0:0:format=yuv420[wiped${index}]`,
      `[wiped${index}][text${index}]overlay=0:0:format=yuv420,setsar=1,trim=end_frame=${framesPerPicture}[picture${index}]`,
    );
  }
  const joined = Array.from({ length: pictureCount }, (_, index) => `[picture${index}]`).join("");
  filters.push(`${joined}concat=n=${pictureCount}:v=1:a=0[video]`);
  return [
    "-hide_banner",
    "-nostats",
    "-loglevel",
    "error",
    "-y",
    ...inputs,
    "-filter_complex",
    filters.join(";"),
    "-map",
    "[video]",
    "-r",
    String(fps),
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
    "-an",
    "-progress",
    "pipe:1",
    // Never more than the limit on disk: ffmpeg stops writing past it (and the video is refused).
    "-fs",
    String(maxBytes + 1),
    output,
  ];
}

/** The video came out larger than LISTING_VIDEO.bytesMax: it is not kept. */
export class VideoTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the listing video came out larger than ${maxBytes} bytes`);
  }
}

/**
 * Makes the video. `onProgress` gets 0..1 as frames are encoded (the stills first count for a tenth);
 * an abort stops ffmpeg and rejects with the signal's reason.
 */
export async function makeListingVideo(
  request: VideoRequest,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void; ffmpeg?: string; maxBytes?: number } = {},
): Promise<MadeVideo> {
  const maxBytes = options.maxBytes ?? LISTING_VIDEO.bytesMax;
  const { width, height } = VIDEO_FORMATS[request.format];
  const fps = LISTING_VIDEO.framesPerSecond;
  const count = request.pictures.length;
  const framesPerPicture = Math.floor((request.seconds * fps) / count);
  const frames = framesPerPicture * count;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "listing-video-"));
  try {
    for (const [index, picture] of request.pictures.entries()) {
      options.signal?.throwIfAborted();
      const [before, after, text] = await Promise.all([
        still(picture.before, width, height),
        still(picture.after, width, height),
        textOverlay(request.brand, picture.caption, width, height),
      ]);
      await Promise.all([
        fs.writeFile(path.join(dir, `${index}-before.png`), before),
        fs.writeFile(path.join(dir, `${index}-after.png`), after),
        fs.writeFile(path.join(dir, `${index}-text.png`), text),
      ]);
      options.onProgress?.((0.1 * (index + 1)) / count);
    }
    const output = path.join(dir, "video.mp4");
    await runFfmpeg(
      options.ffmpeg ?? ffmpegPath(),
      ffmpegArguments(count, request.format, framesPerPicture, output, dir, maxBytes),
      frames,
      {
        ...(options.signal ? { signal: options.signal } : {}),
        onFrames: (done) => options.onProgress?.(0.1 + 0.9 * Math.min(1, done / frames)),
      },
    );
    if ((await fs.stat(output)).size > maxBytes) throw new VideoTooLargeError(maxBytes);
    return { data: await fs.readFile(output), width, height, frames, seconds: frames / fps };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function runFfmpeg(
  binary: string,
  args: string[],
  frames: number,
  options: { signal?: AbortSignal; onFrames?: (frames: number) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    let errors = "";
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = /^frame=(\d+)/.exec(line.trim());
        if (match) options.onFrames?.(Math.min(frames, Number(match[1])));
      }
    });
    // ffmpeg's errors, kept short: a failed video says why in the log.
    child.stderr.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
    const abort = () => child.kill("SIGKILL");
    options.signal?.addEventListener("abort", abort, { once: true });
    child.on("error", (error) => {
      options.signal?.removeEventListener("abort", abort);
      reject(error);
    });
    child.on("close", (code) => {
      options.signal?.removeEventListener("abort", abort);
      if (options.signal?.aborted) return reject(options.signal.reason);
      if (code === 0) return resolve();
      reject(new Error(`ffmpeg ended with ${code}: ${errors.trim()}`));
    });
  });
}
