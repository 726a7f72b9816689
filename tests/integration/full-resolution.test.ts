/**
 * Pictures at the photo's resolution (issue 30): the Preview engine works at the photo's own size,
 * scaled down only past RENDER.maxWorkingPixels, so its picture "as rendered" is as large as the
 * photo; the medium and thumbnail variants stay small.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { RENDER } from "../../src/shared/render";
import { signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

/** A room-like photo of this size: soft gradients and a few shapes (a JPEG of a few MB even at 28 MP). */
async function photo(width: number, height: number): Promise<Buffer> {
  const shapes = Buffer.from(
    `<svg width="${width}" height="${height}"><defs><linearGradient id="wall"><stop offset="0" stop-color="#e9e1d3"/><stop offset="1" stop-color="#8f7f69"/></linearGradient></defs>` +
      `<rect width="${width}" height="${height}" fill="url(#wall)"/><rect y="${Math.round(height * 0.7)}" width="${width}" height="${Math.round(height * 0.3)}" fill="#b08d5b"/>` +
      `<rect x="${Math.round(width * 0.6)}" y="${Math.round(height * 0.15)}" width="${Math.round(width * 0.25)}" height="${Math.round(height * 0.35)}" fill="#cfe8f7"/></svg>`,
  );
  return sharp(shapes).jpeg({ quality: 85 }).toBuffer();
}

describe("the Preview engine at the photo's resolution", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function render(bytes: Buffer) {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, bytes);
    expect(uploaded.status).toBe(201);
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    await waitForRenders(user, [jobs[0]!.id], { timeoutMs: 60_000 });
    const view = await user.client.render.job.query({ id: jobs[0]!.id });
    expect(view.status).toBe("succeeded");
    const row = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", view.id).executeTakeFirstOrThrow();
    const sizeOf = async (key: string | null) => {
      const stored = await server.deps.storage.get(UPLOAD_BUCKET, key!);
      const { width, height } = await sharp(stored!.data).metadata();
      return [width, height];
    };
    return { user, view, row, sizeOf };
  }

  it("renders a 3000 × 2000 photo at 3000 × 2000, downloadable as rendered and as a 1024 px medium", async () => {
    const { user, view, row, sizeOf } = await render(await photo(3000, 2000));
    expect(view.downloads).toEqual([
      { kind: "rendered", url: `/files/renders/${view.id}/download/rendered`, width: 3000, height: 2000 },
      { kind: "medium", url: `/files/renders/${view.id}/download/medium`, width: 1024, height: 683 },
    ]);
    // The "before" of the side by side is the size of the "after" beside it, not a second 6 MP file.
    expect(await sizeOf(row.input_key)).toEqual([1024, 683]);
    expect(await sizeOf(row.medium_key)).toEqual([1024, 683]);
    expect(await sizeOf(row.result_key)).toEqual([3000, 2000]);
    expect(await sizeOf(row.thumb_key)).toEqual([RENDER.thumbLongEdge, 213]);
    const download = await user.jar.fetch(`${server.url}${view.downloads[0]!.url}`);
    const picture = await sharp(Buffer.from(await download.arrayBuffer())).metadata();
    expect([picture.format, picture.width, picture.height]).toEqual(["jpeg", 3000, 2000]);
  });

  it("scales a photo past 24 MP down to 24 MP at most, keeping its proportions", async () => {
    const { view } = await render(await photo(7000, 4000));
    const rendered = view.downloads.find((download) => download.kind === "rendered")!;
    expect(rendered.width * rendered.height).toBeLessThanOrEqual(RENDER.maxWorkingPixels);
    expect(rendered.width * rendered.height).toBeGreaterThan(RENDER.maxWorkingPixels * 0.999);
    expect(Math.abs(rendered.width / rendered.height - 7000 / 4000)).toBeLessThan(0.001);
  });
});
