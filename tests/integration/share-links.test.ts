/**
 * Share links, cards and embeds (issue 32, decision 106) through the real server: every public URL of
 * a publication (its pictures, its card, its embed, its share page with Open Graph tags) answers 200
 * while it is published and 404 once unpublished, hidden, or for a malformed id; the card is a
 * 1200×630 JPEG without metadata; the embed alone may be framed, sets no cookie and sends no referrer.
 */
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedSnippet, SHARE } from "../../src/shared/community";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { metaTags } from "../helpers/meta-tags";

type Client = Awaited<ReturnType<typeof signedInClient>>;

let server: TestServer;
let admin: Client;
let ana: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  ana = await signedInClient(server.url);
});
afterAll(async () => {
  await server?.stop();
});

/** A finished render of Ana's, published with this title and layout. */
async function published(title: string, layout: "before-after" | "after-only" = "before-after"): Promise<string> {
  const uploaded = await upload(server.url, ana.jar, await roomPhoto(400, 300));
  expect(uploaded.status).toBe(201);
  const { jobs } = await ana.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: ["scandinavian"] as never,
  });
  await waitForRenders(ana, [jobs[0]!.id]);
  const { id } = await ana.client.community.publish.mutate({ jobId: jobs[0]!.id, title, layout, showName: true });
  return id;
}

/** Every public URL of a publication. */
const publicUrls = (id: string) => [
  `/files/published/${id}/before`,
  `/files/published/${id}/after`,
  `/files/published/${id}/card`,
  `/embed/${id}`,
  `/s/${id}`,
];

const statusOf = async (path: string) => (await fetch(`${server.url}${path}`)).status;

async function expectEverywhere(id: string, status: number) {
  for (const path of publicUrls(id)) expect(await statusOf(path), path).toBe(status);
}

/** The share page's <meta> tags, as a crawler reads them: property or name → content (entities decoded). */
describe("a publication's public URLs", () => {
  it("answer while published, 404 once hidden by an admin, again when shown, and 404 after unpublishing", async () => {
    const id = await published("Sunny loft");
    await expectEverywhere(id, 200);

    await admin.client.admin.setPublicationHidden.mutate({ id, hidden: true });
    await expectEverywhere(id, 404);
    await admin.client.admin.setPublicationHidden.mutate({ id, hidden: false });
    await expectEverywhere(id, 200);

    await ana.client.community.unpublish.mutate({ id });
    await expectEverywhere(id, 404);
    // The card went with the copies.
    expect(await server.deps.storage.get(UPLOAD_BUCKET, `community/${id}/card.jpg`)).toBeNull();
  });

  it("answer 404 for unknown and malformed ids, never 500", async () => {
    for (const id of [
      "pub_0000000000000000000000",
      "pub_",
      "nope",
      "..%2F..%2Fetc",
      "PUB_ABCDEFGHIJKLMNOPQRST",
      "pub_%22%3E%3Cscript%3E",
    ]) {
      for (const path of publicUrls(id)) expect(await statusOf(path), path).toBe(404);
    }
    // A broken percent sequence is a malformed address, as everywhere in the app (400).
    for (const path of publicUrls("pub_%E0%A4%A")) expect(await statusOf(path), path).toBe(400);
  });

  it("an after-only publication has no before picture, and its embed shows the picture alone", async () => {
    const id = await published("Just the result", "after-only");
    expect(await statusOf(`/files/published/${id}/before`)).toBe(404);
    for (const path of [`/files/published/${id}/after`, `/files/published/${id}/card`, `/embed/${id}`])
      expect(await statusOf(path), path).toBe(200);
    const html = await (await fetch(`${server.url}/embed/${id}`)).text();
    expect(html).not.toContain('role="slider"');
    expect(html).not.toContain("slider.js");
    expect(html).toContain(`/files/published/${id}/after`);
  });
});

