/**
 * Renders ordered in a custom style (issue 32, decision 101), through the real server: the style's
 * content is kept with the render (editing the style later changes nothing of it), the Preview
 * engine grades with its palette, and a style of another space, or a visitor, finds none.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const input = {
  name: "Casa Azul",
  description: "cobalt blue tiled walls, whitewashed plaster, terracotta floors",
  avoid: "chrome",
  palette: ["#1f4e9c", "#f4efe6"],
  tone: "bold" as const,
};

describe("renders in a custom style", () => {
  it("keeps the style as it was used, grades with its palette, and names it in the render's view", async () => {
    const user = await signedInClient(server.url);
    const style = await user.client.styles.create.mutate({ teamId: null, ...input });
    const uploaded = await upload(server.url, user.jar, await roomPhoto());
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: [style.id, "modern"],
    });
    expect(jobs.map((job) => job.style)).toEqual([style.id, "modern"]);
    await waitForRenders(
      user,
      jobs.map((job) => job.id),
    );
    await user.client.styles.update.mutate({ id: style.id, ...input, name: "Renamed", description: "something else entirely now" });
    const view = await user.client.render.job.query({ id: jobs[0]!.id });
    expect(view).toMatchObject({ status: "succeeded", style: style.id, styleName: "Casa Azul", model: "preview-grade:custom-palette" });
    expect(await user.client.render.job.query({ id: jobs[1]!.id })).toMatchObject({ style: "modern", styleName: null });
    const row = await server.deps.db
      .selectFrom("render_jobs")
      .select("style_snapshot")
      .where("id", "=", jobs[0]!.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.style_snapshot!)).toEqual({ id: style.id, ...input, referenceUsed: false });
  });

  it("names it in a project's set, in an edit of its render, and among the profile's favourite styles", async () => {
    const user = await signedInClient(server.url);
    const style = await user.client.styles.create.mutate({ teamId: null, ...input });
    const first = await upload(server.url, user.jar, await roomPhoto());
    const second = await upload(server.url, user.jar, await roomPhoto(1000, 750), { projectId: first.body.projectId });
    const projectId = first.body.projectId;
    const set = await user.client.render.createSet.mutate({
      projectId,
      style: style.id,
      photos: [first.body, second.body].map((photo) => ({ imageId: photo.imageId, roomType: "living-room" as const })),
    });
    await waitForRenders(
      user,
      set.jobs.map((job) => job.id),
    );
    expect(await user.client.render.sets.query({ projectId })).toMatchObject([{ style: style.id, styleName: "Casa Azul" }]);
    for (const job of set.jobs) expect(await user.client.render.job.query({ id: job.id })).toMatchObject({ styleName: "Casa Azul" });

    // An edit of the render is named after the style as the render used it, also once the style is renamed.
    await user.client.styles.update.mutate({ id: style.id, ...input, name: "Renamed" });
    const source = set.jobs[0]!.id;
    const node = (await user.client.render.versions.query({ id: source })).nodes.find((version) => version.id === source)!;
    // White (change) in a quarter of the picture, black elsewhere.
    const mask = await sharp({ create: { width: node.width!, height: node.height!, channels: 3, background: "#000" } })
      .composite([
        { input: { create: { width: node.width! >> 1, height: node.height! >> 1, channels: 3, background: "#fff" } }, left: 0, top: 0 },
      ])
      .png()
      .toBuffer();
    const edit = await user.client.render.edit.mutate({
      sourceJobId: source,
      mask: `data:image/png;base64,${mask.toString("base64")}`,
      instruction: "paint the wall sage green",
    });
    await waitForRenders(user, [edit.jobId]);
    expect(await user.client.render.job.query({ id: edit.jobId })).toMatchObject({ kind: "edit", style: style.id, styleName: "Casa Azul" });
    const versions = (await user.client.render.versions.query({ id: source })).nodes;
    expect(versions.filter((version) => version.kind !== "photo").map((version) => version.styleName)).toEqual(["Casa Azul", "Casa Azul"]);

    // Three renders in it (two of the set, the edit): the profile names it, with its palette.
    const profile = await user.client.account.profile.query();
    expect(profile.favouriteStyles).toEqual([{ style: style.id, count: 3, styleName: "Casa Azul", palette: input.palette }]);
  });

  it("finds no style of another space, and charges nothing for it", async () => {
    const [owner, other] = [await signedInClient(server.url), await signedInClient(server.url)];
    const style = await owner.client.styles.create.mutate({ teamId: null, ...input });
    const uploaded = await upload(server.url, other.jar, await roomPhoto());
    const credits = (await other.client.account.profile.query()).credits;
    await expect(
      other.client.render.create.mutate({ projectId: uploaded.body.projectId, imageId: uploaded.body.imageId, style: style.id }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    expect((await other.client.account.profile.query()).credits).toBe(credits);
  });
});
