/**
 * The curl commands /developers offers (issue 31, decision 097) work against a real server as they
 * are copied: the page's own builder (curl.ts) with a real key and the ids each answer gives, run by
 * a shell with the system's curl in a folder holding room.jpg.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { curlCommands, IMAGE_ID, RENDER_ID } from "../../src/client/pages/developers/curl";
import { roomPhoto, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const run = promisify(execFile);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

it("uploads a photo, orders a render waiting for it, downloads the picture and reads the credits, as the page's commands say", async () => {
  const user = await signedInClient(server.url);
  const { token } = await user.client.developers.createKey.mutate({
    name: "Terminal",
    scopes: ["renders:write", "renders:read", "credits:read"],
    expiresInDays: null,
    teamId: null,
  });
  const folder = makeTempDir("roomcanvas-curl-");
  fs.writeFileSync(path.join(folder, "room.jpg"), await roomPhoto(960, 720));
  const commands = curlCommands(server.url, token);
  const shell = async (command: string) =>
    (await run("sh", ["-c", `${command} --silent --show-error --fail-with-body`], { cwd: folder })).stdout;

  const upload = JSON.parse(await shell(commands.upload)) as { id: string; width: number };
  expect(upload.width).toBe(960);
  const ordered = JSON.parse(await shell(commands.render.replace(IMAGE_ID, upload.id))) as {
    renders: Array<{ id: string; status: string; style: string }>;
  };
  expect(ordered.renders[0]).toMatchObject({ status: "succeeded", style: "japandi" });
  await shell(commands.image.replace(RENDER_ID, ordered.renders[0]!.id));
  expect(await sharp(path.join(folder, "render.jpg")).metadata()).toMatchObject({ format: "jpeg", width: 960, height: 720 });
  expect(JSON.parse(await shell(commands.credits))).toEqual({ balance: expect.any(Number) });
});
