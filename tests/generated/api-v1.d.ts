/* Generated from /api/v1/openapi.json by `npm run api:types` (scripts/api-types.ts): do not edit. */
export interface paths {
  "/catalogue": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The styles, room types and modes a render may ask for */
    get: operations["getCatalogue"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/credits": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The credits left in the key's space (scope credits:read) */
    get: operations["getCredits"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The space's renders, newest first, a page at a time (scope renders:read) */
    get: operations["listRenders"];
    put?: never;
    /** Render an uploaded picture in one or more styles (scope renders:write); one credit per style and variation */
    post: operations["createRenders"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A render's state and result (scope renders:read) */
    get: operations["getRender"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders/{id}/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel a render that has not ended; its credit comes back (scope renders:write) */
    post: operations["cancelRender"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders/{id}/image": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A finished render's picture at its largest (scope renders:read) */
    get: operations["getRenderImage"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/uploads": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Upload a room photo or a floor plan (scope renders:write): the picture's bytes as the body */
    post: operations["createUpload"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/usage": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Requests per UTC day of the key's space, all keys together and per key (any key) */
    get: operations["getUsage"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Catalogue: {
      /** @description What a picture shows: a room photo or a floor plan */
      inputModes: ("room-photo" | "floor-plan")[];
      /** @description What to do with the room */
      renderModes: ("redesign" | "stage" | "declutter")[];
      roomTypes: ("living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio")[];
      /** @description The design styles a render may ask for */
      styles: (
        | "modern"
        | "scandinavian"
        | "industrial"
        | "minimalist"
        | "mid-century-modern"
        | "japandi"
        | "bohemian"
        | "coastal"
        | "farmhouse"
        | "traditional"
        | "art-deco"
        | "luxury"
      )[];
    };
    Credits: {
      /** @description Credits left in the key's space (its maker's personal space, or its team) */
      balance: number;
    };
    Error: {
      error: {
        /** @description What went wrong, for programs: invalid, unauthenticated, forbidden, not-found… */
        code: string;
        /** @description What went wrong, for people (English) */
        message: string;
      };
    };
    Render: {
      /** @description ISO 8601 */
      createdAt: string;
      engine: {
        id: string;
        isAi: boolean;
        model: string | null;
      };
      error: string | null;
      finishedAt: string | null;
      id: string;
      imageId: string;
      /** @enum {string} */
      mode: "room-photo" | "floor-plan";
      note: string | null;
      percent: number | null;
      /** @description Place in the queue while queued */
      position: number | null;
      projectId: string | null;
      /** @enum {string} */
      renderMode: "redesign" | "stage" | "declutter";
      result: {
        height: number;
        /** @description The picture at its largest, served to this key's space (GET, with the key) */
        imageUrl: string;
        width: number;
      } | null;
      /** @enum {string} */
      roomType: "living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio";
      seed: number | null;
      startedAt: string | null;
      /** @enum {string} */
      status: "queued" | "preprocessing" | "rendering" | "saving" | "succeeded" | "failed" | "canceled";
      style:
        | (
            | "modern"
            | "scandinavian"
            | "industrial"
            | "minimalist"
            | "mid-century-modern"
            | "japandi"
            | "bohemian"
            | "coastal"
            | "farmhouse"
            | "traditional"
            | "art-deco"
            | "luxury"
          )
        | null;
    };
    RenderList: {
      renders: components["schemas"]["Render"][];
    };
    RenderPage: {
      /** @description Pass as cursor for the next page; null on the last */
      nextCursor: string | null;
      renders: components["schemas"]["Render"][];
    };
    RenderRequest: {
      /** @description An uploaded picture's id */
      imageId: string;
      /** @description A wish added to the prompt */
      note?: string;
      /** @enum {string} */
      renderMode?: "redesign" | "stage" | "declutter";
      seed?: number;
      /**
       * @description How strongly the room's lines are held
       * @enum {string}
       */
      structure?: "normal" | "strong";
      style:
        | (
            | "modern"
            | "scandinavian"
            | "industrial"
            | "minimalist"
            | "mid-century-modern"
            | "japandi"
            | "bohemian"
            | "coastal"
            | "farmhouse"
            | "traditional"
            | "art-deco"
            | "luxury"
          )
        | (
            | "modern"
            | "scandinavian"
            | "industrial"
            | "minimalist"
            | "mid-century-modern"
            | "japandi"
            | "bohemian"
            | "coastal"
            | "farmhouse"
            | "traditional"
            | "art-deco"
            | "luxury"
          )[];
      /** @description Per style, one credit each */
      variations?: number;
    };
    Upload: {
      height: number;
      /** @description The picture's id: what a render's imageId names */
      id: string;
      projectId: string;
      width: number;
    };
    Usage: {
      /** @description Every day of the period, oldest first, all the space's keys together */
      days: components["schemas"]["UsageDay"][];
      /** @description The first day covered (UTC) */
      from: string;
      /** @description Each key of the space that made a request in the period */
      keys: {
        /** @description The key's days that had requests, oldest first */
        days: components["schemas"]["UsageDay"][];
        id: string;
        name: string;
        prefix: string;
        revoked: boolean;
        total: {
          /** @description Answers 400–499: refused requests (bad input, missing scope, rate limited…) */
          clientErrors: number;
          /** @description Renders ordered (one per style and variation; an idempotent replay orders none) */
          renders: number;
          requests: number;
          /** @description Answers 500–599 */
          serverErrors: number;
        };
      }[];
      /** @description The last day covered (UTC): today */
      to: string;
    };
    UsageDay: {
      /** @description Answers 400–499: refused requests (bad input, missing scope, rate limited…) */
      clientErrors: number;
      /** @description The UTC day, 2026-11-27 */
      day: string;
      /** @description Renders ordered (one per style and variation; an idempotent replay orders none) */
      renders: number;
      requests: number;
      /** @description Answers 500–599 */
      serverErrors: number;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getCatalogue: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The catalogue */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Catalogue"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getCredits: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The balance */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Credits"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listRenders: {
    parameters: {
      query?: {
        /** @description The nextCursor of the page before */
        cursor?: string;
        /** @description 1 to 100 */
        limit?: number;
        projectId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RenderPage"];
        };
      };
      /** @description The request breaks a rule (the message says which) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createRenders: {
    parameters: {
      query?: {
        /** @description Seconds to wait for the renders to end before answering (at most 30) */
        wait?: number;
      };
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RenderRequest"];
      };
    };
    responses: {
      /** @description Queued (or ended, when waited for) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RenderList"];
        };
      };
      /** @description The request breaks a rule (the message says which) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not enough credits */
      402: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found, or not the key's to see */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The render is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getRender: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The render */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Render"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found, or not the key's to see */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  cancelRender: {
    parameters: {
      query?: never;
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The render, canceled (or as it ended) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Render"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found, or not the key's to see */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getRenderImage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The picture */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "image/jpeg": Blob;
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found, or not the key's to see */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createUpload: {
    parameters: {
      query?: {
        /** @description What the picture shows */
        mode?: "room-photo" | "floor-plan";
        /** @description The project to file it in; a new one when left out */
        projectId?: string;
        roomType?: "living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio";
      };
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "image/jpeg": Blob;
        "image/png": Blob;
        "image/webp": Blob;
      };
    };
    responses: {
      /** @description Stored */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Upload"];
        };
      };
      /** @description The request breaks a rule (the message says which) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The key lacks the scope this needs */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The picture is over the size limit */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not a picture this takes */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getUsage: {
    parameters: {
      query?: {
        /** @description How many UTC days, today included (1 to 90; counts are kept 90 days) */
        days?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The usage */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Usage"];
        };
      };
      /** @description The request breaks a rule (the message says which) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description No API key, or one that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute: wait for Retry-After seconds (RateLimit-* headers on every answer) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
}
