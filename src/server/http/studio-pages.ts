/**
 * The studio's brand in every page the server sends (issue 16): the name in <title>, the public
 * settings as a JSON block the client reads before its first render (so pre-rendered text and the
 * hydrating app agree), the accent's palette and the logo as CSS, and the web app manifest.
 *
 * The build pre-renders the landing page with placeholders for the name and the sign-up credits
 * (src/client/lib/studio.ts); they are filled in here. Pages are made again when a setting changes
 * (the settings' revision), not per request.
 */
import { Router } from "express";
import { MANIFEST_PATH } from "../../shared/constants";
import { studioCss, type PublicStudio } from "../../shared/studio";
import { PRERENDER_PLACEHOLDERS } from "../../shared/studio-placeholders";

/** Text safe in HTML content and in a quoted attribute. */
export const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");

/** JSON safe inside a <script> element (no "</script>", no comment openers, no line separators). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");

/**
 * One page of the build with the studio filled in. `language` is the pre-rendered page's: its texts
 * wrote the credits placeholder as that language writes numbers ("86,420,975", "86 420 975"). That
 * page links the manifest itself after its first paint (decision 056: a browser fetches the manifest
 * once the page has loaded, which on a phone can be before the first paint); the others here.
 */
export function brandPage(html: string, studio: PublicStudio, language?: string): string {
  const credits = Number(PRERENDER_PLACEHOLDERS.signUpCredits);
  const written = language ? new Intl.NumberFormat(language).format(credits) : null;
  const head = [
    `<script id="studio-settings" type="application/json">${scriptJson(studio)}</script>`,
    `<style id="studio-style">${studioCss(studio)}</style>`,
    language ? "" : `<link rel="manifest" href="${MANIFEST_PATH}" />`,
  ].join("");
  const name = escapeHtml(studio.name);
  const linkName = escapeHtml(encodeURIComponent(studio.name));
  const supportEmail = escapeHtml(studio.supportEmail);
  const creditsText = language ? new Intl.NumberFormat(language).format(studio.signUpCredits) : "";
  // Every replacement is a function: a replacement string reads "$&", "$'", "$`", "$1" and "$$" as patterns,
  // and the studio's texts may hold them (issue 27, probe finding 3: a brand name with "$'" corrupted every page).
  return (
    html
      .replace(/<title>[^<]*<\/title>/, () => `<title>${name}</title>`)
      .replace("</head>", () => `${head}</head>`)
      // Inside a link (a mail's subject) the name is URL-encoded, as the hydrating app writes it.
      .replace(/href="[^"]*"/g, (link) => link.replaceAll(PRERENDER_PLACEHOLDERS.name, () => linkName))
      .replaceAll(PRERENDER_PLACEHOLDERS.name, () => name)
      .replaceAll(PRERENDER_PLACEHOLDERS.supportEmail, () => supportEmail)
      .replaceAll(written ?? PRERENDER_PLACEHOLDERS.signUpCredits, () => creditsText)
      .replaceAll(PRERENDER_PLACEHOLDERS.signUpCredits, () => String(studio.signUpCredits))
  );
}

/**
 * Whether a pre-rendered page fits the studio's sign-up credits: it was written with the plural
 * form of "other" ("86,420,975 free credits"); a count in another form ("1 free credit", French
 * "0 crédit") would read wrongly and not match the hydrating app, so that page is drawn in the
 * browser instead.
 */
export function prerenderFits(studio: PublicStudio, language: string): boolean {
  return (
    new Intl.PluralRules(language).select(studio.signUpCredits) ===
    new Intl.PluralRules(language).select(Number(PRERENDER_PLACEHOLDERS.signUpCredits))
  );
}

/**
 * The pages of the build, branded, made again when the settings change: the app's page ("index")
 * and the pre-rendered landing page of each language (undefined when it does not fit the studio).
 */
export function brandedPages(index: string, landing: Map<string, string>, studio: () => PublicStudio, revision: () => number) {
  let made: { revision: number; index: string; landing: Map<string, string> } | undefined;
  const current = () => {
    if (made?.revision !== revision()) {
      const settings = studio();
      made = {
        revision: revision(),
        index: brandPage(index, settings),
        landing: new Map(
          [...landing]
            .filter(([language]) => prerenderFits(settings, language))
            .map(([language, html]) => [language, brandPage(html, settings, language)]),
        ),
      };
    }
    return made;
  };
  return { index: () => current().index, landing: (language: string) => current().landing.get(language) };
}

/** GET /studio/logo (the studio's logo, public) and GET /manifest.webmanifest. */
export function studioRoutes(studio: {
  publicStudio(): PublicStudio;
  logo(): Promise<{ data: Buffer; contentType: string } | null>;
}): Router {
  const router = Router();
  router.get("/studio/logo", async (_req, res, next) => {
    try {
      const logo = await studio.logo();
      if (!logo) {
        res.status(404).json({ error: "Not found" });
        return;
      }
      // The address carries the logo's hash (?v=): a new logo is a new address.
      res.set("Cache-Control", "public, max-age=31536000, immutable").type(logo.contentType).send(logo.data);
    } catch (error) {
      next(error);
    }
  });
  router.get(MANIFEST_PATH, (_req, res) => {
    const current = studio.publicStudio();
    const icons = current.logo
      ? [{ src: current.logo.url, sizes: `${current.logo.width}x${current.logo.height}`, type: "image/png" }]
      : [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml" }];
    res
      .set("Cache-Control", "no-cache")
      .type("application/manifest+json")
      .send(
        JSON.stringify({
          name: current.name,
          short_name: [...current.name].slice(0, 12).join("").trim(),
          start_url: "/",
          display: "standalone",
          theme_color: current.accentColor,
          background_color: "#ffffff",
          icons,
        }),
      );
  });
  return router;
}
