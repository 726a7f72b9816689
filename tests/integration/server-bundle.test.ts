/**
 * What `npm start` and the Docker image run: the server bundled by esbuild (scripts/build.mjs),
 * started by plain Node with no TypeScript loader. Built into dist/server as `npm start` would; it
 * must start, find what it resolves from its own file (the package's version, the shipped ComfyUI
 * workflows, the client build with its pre-rendered landing page), answer /healthz, and stop cleanly.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { buildServer, CLIENT_OUT_DIR, clientBuildIsStale, SERVER_BUNDLE, serverBuildIsStale } from "../../scripts/build.mjs";
import { databaseLane, makeTempDir } from "../helpers/test-env";

// Built once per run, into the one dist/: the PostgreSQL lane would build it again at the same time.
describe.skipIf(databaseLane() === "postgres")("the production server bundle", () => {
  it("builds, starts under plain node with the shipped ComfyUI workflows, answers /healthz and the pre-rendered /, and stops on SIGTERM", async () => {
    // The client as `npm start` builds it (dist/client), when missing or stale. This run's global
    // setup already built it from the same sources with the same buildClient (only the folder
    // differs), so it is copied instead of built twice (a clean clone spent 20 CPU-seconds on
    // that). Without that build, in a process of its own: its pre-rendering loads React for
    // production, and this worker may hold React's development build from an earlier test file
    // (decision 059).
    if (clientBuildIsStale()) {
      const builtForThisRun = inject("clientDir");
      if (!clientBuildIsStale(builtForThisRun)) {
        fs.rmSync(CLIENT_OUT_DIR, { recursive: true, force: true });
        fs.cpSync(builtForThisRun, CLIENT_OUT_DIR, { recursive: true });
      } else await promisify(execFile)(process.execPath, ["scripts/build.mjs", "client"]);
      expect(clientBuildIsStale()).toBe(false);
    }
    await buildServer();
    expect(serverBuildIsStale()).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(SERVER_BUNDLE), "comfyui-workflows", "restyle.json"))).toBe(true);

    const dataDir = makeTempDir();
    const child = spawn(process.execPath, ["--enable-source-maps", SERVER_BUNDLE], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        // The ComfyUI adapter loads its workflows at start: a bundle without them would refuse to start.
        RENDER_PROVIDER: "comfyui",
        COMFYUI_URL: "http://127.0.0.1:9",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /is running at (http:\/\/[^\s"]+)/.exec(output)?.[1];
        if (found) resolve(found);
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.once("exit", (code) => reject(new Error(`the bundle exited (${code}):\n${output}`)));
    });
    const version = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ ok: true, db: "ok", version: version.version });
    // The landing page as the build pre-rendered it, in the language asked for, with its boot script.
    const landing = await (await fetch(`${url}/`, { headers: { "accept-language": "fr-FR" } })).text();
    expect(landing).toContain('data-prerendered="fr"');
    expect(landing).toContain("<script data-entry=");

    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("stopped cleanly");
  }, 90_000);
});
