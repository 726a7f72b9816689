/**
 * /admin → Studio (issue 16) over real HTTP: the brand reaches every page (title, the studio's
 * JSON block, the pre-rendered landing page's placeholders, the manifest), mails, checkout-free
 * sign-up credits and the demo limit; the engine is chosen, tested against the fake servers and
 * swapped without a restart, its keys sealed at rest and shown by their last four characters; the
 * environment wins; only admins may change anything; every change is audited; a restart keeps it all.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { PRERENDER_PLACEHOLDERS } from "../../src/shared/studio-placeholders";
import type { EngineInput } from "../../src/shared/studio-settings";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { startFakeReplicate, type FakeReplicate } from "../helpers/fake-replicate";
import {
  collectEvents,
  confirmAddress,
  createStudioClient,
  PASSWORD,
  roomPhoto,
  signedInClient,
  untilAllFinal,
  upload,
} from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir, testDatabaseVariables } from "../helpers/test-env";

const failure = (error: unknown) => error as { message: string; data?: { code?: string } };
const OPENAI_KEY = "sk-test-studio-settings-9xQ4";

const localEngine: EngineInput = {
  engine: "local",
  replicateModel: "adirik/interior-design",
  openaiModel: "gpt-image-1",
  comfyuiUrl: "",
  keys: {},
};

async function pngDataUrl(width: number, height: number): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 4, background: "#0f766e" } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

describe("studio settings in /admin", () => {
  // One place for both starts: DATA_DIR and, in the PostgreSQL lane, one database.
  const place = { DATA_DIR: makeTempDir(), ...testDatabaseVariables() };
  let openai: FakeOpenAi;
  let replicate: FakeReplicate;
  let comfy: FakeComfyUi;
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;

  const env = () => ({ ...place, OPENAI_API_URL: openai.url, REPLICATE_API_URL: replicate.url });
  const page = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { "accept-language": "en" } })).text();
  const audit = (action: string) => server.deps.db.selectFrom("admin_audit").selectAll().where("action", "=", action).execute();

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY });
    replicate = await startFakeReplicate({ token: "r8_studio_token" });
    comfy = await startFakeComfyUi({ token: "comfy-proxy-token" });
    server = await startTestServer(env());
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([openai?.close(), replicate?.close(), comfy?.close()]);
  });

  it("starts with the shipped brand, credits and engine, and pages without placeholders", async () => {
    const settings = await admin.client.admin.studioSettings.query();
    expect(settings.brand).toMatchObject({ name: "RoomCanvas", accentColor: "#4f46e5", logo: null, termsText: "" });
    expect(settings.freeCredits).toMatchObject({ signUpCredits: 10, demoRendersPerAddressPerDay: 3 });
    expect(settings.engine).toMatchObject({ engine: "local", keys: { openai: { last4: null, setByEnvironment: false } } });
    const landing = await page("/");
    expect(landing).toContain("<title>RoomCanvas</title>");
    expect(landing).toContain('<script id="studio-settings" type="application/json">');
    for (const placeholder of Object.values(PRERENDER_PLACEHOLDERS)) expect(landing).not.toContain(placeholder);
    expect(landing).toContain("10 free credits");
  });

  it("brands every page, the manifest, system info and mails once saved, without a restart; audited", async () => {
    await admin.client.admin.updateStudioBrand.mutate({
      name: "Casa <Nova> Studio",
      supportEmail: "hello@casanova.example",
      accentColor: "#0F766E",
      termsText: "Renders are yours.\n\nBe kind.",
      privacyText: "",
    });
    const landing = await page("/");
    expect(landing).toContain("<title>Casa &lt;Nova&gt; Studio</title>");
    expect(landing).not.toContain("RoomCanvas");
    expect(landing).toContain("Casa &lt;Nova&gt; Studio");
    expect(landing).toContain("mailto:hello@casanova.example");
    expect(landing).toContain("--color-brand-600:#0f766e");
    // The JSON block cannot close its script element.
    expect(landing).toContain('"name":"Casa \\u003cNova> Studio"');
    const pricing = await page("/pricing");
    expect(pricing).toContain("<title>Casa &lt;Nova&gt; Studio</title>");
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "Casa <Nova> Studio", theme_color: "#0f766e", start_url: "/" });
    const visitor = createStudioClient(server.url);
    expect(await visitor.client.system.info.query()).toMatchObject({
      productName: "Casa <Nova> Studio",
      supportEmail: "hello@casanova.example",
    });
    expect(await visitor.client.system.legalText.query({ page: "terms" })).toEqual({ text: "Renders are yours.\n\nBe kind." });
    expect(await visitor.client.system.legalText.query({ page: "privacy" })).toEqual({ text: "" });

    const newcomer = await signedInClient(server.url);
    const mail = await server.deps.db
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", newcomer.email)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe("Confirm your Casa <Nova> Studio account");
    expect(mail.text_body).toContain("Welcome to Casa <Nova> Studio!");

    const [entry] = await audit("settings.brand");
    expect(entry!.admin_user_id).toBe(admin.userId);
    expect(JSON.parse(entry!.details!)).toMatchObject({
      changed: {
        name: { from: "RoomCanvas", to: "Casa <Nova> Studio" },
        accentColor: { from: "#4f46e5", to: "#0f766e" },
        termsText: { from: 0, to: 28 },
      },
    });
  });

  it("refuses an accent that fails WCAG AA, bad names and addresses, with the form's messages", async () => {
    const brand = { name: "Casa Nova", supportEmail: "hello@casanova.example", accentColor: "#0f766e", termsText: "", privacyText: "" };
    for (const [change, message] of [
      [{ accentColor: "#facc15" }, MESSAGES.accentColorContrast],
      [{ accentColor: "#111111" }, MESSAGES.accentColorContrast],
      [{ accentColor: "teal" }, MESSAGES.accentColorInvalid],
      [{ name: "  " }, MESSAGES.studioNameRequired],
      [{ name: "x".repeat(61) }, MESSAGES.studioNameTooLong],
      [{ supportEmail: "not an address" }, MESSAGES.supportEmailInvalid],
    ] as const) {
      const error = failure(await admin.client.admin.updateStudioBrand.mutate({ ...brand, ...change }).catch((caught: unknown) => caught));
      expect(error.message).toContain(message);
    }
    expect((await admin.client.admin.studioSettings.query()).brand.accentColor).toBe("#0f766e");
  });

  it("takes a PNG or JPEG logo checked like an upload, serves it, and removes it", async () => {
    const saved = await admin.client.admin.setStudioLogo.mutate({ dataUrl: await pngDataUrl(800, 400) });
    expect(saved.logo).toMatchObject({ width: 512, height: 256 });
    const logo = await fetch(`${server.url}${saved.logo!.url}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect((await sharp(Buffer.from(await logo.arrayBuffer())).metadata()).width).toBe(512);
    expect(await page("/")).toContain(`.brand-mark-logo{display:block;background:url("${saved.logo!.url}")`);
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as { icons: Array<{ src: string }> };
    expect(manifest.icons[0]!.src).toBe(saved.logo!.url);

    for (const dataUrl of [
      `data:image/png;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`,
      await pngDataUrl(8, 8),
      "data:image/gif;base64,R0lGODlhAQABAAAAACw=",
    ]) {
      const error = failure(await admin.client.admin.setStudioLogo.mutate({ dataUrl }).catch((caught: unknown) => caught));
      expect(error.message).toBe(MESSAGES.logoInvalid);
    }
    await admin.client.admin.removeStudioLogo.mutate();
    expect((await fetch(`${server.url}${saved.logo!.url}`)).status).toBe(404);
    expect(await audit("settings.logo")).toHaveLength(1);
    expect(await audit("settings.logo-removed")).toHaveLength(1);
  });

  it("gives new accounts the sign-up credits set here, and turns the free demo off at 0", async () => {
    await admin.client.admin.updateFreeCredits.mutate({ signUpCredits: 3, demoRendersPerAddressPerDay: 0 });
    const newcomer = await signedInClient(server.url);
    expect((await newcomer.client.render.allowance.query()).credits).toBe(3);
    expect(await page("/")).toContain("3 free credits");
    const visitor = createStudioClient(server.url);
    expect(await visitor.client.render.allowance.query()).toMatchObject({ demoAvailable: false, demoRefusal: "address-limit" });

    await admin.client.admin.updateFreeCredits.mutate({ signUpCredits: 0, demoRendersPerAddressPerDay: 3 });
    const unpaid = await signedInClient(server.url);
    expect((await unpaid.client.render.allowance.query()).credits).toBe(0);
    expect(await server.deps.db.selectFrom("credit_ledger").select("id").where("user_id", "=", unpaid.userId).execute()).toEqual([]);
    expect(await createStudioClient(server.url).client.render.allowance.query()).toMatchObject({ demoAvailable: true });
    expect(JSON.parse((await audit("settings.free-credits"))[0]!.details!)).toMatchObject({
      changed: { signUpCredits: { from: 10, to: 3 }, demoRendersPerAddressPerDay: { from: 3, to: 0 } },
    });
    // One credit is "1 free credit": the page pre-rendered with "… credits" is then drawn in the browser instead.
    await admin.client.admin.updateFreeCredits.mutate({ signUpCredits: 1, demoRendersPerAddressPerDay: 3 });
    expect(await page("/")).not.toContain("data-prerendered");
    await admin.client.admin.updateFreeCredits.mutate({ signUpCredits: 10, demoRendersPerAddressPerDay: 3 });
    expect(await page("/")).toContain('data-prerendered="en"');
  });

  it("tests each engine's connection with the keys typed in, before anything is saved", async () => {
    const test = (input: Partial<EngineInput>) => admin.client.admin.testEngineConnection.mutate({ ...localEngine, ...input });
    expect(await test({ engine: "openai", keys: { openai: OPENAI_KEY } })).toMatchObject({ engine: "openai", ok: true });
    expect(await test({ engine: "openai", keys: { openai: "sk-wrong" } })).toMatchObject({ engine: "openai", ok: false });
    expect(await test({ engine: "openai", openaiModel: "no-such-model", keys: { openai: OPENAI_KEY } })).toMatchObject({ ok: false });
    expect(openai.requests.filter((request) => request.fields.model !== undefined && !request.image)).toHaveLength(3);

    expect(await test({ engine: "replicate", keys: { replicate: "r8_studio_token" } })).toMatchObject({ engine: "replicate", ok: true });
    expect(await test({ engine: "replicate", keys: { replicate: "r8_wrong" } })).toMatchObject({ ok: false });

    expect(await test({ engine: "comfyui", comfyuiUrl: comfy.url, keys: { comfyui: "comfy-proxy-token" } })).toMatchObject({
      engine: "comfyui",
      ok: true,
    });
    expect(await test({ engine: "comfyui", comfyuiUrl: comfy.url, keys: { comfyui: "wrong" } })).toMatchObject({ ok: false });
    // Nothing was saved by testing.
    expect((await admin.client.admin.studioSettings.query()).engine).toMatchObject({ engine: "local", keys: { openai: { last4: null } } });
  });

  it("swaps the engine at once when saved: keys sealed at rest, shown by their last 4, never in the audit", async () => {
    const refused = failure(
      await admin.client.admin.updateEngine.mutate({ ...localEngine, engine: "openai" }).catch((caught: unknown) => caught),
    );
    expect(refused.message).toBe(MESSAGES.engineKeyMissing);

    const saved = await admin.client.admin.updateEngine.mutate({ ...localEngine, engine: "openai", keys: { openai: OPENAI_KEY } });
    expect(saved).toMatchObject({ engine: "openai", keys: { openai: { last4: "9xQ4" } }, engineInUse: { id: "openai", isAi: true } });
    const stored = await server.deps.db
      .selectFrom("studio_settings")
      .select("value")
      .where("section", "=", "engine")
      .executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(OPENAI_KEY);
    expect(stored.value).toMatch(/"sealed":"v1\./);
    const details = (await audit("settings.engine"))[0]!.details!;
    expect(details).not.toContain(OPENAI_KEY);
    expect(JSON.parse(details)).toMatchObject({ changed: { engine: { from: "local", to: "openai" } }, keysChanged: ["openai"] });
    expect(JSON.stringify(await admin.client.admin.studioSettings.query())).not.toContain(OPENAI_KEY);

    // The next render goes to OpenAI, without a restart, and records it.
    const user = await signedInClient(server.url);
    await confirmAddress(server.url, server.deps.db, user.email);
    expect((await user.client.render.allowance.query()).engine.id).toBe("openai");
    const uploaded = await upload(server.url, user.jar, await roomPhoto(600, 400));
    const created = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    const jobIds = created.jobs.map((job) => job.id);
    await collectEvents(user, {}, untilAllFinal(jobIds), 30_000);
    const job = await server.deps.db
      .selectFrom("render_jobs")
      .select(["status", "provider", "model"])
      .where("id", "=", jobIds[0]!)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: "succeeded", provider: "openai", model: "gpt-image-1" });
    expect(openai.requests.some((request) => request.image !== undefined)).toBe(true);
  });

  it("keeps everything across a restart, the saved engine included", async () => {
    await server.stop();
    // The same DATA_DIR, as it was left (not the tests' template database).
    server = await startTestServer(env(), { fresh: true });
    expect(server.services.render.engine.id).toBe("openai");
    // The same account and password on the new server's address.
    admin = { ...createStudioClient(server.url), email: admin.email, userId: admin.userId };
    await admin.client.auth.signIn.mutate({ email: admin.email, password: PASSWORD });
    const settings = await admin.client.admin.studioSettings.query();
    expect(settings.brand.name).toBe("Casa <Nova> Studio");
    expect(settings.engine.keys.openai.last4).toBe("9xQ4");
    // Back to the offline engine; the stored key can be removed.
    await admin.client.admin.updateEngine.mutate({ ...localEngine, keys: { openai: "" } });
    expect(server.services.render.engine.id).toBe("local");
    expect((await admin.client.admin.studioSettings.query()).engine.keys.openai.last4).toBeNull();
  });

  it("refuses everyone but admins", async () => {
    const user = await signedInClient(server.url);
    for (const call of [
      () => user.client.admin.studioSettings.query(),
      () => user.client.admin.updateFreeCredits.mutate({ signUpCredits: 100, demoRendersPerAddressPerDay: 100 }),
      () => user.client.admin.updateEngine.mutate(localEngine),
      () => createStudioClient(server.url).client.admin.testEngineConnection.mutate(localEngine),
    ]) {
      expect(failure(await call().catch((caught: unknown) => caught)).data?.code).toMatch(/FORBIDDEN|UNAUTHORIZED/);
    }
  });
});

describe("studio settings the environment holds", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    server = await startTestServer({ STUDIO_NAME: "Env Studio", SIGNUP_FREE_CREDITS: "5", SUPPORT_EMAIL: "desk@env.example" });
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(() => server?.stop());

  it("shows them as set by the environment, uses them, and refuses to change them here", async () => {
    const settings = await admin.client.admin.studioSettings.query();
    expect(settings.brand).toMatchObject({
      name: "Env Studio",
      supportEmail: "desk@env.example",
      setByEnvironment: { name: true, supportEmail: true },
    });
    expect(settings.freeCredits).toMatchObject({
      signUpCredits: 5,
      setByEnvironment: { signUpCredits: true, demoRendersPerAddressPerDay: false },
    });
    expect((await admin.client.render.allowance.query()).credits).toBe(5);
    expect(await (await fetch(`${server.url}/`)).text()).toContain("<title>Env Studio</title>");

    const brand = { name: "Env Studio", supportEmail: "desk@env.example", accentColor: "#4f46e5", termsText: "", privacyText: "" };
    const refused = failure(
      await admin.client.admin.updateStudioBrand.mutate({ ...brand, name: "Other" }).catch((caught: unknown) => caught),
    );
    expect(refused.message).toBe(MESSAGES.setByEnvironment);
    // Sent back unchanged, the rest of the form saves.
    await admin.client.admin.updateStudioBrand.mutate({ ...brand, termsText: "Terms." });
    expect((await admin.client.admin.studioSettings.query()).brand.termsText).toBe("Terms.");
    const credits = failure(
      await admin.client.admin.updateFreeCredits
        .mutate({ signUpCredits: 6, demoRendersPerAddressPerDay: 3 })
        .catch((caught: unknown) => caught),
    );
    expect(credits.message).toBe(MESSAGES.setByEnvironment);
  });
});
