/**
 * Listing videos on the real server (issue 33): a user orders a video of a project's renders; it is
 * made in the background with its progress followed, stored, and played or downloaded by its owner
 * only (ffprobe reads what was served); a video can be canceled while it is made; a render of another
 * project or account, and a hostile request, are refused with a message. On PostgreSQL with two
 * instances on one database: a follower on the instance that is not making the video sees its
 * progress as it is made, and a cancel sent through it stops the video where it is made.
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ffprobe from "@ffprobe-installer/ffprobe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { LISTING_VIDEO } from "../../src/shared/listing-video";
import { VideoTooLargeError } from "../../src/server/listing/video";
import { createVideoMaker } from "../../src/server/listing/videos";
import { failure } from "../helpers/failure";
import { createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { databaseLane, placeOf } from "../helpers/test-env";

const run = promisify(execFile);
const poll = <T>(check: () => Promise<T>) => expect.poll(check, { timeout: 60_000, interval: 100 });

describe("listing videos", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function userWithRenders(count: number) {
    const user = await signedInClient(server.url);
    const first = await upload(server.url, user.jar, await roomPhoto(1200, 900));
    const { jobs } = await user.client.render.create.mutate({
      projectId: first.body.projectId,
      imageId: first.body.imageId,
      style: ["coastal", "japandi", "industrial"].slice(0, count) as never,
    });
    await waitForRenders(
      user,
      jobs.map((job) => job.id),
    );
    return { user, projectId: first.body.projectId, jobIds: jobs.map((job) => job.id) };
  }

  it("is made in the background, followed to done, and served to its owner only", async () => {
    const { user, projectId, jobIds } = await userWithRenders(2);
    const ordered = await user.client.listing.createVideo.mutate({ projectId, jobIds, format: "portrait", seconds: 4, language: "en" });
    expect(ordered).toMatchObject({ status: "queued", pictures: 2, format: "portrait", seconds: 4, url: null });
    await poll(async () => (await user.client.listing.video.query({ id: ordered.id })).status).toBe("succeeded");
    const done = await user.client.listing.video.query({ id: ordered.id });
    expect(done).toMatchObject({ progress: 1, width: 1080, height: 1920, url: `/files/listing/videos/${ordered.id}/video.mp4` });
    expect(await user.client.listing.videos.query({ projectId })).toEqual([done]);

    const response = await user.jar.fetch(`${server.url}${done.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("video/mp4");
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "served-video-"));
    try {
      await fs.writeFile(path.join(dir, "v.mp4"), Buffer.from(await response.arrayBuffer()));
      const { stdout } = await run(ffprobe.path, [
        "-v",
        "error",
        "-count_frames",
        "-show_entries",
        "stream=codec_name,width,height,nb_read_frames",
        "-of",
        "json",
        path.join(dir, "v.mp4"),
      ]);
      expect(JSON.parse(stdout).streams[0]).toMatchObject({ codec_name: "h264", width: 1080, height: 1920, nb_read_frames: "100" });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    const download = await user.jar.fetch(`${server.url}${done.url}?download=1`);
    expect(download.headers.get("content-disposition")).toMatch(/attachment; filename="?roomcanvas-listing-video\.mp4"?/);

    // Another account, and a visitor, are told it does not exist.
    const stranger = await signedInClient(server.url);
    expect((await stranger.jar.fetch(`${server.url}${done.url}`)).status).toBe(404);
    expect((await fetch(`${server.url}${done.url}`)).status).toBe(404);
    expect(failure(await stranger.client.listing.video.query({ id: ordered.id }).catch((error: unknown) => error)).data?.code).toBe(
      "NOT_FOUND",
    );
    expect(await stranger.client.listing.videos.query({ projectId })).toEqual([]);
  });

  it("follows the video's progress as it is made, and stops it when canceled", async () => {
    const { user, projectId, jobIds } = await userWithRenders(2);
    const ordered = await user.client.listing.createVideo.mutate({ projectId, jobIds, format: "landscape", seconds: 60, language: "en" });
    // Over server-sent events: the state at once, then each step of the progress, then its end.
    const seen: Array<{ status: string; progress: number }> = [];
    const ended = new Promise<void>((resolve, reject) => {
      const subscription = user.client.listing.videoEvents.subscribe(
        { id: ordered.id },
        {
          onData(view) {
            seen.push({ status: view.status, progress: view.progress });
            // Canceled once ffmpeg is encoding (past the stills' tenth).
            if (view.status === "making" && view.progress > 0.1 && !seen.some((entry) => entry.status === "canceling")) {
              seen.push({ status: "canceling", progress: view.progress });
              void user.client.listing.cancelVideo.mutate({ id: ordered.id });
            }
            if (view.status === "canceled") {
              subscription.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    await ended;
    const making = seen.filter((entry) => entry.status === "making").map((entry) => entry.progress);
    expect(making.length).toBeGreaterThan(1);
    expect(making.every((value, index) => index === 0 || value >= making[index - 1]!)).toBe(true);
    expect(seen.at(-1)?.status).toBe("canceled");
    const canceled = await user.client.listing.cancelVideo.mutate({ id: ordered.id });
    expect(canceled).toMatchObject({ status: "canceled", url: null });
    expect((await user.client.listing.video.query({ id: ordered.id })).status).toBe("canceled");
  });

  it("is shown on the project's public listing pages only when its owner chooses, one per project", async () => {
    const { user, projectId, jobIds } = await userWithRenders(1);
    const exported = await user.client.listing.create.mutate({ jobId: jobIds[0]!, language: "en" });
    const code = new URL(exported.publicUrl).pathname.slice("/l/".length);
    const page = async () => (await fetch(`${server.url}/l/${code}`)).text();
    const video = () => fetch(`${server.url}/l/${code}/video.mp4`);
    // A video not made yet cannot be shown (a long one, canceled after).
    const long = await user.client.listing.createVideo.mutate({ projectId, jobIds, format: "landscape", seconds: 60, language: "en" });
    const early = failure(
      await user.client.listing.setVideoOnListingPages.mutate({ id: long.id, on: true }).catch((error: unknown) => error),
    );
    expect(early.message).toBe(MESSAGES.videoNotMade);
    await user.client.listing.cancelVideo.mutate({ id: long.id });
    const first = await user.client.listing.createVideo.mutate({ projectId, jobIds, format: "landscape", seconds: 3, language: "en" });
    await poll(async () => (await user.client.listing.video.query({ id: first.id })).status).toBe("succeeded");
    expect(await page()).not.toContain("<video");
    expect((await video()).status).toBe(404);

    expect(await user.client.listing.setVideoOnListingPages.mutate({ id: first.id, on: true })).toMatchObject({ onListingPages: true });
    expect(await page()).toContain(`<video controls preload="metadata" playsinline src="/l/${code}/video.mp4"`);
    const served = await video();
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("video/mp4");
    expect(served.headers.get("set-cookie")).toBeNull();

    // Another account cannot show or hide it; a second video shown takes the first one's place.
    const stranger = await signedInClient(server.url);
    expect(
      failure(await stranger.client.listing.setVideoOnListingPages.mutate({ id: first.id, on: false }).catch((error: unknown) => error))
        .data?.code,
    ).toBe("NOT_FOUND");
    const second = await user.client.listing.createVideo.mutate({ projectId, jobIds, format: "portrait", seconds: 3, language: "en" });
    await poll(async () => (await user.client.listing.video.query({ id: second.id })).status).toBe("succeeded");
    await user.client.listing.setVideoOnListingPages.mutate({ id: second.id, on: true });
    expect((await user.client.listing.video.query({ id: first.id })).onListingPages).toBe(false);
    expect((await video()).status).toBe(200);

    await user.client.listing.setVideoOnListingPages.mutate({ id: second.id, on: false });
    expect((await video()).status).toBe(404);
    expect(await page()).not.toContain("<video");
    await user.client.listing.setVideoOnListingPages.mutate({ id: second.id, on: true });
    await user.client.listing.revoke.mutate({ exportId: exported.id });
    expect((await video()).status).toBe(404);
  });

  it("is deleted with its file by its owner only; a deleted project's videos lose their files at the next sweep", async () => {
    const { user, projectId, jobIds } = await userWithRenders(1);
    const fileOf = (id: string) => server.deps.storage.get(UPLOAD_BUCKET, `listing/videos/${id}.mp4`);
    const made = async () => {
      const ordered = await user.client.listing.createVideo.mutate({ projectId, jobIds, format: "landscape", seconds: 3, language: "en" });
      await poll(async () => (await user.client.listing.video.query({ id: ordered.id })).status).toBe("succeeded");
      expect(await fileOf(ordered.id)).not.toBeNull();
      return ordered.id;
    };
    const first = await made();
    const stranger = await signedInClient(server.url);
    expect(failure(await stranger.client.listing.deleteVideo.mutate({ id: first }).catch((error: unknown) => error)).data?.code).toBe(
      "NOT_FOUND",
    );
    expect(await user.client.listing.deleteVideo.mutate({ id: first })).toEqual({ ok: true });
    expect(await fileOf(first)).toBeNull();
    expect(await user.client.listing.videos.query({ projectId })).toEqual([]);
    expect((await user.jar.fetch(`${server.url}/files/listing/videos/${first}/video.mp4`)).status).toBe(404);

    // The project deleted: its video's row goes with it, and the sweep removes the file nothing refers to.
    const second = await made();
    await user.client.projects.delete.mutate({ id: projectId });
    expect(await fileOf(second)).not.toBeNull();
    await server.services.listing.sweep();
    expect(await fileOf(second)).toBeNull();
  });

  it("fails a video that came out past its size limit with the user's message, and keeps no file", async () => {
    const { user, projectId, jobIds } = await userWithRenders(1);
    // A queue on the server's own database and files whose maker reports the limit passed (as makeListingVideo does).
    const queue = createVideoMaker(
      { ...server.deps, render: server.services.render, brandName: () => "Casa" },
      {
        make: async () => {
          throw new VideoTooLargeError(LISTING_VIDEO.bytesMax);
        },
      },
    );
    const ordered = await queue.create(user.userId, { projectId, jobIds, format: "landscape", seconds: 3, language: "en" });
    await poll(async () => (await queue.view(user.userId, ordered.id)).status).toBe("failed");
    expect(await queue.view(user.userId, ordered.id)).toMatchObject({ error: MESSAGES.videoTooLarge, url: null });
    expect(await server.deps.storage.get(UPLOAD_BUCKET, `listing/videos/${ordered.id}.mp4`)).toBeNull();
    await queue.stop();
  });

  it("refuses a render of another project or account, and a hostile request, each with its message and nothing queued", async () => {
    const { user, projectId, jobIds } = await userWithRenders(1);
    const other = await userWithRenders(1);
    const refusal = async (input: Record<string, unknown>) =>
      failure(
        await user.client.listing.createVideo
          .mutate({ projectId, jobIds, format: "landscape", seconds: 10, language: "en", ...input } as never)
          .catch((error: unknown) => error),
      );
    expect((await refusal({ jobIds: other.jobIds })).data?.code).toBe("NOT_FOUND");
    expect((await refusal({ projectId: other.projectId })).message).toBe(MESSAGES.videoPictureNotInProject);
    const hostile = await refusal({ jobIds: Array.from({ length: 1000 }, (_, index) => `job-${index}`), seconds: 600 });
    expect(hostile.data?.code).toBe("BAD_REQUEST");
    expect(Object.values(hostile.data?.zodError?.fieldErrors ?? {}).flat()).toEqual(
      expect.arrayContaining([MESSAGES.videoTooManyPictures, MESSAGES.videoLengthInvalid]),
    );
    expect(await user.client.listing.videos.query({ projectId })).toEqual([]);
  });
});

describe.skipIf(databaseLane() !== "postgres")("listing videos across two instances on one PostgreSQL database", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer();
    // B shares A's database and files; videos ordered through A are made by A.
    b = await startTestServer(placeOf(a.deps.env), { startWorker: false });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("streams A's progress to a follower on B, and a cancel sent through B stops the video on A", async () => {
    const ana = await signedInClient(a.url);
    const photo = await upload(a.url, ana.jar, await roomPhoto(1200, 900));
    const { jobs } = await ana.client.render.create.mutate({
      projectId: photo.body.projectId,
      imageId: photo.body.imageId,
      style: ["coastal", "japandi"] as never,
    });
    const jobIds = jobs.map((job) => job.id);
    await waitForRenders(ana, jobIds);
    const onB = createStudioClient(b.url, ana.jar).client;
    const ordered = await ana.client.listing.createVideo.mutate({
      projectId: photo.body.projectId,
      jobIds,
      format: "landscape",
      seconds: 60,
      language: "en",
    });
    const seen: Array<{ status: string; progress: number }> = [];
    await new Promise<void>((resolve, reject) => {
      const subscription = onB.listing.videoEvents.subscribe(
        { id: ordered.id },
        {
          onData(view) {
            seen.push({ status: view.status, progress: view.progress });
            // Canceled through B once A's ffmpeg is encoding and B has seen it move.
            const moving = seen.filter((entry) => entry.status === "making" && entry.progress > 0.1);
            if (moving.length === 2) void onB.listing.cancelVideo.mutate({ id: ordered.id });
            if (view.status === "canceled") {
              subscription.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    const making = seen.filter((entry) => entry.status === "making").map((entry) => entry.progress);
    expect(making.length).toBeGreaterThan(2);
    expect(making.every((value, index) => index === 0 || value >= making[index - 1]!)).toBe(true);
    expect(await ana.client.listing.video.query({ id: ordered.id })).toMatchObject({ status: "canceled", url: null });
  });
});
