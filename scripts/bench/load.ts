/**
 * The API benchmarks' load: run in its own process (so the server under test has the event loop to
 * itself), it keeps `connections` keep-alive connections busy with GET `path` for `seconds` and
 * prints one JSON line: completed requests, non-200 answers, elapsed seconds, and the latency of the
 * requests (p50, p99, in ms: request sent → response's last byte). `runLoad` (http-load.ts) starts it.
 *
 *   node --import tsx scripts/bench/load.ts <url> <cookie> <connections> <seconds>
 */
import http from "node:http";
import { percentile } from "./stats";

const [url = "", cookie = "", connectionsArg = "16", secondsArg = "5"] = process.argv.slice(2);
const connections = Number(connectionsArg);
const durationMs = Number(secondsArg) * 1000;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

let completed = 0;
let failed = 0;
const latencies: number[] = [];

function once(): Promise<void> {
  return new Promise((resolve) => {
    const sent = performance.now();
    const request = http.get(url, { agent, headers: { cookie } }, (response) => {
      if (response.statusCode !== 200) failed++;
      response.resume();
      response.on("end", () => {
        completed++;
        latencies.push(performance.now() - sent);
        resolve();
      });
    });
    request.on("error", () => {
      failed++;
      resolve();
    });
  });
}

async function worker(deadline: number): Promise<void> {
  while (performance.now() < deadline) await once();
}

const start = performance.now();
await Promise.all(Array.from({ length: connections }, () => worker(start + durationMs)));
const seconds = (performance.now() - start) / 1000;
agent.destroy();
const p50Ms = percentile(latencies, 50);
const p99Ms = percentile(latencies, 99);
process.stdout.write(`${JSON.stringify({ completed, failed, seconds, p50Ms, p99Ms })}\n`);
