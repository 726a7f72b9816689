/**
 * A studio name holding a replacement pattern ("$'", "$`", "$&", "$1", "$$", "$<x>") is shown exactly
 * (issue 27, probe finding 3: String.replace read it as a pattern and corrupted every served page). Each
 * page branded with such a name must be the page branded with a plain name of the same length, the name
 * aside: the landing page pre-rendered in each language, the app's page, the manifest and the mails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "../../src/shared/constants";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const PATTERNS = ["$'", "$`", "$&", "$1", "$$", "$<x>", "$' $` $& $1 $$"];
const PLAIN = "Casa Nova Studio";

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");

/** The page with every way it writes `name` (HTML text, in a link, in the JSON block) put back as one mark. */
function withoutName(page: string, name: string): string {
  const forms = [escapeHtml(encodeURIComponent(name)), JSON.stringify(name).slice(1, -1).replaceAll("<", "\\u003c"), escapeHtml(name)];
  return forms.reduce((text, form) => text.split(form).join("\u0000NAME\u0000"), page);
}

describe("a studio name with replacement patterns", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const brand = (name: string) =>
    admin.client.admin.updateStudioBrand.mutate({
      name,
      supportEmail: "desk@casa.example",
      accentColor: "#4f46e5",
      termsText: "",
      privacyText: "",
    });
  const get = async (path: string, language = "en") =>
    (await fetch(`${server.url}${path}`, { headers: { "accept-language": language } })).text();
  const pages = async (): Promise<Record<string, string>> => ({
    ...Object.fromEntries(await Promise.all(SUPPORTED_LANGUAGES.map(async (language) => [`/ ${language}`, await get("/", language)]))),
    "/pricing": await get("/pricing"),
  });
  const manifest = async () => JSON.parse(await get("/manifest.webmanifest")) as Record<string, unknown>;

  it("shows the name exactly on every page, the manifest and the mails, which stay well-formed", async () => {
    for (const pattern of PATTERNS) {
      // A plain name of the same length: the same page but for the name.
      const name = `Casa ${pattern} Studio`;
      const plain = PLAIN.slice(0, 5) + "x".repeat(pattern.length) + " Studio";
      await brand(plain);
      const expected = await pages();
      const expectedManifest = await manifest();
      await brand(name);
      const served = await pages();
      for (const [page, html] of Object.entries(served)) {
        expect(withoutName(html, name), `${pattern} in ${page}`).toBe(withoutName(expected[page]!, plain));
      }
      expect(served["/ en"]).toContain(`<title>${escapeHtml(name)}</title>`);
      // The pre-rendered landing page names the studio in its text and links too, not only in its title.
      expect(withoutName(served["/ en"]!, name).split("\u0000NAME\u0000").length, pattern).toBeGreaterThan(4);
      expect(served["/pricing"]).toContain(`<title>${escapeHtml(name)}</title>`);
      expect(await manifest()).toEqual({ ...expectedManifest, name, short_name: [...name].slice(0, 12).join("").trim() });

      const newcomer = await signedInClient(server.url);
      const mail = await server.deps.db
        .selectFrom("mail_outbox")
        .select(["subject", "text_body"])
        .where("to_address", "=", newcomer.email)
        .executeTakeFirstOrThrow();
      expect(mail.subject, pattern).toBe(`Confirm your ${name} account`);
      expect(mail.text_body, pattern).toContain(`Welcome to ${name}!`);
    }
  });
});
