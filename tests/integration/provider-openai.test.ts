/** The OpenAI image-edits adapter against a fake OpenAI API on loopback that speaks the documented protocol. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { customStyleSnapshot } from "../helpers/custom-style";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOpenAiProvider, openAiSizeFor, type OpenAiProviderOptions } from "../../src/server/render/engines/openai";
import { PermanentRenderError, RetryableRenderError, type RenderRequest } from "../../src/server/render/engines/provider";
import { TransientRenderError } from "../../src/server/render/engines/replicate";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { waitUntil } from "../helpers/wait";

let room: Buffer;
let fake: FakeOpenAi;

beforeAll(async () => {
  room = await sharp({
    create: { width: 150, height: 100, channels: 3, background: "#8a6d4b", noise: { type: "gaussian", mean: 110, sigma: 25 } },
  })
    .jpeg()
    .toBuffer();
});

beforeEach(async () => {
  fake = await startFakeOpenAi();
});

afterEach(async () => {
  await fake.close();
});

function renderRequest(overrides: Partial<RenderRequest> = {}): RenderRequest {
  return {
    image: room,
    width: 1500,
    height: 1000,
    style: "industrial",
    roomType: "home-office",
    mode: "room-photo",
    prompt: " A standing desk facing the window ",
    signal: new AbortController().signal,
    ...overrides,
  };
}

function provider(overrides: Partial<OpenAiProviderOptions> = {}) {
  return createOpenAiProvider({ apiKey: fake.apiKey, model: "gpt-image-1", baseUrl: fake.url, ...overrides });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

describe("the OpenAI adapter", () => {
  it("sends the documented multipart edit and returns the decoded JPEG", async () => {
    const progress: number[] = [];
    const openai = provider();
    const result = await openai.render(renderRequest({ onProgress: (fraction) => progress.push(fraction) }));

    expect(openai.id).toBe("openai");
    expect(openai.label).toBe("OpenAI (gpt-image-1)");
    expect(result.mime).toBe("image/jpeg");
    expect(result.model).toBe("gpt-image-1");
    expect(result.seed).toBeUndefined();
    const metadata = await sharp(result.image).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: "jpeg",
      width: 1536,
      height: 1024,
    });
    // Phases only: OpenAI says nothing about how far it is.
    expect(progress).toEqual([0, 1]);

    expect(fake.requests).toHaveLength(1);
    const [edit] = fake.requests;
    expect(edit?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(edit?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(edit?.fields).toMatchObject({
      model: "gpt-image-1",
      n: "1",
      size: "1536x1024",
      quality: "medium",
      output_format: "jpeg",
      input_fidelity: "high",
    });
    expect(edit?.fields.prompt).toContain("exposed brick");
    expect(edit?.fields.prompt).toContain("home office");
    expect(edit?.fields.prompt).toMatch(/keep the walls, windows, doors and room layout/i);
    expect(edit?.fields.prompt).toContain("The client also asks: A standing desk facing the window");
    expect(edit?.image).toMatchObject({ name: "image.jpg", type: "image/jpeg" });
    expect(edit?.image?.bytes.equals(room)).toBe(true);
  });

  it("reports what it sent with the picture: the prompt, the size, quality and input fidelity, and the model", async () => {
    const result = await provider().render(renderRequest({ renderMode: "stage", width: 900, height: 1600 }));
    const [edit] = fake.requests;
    expect(result.model).toBe("gpt-image-1");
    expect(result.prompt).toBe(edit?.fields.prompt);
    expect(result.prompt).toContain("virtually staged");
    expect(result.prompt).toContain("The client also asks: A standing desk facing the window");
    expect(result.prompt).toMatch(/ Avoid: .*empty room, bare floor\.$/);
    expect(result.parameters).toEqual({ size: "1024x1536", quality: "medium", input_fidelity: "high" });
    expect(edit?.fields).toMatchObject({ size: "1024x1536", quality: "medium", input_fidelity: "high" });
    expect(result.seed).toBeUndefined();
    expect(result.modelVersion).toBeUndefined();
  });

  it("sends a custom style's description in the prompt and what it avoids in the prompt's Avoid (issue 32)", async () => {
    const snapshot = customStyleSnapshot();
    const result = await provider().render(renderRequest({ style: snapshot.id, styleSnapshot: snapshot }));
    const [edit] = fake.requests;
    expect(edit?.fields.prompt).toContain(`redesigned in the "Casa Azul" style: ${snapshot.description}.`);
    expect(edit?.fields.prompt).toMatch(/ Avoid: .*oversaturated, chrome, glossy plastic\.$/);
    // Not a built-in style's words.
    expect(edit?.fields.prompt).not.toContain("exposed brick");
    expect(result.prompt).toBe(edit?.fields.prompt);
  });

  it("picks the output size from the photo's shape", async () => {
    expect(openAiSizeFor(1000, 1000)).toBe("1024x1024");
    expect(openAiSizeFor(1080, 1000)).toBe("1024x1024");
    expect(openAiSizeFor(1000, 1080)).toBe("1024x1024");
    expect(openAiSizeFor(1200, 1000)).toBe("1536x1024");
    expect(openAiSizeFor(800, 1200)).toBe("1024x1536");

    const portrait = await provider().render(renderRequest({ width: 900, height: 1600 }));
    expect(await sharp(portrait.image).metadata()).toMatchObject({ width: 1024, height: 1536 });
    expect(fake.requests.at(-1)?.fields.size).toBe("1024x1536");
  });

  it("answers 429 with a retryable error carrying Retry-After, and the retry succeeds", async () => {
    fake.script({
      replies: [
        {
          status: 429,
          headers: { "retry-after": "20" },
          body: JSON.stringify({ error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" } }),
        },
      ],
    });
    const openai = provider();
    const error = await rejection(openai.render(renderRequest()));
    expect(error).toBeInstanceOf(RetryableRenderError);
    expect((error as TransientRenderError).retryAfterMs).toBe(20_000);
    const result = await openai.render(renderRequest());
    expect(result.mime).toBe("image/jpeg");
    expect(fake.requests).toHaveLength(2);
  });

  it("answers 5xx and network failures with a retryable error", async () => {
    fake.script({ replies: [{ status: 500 }, { status: 503 }] });
    for (const status of [500, 503]) {
      const error = await rejection(provider().render(renderRequest()));
      expect(error).toBeInstanceOf(TransientRenderError);
      expect(error.message).toBe(`The render engine is unavailable (HTTP ${status})`);
    }

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await rejection(provider({ baseUrl: `http://127.0.0.1:${port}` }).render(renderRequest()));
    expect(unreachable).toBeInstanceOf(TransientRenderError);
    expect(unreachable.message).toBe("The render engine could not be reached");
  });

  it("says the key was refused on 401, and passes on OpenAI's reason for a 400", async () => {
    const refused = await rejection(provider({ apiKey: "sk-wrong" }).render(renderRequest()));
    expect(refused.message).toBe("The render engine refused the API key");
    expect(refused).toBeInstanceOf(PermanentRenderError);

    const safety = "Your request was rejected as a result of our safety system.";
    fake.script({
      replies: [
        {
          status: 400,
          body: JSON.stringify({
            error: { message: safety, type: "image_generation_user_error", param: null, code: "moderation_blocked" },
          }),
        },
      ],
    });
    const rejected = await rejection(provider().render(renderRequest()));
    expect(rejected.message).toBe(`The render engine refused the request: ${safety}`);
    expect(rejected).toBeInstanceOf(PermanentRenderError);
  });

  it("fails for good on a malformed answer", async () => {
    for (const answer of ["malformed-json", "no-data", "not-base64", "not-an-image"] as const) {
      fake.script({ answer });
      const error = await rejection(provider().render(renderRequest()));
      expect(error.message, answer).toBe("The render engine returned an unexpected answer");
      expect(error).toBeInstanceOf(PermanentRenderError);
    }
  });

  it("stops a slow request when the signal aborts", async () => {
    fake.script({ replies: ["hang"] });
    const controller = new AbortController();
    const rendering = rejection(provider().render(renderRequest({ signal: controller.signal })));
    // Aborted once the fake holds the request, not after a delay a busy machine may outlast.
    await waitUntil(() => fake.requests.length, { until: (requests) => requests === 1, message: "the hanging request" });
    const abortedAt = Date.now();
    controller.abort();
    const error = await rendering;
    expect(error.name).toBe("AbortError");
    expect(Date.now() - abortedAt).toBeLessThan(2000);

    const already = new AbortController();
    already.abort();
    expect((await rejection(provider().render(renderRequest({ signal: already.signal })))).name).toBe("AbortError");
    expect(fake.requests).toHaveLength(1);
  });
});
