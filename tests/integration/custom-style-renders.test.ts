/**
 * Renders ordered in a custom style (issue 32, decision 101), through the real server: the style's
 * content is kept with the render (editing the style later changes nothing of it), the Preview
 * engine grades with its palette, and a style of another space, or a visitor, finds none.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/server/render/engines/openai";
import { styleReferenceKey } from "../../src/server/render/links";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { customStyleReferencePath } from "../../src/shared/custom-styles";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { confirmAddress, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

type User = Awaited<ReturnType<typeof signedInClient>>;

/** A reference picture sent as the page sends it: the file as the raw body. */
async function putReference(server: TestServer, user: User, styleId: string, colour = "#1f4e9c"): Promise<Buffer> {
  const picture = await sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  const response = await user.jar.fetch(`${server.url}${customStyleReferencePath(styleId)}`, {
    method: "PUT",
    headers: { "content-type": "image/jpeg", origin: server.url },
    body: new Uint8Array(picture),
  });
  expect(response.status).toBe(200);
  // What is kept (and sent to an engine) is the style module's own JPEG of it.
  return Buffer.from(await (await user.jar.fetch(`${server.url}${customStyleReferencePath(styleId)}`)).arrayBuffer());
}

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

  it("keeps no reference picture for an engine that takes none (the Preview engine), and says so in the snapshot", async () => {
    const user = await signedInClient(server.url);
    const style = await user.client.styles.create.mutate({ teamId: null, ...input });
    await putReference(server, user, style.id);
    const uploaded = await upload(server.url, user.jar, await roomPhoto());
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: style.id,
    });
    await waitForRenders(user, [jobs[0]!.id]);
    const row = await server.deps.db
      .selectFrom("render_jobs")
      .select("style_snapshot")
      .where("id", "=", jobs[0]!.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.style_snapshot!)).toMatchObject({ referenceUsed: false });
    expect(await server.deps.storage.get(UPLOAD_BUCKET, styleReferenceKey(jobs[0]!.id))).toBeNull();
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

describe("a custom style's reference picture on OpenAI", () => {
  let fake: FakeOpenAi;
  let openAiServer: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    openAiServer = await startTestServer(
      {},
      { renderProvider: createOpenAiProvider({ apiKey: "sk-fake-key", model: "gpt-image-1", baseUrl: fake.url }) },
    );
  });
  afterAll(async () => {
    await openAiServer?.stop();
    await fake?.close();
  });

  it("is kept with the render as it was and sent as the second picture with the style's words; deleting the render removes it", async () => {
    const user = await signedInClient(openAiServer.url);
    await confirmAddress(openAiServer.url, openAiServer.deps.db, user.email);
    const style = await user.client.styles.create.mutate({ teamId: null, ...input });
    const kept = await putReference(openAiServer, user, style.id);
    const uploaded = await upload(openAiServer.url, user.jar, await roomPhoto());
    const sentBefore = fake.requests.length;
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: style.id,
    });
    const jobId = jobs[0]!.id;
    // Changing the style's picture after the order changes nothing of what the render was ordered with.
    const changed = await putReference(openAiServer, user, style.id, "#c4622d");
    expect(changed.equals(kept)).toBe(false);
    await waitForRenders(user, [jobId]);

    const [request] = fake.requests.slice(sentBefore);
    expect(request!.images?.map((image) => image.name)).toEqual(["image.jpg", "reference.jpg"]);
    expect(request!.images![1]!.bytes.equals(kept)).toBe(true);
    expect(request!.fields.prompt).toContain("The second picture shows the look of this style");
    expect(request!.fields.prompt).toContain(input.description);
    expect(request!.fields.prompt).not.toContain("another room of the same home");
    const row = await openAiServer.deps.db
      .selectFrom("render_jobs")
      .select("style_snapshot")
      .where("id", "=", jobId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.style_snapshot!)).toMatchObject({ name: input.name, referenceUsed: true });
    expect((await user.client.render.job.query({ id: jobId })).parameters).toMatchObject({ styleReference: true });

    expect(await openAiServer.deps.storage.get(UPLOAD_BUCKET, styleReferenceKey(jobId))).not.toBeNull();
    await user.client.render.delete.mutate({ id: jobId });
    expect(await openAiServer.deps.storage.get(UPLOAD_BUCKET, styleReferenceKey(jobId))).toBeNull();
  });
});
