/**
 * Exterior photos (issue 33): a photo marked "exterior" is offered a blue sky, a twilight shot and a
 * garden refresh, and only those, on AI engines (OpenAI's and ComfyUI's fakes: each mode's prompt
 * reaches the request); the Preview engine cannot make them, says so in the user's words and charges
 * nothing; an interior photo is never offered them; a listing export of one names the change in its
 * default disclosure.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, readMessage } from "../../src/shared/messages";
import { DEFAULT_DISCLOSURES } from "../../src/shared/listing";
import { translations } from "../../src/client/i18n/resources";
import { failure } from "../helpers/failure";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { confirmedClient, roomPhoto, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

describe("exteriors on the Preview engine", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("are refused before anything is charged, with a message saying an AI engine is needed, in three languages", async () => {
    const user = await confirmedClient(server);
    const house = await upload(server.url, user.jar, await roomPhoto(1200, 800), { roomType: "exterior" });
    expect(house.status).toBe(201);
    const before = (await user.client.account.profile.query()).credits;
    for (const renderMode of ["sky", "twilight", "garden", "redesign"] as const) {
      const refused = failure(
        await user.client.render.create
          .mutate({ projectId: house.body.projectId, imageId: house.body.imageId, style: "modern", renderMode })
          .catch((error: unknown) => error),
      );
      expect(refused.message, renderMode).toBe(MESSAGES.exteriorNeedsAi);
    }
    expect((await user.client.account.profile.query()).credits).toBe(before);
    expect(await user.client.render.list.query({ limit: 10 })).toEqual([]);
    expect(readMessage(MESSAGES.exteriorNeedsAi)?.key).toBe("exteriorNeedsAi");
    for (const language of ["es", "fr"] as const) {
      const text = (translations[language] as { serverMessages: Record<string, string> }).serverMessages.exteriorNeedsAi;
      expect(text).toBeTruthy();
      expect(text).not.toBe(MESSAGES.exteriorNeedsAi);
    }
    // The engine's offer has no exterior mode.
    expect((await user.client.render.allowance.query()).engine.capabilities.modes).toEqual(["redesign"]);
  });
});

describe("exteriors on AI engines", () => {
  let openAi: FakeOpenAi;
  let comfy: FakeComfyUi;
  beforeAll(async () => {
    openAi = await startFakeOpenAi();
    comfy = await startFakeComfyUi();
    comfy.script({ steps: 2, stepDelayMs: 5 });
  });
  afterAll(async () => {
    await openAi.close();
    await comfy.close();
  });

  const PROMPTS = {
    sky: "with the overcast or dull sky replaced by a clear blue sky",
    twilight: "at dusk: a deep blue twilight sky",
    garden: "with the garden refreshed: a healthy, evenly green and mown lawn",
  } as const;

  it.each(["openai", "comfyui"] as const)(
    "on %s: each mode's prompt reaches the engine, for a credit; an interior photo is refused them",
    async (engine) => {
      const server = await startTestServer(
        engine === "openai"
          ? { RENDER_PROVIDER: "openai", OPENAI_API_KEY: openAi.apiKey, OPENAI_API_URL: openAi.url }
          : { RENDER_PROVIDER: "comfyui", COMFYUI_URL: comfy.url },
      );
      try {
        const user = await confirmedClient(server);
        const { engine: offer } = await user.client.render.allowance.query();
        expect(offer.capabilities.modes).toEqual(expect.arrayContaining(["redesign", "sky", "twilight", "garden"]));
        expect(offer.tasks.exterior).toEqual([engine]);
        const house = await upload(server.url, user.jar, await roomPhoto(1200, 800), { roomType: "exterior" });
        const before = (await user.client.account.profile.query()).credits;
        for (const renderMode of ["sky", "twilight", "garden"] as const) {
          const { jobs } = await user.client.render.create.mutate({
            projectId: house.body.projectId,
            imageId: house.body.imageId,
            style: "modern",
            renderMode,
          });
          await waitForRenders(user, [jobs[0]!.id]);
          const sent = engine === "openai" ? String(openAi.requests.at(-1)!.fields.prompt) : JSON.stringify(comfy.queued().at(-1)!.json);
          expect(sent, renderMode).toContain(PROMPTS[renderMode]);
          expect(sent).toContain("Keep the house, its roof, walls, windows, doors");
          expect(await user.client.render.job.query({ id: jobs[0]!.id })).toMatchObject({
            status: "succeeded",
            renderMode,
            engine: { id: engine },
          });
        }
        expect((await user.client.account.profile.query()).credits).toBe(before - 3);

        // An exterior is offered its own modes only; an interior photo never gets them.
        const refusedInterior = failure(
          await user.client.render.create
            .mutate({ projectId: house.body.projectId, imageId: house.body.imageId, style: "modern", renderMode: "stage" })
            .catch((error: unknown) => error),
        );
        expect(refusedInterior.message).toBe(MESSAGES.engineCannot);
        const room = await upload(server.url, user.jar, await roomPhoto(1200, 800), { roomType: "living-room" });
        const refusedSky = failure(
          await user.client.render.create
            .mutate({ projectId: room.body.projectId, imageId: room.body.imageId, style: "modern", renderMode: "sky" })
            .catch((error: unknown) => error),
        );
        expect(refusedSky.message).toBe(MESSAGES.engineCannot);
        expect((await user.client.account.profile.query()).credits).toBe(before - 3);

        // A listing export of a replaced sky says so by default (California's AB 723), in the export's language.
        const [sky] = (await user.client.render.list.query({ limit: 10 })).filter((job) => job.renderMode === "sky");
        const made = await user.client.listing.create.mutate({ jobId: sky!.id, language: "fr" });
        expect(made.disclosure).toBe(DEFAULT_DISCLOSURES.fr.sky);
        expect(made.disclosure).toBe("Image modifiée numériquement : ciel remplacé");
      } finally {
        await server.stop();
      }
    },
  );
});
