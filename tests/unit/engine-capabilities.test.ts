/**
 * What each engine declares it makes of a floor plan (decision 067), and that what it sends the
 * model for a plan asks for exactly that: the Preview engine makes nothing of one (it would only tint
 * the drawing); engines whose ControlNets hold the input's lines make a top view of the plan; the
 * instruction editors imagine an eye-level view. A plan gets one render mode, or none.
 */
import { describe, expect, it } from "vitest";
import { renderModesFor, type EngineCapabilities } from "../../src/shared/render";
import { COMFYUI_CAPABILITIES } from "../../src/server/render/engines/comfyui";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import { OPENAI_CAPABILITIES } from "../../src/server/render/engines/openai";
import { buildInstructionPrompt, buildNegativePrompt, buildPrompt } from "../../src/server/render/engines/prompt";
import { REPLICATE_RENDER_MODELS, renderPresetFor } from "../../src/server/render/engines/replicate-presets";
import { singleEngineSet } from "../../src/server/render/engines/routing";
import type { RenderRequest } from "../../src/server/render/engines/provider";

const planRequest: RenderRequest = {
  image: Buffer.alloc(0),
  width: 1024,
  height: 768,
  style: "scandinavian",
  roomType: "bedroom",
  mode: "floor-plan",
  signal: new AbortController().signal,
};

describe("what each engine makes of a floor plan", () => {
  it("the Preview engine makes nothing of one, and says so to the interface", () => {
    expect(PREVIEW_CAPABILITIES.floorPlan).toBe("none");
    expect(singleEngineSet(localProvider).info()).toMatchObject({ isAi: false, capabilities: { floorPlan: "none" } });
  });

  it("ComfyUI's shipped workflows (depth and lines ControlNets) make a top view; OpenAI's editor an eye-level view", () => {
    expect(COMFYUI_CAPABILITIES.floorPlan).toBe("top-down");
    expect(OPENAI_CAPABILITIES.floorPlan).toBe("eye-level");
  });

  it.each(REPLICATE_RENDER_MODELS)("the Replicate preset %s declares its plan view and asks its model for exactly that", (model) => {
    const preset = renderPresetFor(model);
    const expected: Record<string, EngineCapabilities["floorPlan"]> = {
      "adirik/interior-design": "top-down",
      "jagilley/controlnet-hough": "top-down",
      "black-forest-labs/flux-kontext-pro": "eye-level",
      "google/nano-banana": "eye-level",
      "google/nano-banana-2": "eye-level",
    };
    expect(preset.capabilities.floorPlan).toBe(expected[model]);
    const { prompt } = preset.input(planRequest, "data:image/png;base64,");
    if (preset.capabilities.floorPlan === "top-down") expect(prompt).toMatch(/top-down 3D render of this floor plan/);
    else expect(prompt).toMatch(/seen at eye level/);
  });
});

describe("the prompts for a plan", () => {
  const choices = { style: "modern", roomType: "living-room", mode: "floor-plan" } as const;

  it("a top view keeps the plan's viewpoint and does not forbid it", () => {
    expect(buildPrompt({ ...choices, planView: "top-down" })).toMatch(
      /^A photorealistic top-down 3D render of this floor plan of a living room/,
    );
    const negative = buildNegativePrompt("floor-plan", "redesign", "top-down");
    expect(negative).not.toMatch(/top-down view/);
    expect(negative).toMatch(/line drawing/);
  });

  it("an eye-level view (the default) stands inside the room and avoids the drawing's own look", () => {
    expect(buildPrompt(choices)).toMatch(/seen at eye level as if standing inside it/);
    expect(buildInstructionPrompt({ ...choices, planView: "eye-level" })).toMatch(/Avoid: .*top-down view/);
  });

  it("a room photo's prompt is the same whatever the engine makes of plans", () => {
    const photo = { ...choices, mode: "room-photo" } as const;
    expect(buildPrompt({ ...photo, planView: "top-down" })).toBe(buildPrompt(photo));
    expect(buildNegativePrompt("room-photo", "redesign", "top-down")).toBe(buildNegativePrompt("room-photo"));
  });
});

describe("the render modes offered for a picture", () => {
  const all = { modes: ["redesign", "stage", "declutter"] as const, floorPlan: "eye-level" as const };

  it("a room photo gets every mode the engine has", () => {
    expect(renderModesFor(all, "room-photo")).toEqual(["redesign", "stage", "declutter"]);
    expect(renderModesFor({ ...all, floorPlan: "none" }, "room-photo")).toEqual(["redesign", "stage", "declutter"]);
  });

  it("a plan gets one mode, or none when the engine makes nothing of it", () => {
    expect(renderModesFor(all, "floor-plan")).toEqual(["redesign"]);
    expect(renderModesFor({ ...all, floorPlan: "top-down" }, "floor-plan")).toEqual(["redesign"]);
    expect(renderModesFor(PREVIEW_CAPABILITIES, "floor-plan")).toEqual([]);
  });
});
