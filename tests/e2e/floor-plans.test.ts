/**
 * A floor plan on the default install (the Preview engine, no keys; issue 27 item 1, decision 067).
 * The upload page says, as soon as "Floor plan" is chosen, that a plan is not rendered here and
 * costs nothing; the style page then says plainly why, before anything could be confirmed: no
 * styles, no Render button, nothing charged, and a way on (upload a room photo). In English for a
 * visitor on a phone (their free demo stays theirs), in French for a signed-in user on a desktop
 * (their credits stay as they were). Screenshots at 390 px and 1366 px, light and dark.
 */
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ledgerBalance } from "../../src/server/services/credits";
import { describeBrowser, screenshot, signUpAndSignIn, useBrowsers } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

async function floorPlan(file: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="1000">
    <rect width="1400" height="1000" fill="#fff"/>
    <g stroke="#111" stroke-width="16" fill="none">
      <rect x="80" y="80" width="1240" height="840"/><line x1="700" y1="80" x2="700" y2="420"/>
      <line x1="700" y1="560" x2="700" y2="920"/><line x1="80" y1="500" x2="700" y2="500"/>
    </g>
    <line x1="1320" y1="220" x2="1320" y2="420" stroke="#5ab" stroke-width="12"/>
    <text x="300" y="300" font-family="sans-serif" font-size="40" fill="#333">Bedroom</text>
    <text x="950" y="500" font-family="sans-serif" font-size="40" fill="#333">Living</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
  return file;
}

describeBrowser("a floor plan on the Preview engine", () => {
  let server: TestServer;
  let plan: string;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    plan = await floorPlan(path.join(makeTempDir("roomcanvas-plans-"), "plan.png"));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const { open } = useBrowsers(() => server.url);

  it("in English on a phone: a visitor is told before confirming that a plan is not rendered and costs nothing", async () => {
    const { page, problems } = await open("/upload", { width: 390, height: 844 });
    await poll(() => page.getByTestId("engine-note").isVisible()).toBe(true);
    await page.getByText("Floor plan", { exact: true }).click();
    await poll(() => page.getByTestId("plan-none-note").textContent()).toContain("cannot turn a floor plan into a room");
    await screenshot(page, "floor-plan-upload-en-390");
    await page.getByTestId("file-input").setInputFiles(plan);
    await poll(() => new URL(page.url()).pathname).toBe("/style-select");

    const callout = page.getByTestId("floor-plan-none");
    await poll(() => callout.textContent()).toContain("This engine cannot render a floor plan");
    const text = (await callout.textContent()) ?? "";
    expect(text).toContain("which is not AI");
    expect(text).toContain("nothing is charged");
    expect(await page.getByTestId("plan-nothing-charged").textContent()).toBe("Nothing is charged for a floor plan on this engine.");
    // Nothing to choose or confirm.
    expect(await page.getByTestId("style-modern").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Render/ }).count()).toBe(0);
    expect(await callout.getByRole("link", { name: "Upload a room photo" }).getAttribute("href")).toBe("/upload");
    // The explanation is on the phone's screen without sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "floor-plan-style-en-390");

    // The free demo is still the visitor's.
    await page.goto(`${server.url}/upload`);
    await poll(() => page.getByTestId("engine-note").isVisible()).toBe(true);
    expect(await page.getByTestId("demo-refused").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("in French on a desktop, dark: a signed-in user reads why, and keeps their credits", async () => {
    const { page, problems } = await open("/", { width: 1366, height: 900, locale: "fr-FR", colorScheme: "dark" });
    const email = await signUpAndSignIn(page, server.url, { language: "fr" });
    const user = await server.deps.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const credits = await ledgerBalance(server.deps.db, user.id);

    await page.goto(`${server.url}/upload`);
    await page.getByText("Plan", { exact: true }).click();
    await poll(() => page.getByTestId("plan-none-note").textContent()).toContain("ne sait pas transformer un plan en pièce");
    await page.getByTestId("file-input").setInputFiles(plan);
    await poll(() => new URL(page.url()).pathname).toBe("/style-select");

    const callout = page.getByTestId("floor-plan-none");
    await poll(() => callout.textContent()).toContain("Ce moteur ne sait pas rendre un plan");
    expect(await callout.textContent()).toContain("qui n'est pas une IA");
    expect(await page.getByTestId("plan-nothing-charged").textContent()).toBe("Rien n'est facturé pour un plan avec ce moteur.");
    expect(await page.getByRole("button", { name: /^Rendu|^Lancer/ }).count()).toBe(0);
    expect(await page.getByTestId("style-modern").count()).toBe(0);
    await screenshot(page, "floor-plan-style-fr-1366-dark");

    expect(await ledgerBalance(server.deps.db, user.id)).toBe(credits);
    expect(await server.deps.db.selectFrom("render_jobs").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
