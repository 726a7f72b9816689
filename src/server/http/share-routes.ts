/**
 * Share links and embeds of a publication (issue 32, decision 106), public and cookie-free:
 *
 * - /s/<id>: the app's share page, answered here first with its Open Graph and Twitter tags (the
 *   card: /files/published/<id>/card) and status 404 when the publication is not visible.
 * - /embed/<id>: a small server-rendered page with a before/after slider, its script and style from
 *   /embed/slider.js and /embed/slider.css. The one page other sites may frame: it replaces the edge's
 *   CSP (frame-ancestors 'none' everywhere else) and drops X-Frame-Options, sets no cookie, carries no
 *   analytics and sends no referrer.
 *
 * - /p/<handle>: a portfolio page (decision 105), answered here first with its tags, as a share page.
 *
 * Every read goes through the community module's `get`, which answers not found for an unpublished or
 * hidden publication.
 */
import { Router, type Request, type Response } from "express";
import { publicationFile, SHARE_ROUTES, type PublicationView } from "../../shared/community";
import type { Language } from "../../shared/constants";
import { portfolioPath } from "../../shared/portfolio";
import type { PublicStudio } from "../../shared/studio";
import type { CommunityModule } from "../community";
import type { Env } from "../env";
import { DomainError } from "../errors";
import { EMBED_SCRIPT, EMBED_STYLE } from "./embed-assets";
import { requestBaseUrl } from "./identity";
import { pageLanguage } from "./prerendered-pages";
import { socialTags } from "./social-tags";
import { escapeHtml } from "./studio-pages";

/** The embed's and the card's texts, in the visitor's language ("{studio}", "{title}", "{value}" filled in). */
const TEXTS: Record<
  Language,
  {
    before: string;
    after: string;
    slider: string;
    valueText: string;
    madeWith: string;
    description: string;
    cardAlt: string;
    /** A publication without a title (the gallery's, moved by migration 0044). */
    untitled: string;
    /** A portfolio page's card (decision 105). */
    portfolioDescription: string;
    portfolioCardAlt: string;
  }
> = {
  en: {
    before: "Before",
    after: "After",
    slider: "Before and after: use the arrow keys to compare",
    valueText: "{value}% before",
    madeWith: "Made with {studio}",
    description: "A room redesigned with {studio}: see it before and after.",
    cardAlt: "{title}, before and after",
    untitled: "A room redesigned",
    portfolioDescription: "Rooms redesigned by {name}, before and after.",
    portfolioCardAlt: "Work by {name}, before and after",
  },
  es: {
    before: "Antes",
    after: "Después",
    slider: "Antes y después: usa las flechas del teclado para comparar",
    valueText: "{value} % antes",
    madeWith: "Hecho con {studio}",
    description: "Una estancia rediseñada con {studio}: mírala antes y después.",
    cardAlt: "{title}, antes y después",
    untitled: "Una estancia rediseñada",
    portfolioDescription: "Estancias rediseñadas por {name}, antes y después.",
    portfolioCardAlt: "Trabajo de {name}, antes y después",
  },
  fr: {
    before: "Avant",
    after: "Après",
    slider: "Avant et après : utilisez les flèches du clavier pour comparer",
    valueText: "{value} % avant",
    madeWith: "Réalisé avec {studio}",
    description: "Une pièce repensée avec {studio} : voyez-la avant et après.",
    cardAlt: "{title}, avant et après",
    untitled: "Une pièce repensée",
    portfolioDescription: "Des pièces repensées par {name}, avant et après.",
    portfolioCardAlt: "Travaux de {name}, avant et après",
  },
};

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/** The embed's own policy: its script, style and pictures from here, nothing else; any site may frame it. */
const EMBED_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors *",
].join("; ");

/** The publication while it is visible; null when not (unknown, malformed, unpublished, hidden). */
async function visible(community: Pick<CommunityModule, "get">, id: string): Promise<PublicationView | null> {
  try {
    return await community.get(id);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not-found") return null;
    throw error;
  }
}

/**
 * Headers of every /embed/ answer, over the edge's: the edge applies one policy to every response before
 * routing (decision 046), and only this route differs, so it replaces those headers here rather than the
 * edge learning about routes. No cookie: nothing before this route sets one, and none is let through.
 */
function embedHeaders(res: Response): void {
  res.setHeader("Content-Security-Policy", EMBED_CSP);
  res.removeHeader("X-Frame-Options");
  res.removeHeader("Set-Cookie");
  // A page with Cross-Origin-Embedder-Policy may frame it too.
  res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cache-Control", "public, no-cache");
}

