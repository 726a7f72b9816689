/**
 * Runs the load process (load.ts) against one URL: requests per second, their latency, and this
 * process's CPU time (all threads) per completed request. The servers under test run in the
 * benchmark's process and the load in its own, so that CPU is the server's, a steadier figure than
 * req/s on a busy machine.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export interface LoadResult {
  perSecond: number;
  /** This process's CPU (user + system, all threads) per completed request, in µs. */
  cpuMicros: number;
  completed: number;
  failed: number;
  seconds: number;
  /** Latency percentiles of the completed requests, in ms. */
  p50Ms: number;
  p99Ms: number;
}

export function runLoad(url: string, cookie: string, options: { connections: number; seconds: number }): Promise<LoadResult> {
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(here, "load.ts"), url, cookie, String(options.connections), String(options.seconds)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`load process exited ${code}`));
      const result = JSON.parse(output) as { completed: number; failed: number; seconds: number; p50Ms: number; p99Ms: number };
      const cpu = process.cpuUsage(cpuBefore);
      resolve({
        ...result,
        perSecond: result.completed / result.seconds,
        cpuMicros: (cpu.user + cpu.system) / result.completed,
      });
    });
  });
}
