/**
 * A rate-limited query's requests per second (decision 078): GET auth.resetLinkState, which counts one
 * request in the address's password-reset budget (in the database since decision 078) and reads one
 * token row, loaded as scripts/bench/api.ts loads account.profile (its load.ts, keep-alive connections,
 * a fixed time): once with the limit far above the load (every request counted and answered), once
 * with a limit of 1 (every request but the first refused, as in a flood). Prints one JSON line.
 *   npx tsx scripts/bench/rate-limited.ts
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchApp } from "./studio";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const here = path.dirname(fileURLToPath(import.meta.url));

function load(url: string): Promise<{ perSecond: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "load.ts"), url, "", String(CONNECTIONS), String(SECONDS)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`load process exited ${code}`));
      const result = JSON.parse(output) as { completed: number; failed: number; seconds: number };
      resolve({ perSecond: result.completed / result.seconds, failed: result.failed });
    });
  });
}

/** Requests per second of each round on a fresh app whose password-reset limit is `limit` a minute. */
async function measure(limit: string): Promise<{ rounds: number[]; refused: number }> {
  const bench = await startBenchApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: limit } });
  try {
    const input = encodeURIComponent(JSON.stringify({ json: { token: "no-such-token" } }));
    const url = `${bench.url}/trpc/auth.resetLinkState?input=${input}`;
    const rounds: number[] = [];
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await load(url);
      rounds.push(Math.round(result.perSecond));
      refused += result.failed;
    }
    return { rounds, refused };
  } finally {
    await bench.close();
  }
}

// Let through (each request counted), then refused (an address over its limit: a flood).
const counted = await measure("100000000");
const refused = await measure("1");
process.stdout.write(`${JSON.stringify({ route: "auth.resetLinkState", connections: CONNECTIONS, seconds: SECONDS, counted, refused })}\n`);
