import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { customGrade, GRADES, localProvider } from "../../src/server/render/engines/local";
import { customStyleSnapshot } from "../helpers/custom-style";
import { DESIGN_STYLES } from "../../src/shared/styles";
import { makeRoomPhoto } from "../../scripts/bench/photo";

/**
 * A small noisy photo: the engine grades whatever size it is given, and encoding a 1024×768 picture of
 * pure noise (the costliest JPEG there is) twelve times took seconds, and up to the test's budget on
 * a busy machine.
 */
const WIDTH = 256;
const HEIGHT = 192;

const room = () =>
  sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: "#a08060", noise: { type: "gaussian", mean: 120, sigma: 30 } } })
    .jpeg()
    .toBuffer();

function request(image: Buffer, style: (typeof DESIGN_STYLES)[number], signal = new AbortController().signal) {
  return { image, width: WIDTH, height: HEIGHT, style, roomType: "living-room" as const, mode: "room-photo" as const, signal };
}

describe("the local preview engine", () => {
  it("grades a custom style with its palette and tone (issue 32): each palette moves the picture towards its colours", async () => {
    const image = await room();
    const mean = async (picture: Buffer) => (await sharp(picture).stats()).channels.slice(0, 3).map((channel) => channel.mean);
    // The same tone: only the palettes differ.
    const blue = customStyleSnapshot({ palette: ["#1f3f9c", "#2a5bd0"], tone: "neutral" });
    const red = customStyleSnapshot({ palette: ["#b0302a", "#d0582a"], tone: "neutral" });
    const [byBlue, byRed] = await Promise.all(
      [blue, red].map((snapshot) => localProvider.render({ ...request(image, "modern"), style: snapshot.id, styleSnapshot: snapshot })),
    );
    expect(byBlue!.model).toBe("preview-grade:custom-palette");
    const [[blueR, , blueB], [redR, , redB]] = await Promise.all([mean(byBlue!.image), mean(byRed!.image)]);
    expect(blueB! - blueR!).toBeGreaterThan(redB! - redR! + 5);
    expect(customGrade({ palette: ["#000000", "#ffffff"], tone: "light" }).wash).toEqual({ r: 188, g: 188, b: 188 });
  });

  it("is labelled honestly", () => {
    expect(localProvider.label).toBe("Preview engine");
    expect(localProvider.label).not.toMatch(/\bAI\b/);
  });

  it("renders every style as a JPEG of the same size, each style different", async () => {
    const image = await room();
    const digests = new Set<string>();
    for (const style of DESIGN_STYLES) {
      const progress: number[] = [];
      const result = await localProvider.render({ ...request(image, style), onProgress: (fraction) => progress.push(fraction) });
      expect(result.mime).toBe("image/jpeg");
      const metadata = await sharp(result.image).metadata();
      expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
        format: "jpeg",
        width: WIDTH,
        height: HEIGHT,
      });
      expect(progress.at(-1)).toBe(1);
      const stats = await sharp(result.image).stats();
      digests.add(stats.channels.map((channel) => channel.mean.toFixed(1)).join(","));
    }
    expect(digests.size).toBe(DESIGN_STYLES.length);
  });

  it("is deterministic", async () => {
    const image = await room();
    const first = await localProvider.render(request(image, "scandinavian"));
    const second = await localProvider.render(request(image, "scandinavian"));
    expect(first.image.equals(second.image)).toBe(true);
  });

  it("stops when canceled", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(localProvider.render(request(await room(), "modern", controller.signal))).rejects.toThrow(/cancel|abort/i);
  });

  it("keeps the look of the grade it replaced: within four shades on average, every style", async () => {
    // The grade of record: sharp's modulate (brightness, saturation and hue in LCh), the contrast, then
    // the wash as a picture-sized layer composited by libvips. Ours is a colour matrix and one curve
    // per channel (seconds faster at 12 MP, issue 30). On a room photo with colourful books and a
    // sky it must look the same: a wash laid wrong is 17 shades apart, the hue turned the wrong way 7.
    const photo = await makeRoomPhoto(640, 480);
    const reference = async (grade: (typeof GRADES)[keyof typeof GRADES]) => {
      const layer = { create: { width: 640, height: 480, channels: 4 as const, background: { ...grade.wash, alpha: grade.washOpacity } } };
      const jpeg = await sharp(photo)
        .modulate({ brightness: grade.brightness, saturation: grade.saturation, hue: grade.hue })
        .linear(grade.contrast, 128 * (1 - grade.contrast))
        .composite([{ input: layer, blend: "soft-light" }])
        .jpeg({ quality: 90, mozjpeg: true })
        .toBuffer();
      return sharp(jpeg).removeAlpha().raw().toBuffer();
    };
    // Rounding, JPEG's loss, and chroma scaled on sRGB values where modulate scaled it in LCh move
    // pixels a few shades; strongly saturated colours (the books) most.
    const difference = (a: Buffer, b: Buffer) => {
      const apart = Array.from(a, (value, index) => Math.abs(value - b[index]!)).sort((x, y) => x - y);
      return { mean: apart.reduce((sum, value) => sum + value, 0) / apart.length, p99: apart[Math.floor(apart.length * 0.99)]! };
    };
    for (const style of DESIGN_STYLES) {
      const rendered = await localProvider.render({ ...request(photo, style), width: 640, height: 480 });
      const apart = difference(await sharp(rendered.image).raw().toBuffer(), await reference(GRADES[style]));
      expect(apart.mean, style).toBeLessThanOrEqual(4);
      expect(apart.p99, style).toBeLessThanOrEqual(14);
    }
  });
});
