/**
 * Open Graph and Twitter card tags (decision 106): what a chat or a social network shows when a link
 * is pasted. Crawlers do not run the app's script, so the server puts the tags in the page it sends:
 * a route sets `res.locals.pageHead` (and `res.locals.pageTitle`) and passes the request on; the app's
 * page (app.ts) carries them. Share pages use them; so may any public page (a portfolio).
 */
import { SHARE } from "../../shared/community";
import { escapeHtml } from "./studio-pages";

export interface SocialCard {
  title: string;
  description: string;
  /** The page's absolute URL. */
  url: string;
  /** The picture's absolute URL: a 1200×630 card (null: a page with nothing published yet has none). */
  image: string | null;
  imageAlt: string;
}

/** The <meta> tags of a page's card, every value escaped. */
export function socialTags(card: SocialCard): string {
  const property = (name: string, value: string) => `<meta property="${name}" content="${escapeHtml(value)}" />`;
  const named = (name: string, value: string) => `<meta name="${name}" content="${escapeHtml(value)}" />`;
  return [
    property("og:type", "website"),
    property("og:title", card.title),
    property("og:description", card.description),
    property("og:url", card.url),
    ...(card.image === null
      ? [named("twitter:card", "summary")]
      : [
          property("og:image", card.image),
          property("og:image:width", String(SHARE.cardWidth)),
          property("og:image:height", String(SHARE.cardHeight)),
          property("og:image:alt", card.imageAlt),
          named("twitter:card", "summary_large_image"),
          named("twitter:image", card.image),
          named("twitter:image:alt", card.imageAlt),
        ]),
    named("twitter:title", card.title),
    named("twitter:description", card.description),
  ].join("");
}

/**
 * The app's page with a route's own head (res.locals.pageHead: tags made by socialTags) and title
 * (res.locals.pageTitle, plain text). Replacements are functions: a title may hold "$&" and the like.
 */
export function withPageHead(html: string, locals: Record<string, unknown>): string {
  const head = typeof locals.pageHead === "string" ? locals.pageHead : "";
  const title = typeof locals.pageTitle === "string" ? locals.pageTitle : null;
  let page = html;
  if (title !== null) page = page.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  if (head) page = page.replace("</head>", () => `${head}</head>`);
  return page;
}
