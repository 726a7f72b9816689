/**
 * A tRPC subscription read as the browser's EventSource reads it: GET /trpc/<path>?input=… with the
 * caller's cookies and `accept: text/event-stream`, the raw text kept as it comes.
 *
 * It resolves at tRPC's "connected" frame, which tRPC writes BEFORE the procedure checks access: a
 * refused stream's error frame comes after it. Tests of refusals wait for that frame themselves.
 */
import { performance } from "node:perf_hooks";
import superjson from "superjson";
import { expect } from "vitest";
import type { RenderEvent } from "../../src/shared/render";
import type { StudioClient } from "./render";

/** An open event stream; `ended` resolves with the time (performance.now) it closed. */
export interface OpenStream {
  text: () => string;
  /** Its data frames (render events, with their ids), parsed on demand. */
  frames: () => Array<{ id: number; event: RenderEvent }>;
  ended: Promise<number>;
  close: () => void;
}

export async function openTrpcStream(
  baseUrl: string,
  who: Pick<StudioClient, "jar">,
  path: string,
  input: Record<string, string> = {},
): Promise<OpenStream> {
  const controller = new AbortController();
  // Always sent, even empty: render.events' input is an object, and no input at all is refused.
  const query = `?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
  const response = await who.jar.fetch(`${baseUrl}/trpc/${path}${query}`, {
    headers: { accept: "text/event-stream" },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let connected!: () => void;
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (text.includes("event: connected")) connected();
      }
    } catch {
      // the connection was cut: that is an end too
    }
    return performance.now();
  })();
  await Promise.race([isConnected, ended]);
  expect(text).toContain("event: connected");
  expect(text).not.toContain("error");
  const frames = () =>
    text
      .split("\n\n")
      .map((block) => /^data: (.*)\nid: (\d+)$/m.exec(block.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ id: Number(match[2]), event: superjson.deserialize<RenderEvent>(JSON.parse(match[1]!) as never) }));
  return { text: () => text, frames, ended, close: () => controller.abort() };
}
