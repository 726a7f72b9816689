/**
 * `npm run dev`: the Vite dev server (hot module replacement) on PORT (default 3000) proxying the
 * API to the Node server on DEV_API_PORT (default 3001), which restarts whenever its sources change.
 */
import { spawn, type ChildProcess } from "node:child_process";

const port = process.env.PORT ?? "3000";
const apiPort = process.env.DEV_API_PORT ?? "3001";
const children: ChildProcess[] = [];

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  child.on("exit", (code) => {
    for (const other of children) if (other !== child) other.kill("SIGTERM");
    process.exit(code ?? 0);
  });
  children.push(child);
}

run("npx", ["tsx", "watch", "--clear-screen=false", "--exclude", "src/client/**", "src/server/main.ts"], {
  NODE_ENV: "development",
  PORT: apiPort,
  HOST: "127.0.0.1",
});
run("npx", ["vite", "--port", port, "--strictPort"], { DEV_API_PORT: apiPort });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