describe("the share card", () => {
  it("is a 1200×630 JPEG without metadata, made once and kept with the copies", async () => {
    const id = await published("Card check");
    const response = await fetch(`${server.url}/files/published/${id}/card`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const card = Buffer.from(await response.arrayBuffer());
    const metadata = await sharp(card).metadata();
    expect(metadata).toMatchObject({ format: "jpeg", width: SHARE.cardWidth, height: SHARE.cardHeight });
    expect(metadata.exif).toBeUndefined();
    expect(await exifr.parse(card, true)).toBeUndefined();
    const stored = await server.deps.storage.get(UPLOAD_BUCKET, `community/${id}/card.jpg`);
    expect(stored?.data.equals(card)).toBe(true);
  });
});

describe("the share page", () => {
  it("carries Open Graph and Twitter tags with absolute URLs, every value escaped", async () => {
    const title = `"Quotes" & <script>alert(1)</script> $& 'x'`;
    const id = await published(title);
    const response = await fetch(`${server.url}/s/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toContain("<script>alert(1)</script>");
    const tags = metaTags(html);
    expect(tags.get("og:title")).toBe(title);
    expect(tags.get("twitter:title")).toBe(title);
    expect(tags.get("og:type")).toBe("website");
    expect(tags.get("og:url")).toBe(`${server.url}/s/${id}`);
    expect(tags.get("og:image")).toBe(`${server.url}/files/published/${id}/card`);
    expect(tags.get("twitter:image")).toBe(`${server.url}/files/published/${id}/card`);
    expect(tags.get("og:image:width")).toBe("1200");
    expect(tags.get("og:image:height")).toBe("630");
    expect(tags.get("twitter:card")).toBe("summary_large_image");
    expect(tags.get("og:image:alt")).toContain(title);
    expect(tags.get("og:description")).toBeTruthy();
    expect(html).toContain(`<title>&quot;Quotes&quot; &amp; &lt;script&gt;alert(1)&lt;/script&gt; $&amp; &#39;x&#39;`);
    // Other pages carry none.
    expect(metaTags(await (await fetch(`${server.url}/gallery`)).text()).has("og:title")).toBe(false);
  });

  it("answers the app's page with 404 and no tags for a publication that is not visible", async () => {
    const response = await fetch(`${server.url}/s/pub_0000000000000000000000`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<div id="root">');
    expect(metaTags(html).has("og:title")).toBe(false);
  });

  it("describes the card in the visitor's language", async () => {
    const id = await published("Salón");
    const html = await (await fetch(`${server.url}/s/${id}`, { headers: { "accept-language": "es-ES,es;q=0.9" } })).text();
    expect(metaTags(html).get("og:image:alt")).toBe("Salón, antes y después");
  });
});

describe("the embed", () => {
  it("may be framed by any site, sets no cookie even for a signed-in browser, and sends no referrer", async () => {
    const id = await published("Framed");
    expect(ana.jar.cookies.size).toBeGreaterThan(0);
    for (const path of [`/embed/${id}`, "/embed/slider.js", "/embed/slider.css", "/embed/pub_0000000000000000000000"]) {
      const response = await fetch(`${server.url}${path}`, { headers: { cookie: ana.jar.header() } });
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors *");
      expect(csp, path).not.toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain("unsafe-inline");
      expect(response.headers.get("x-frame-options"), path).toBeNull();
      expect(response.headers.getSetCookie(), path).toEqual([]);
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("cache-control"), path).toBe("public, no-cache");
    }
    const html = await (await fetch(`${server.url}/embed/${id}`)).text();
    // Self-contained: its own script and style only, no inline script, no analytics, the app's bundle not loaded.
    expect([...html.matchAll(/<script[^>]*>/g)].map((match) => match[0])).toEqual(['<script src="/embed/slider.js">']);
    expect(html).not.toMatch(/<style|style="|\/assets\/|analytics/);
    expect(html).toContain('role="slider"');
    expect(html).toContain('aria-valuenow="50"');
    expect(html).toContain(`href="/s/${id}" target="_blank" rel="noopener"`);
  });

  it("speaks the visitor's language", async () => {
    const id = await published("Cuisine");
    const french = await (await fetch(`${server.url}/embed/${id}`, { headers: { "accept-language": "fr-FR,fr;q=0.9,en;q=0.5" } })).text();
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain(">Avant<");
    expect(french).toContain(">Après<");
    const spanish = await (await fetch(`${server.url}/embed/${id}`, { headers: { "accept-language": "es" } })).text();
    expect(spanish).toContain(">Antes<");
  });

  it("every other route keeps frame-ancestors 'none' and X-Frame-Options", async () => {
    const id = await published("Not framed");
    for (const path of ["/", "/gallery", `/s/${id}`, `/files/published/${id}/after`, `/files/published/${id}/card`, "/healthz"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
    }
  });
});

describe("the embed snippet", () => {
  it("is an iframe of the embed, its title escaped", () => {
    expect(embedSnippet("https://studio.example/", "pub_abc", `A "loft" <b>`)).toBe(
      '<iframe src="https://studio.example/embed/pub_abc" width="800" height="500" style="border:0;max-width:100%" ' +
        'title="A &quot;loft&quot; &lt;b&gt;" loading="lazy" allowfullscreen></iframe>',
    );
  });
});