function embedPage(publication: PublicationView, language: Language, studio: PublicStudio): string {
  const texts = TEXTS[language];
  const title = publication.title || texts.untitled;
  const madeWith = fill(texts.madeWith, { studio: studio.name });
  const picture = (src: string, className: string, alt: string) =>
    `<img class="${className}" src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" draggable="false" />`;
  const frame = publication.before
    ? `<div class="frame compare" data-testid="embed-frame">` +
      picture(publication.after, "after", `${title}, ${texts.after.toLowerCase()}`) +
      picture(publication.before, "before", `${title}, ${texts.before.toLowerCase()}`) +
      `<span class="label before-label" aria-hidden="true">${escapeHtml(texts.before)}</span>` +
      `<span class="label after-label" aria-hidden="true">${escapeHtml(texts.after)}</span>` +
      `<div class="handle" aria-hidden="true"></div>` +
      `<div data-embed-slider role="slider" tabindex="0" aria-label="${escapeHtml(texts.slider)}" aria-valuemin="0" aria-valuemax="100" ` +
      `aria-valuenow="50" aria-valuetext="${escapeHtml(fill(texts.valueText, { value: "50" }))}" ` +
      `data-valuetext="${escapeHtml(texts.valueText)}"></div>` +
      `</div>`
    : `<div class="frame" data-testid="embed-frame">${picture(publication.after, "after", title)}</div>`;
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<link rel="icon" type="image/svg+xml" href="/favicon.svg" />
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/embed/slider.css" />
</head>
<body>
${frame}
<footer><h1>${escapeHtml(title)}</h1><a href="${escapeHtml(SHARE_ROUTES.page(publication.id))}" target="_blank" rel="noopener">${escapeHtml(madeWith)}</a></footer>
${publication.before ? `<script src="/embed/slider.js"></script>` : ""}
</body>
</html>
`;
}

export function shareRoutes(deps: {
  env: Pick<Env, "PUBLIC_URL" | "PORT">;
  community: Pick<CommunityModule, "get" | "portfolio">;
  studio: { publicStudio(): PublicStudio };
}): Router {
  const routes = Router();

  // The app's page follows (app.ts), with these tags and this status.
  routes.get("/s/:id", async (req, res, next) => {
    try {
      const publication = await visible(deps.community, String(req.params.id));
      if (!publication) {
        res.locals.pageStatus = 404;
        return next();
      }
      const base = requestBaseUrl(req, deps.env);
      const studio = deps.studio.publicStudio();
      const texts = TEXTS[pageLanguage(req)];
      const title = publication.title || texts.untitled;
      res.vary("Accept-Language").vary("Cookie");
      res.locals.pageTitle = `${title} · ${studio.name}`;
      res.locals.pageHead = socialTags({
        title,
        description: fill(texts.description, { studio: studio.name }),
        url: `${base}${SHARE_ROUTES.page(publication.id)}`,
        image: `${base}${publicationFile(publication.id, "card")}`,
        imageAlt: fill(texts.cardAlt, { title }),
      });
      next();
    } catch (error) {
      next(error);
    }
  });

  // A portfolio page (decision 105): its card is its newest work's; 404 (with the app's page) when the
  // handle is unknown, malformed or private.
  routes.get("/p/:handle", async (req, res, next) => {
    try {
      const portfolio = await deps.community.portfolio(String(req.params.handle)).catch((error: unknown) => {
        if (error instanceof DomainError && error.kind === "not-found") return null;
        throw error;
      });
      if (!portfolio) {
        res.locals.pageStatus = 404;
        return next();
      }
      const base = requestBaseUrl(req, deps.env);
      const texts = TEXTS[pageLanguage(req)];
      const name = portfolio.studio ? `${portfolio.displayName} · ${portfolio.studio.name}` : portfolio.displayName;
      const newest = portfolio.publications[0];
      res.vary("Accept-Language").vary("Cookie");
      res.locals.pageTitle = name;
      res.locals.pageHead = socialTags({
        title: name,
        description: portfolio.headline || fill(texts.portfolioDescription, { name }),
        url: `${base}${portfolioPath(portfolio.handle)}`,
        image: newest ? `${base}${publicationFile(newest.id, "card")}` : null,
        imageAlt: fill(texts.portfolioCardAlt, { name }),
      });
      next();
    } catch (error) {
      next(error);
    }
  });

  routes.get("/embed/slider.js", (_req, res) => {
    embedHeaders(res);
    res.type("text/javascript").send(EMBED_SCRIPT);
  });
  routes.get("/embed/slider.css", (_req, res) => {
    embedHeaders(res);
    res.type("text/css").send(EMBED_STYLE);
  });

  routes.get("/embed/:id", async (req: Request, res: Response, next) => {
    try {
      const publication = await visible(deps.community, String(req.params.id));
      embedHeaders(res);
      if (!publication) {
        res.status(404).type("text").send("Not found");
        return;
      }
      const language = pageLanguage(req);
      res.vary("Accept-Language").vary("Cookie");
      res.type("html").send(embedPage(publication, language, deps.studio.publicStudio()));
    } catch (error) {
      next(error);
    }
  });

  return routes;
}
