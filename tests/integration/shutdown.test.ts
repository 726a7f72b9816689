import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import express from "express";
import { describe, expect, it } from "vitest";
import { listen } from "../../src/server/http/listen";
import { makeTempDir } from "../helpers/test-env";

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("graceful shutdown", () => {
  it("stops accepting, lets an in-flight request finish, then closes", async () => {
    const app = express();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    app.get("/slow", async (_req, res) => {
      arrived();
      await released;
      res.send("finished");
    });
    const server = await listen(app, 0, "127.0.0.1");

    const inFlight = get(`${server.url}/slow`);
    await requestArrived;
    let closed = false;
    const closing = server.close(5000).then(() => (closed = true));

    // New connections are refused while the slow request is still being answered.
    await expect(get(`${server.url}/slow`)).rejects.toThrow(/ECONNREFUSED/);
    expect(closed).toBe(false);

    release();
    expect(await inFlight).toEqual({ status: 200, body: "finished" });
    await closing;
    expect(closed).toBe(true);
  });

  it("cuts requests still open after the timeout", async () => {
    const app = express();
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    app.get("/hang", () => {
      arrived();
      // never answers
    });
    const server = await listen(app, 0, "127.0.0.1");
    const hanging = get(`${server.url}/hang`).catch((error: Error) => error);
    // Closed once the request is in (not 50 ms later, which a busy machine may not have reached).
    await requestArrived;
    await server.close(100);
    // The server cut the connection: the client sees it reset, without an answer.
    expect(await hanging).toMatchObject({ code: "ECONNRESET", message: "socket hang up" });
  });

  // The server as its own tsx process here and below: its start-up grows with the machine's load (60 s).
  it("the server process exits 0 on SIGTERM and closes the database cleanly", async () => {
    const dataDir = makeTempDir();
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info", NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", () => {
        const match = output.match(/is running at (http:\/\/[^\s"]+)/);
        if (match) resolve(match[1]!);
      });
      child.on("exit", () => reject(new Error(`server exited early:\n${output}`)));
    });
    expect((await get(`${url}/healthz`)).status).toBe(200);

    const exitCode = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exitCode).toBe(0);
    expect(output).toContain("stopped cleanly");
    // A cleanly closed WAL database checkpoints and removes its -wal file.
    expect(fs.existsSync(path.join(dataDir, "app.db"))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "app.db-wal"))).toBe(false);
  }, 60_000);

  it("a bad environment value stops the process with a message naming the variable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      env: { ...process.env, PORT: "not-a-port", DATA_DIR: makeTempDir() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(exitCode).toBe(1);
    expect(stderr).toContain('PORT: expected a port number between 0 and 65535 (got "not-a-port")');
  }, 60_000);
});
