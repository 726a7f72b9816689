/**
 * Real server processes for the scale suite (tests/scale) and the benchmark (scripts/bench): each
 * instance is the production bundle (dist/server/main.mjs) run by this Node in a child process of
 * its own, with ROLE and the environment given, as `npm start` runs it on a host.
 *
 * The child's environment is the one given on top of a small base (PATH, HOME, NODE_ENV=production,
 * HOST=127.0.0.1, PORT=0, LOG_LEVEL=info, LOG_FORMAT=json, a DATA_DIR of its own): nothing of the
 * caller's environment leaks in, so that a test runner's NODE_ENV=test or TEST_DATABASE_URL never
 * changes what the instance does. With PORT=0 the server picks a free port and logs the address it
 * listens on; the launcher reads it from that line (or, when the logs are quieter than info, picks a
 * free port itself first). The instance is up when its GET /healthz answers 200.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { freePort } from "./free-port";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { buildServer, CLIENT_OUT_DIR, clientBuildIsStale, SERVER_BUNDLE, serverBuildIsStale } from "../build.mjs";

export interface InstanceOptions {
  /** A name for messages ("web-a", "worker-1"). */
  name: string;
  role: "web" | "worker" | "all";
  /** The instance's whole environment on top of the base (DATABASE_URL, APP_SECRET, STORAGE_URL, S3_*, ...). */
  env: Record<string, string>;
}

export interface RunningInstance {
  readonly name: string;
  /** http://127.0.0.1:<port>, the port it really listens on. */
  readonly url: string;
  readonly pid: number;
  /** Its stdout and stderr so far (the last megabyte), for failure messages. */
  output(): string;
  /** SIGTERM (a graceful stop); resolves when it has exited. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9); resolves when it has exited. */
  kill(): Promise<void>;
  /** Resolves with its exit code (or the signal that ended it) once it has exited. */
  readonly exited: Promise<number | NodeJS.Signals>;
}

/** The checkout the bundle belongs to (dist/server/main.mjs → the folder holding dist). */
const REPOSITORY = path.dirname(path.dirname(path.dirname(SERVER_BUNDLE)));
/** How long an instance has to answer GET /healthz with 200 after it was started. */
export const START_TIMEOUT_MS = 30_000;
/** The most output kept per instance. */
const OUTPUT_LIMIT = 1024 * 1024;

/** Builds dist/server/main.mjs when it is missing or older than the server's sources. */
export async function ensureServerBundle(): Promise<void> {
  if (serverBuildIsStale()) await buildServer();
}

/**
 * Makes dist/client, the web client the web instances serve (without it they serve the API only),
 * current: a copy of `currentBuild` when that build of the same sources is current (the tests' global
 * setup makes one per run), else built by scripts/build.mjs in a process of its own (Vite: slow).
 */
export async function ensureClientBuild(currentBuild?: string): Promise<void> {
  if (!clientBuildIsStale()) return;
  if (currentBuild && !clientBuildIsStale(currentBuild)) {
    fs.rmSync(CLIENT_OUT_DIR, { recursive: true, force: true });
    fs.cpSync(currentBuild, CLIENT_OUT_DIR, { recursive: true });
    return;
  }
  await promisify(execFile)(process.execPath, [path.join(REPOSITORY, "scripts/build.mjs"), "client"], { cwd: REPOSITORY });
}

/** The port main.ts's start-up line names ("… is running at http://127.0.0.1:PORT" or "health check at …"), if this line is it. */
function announcedPort(line: string): number | null {
  if (!/is running at |health check at /.test(line)) return null;
  const match = /https?:\/\/[^\s"/]+:(\d+)/.exec(line);
  return match ? Number(match[1]) : null;
}

const QUIET_LEVELS = new Set(["warn", "error", "silent"]);

/** The instances still running: a runner that ends without stopping them (a crash, a timeout's process.exit) takes them along. */
const living = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of living) child.kill("SIGKILL");
});

/**
 * Starts one instance; resolves once its /healthz answers 200. Rejects, with the instance's output,
 * when it exits first or is not healthy within START_TIMEOUT_MS (the process is killed then).
 */
export async function startInstance(options: InstanceOptions): Promise<RunningInstance> {
  const { name, role } = options;
  const ownDataDir = options.env.DATA_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), `roomcanvas-${name}-`));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ...options.env,
    ROLE: role,
  };
  // Quieter logs never name the port: choose a free one here instead.
  if (env.PORT === "0" && QUIET_LEVELS.has(env.LOG_LEVEL ?? "")) env.PORT = String(await freePort());
  const fixedPort = env.PORT === "0" ? null : Number(env.PORT);

  const child: ChildProcess = spawn(process.execPath, ["--enable-source-maps", SERVER_BUNDLE], {
    cwd: REPOSITORY,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) {
    const error = await new Promise<Error>((resolve) => child.once("error", resolve));
    throw new Error(`${name}: could not start ${process.execPath}: ${error.message}`);
  }
  const pid = child.pid;

  let output = "";
  let pending = "";
  let port: number | null = fixedPort;
  let portFound: () => void = () => {};
  const portKnown = new Promise<void>((resolve) => (portFound = resolve));
  if (port !== null) portFound();
  const keep = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output += text;
    if (output.length > OUTPUT_LIMIT) output = output.slice(output.length - OUTPUT_LIMIT);
    if (port !== null) return;
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const found = announcedPort(line);
      if (found !== null) {
        port = found;
        pending = "";
        portFound();
        return;
      }
    }
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);

  living.add(child);
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    child.once("exit", (code, signal) => {
      living.delete(child);
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
      resolve(signal ?? code ?? 0);
    });
  });
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const failure = (why: string) => new Error(`${name} (ROLE=${role}, pid ${pid}) ${why}; its output:\n${output.trim() || "(nothing)"}`);

  const deadline = Date.now() + START_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), START_TIMEOUT_MS)));
  const healthy = (async () => {
    await portKnown;
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
        await response.arrayBuffer();
        if (response.status === 200) return "healthy" as const;
      } catch {
        // not listening yet
      }
      if (Date.now() >= deadline || child.exitCode !== null || child.signalCode !== null) return "timeout" as const;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const outcome = await Promise.race([healthy, timedOut, exited.then((how) => ({ exited: how }))]);
  clearTimeout(timer);
  if (outcome !== "healthy") {
    if (typeof outcome === "object") throw failure(`exited (${outcome.exited}) before it was healthy`);
    await stopWith("SIGKILL");
    throw failure(`was not healthy within ${START_TIMEOUT_MS / 1000} s`);
  }

  return {
    name,
    url: `http://127.0.0.1:${port}`,
    pid,
    output: () => output,
    stop: () => stopWith("SIGTERM"),
    kill: () => stopWith("SIGKILL"),
    exited,
  };
}
