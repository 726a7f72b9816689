/**
 * /admin → Studio → Engines per task in a browser (issue 30, decision 088): the admin lists OpenAI
 * then the Preview engine for renders, only engines set up and able are offered per task, the save
 * applies at once, and each engine's state is shown. Screenshots: desktop light, phone dark.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeBrowser, screenshot, signIn, useBrowsers } from "../helpers/browser";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

describeBrowser("engines per task in /admin", () => {
  let openai: FakeOpenAi;
  let server: TestServer;
  let problems: string[] = [];

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: "sk-engine-routing-browser" });
    server = await startTestServer({ OPENAI_API_KEY: "sk-engine-routing-browser", OPENAI_API_URL: openai.url });
  });
  afterAll(async () => {
    await server?.stop();
    await openai?.close();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  const { launch } = useBrowsers();

  async function studioPage(size: { width: number; height: number }, colorScheme: "light" | "dark") {
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    const opened = await launch({ ...size, colorScheme });
    problems = opened.problems;
    await signIn(opened.page, server.url, admin.email, { to: "/admin?section=studio" });
    await poll(() => opened.page.getByTestId("admin-studio-routes").isVisible()).toBe(true);
    return { admin, page: opened.page };
  }

  it("lists the render task's engines in order and offers only able engines (desktop light)", async () => {
    const { admin, page } = await studioPage({ width: 1366, height: 900 }, "light");
    const routes = page.getByTestId("admin-studio-routes");
    await routes.scrollIntoViewIfNeeded();
    // Staging: only OpenAI can (the Preview engine cannot stage); upscaling: no engine here can.
    expect(await page.getByTestId("admin-routes-stage").getByLabel("Choice 1").locator("option").allTextContents()).toEqual([
      "None",
      "OpenAI (hosted AI)",
    ]);
    await poll(() => page.getByTestId("admin-routes-upscale").textContent()).toContain("No engine set up here can do this task.");
    const render = page.getByTestId("admin-routes-render");
    expect(await render.getByLabel("Choice 1").locator("option").first().textContent()).toBe(
      "The studio's engine (Preview (offline colour grading, not AI))",
    );
    await render.getByLabel("Choice 1").selectOption("openai");
    await render.getByLabel("Choice 2").selectOption("local");
    await routes.getByRole("button", { name: "Save engines per task" }).click();
    await poll(() => page.getByText("Engines per task saved").isVisible()).toBe(true);
    const { engine } = await admin.client.render.allowance.query();
    expect(engine.tasks.render).toEqual(["openai", "local"]);
    await poll(() => page.getByTestId("admin-engine-openai").textContent()).toContain("Used for: Renders (redesign)");
    await screenshot(page, "studio-engines-per-task-desktop-light");
  });

  it("shows the saved order and each engine's state on a phone (dark)", async () => {
    const { page } = await studioPage({ width: 390, height: 844 }, "dark");
    const render = page.getByTestId("admin-routes-render");
    await poll(() => render.getByLabel("Choice 2").inputValue()).toBe("local");
    await page.getByTestId("admin-engine-states").scrollIntoViewIfNeeded();
    await poll(() => page.getByTestId("admin-engine-openai").textContent()).toContain("Not used yet");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "studio-engines-per-task-phone-dark");
  });

  it("sets up ComfyUI beside the studio's engine and gives it the upscaling (desktop light)", async () => {
    const { admin, page } = await studioPage({ width: 1366, height: 900 }, "light");
    const engine = page.getByTestId("admin-studio-engine");
    // The Preview engine stays the studio's engine; the other engines are set up below it, open
    // because OpenAI's key is set (by the environment here).
    const others = engine.getByTestId("admin-studio-other-engines");
    expect(await others.getAttribute("open")).not.toBeNull();
    const comfyui = others.getByTestId("admin-studio-engine-comfyui");
    // Saving builds the engine without calling it: nothing needs to answer at this address.
    await comfyui.getByLabel("ComfyUI server address").fill("http://127.0.0.1:9");
    expect(await comfyui.getByLabel("Upscale model", { exact: true }).inputValue()).toBe("RealESRGAN_x4plus.pth");
    await screenshot(page, "studio-other-engines-desktop-light");
    await engine.getByRole("button", { name: "Save engine" }).click();
    await poll(() => page.getByText(/^Engine saved: new renders use /).isVisible()).toBe(true);

    // Now able and set up, ComfyUI is offered for upscaling, and takes it.
    const upscale = page.getByTestId("admin-routes-upscale");
    await poll(() => upscale.getByLabel("Choice 1").locator("option").allTextContents()).toEqual(["None", "ComfyUI (your own GPU server)"]);
    await upscale.getByLabel("Choice 1").selectOption("comfyui");
    await page.getByTestId("admin-studio-routes").getByRole("button", { name: "Save engines per task" }).click();
    await poll(() => page.getByText("Engines per task saved").isVisible()).toBe(true);
    const { engine: offer } = await admin.client.render.allowance.query();
    expect(offer.tasks.upscale).toEqual(["comfyui"]);
  });
});
