/**
 * Subscribers of render events in a separate Node process (this file with --clients), so that the
 * server under test keeps its CPU: the parent opens subscriptions (render.events over SSE, with the
 * given cookies and input) and later collects every event id received with the time it arrived, on
 * the machine's clock (wallNow), the same in every process. Used by events.ts and scale.ts.
 */
import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import superjson from "superjson";
import type { Unsubscribable } from "@trpc/server/observable";
import type { RenderEvent } from "../../src/shared/render";
import { CookieJar, createStudioClient, type StudioClient } from "../lib/studio-client";

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
/** The machine's clock in ms with sub-millisecond steps, the same in both processes. */
export const wallNow = () => performance.timeOrigin + performance.now();

/** One subscription the client process opens: whose cookies, and render.events' input. */
export interface Subscription {
  cookie: string;
  input: { jobId?: string; lastEventId: string | null };
}

type ToClients =
  | { type: "subscribe"; url: string; subscriptions: Subscription[] }
  | { type: "collect"; ids: number[]; expected: number; timeoutMs: number };
type FromClients =
  | { type: "started"; count: number }
  | { type: "error"; message: string }
  | { type: "receipts"; ids: number[]; times: number[]; types: string[]; cpuMs: number };

// ————— the client process —————

/**
 * BENCH_CLIENT=trpc: each subscription through the app's tRPC client (httpSubscriptionLink over the
 * eventsource package), as the tests do. The default, raw: a plain HTTP request for the same URL
 * that only splits the frames and reads their id: a browser's EventSource parses in its own
 * process, so the client process should not take the server's CPU (1,000 tRPC clients in one
 * Node process cost several seconds of CPU on this 2-core machine).
 */
export const CLIENT = process.env.BENCH_CLIENT === "trpc" ? "trpc" : "raw";

function rawSubscription(
  url: string,
  cookie: string,
  input: Subscription["input"],
  onStarted: () => void,
  onEvent: (id: number, type: string) => void,
  onRefused: (why: string) => void,
): Unsubscribable {
  const query = encodeURIComponent(JSON.stringify(superjson.serialize(input)));
  const request = http.get(`${url}/trpc/render.events?input=${query}`, { headers: { cookie, accept: "text/event-stream" } }, (response) => {
    if (response.statusCode !== 200) onRefused(`the server answered ${response.statusCode}`);
    response.setEncoding("utf8");
    let buffer = "";
    response.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end).replace(/^\n+/, "");
        buffer = buffer.slice(end + 2);
        if (block.startsWith("event: connected")) onStarted();
        const idAt = block.lastIndexOf("\nid: ");
        if (idAt >= 0) onEvent(Number(block.slice(idAt + 5)), "");
      }
    });
  });
  request.on("error", () => undefined);
  return { unsubscribe: () => request.destroy() };
}

export async function clientProcess(): Promise<void> {
  const send = (message: FromClients) => process.send!(message);
  const ids: number[] = [];
  const times: number[] = [];
  const types: string[] = [];
  const open: Unsubscribable[] = [];
  const clients = new Map<string, StudioClient>();
  let started = 0;
  const received = (id: number, type: string) => {
    times.push(wallNow());
    ids.push(id);
    types.push(type);
  };
  process.on("message", (message: ToClients) => {
    if (message.type === "subscribe") {
      for (const { cookie, input } of message.subscriptions) {
        if (CLIENT === "raw") {
          open.push(
            rawSubscription(
              message.url,
              cookie,
              input,
              () => send({ type: "started", count: ++started }),
              received,
              (why) => send({ type: "error", message: why }),
            ),
          );
          continue;
        }
        let studio = clients.get(cookie);
        if (!studio) {
          const jar = new CookieJar();
          for (const pair of cookie.split("; ")) {
            const [name, ...value] = pair.split("=");
            jar.cookies.set(name!, value.join("="));
          }
          studio = createStudioClient(message.url, jar);
          clients.set(cookie, studio);
        }
        open.push(
          studio.client.render.events.subscribe(input, {
            onStarted: () => send({ type: "started", count: ++started }),
            onData: (tracked) => received(Number(tracked.id), (tracked.data as RenderEvent).type),
            onError: (error) => send({ type: "error", message: String(error) }),
          }),
        );
      }
    } else {
      // Only the events published while the parent recorded count (an earlier render's late "scored" event may come too).
      const wanted = new Set(message.ids);
      let counted = 0;
      let scanned = 0;
      const deadline = Date.now() + message.timeoutMs;
      const finish = () => {
        for (const subscription of open) subscription.unsubscribe();
        // Exits once the (large) message is handed over, not before.
        const used = process.cpuUsage();
        const cpuMs = (used.user + used.system) / 1000;
        process.send!({ type: "receipts", ids, times, types, cpuMs } satisfies FromClients, () => process.exit(0));
      };
      const poll = () => {
        for (; scanned < ids.length; scanned++) if (wanted.has(ids[scanned]!)) counted++;
        if (counted >= message.expected || Date.now() > deadline) finish();
        else setTimeout(poll, 20);
      };
      poll();
    }
  });
}

export class Clients {
  private readonly child: ChildProcess;
  started = 0;
  failure: string | undefined;
  private receipts: ((value: Extract<FromClients, { type: "receipts" }>) => void) | undefined;

  constructor() {
    this.child = fork(fileURLToPath(import.meta.url), ["--clients"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
    this.child.on("message", (message: FromClients) => {
      if (message.type === "started") this.started = message.count;
      else if (message.type === "error") this.failure ??= message.message;
      else this.receipts?.(message);
    });
  }

  /**
   * Opens the subscriptions on the server at `url`; resolves once every one has started and, when the
   * server runs in this process, `serverHasThem` says it counts them (then a quarter of a second more).
   */
  async subscribe(url: string, subscriptions: Subscription[], serverHasThem: () => boolean = () => true): Promise<void> {
    this.child.send({ type: "subscribe", url, subscriptions } satisfies ToClients);
    const deadline = performance.now() + 120_000;
    while (this.started < subscriptions.length || !serverHasThem()) {
      if (this.failure) throw new Error(`a subscription failed: ${this.failure}`);
      if (performance.now() > deadline) throw new Error(`only ${this.started} of ${subscriptions.length} subscribers connected`);
      await sleep(20);
    }
    await sleep(250);
  }

  /** Resolves when the client process has received `expected` deliveries of the events `ids` (or after the timeout). */
  collect(ids: number[], expected: number, timeoutMs = 20_000): Promise<Extract<FromClients, { type: "receipts" }>> {
    return new Promise((resolve, reject) => {
      this.receipts = resolve;
      this.child.once("exit", (code) => reject(new Error(`the client process exited (${code}) before it reported`)));
      this.child.send({ type: "collect", ids, expected, timeoutMs } satisfies ToClients);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      setTimeout(() => this.child.kill(), 5_000).unref();
      await exited;
    }
  }
}

if (process.argv.includes("--clients")) await clientProcess();
