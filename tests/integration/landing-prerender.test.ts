/**
 * The landing page's HTML is in the page before any script runs (issue 15): the server sends the
 * build's pre-rendered `/` in the visitor's language (cookie, then Accept-Language, then English),
 * with no inline script (the CSP allows scripts from 'self' only), and its scripts start after the
 * first paint (public/boot.js) with every file of the first load listed; other paths get the empty shell.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translations, type TranslationTree } from "../../src/client/i18n/resources";
import { LANGUAGE_COOKIE, type Language } from "../../src/shared/constants";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

function text(language: Language, key: string): string {
  let node: string | TranslationTree | undefined = translations[language];
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`no text ${key} in ${language}`);
  return node;
}

/** The page as a client without JavaScript gets it. */
async function page(path: string, headers: Record<string, string> = {}): Promise<{ response: Response; html: string; root: string }> {
  const response = await fetch(`${server.url}${path}`, { headers });
  const html = await response.text();
  const root = html.slice(html.indexOf('<div id="root"'), html.lastIndexOf("</body>"));
  return { response, html, root };
}

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#x27;");

describe("the pre-rendered landing page", () => {
  it.each([
    ["en", { "accept-language": "en-US,en;q=0.9" }],
    ["es", { "accept-language": "es-ES,es;q=0.9,en;q=0.8" }],
    ["fr", { "accept-language": "de-DE,fr;q=0.7" }],
    ["en", { "accept-language": "de-DE" }],
    ["fr", { "accept-language": "es-ES", cookie: `${LANGUAGE_COOKIE}=fr` }],
  ] as const)("holds the hero in %s before any script runs (%o)", async (language, headers) => {
    const { response, html, root } = await page("/", headers);
    expect(response.status).toBe(200);
    expect(response.headers.get("vary")).toMatch(/Cookie/);
    expect(response.headers.get("vary")).toMatch(/Accept-Language/);
    expect(html).toContain(`<html lang="${language}">`);
    expect(root).toContain(`data-prerendered="${language}"`);
    expect(root).toContain(`<h1 id="hero-title"`);
    expect(root).toContain(escapeHtml(text(language, "landing.title")));
    expect(root).toContain(escapeHtml(text(language, "landing.tryWithoutSignup")));
    // No inline script: the CSP would refuse it.
    expect(html).not.toMatch(/<script(?![^>]*\s(?:src=|type="application\/json"))[^>]*>/);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self';");
  });

  it("starts its scripts after the first paint, listing what the first load needs, all of it there", async () => {
    const { html } = await page("/", { "accept-language": "es-ES" });
    // Nothing in the head that the browser would fetch before painting, but the theme script and the styles.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).not.toContain('type="module"');
    expect(head).not.toContain("modulepreload");
    const boot = /<script src="\/boot\.js" defer data-entry="([^"]+)" data-preload="([^"]*)"><\/script>/.exec(html);
    expect(boot, "the boot script").not.toBeNull();
    const [, entry, preload] = boot!;
    const files = [entry!, ...preload!.split(" ")];
    // The entry, the landing page and the Spanish texts shown first; none of them twice.
    expect(new Set(files).size).toBe(files.length);
    expect(files.some((file) => /\/landing-[\w-]+\.js$/.test(file))).toBe(true);
    expect(files.some((file) => /\/es\.first-[\w-]+\.js$/.test(file))).toBe(true);
    for (const file of ["/boot.js", ...files]) expect((await fetch(`${server.url}${file}`)).status, file).toBe(200);
  });

  it("leaves other pages to the browser (the empty shell)", async () => {
    const { response, root } = await page("/features");
    expect(response.status).toBe(200);
    expect(root.startsWith('<div id="root"></div>')).toBe(true);
  });
});
