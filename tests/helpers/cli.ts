/**
 * Runs one of the project's command-line scripts (scripts/*.ts through tsx) as its own process,
 * asynchronously. Tests host the server in their own process: a synchronous spawn (spawnSync,
 * execSync, execFileSync) would block that process's event loop, so the server could not answer
 * the CLI, nor keep its other connections alive, until the CLI ended.
 */
import { spawn } from "node:child_process";

export interface CliResult {
  /** The exit code (null when a signal ended the process). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The whole environment of the process (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The process is killed, and the run fails with its output so far, after this long (default 60 s). */
  timeoutMs?: number;
}

/** `node --import tsx <script> ...args` in the project's directory; resolves with its exit code and output, whatever the code. */
export function runScript(script: string, args: string[] = [], options: CliOptions = {}): Promise<CliResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} ${args.join(" ")} did not end within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
