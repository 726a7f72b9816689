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
  "/credits/ledger": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The space's credit ledger, newest first, a page at a time (scope credits:read; a team's: its Owner and Admins, as on the team page) */
    get: operations["listLedger"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/edits/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An edit's state and result (scope renders:read); its picture is at result.imageUrl */
    get: operations["getEdit"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/engines": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The engines offered, what each can do, and the price of each task in credits */
    get: operations["getEngines"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/listing-exports/{id}/image": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The exported JPEG (scope renders:read) */
    get: operations["getListingExportImage"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/projects": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The space's projects, most recently changed first, a page at a time (scope projects) */
    get: operations["listProjects"];
    put?: never;
    /** A new project in the key's space (scope projects); uploads may be filed in it with ?projectId= */
    post: operations["createProject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/projects/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A project (scope projects); its renders are GET /renders?projectId= */
    get: operations["getProject"];
    put?: never;
    post?: never;
    /** Delete a project with its photos, renders and their files (scope projects); a team's project: its maker, or the team's Owner or an Admin */
    delete: operations["deleteProject"];
    options?: never;
    head?: never;
    /** Rename a project (scope projects) */
    patch: operations["renameProject"];
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
  "/renders/{id}/edits": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Repaint the masked region of a finished render (scope renders:write); one credit, the same checks as the web app's studio */
    post: operations["createEdit"];
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
    /** A finished render's (or edit's) picture at its largest, its AI upscale once made (scope renders:read) */
    get: operations["getRenderImage"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders/{id}/listing-exports": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A render's current listing exports, newest first (scope renders:read) */
    get: operations["listListingExports"];
    put?: never;
    /** Export a finished render for a property listing (California B&P Code §10140.8): a JPEG with the disclosure and a QR code of a public page showing the unaltered photo (scope renders:write) */
    post: operations["createListingExport"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders/{id}/reroll": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Render a finished render again: another variation, or the same seed (scope renders:write); one credit, like the web app's re-roll. An edit is repeated with its mask and instruction */
    post: operations["rerollRender"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/renders/{id}/upscale": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Whether the render has its AI upscale (scope renders:read) */
    get: operations["getUpscale"];
    put?: never;
    /** Upscale a finished render to its photo's size with the engine's upscaler (scope renders:write); no credit, made once and kept. Answers when made */
    post: operations["upscaleRender"];
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
  "/webhooks": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The key's space's webhook endpoints, newest first (scope webhooks) */
    get: operations["listWebhooks"];
    put?: never;
    /** Register an endpoint for the key's space (scope webhooks): https, a public address, the events it wants; the answer holds its signing secret, once */
    post: operations["createWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An endpoint (scope webhooks) */
    get: operations["getWebhook"];
    put?: never;
    post?: never;
    /** Delete an endpoint and its delivery log (scope webhooks) */
    delete: operations["deleteWebhook"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The endpoint's delivery log, newest first, with each try's status, time and answer (scope webhooks) */
    get: operations["listWebhookDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a delivery's body again, as a new delivery with a new webhook-id (scope webhooks) */
    post: operations["redeliverWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A new signing secret for the endpoint, in force at once: the old one stops (scope webhooks); shown in this answer only */
    post: operations["rotateWebhookSecret"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{id}/test": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send the endpoint a webhook.test event (scope webhooks) */
    post: operations["testWebhook"];
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
      /** @description The styles of the key's space's own (its maker's personal ones, or its team's), newest change first */
      customStyles: {
        avoid: string;
        /** @description What an AI engine is told of the look */
        description: string;
        /** @description A reference picture is attached (engines that accept one follow it) */
        hasReference: boolean;
        /** @description What a render's style names to use it (cs_…) */
        id: string;
        name: string;
        /** @description One to six #rrggbb colours (the Preview engine grades with them) */
        palette: string[];
        /** @enum {string} */
        tone: "light" | "warm" | "cool" | "neutral" | "dark" | "bold";
      }[];
      /** @description What a picture shows: a room photo or a floor plan */
      inputModes: ("room-photo" | "floor-plan")[];
      /** @description What to do with the room */
      renderModes: ("redesign" | "stage" | "declutter" | "sky" | "twilight" | "garden")[];
      roomTypes: (
        "living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio" | "exterior"
      )[];
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
    Edit: {
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
      instruction: string | null;
      /** @enum {string} */
      mode: "room-photo" | "floor-plan";
      note: string | null;
      percent: number | null;
      /** @description Place in the queue while queued */
      position: number | null;
      projectId: string | null;
      /** @enum {string} */
      renderMode: "redesign" | "stage" | "declutter" | "sky" | "twilight" | "garden";
      result: {
        height: number;
        /** @description The picture at its largest, served to this key's space (GET, with the key) */
        imageUrl: string;
        width: number;
      } | null;
      /** @enum {string} */
      roomType:
        "living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio" | "exterior";
      seed: number | null;
      /** @description The render or edit it was made from */
      sourceId: string | null;
      startedAt: string | null;
      /** @enum {string} */
      status: "queued" | "preprocessing" | "rendering" | "saving" | "succeeded" | "failed" | "canceled";
      /** @description A built-in style (modern, scandinavian, industrial, minimalist, mid-century-modern, japandi, bohemian, coastal, farmhouse, traditional, art-deco, luxury) or a custom style's id (cs_…); null for an edit of the photo itself */
      style: string | null;
      /** @description A custom style's name as the render used it; null for a built-in style */
      styleName: string | null;
    };
    EditRequest: {
      /**
       * @description What to do in the painted region; empty: remove what is there and fill it in naturally
       * @default
       */
      instruction: string;
      /** @description A PNG, base64 (a data:image/png;base64,… URL also does): white or opaque where the picture changes. Its size is the render's result size scaled down to a long edge of at most 1024 px (a 2048 × 1536 result takes a 1024 × 768 mask). At least 400 pixels painted, at most 95% of the picture. */
      mask: string;
      /** @enum {string} */
      preset?: "remove" | "replace" | "recolour";
    };
    Engines: {
      /** @description What the engines can do together */
      capabilities: {
        /** @enum {string} */
        floorPlan: "none" | "top-down" | "eye-level";
        /** @description Edits with a mask */
        masks: boolean;
        maxOutputLongEdge: number;
        modes: ("redesign" | "stage" | "declutter" | "sky" | "twilight" | "garden")[];
        /** @description A seed may be asked for, and a re-roll with the same seed */
        seeds: boolean;
        structureStrength: boolean;
        upscale: boolean;
      };
      /** @description The engines this server offers, each with the tasks it does here */
      engines: {
        id: string;
        isAi: boolean;
        label: string;
        tasks: ("render" | "stage" | "declutter" | "exterior" | "edit" | "upscale")[];
      }[];
      /** @description In credits; a render or edit that fails or is canceled gives its credit back */
      prices: {
        edit: number;
        /** @description Credits per render (per style and variation), and per re-roll */
        render: number;
        upscale: number;
      };
      /** @description Per task, its engines in the order they are tried (empty: not offered here) */
      tasks: {
        [key: string]: string[];
      };
    };
    Error: {
      error: {
        /** @description What went wrong, for programs: invalid, unauthenticated, forbidden, not-found… */
        code: string;
        /** @description What went wrong, for people (English) */
        message: string;
      };
    };
    LedgerEntry: {
      /** @description Credits added (positive) or taken (negative) */
      amount: number;
      /** @description ISO 8601 */
      createdAt: string;
      id: string;
      /**
       * @description grant: sign-up credits; charge: a render or edit; refund: one that failed or was canceled
       * @enum {string}
       */
      kind: "grant" | "charge" | "refund" | "purchase" | "admin" | "transfer";
      reason: string | null;
      /** @description The render or edit charged or refunded */
      renderId: string | null;
    };
    LedgerPage: {
      entries: components["schemas"]["LedgerEntry"][];
      /** @description Pass as cursor for the next page; null on the last */
      nextCursor: string | null;
    };
    ListingExport: {
      /** @description ISO 8601 */
      createdAt: string;
      disclosure: string;
      height: number;
      id: string;
      /** @description The exported JPEG, served to this key's space (GET, with the key) */
      imageUrl: string;
      /** @enum {string} */
      language: "en" | "es" | "fr";
      /** @description The public page (its QR code is on the picture): the unaltered photo beside the render */
      publicUrl: string;
      renderId: string;
      width: number;
    };
    ListingExportList: {
      exports: components["schemas"]["ListingExport"][];
    };
    ListingExportRequest: {
      /** @description The words burnt in below the picture (at most 80 characters); default the law's wording */
      disclosure?: string;
      /**
       * @description Of the disclosure and the public page; default the key's
       * @enum {string}
       */
      language?: "en" | "es" | "fr";
    };
    Project: {
      /** @description ISO 8601 */
      createdAt: string;
      id: string;
      name: string;
      /** @description Defaults the web app keeps for its next renders */
      settings: {
        [key: string]: unknown;
      };
      /** @description The team whose space holds it; null: the key maker's personal space */
      teamId: string | null;
      /** @description ISO 8601: its last change (a rename, an upload, a render) */
      updatedAt: string;
    };
    ProjectDeleted: {
      /** @constant */
      deleted: true;
      id: string;
    };
    ProjectName: {
      name: string;
    };
    ProjectPage: {
      /** @description Pass as cursor for the next page; null on the last */
      nextCursor: string | null;
      projects: {
        /** @description ISO 8601 */
        createdAt: string;
        id: string;
        name: string;
        renderCount: number;
        /** @description Defaults the web app keeps for its next renders */
        settings: {
          [key: string]: unknown;
        };
        /** @description The team whose space holds it; null: the key maker's personal space */
        teamId: string | null;
        /** @description ISO 8601: its last change (a rename, an upload, a render) */
        updatedAt: string;
      }[];
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
      renderMode: "redesign" | "stage" | "declutter" | "sky" | "twilight" | "garden";
      result: {
        height: number;
        /** @description The picture at its largest, served to this key's space (GET, with the key) */
        imageUrl: string;
        width: number;
      } | null;
      /** @enum {string} */
      roomType:
        "living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio" | "exterior";
      seed: number | null;
      startedAt: string | null;
      /** @enum {string} */
      status: "queued" | "preprocessing" | "rendering" | "saving" | "succeeded" | "failed" | "canceled";
      /** @description A built-in style (modern, scandinavian, industrial, minimalist, mid-century-modern, japandi, bohemian, coastal, farmhouse, traditional, art-deco, luxury) or a custom style's id (cs_…); null for an edit of the photo itself */
      style: string | null;
      /** @description A custom style's name as the render used it; null for a built-in style */
      styleName: string | null;
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
      renderMode?: "redesign" | "stage" | "declutter" | "sky" | "twilight" | "garden";
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
    RerollRequest: {
      /**
       * @description new: another variation (re-roll); same: the same seed again (engines with seeds)
       * @default new
       * @enum {string}
       */
      seed: "new" | "same";
      /**
       * @description How strongly the room's lines are held; default the render's own
       * @enum {string}
       */
      structure?: "normal" | "strong";
    };
    Upload: {
      height: number;
      /** @description The picture's id: what a render's imageId names */
      id: string;
      projectId: string;
      width: number;
    };
    Upscale: {
      /** @description This server's engines can upscale, and the render is smaller than its photo */
      available: boolean;
      height: number | null;
      model: string | null;
      /**
       * @description none: not made (yet); done: the render's imageUrl serves it
       * @enum {string}
       */
      state: "none" | "done";
      width: number | null;
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
    Webhook: {
      /** @description ISO 8601 */
      createdAt: string;
      /** @description credits.low is sent when a change takes the space's balance below this many credits; null without credits.low */
      creditsLowBelow: number | null;
      description: string;
      /** @description Why it is off: turned off by its owner, or failing every delivery for a day */
      disabledReason: ("owner" | "failing") | null;
      enabled: boolean;
      events: ("render.succeeded" | "render.failed" | "render.canceled" | "edit.succeeded" | "credits.low" | "listing.created")[];
      id: string;
      url: string;
    };
    WebhookCreated: {
      /** @description ISO 8601 */
      createdAt: string;
      /** @description credits.low is sent when a change takes the space's balance below this many credits; null without credits.low */
      creditsLowBelow: number | null;
      description: string;
      /** @description Why it is off: turned off by its owner, or failing every delivery for a day */
      disabledReason: ("owner" | "failing") | null;
      enabled: boolean;
      events: ("render.succeeded" | "render.failed" | "render.canceled" | "edit.succeeded" | "credits.low" | "listing.created")[];
      id: string;
      /** @description The signing secret (whsec_…), shown in this answer only. Each delivery carries webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks): v1, and base64 of HMAC-SHA256 of `id.timestamp.body` keyed with the secret's bytes after whsec_ (base64). */
      secret: string;
      url: string;
    };
    WebhookDelivery: {
      attempts: {
        /** @description The answer's first 512 bytes */
        answer: string | null;
        at: string;
        durationMs: number;
        error: string | null;
        /** @description The answer's HTTP status; null when there was none */
        status: number | null;
      }[];
      createdAt: string;
      /** @description The webhook-id header: the same on every try */
      id: string;
      /** @description When it is tried next, while pending */
      nextAttemptAt: string | null;
      /** @enum {string} */
      status: "pending" | "succeeded" | "failed";
      /** @enum {string} */
      type:
        "render.succeeded" | "render.failed" | "render.canceled" | "edit.succeeded" | "credits.low" | "listing.created" | "webhook.test";
    };
    WebhookDeliveryList: {
      deliveries: components["schemas"]["WebhookDelivery"][];
    };
    WebhookList: {
      webhooks: components["schemas"]["Webhook"][];
    };
    WebhookRequest: {
      /** @description With credits.low: it is sent when a change takes the space's balance from this many credits or more to fewer (default 10) */
      creditsLowBelow?: number;
      /** @default  */
      description: string;
      events: ("render.succeeded" | "render.failed" | "render.canceled" | "edit.succeeded" | "credits.low" | "listing.created")[];
      url: string;
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  listLedger: {
    parameters: {
      query?: {
        /** @description The nextCursor of the page before */
        cursor?: string;
        /** @description 1 to 100 */
        limit?: number;
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
          "application/json": components["schemas"]["LedgerPage"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  getEdit: {
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
      /** @description The edit */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Edit"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  getEngines: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The engines */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Engines"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  getListingExportImage: {
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  listProjects: {
    parameters: {
      query?: {
        /** @description The nextCursor of the page before */
        cursor?: string;
        /** @description 1 to 100 */
        limit?: number;
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
          "application/json": components["schemas"]["ProjectPage"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  createProject: {
    parameters: {
      query?: never;
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectName"];
      };
    };
    responses: {
      /** @description Made */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Project"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  getProject: {
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
      /** @description The project */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Project"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  deleteProject: {
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
      /** @description Deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ProjectDeleted"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  renameProject: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectName"];
      };
    };
    responses: {
      /** @description Renamed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Project"];
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
      /** @description Not found, or not the key's to see */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  createEdit: {
    parameters: {
      query?: {
        /** @description Seconds to wait for the renders to end before answering (at most 30) */
        wait?: number;
      };
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["EditRequest"];
      };
    };
    responses: {
      /** @description Queued (or ended, when waited for) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Edit"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description The picture (an edit's is PNG) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "image/jpeg": Blob;
          "image/png": Blob;
          "image/webp": Blob;
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  listListingExports: {
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
      /** @description The exports */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ListingExportList"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  createListingExport: {
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
    requestBody?: {
      content: {
        "application/json": components["schemas"]["ListingExportRequest"];
      };
    };
    responses: {
      /** @description Made */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ListingExport"];
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
      /** @description Error */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  rerollRender: {
    parameters: {
      query?: {
        /** @description Seconds to wait for the renders to end before answering (at most 30) */
        wait?: number;
      };
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["RerollRequest"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  getUpscale: {
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
      /** @description The upscale's state */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Upscale"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  upscaleRender: {
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
      /** @description Made (or made before) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Upscale"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Error */
      503: {
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
        roomType?:
          "living-room" | "bedroom" | "kitchen" | "bathroom" | "dining-room" | "home-office" | "kids-room" | "outdoor-patio" | "exterior";
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  listWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoints */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookList"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  createWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["WebhookRequest"];
      };
    };
    responses: {
      /** @description Registered */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookCreated"];
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
      /** @description The render is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  getWebhook: {
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
      /** @description The endpoint */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Webhook"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  deleteWebhook: {
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
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  listWebhookDeliveries: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deliveries */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookDeliveryList"];
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
      /** @description Not found, or not the key's to see */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  redeliverWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409 */
        "Idempotency-Key"?: string;
      };
      path: {
        deliveryId: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Queued */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookDelivery"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  rotateWebhookSecret: {
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
      /** @description The endpoint with its new secret */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookCreated"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
  testWebhook: {
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
      /** @description Queued */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookDelivery"];
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
      /** @description Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds */
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
