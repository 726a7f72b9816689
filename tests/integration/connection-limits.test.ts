/**
 * What one client may hold of the server (issue 27, probe finding 11; decision 063): slow headers are cut
 * after HTTP_HEADERS_TIMEOUT_MS, a body dribbled below HTTP_BODY_MIN_BYTES_PER_SECOND is cut, an honest
 * slow upload at a steady modest rate goes through, and an address past HTTP_MAX_CONNECTIONS_PER_ADDRESS
 * is refused while other addresses are served. Short limits keep the test to seconds; every pace below is
 * derived from them, and every wait is for an event (a close, an answer), never for a margin.
 */
import net from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/server/logger";
import { MESSAGES } from "../../src/shared/messages";
import { UPLOAD_ENDPOINT } from "../../src/shared/render";
import { drawRoom, ROOMS } from "../helpers/rooms";
import { startTestServer, type TestServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

interface RawAnswer {
  /** Everything the server sent before it closed the connection. */
  text: string;
  status: number;
  /** Milliseconds from the first byte sent to the close. */
  ms: number;
}

/**
 * A raw connection (from `localAddress`) that sends `head`, then calls `pace` until the server closes
 * it; resolves with what the server sent.
 */
function rawExchange(
  server: TestServer,
  head: string,
  pace?: (socket: net.Socket) => Promise<void>,
  localAddress = "127.0.0.1",
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: server.http.port, host: "127.0.0.1", localAddress });
    const chunks: Buffer[] = [];
    let started = 0;
    let closed = false;
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // Writes after the server closed fail with EPIPE or ECONNRESET: the close is what is awaited.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ text, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), ms: performance.now() - started });
    });
    socket.on("connect", () => {
      started = performance.now();
      socket.write(head);
      if (pace) {
        void (async () => {
          while (!closed && !socket.destroyed) await pace(socket);
        })().catch(reject);
      }
    });
  });
}

describe("slow clients", () => {
  let server: TestServer;
  const warnings: string[] = [];
  // Short limits, so that the test takes seconds; the test reads them back from the server's environment.
  beforeAll(async () => {
    const log = createLogger("warn", { destination: { write: (line: string) => void warnings.push(line) } });
    server = await startTestServer({ HTTP_HEADERS_TIMEOUT_MS: "600", HTTP_BODY_MIN_BYTES_PER_SECOND: "20000" }, { log });
  });
  afterAll(async () => {
    await server.stop();
  });
  const headersTimeoutMs = () => server.deps.env.HTTP_HEADERS_TIMEOUT_MS;
  const minRate = () => server.deps.env.HTTP_BODY_MIN_BYTES_PER_SECOND;

  it("cuts a client that sends its headers slowly, after the header timeout (408)", async () => {
    // A byte every tenth of the timeout: headers that never end.
    const answer = await rawExchange(server, `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: `, async (socket) => {
      socket.write("a");
      await sleep(headersTimeoutMs() / 10);
    });
    expect(answer.status).toBe(408);
    expect(answer.ms).toBeGreaterThanOrEqual(headersTimeoutMs() - 1);
  });

  it("cuts a body dribbled below the minimum rate (408, in the user's words) and says so in the log", async () => {
    // One byte every tenth of the window: a hundredth of the minimum rate or less.
    const head = `POST ${UPLOAD_ENDPOINT} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n`;
    const answer = await rawExchange(server, head, async (socket) => {
      socket.write("x");
      await sleep(headersTimeoutMs() / 10);
    });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4))).toEqual({ error: MESSAGES.requestTooSlow });
    expect(answer.ms).toBeGreaterThanOrEqual(headersTimeoutMs() - 1);
    expect(warnings.join("")).toContain("request body arriving too slowly");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("lets an honest slow upload through: a photo over many windows at a steady rate a few times the minimum", async () => {
    const photo = await drawRoom(ROOMS[0]!, 1600, 1200);
    // Four times the minimum rate, in pieces sent every twentieth of a window.
    const step = headersTimeoutMs() / 20;
    const piece = Math.ceil((4 * minRate() * step) / 1000);
    // Long enough to cross several windows at that pace.
    expect(photo.length / piece).toBeGreaterThan(20 * 4);
    let sent = 0;
    const head = `POST ${UPLOAD_ENDPOINT} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\nContent-Type: image/jpeg\r\nContent-Length: ${photo.length}\r\nConnection: close\r\n\r\n`;
    const answer = await rawExchange(server, head, async (socket) => {
      if (sent < photo.length) {
        socket.write(photo.subarray(sent, sent + piece));
        sent += piece;
      }
      await sleep(step);
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4))).toMatchObject({
      imageId: expect.any(String),
      width: 1600,
      height: 1200,
    });
  });
});

describe("connections per address", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "3" });
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Connections that have sent nothing yet, open until the test closes them. */
  const idle: net.Socket[] = [];
  const openIdle = (localAddress: string) =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect({ port: server.http.port, host: "127.0.0.1", localAddress }, () => resolve(socket));
      socket.on("error", reject);
      idle.push(socket);
    });
  afterAll(() => idle.forEach((socket) => socket.destroy()));

  const get = (localAddress: string) =>
    rawExchange(server, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", undefined, localAddress);

  it("refuses an address's connections past the cap (429) while other addresses are served, and takes it back once one closes", async () => {
    const cap = server.deps.env.HTTP_MAX_CONNECTIONS_PER_ADDRESS;
    const held = await Promise.all(Array.from({ length: cap }, () => openIdle("127.0.0.1")));
    // The server accepts connections in the order they came: this one comes after the cap's.
    const refused = await get("127.0.0.1");
    expect(refused.status).toBe(429);
    expect(refused.text).toContain(JSON.stringify({ error: MESSAGES.tooManyRequests }));
    // Refused before the HTTP parser: the app never answers it.
    expect(refused.text).not.toContain("HTTP/1.1 200");
    expect((await get("127.0.0.2")).status).toBe(200);
    held[0]!.destroy();
    await waitUntil(async () => (await get("127.0.0.1")).status, {
      message: "127.0.0.1 to be served again",
      until: (status) => status === 200,
    });
  });
});

describe("connections from a trusted proxy", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "2", TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("are not capped: they carry many clients", async () => {
    const cap = server.deps.env.HTTP_MAX_CONNECTIONS_PER_ADDRESS;
    const sockets = await Promise.all(
      Array.from(
        { length: cap + 2 },
        () =>
          new Promise<net.Socket>((resolve) =>
            net.connect({ port: server.http.port, host: "127.0.0.1" }, function (this: net.Socket) {
              resolve(this);
            }),
          ),
      ),
    );
    const answer = await rawExchange(server, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    sockets.forEach((socket) => socket.destroy());
    expect(answer.status).toBe(200);
  });
});
