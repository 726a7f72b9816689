import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { localProvider } from "../../src/server/render/engines/local";
import { DESIGN_STYLES } from "../../src/shared/styles";

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
});
