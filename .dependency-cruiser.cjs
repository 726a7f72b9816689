/**
 * Module boundaries, checked by `npm run lint` (depcruise src scripts --config .dependency-cruiser.cjs).
 * tests/unit/boundaries.test.ts plants one violation per rule in a temporary tree and checks it is reported.
 * depcruise exits with the number of errors, which the shell truncates to 8 bits (256 errors exit 0), so the
 * lint script also requires the reporter's "no dependency violations found".
 *
 * Paths are relative to the directory depcruise runs in (the repository root). Packages are matched
 * wherever node_modules lives, `(^|/)node_modules/`: resolution follows symlinks, so a worktree whose
 * node_modules links elsewhere reports them as e.g. ../main/node_modules/kysely/...; an unresolvable
 * package is reported by its bare name, which the patterns also match.
 */

/** kysely: the query builder. Whoever imports it can run queries. */
const KYSELY = "(^|/)node_modules/kysely/|^kysely(/|$)";
/** @trpc/server and any of its subpaths (@trpc/server/observable, /adapters/express, ...). */
const TRPC_SERVER = "(^|/)node_modules/@trpc/server/|^@trpc/server(/|$)";
/**
 * Dependencies that exist only for the type checker and vanish from the emitted JavaScript:
 * `import type { X }`, `import { type X }` (every specifier a type), `export type { X } from`
 * ("type-only") and `import("./x").X` in a type position ("type-import").
 */
const TYPES_ONLY = ["type-only", "type-import"];

/** The render module's parts (src/server/render/<part>/), each behind its own index.ts, and what each holds. */
const RENDER_PARTS = {
  intake: "what comes in before a render: uploads, storage and upload budgets, visitors' demo work",
  jobs: "the life of a render: the queue and its charges, the worker, edits, upscales, cancel, retry, delete",
  live: "render events: stored with each change, then streamed to browsers (the fan-out)",
  engines: "the engines (Preview, ComfyUI, Replicate, OpenAI), their prompts and workflows, the structure check",
  figures: "measured figures: statistics, activity, example pairs, the queue's health",
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "No import cycles in src. Type-only imports count too: a cycle of types is still a cycle for a reader " +
        "(neither module can be understood without the other) and becomes a runtime cycle the day one import " +
        "gains a value. Break it by moving the shared part into a third module both import.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "shared-is-leaf",
      severity: "error",
      comment:
        "src/shared is code both the browser and the server run: it must depend on nothing of theirs (not even " +
        "types), or the client bundle and the shared code's meaning drag in the server. Move what it needs into " +
        "src/shared, or move the code that needs the server into src/server or src/selftest.",
      from: { path: "^src/shared/" },
      to: { path: "^src/(server|client|selftest)/" },
    },
    {
      name: "client-imports-server-types-only",
      severity: "error",
      comment:
        "The browser bundle must not contain server code: src/client may import src/server only with " +
        "`import type` (e.g. `import type { AppRouter } from '../server/trpc/root'`), which TypeScript erases. " +
        "Values both sides need belong in src/shared.",
      from: { path: "^src/client/" },
      to: { path: "^src/server/", dependencyTypesNot: TYPES_ONLY },
    },
    {
      name: "selftest-imports-server-types-only",
      severity: "error",
      comment:
        "The self-test suite drives a running studio from outside (CLI and admin page): it may use src/shared " +
        "and the server's types (`import type { AppRouter }`), never server code, which would make it test " +
        "itself instead of the deployed server.",
      from: { path: "^src/selftest/" },
      to: { path: "^src/server/", dependencyTypesNot: TYPES_ONLY },
    },
    {
      name: "selftest-not-client",
      severity: "error",
      comment:
        "The self-test suite runs in Node (CLI) as well as in the browser: it must not import src/client " +
        "(React, browser globals). What both need belongs in src/shared.",
      from: { path: "^src/selftest/" },
      to: { path: "^src/client/" },
    },
    {
      name: "edges-run-no-queries",
      severity: "error",
      comment:
        "tRPC routers (src/server/trpc/routers) and HTTP routes (src/server/http) translate requests into " +
        "service calls and service results into responses; they run no queries. So they import neither the " +
        "database module (src/server/db/**) nor kysely. This includes type-only imports of src/server/db/schema: " +
        "table row types are the storage format, not the API; routes get the views services return. " +
        "This sees imports only: a query written against ctx.db (the deps object) is not caught here.",
      from: { path: "^src/server/(trpc/routers|http)/" },
      to: { path: ["^src/server/db/", KYSELY] },
    },
    {
      name: "trpc-context-no-db",
      severity: "error",
      comment:
        "The tRPC context and init (src/server/trpc/context.ts, init.ts) are transport too: they hand services " +
        "to procedures and must not reach the database or kysely themselves (type-only imports included); " +
        "session lookup and the like are service calls.",
      from: { path: "^src/server/trpc/(context|init)\\.ts$" },
      to: { path: ["^src/server/db/", KYSELY] },
    },
    {
      name: "routers-throw-domain-errors",
      severity: "error",
      comment:
        "tRPC routers (src/server/trpc/routers) throw no TRPCError of their own: services, and a router's own guards " +
        "(no owner, no user), throw domain errors (src/server/errors.ts), which trpc/init.ts maps to tRPC once " +
        "(decisions 028 and 053). So a router imports @trpc/server only for types (`import type`); what it needs of " +
        "it at run time (e.g. tracked) comes from trpc/init.ts, the one file that makes TRPCErrors.",
      from: { path: "^src/server/trpc/routers/" },
      to: { path: TRPC_SERVER, dependencyTypesNot: TYPES_ONLY },
    },
    {
      name: "render-not-router",
      severity: "error",
      comment:
        "The render lifecycle (src/server/render) is called by the transport, not the other way round: it must " +
        "not import src/server/trpc (routers, context, init). Its own file routes may live in render/.",
      from: { path: "^src/server/render/" },
      to: { path: "^src/server/trpc/" },
    },
    {
      name: "services-not-transport",
      severity: "error",
      comment:
        "Services and the modules under them (services, render, auth, mail, images, storage) are independent " +
        "of the transport: they throw domain errors, which the tRPC layer maps to TRPCError. So no import of " +
        "@trpc/server or any of its subpaths, not even types.",
      from: { path: "^src/server/(services|render|auth|mail|images|storage)/" },
      to: { path: TRPC_SERVER },
    },
    {
      name: "render-imports-no-service",
      severity: "error",
      comment:
        "The render module reaches the capabilities it needs (credits, projects, accounts) through ports declared in " +
        "render/context.ts and handed in by boot.ts, never by importing src/server/services: services use render's " +
        "surface, so an import the other way would tie the two together in both directions.",
      from: { path: "^src/server/render/" },
      to: { path: "^src/server/services/" },
    },
    {
      name: "render-behind-its-index",
      severity: "error",
      comment:
        "The render module owns its internals (parts, worker, events, engines, ...): server code outside " +
        "src/server/render imports only its public surface, src/server/render/index.ts (tests and the benchmarks " +
        "in scripts/ may reach further in).",
      from: { path: "^src/server/(?!render/)" },
      to: { path: "^src/server/render/(?!index\\.ts$)" },
    },
    ...Object.entries(RENDER_PARTS).map(([part, holds]) => ({
      name: `render-${part}-behind-its-index`,
      severity: "error",
      comment:
        `src/server/render/${part}/ holds ${holds}. The rest of the render module imports only its surface, ` +
        `render/${part}/index.ts: export what another part needs from there (a newcomer then finds what a part ` +
        "offers in one file, and its insides can change without reaching into the others).",
      from: { path: `^src/server/render/(?!${part}/)` },
      to: { path: `^src/server/render/${part}/(?!index\\.ts$)` },
    })),
    {
      name: "render-engines-stand-alone",
      severity: "error",
      comment:
        "The engines (src/server/render/engines) are adapters to outside services and the offline Preview engine: " +
        "they know nothing of jobs, owners, credits or events, so they import nothing else of the render module. " +
        "The jobs part calls them with a request and stores what they answer.",
      from: { path: "^src/server/render/engines/" },
      to: { path: "^src/server/render/(?!engines/)" },
    },
    {
      name: "render-live-below-the-parts",
      severity: "error",
      comment:
        "Live events (src/server/render/live) sit below the other parts: jobs record and publish events, the fan-out " +
        "streams them; live imports no other part and nothing beside render/index.ts but owner.ts.",
      from: { path: "^src/server/render/live/" },
      to: { path: "^src/server/render/(?!live/|owner\\.ts$)" },
    },
    {
      name: "render-intake-below-jobs",
      severity: "error",
      comment:
        "Intake (uploads, budgets, visitors' work) comes before a job exists: jobs use intake (a render's photo, the " +
        "storage left), never the other way round. What both need of jobs' rows and files is in render/records.ts.",
      from: { path: "^src/server/render/intake/" },
      to: { path: "^src/server/render/(jobs|figures)/" },
    },
    {
      name: "render-shared-below-the-parts",
      severity: "error",
      comment:
        "The files beside render/index.ts that every part shares (context, owner, records, views, links, signals) " +
        "import no part (context.ts may name the live part's event bus, the one part below them) and none of the " +
        "files that compose the parts (index.ts, routes.ts, housekeeping.ts).",
      from: { path: "^src/server/render/(context|owner|records|views|links|signals)\\.ts$" },
      to: { path: "^src/server/render/((intake|jobs|engines|figures)/|(index|routes|housekeeping)\\.ts$)" },
    },
    {
      name: "listing-owned-by-listing",
      severity: "error",
      comment:
        "The listing module (src/server/listing) owns listing_exports and its files: server code outside it imports " +
        "only its surface, src/server/listing/index.ts (routers and the app call that).",
      from: { path: "^src/server/(?!listing/)" },
      to: { path: "^src/server/listing/(?!index\\.ts$)" },
    },
    {
      name: "listing-not-transport",
      severity: "error",
      comment:
        "The listing module is called by the transport, not the other way round: no src/server/trpc, no " +
        "src/server/http (identity is handed in), no @trpc/server. It throws domain errors; its own routes live in listing/.",
      from: { path: "^src/server/listing/" },
      to: { path: ["^src/server/(trpc|http)/", TRPC_SERVER] },
    },
    {
      name: "review-owned-by-review",
      severity: "error",
      comment:
        "The review module (src/server/review) owns review_links, review_comments and review_decisions (decision 073): " +
        "server code outside it imports only its surface, src/server/review/index.ts (routers and the app call that).",
      from: { path: "^src/server/(?!review/)" },
      to: { path: "^src/server/review/(?!index\\.ts$)" },
    },
    {
      name: "review-not-transport",
      severity: "error",
      comment:
        "The review module is called by the transport, not the other way round: no src/server/trpc, no src/server/http, " +
        "no @trpc/server, and no service (projects, people and the team log come in through ports). Its own routes live in review/.",
      from: { path: "^src/server/review/" },
      to: { path: ["^src/server/(trpc|http|services|spaces)/", TRPC_SERVER] },
    },
    {
      name: "spaces-owned-by-spaces",
      severity: "error",
      comment:
        "The spaces module (src/server/spaces) owns teams, members, invitations, the current space and the activity " +
        "log, and answers who may see what in a team (decision 070): server code outside it imports only its surface, " +
        "src/server/spaces/index.ts.",
      from: { path: "^src/server/(?!spaces/)" },
      to: { path: "^src/server/spaces/(?!index\\.ts$)" },
    },
    {
      name: "spaces-not-transport",
      severity: "error",
      comment:
        "The spaces module is called by the transport and by other capabilities through ports: no src/server/trpc, " +
        "no src/server/http, no @trpc/server, and no render module or service (they ask it, not the other way round).",
      from: { path: "^src/server/spaces/" },
      to: { path: ["^src/server/(trpc|http|render|services|listing)/", TRPC_SERVER] },
    },
    {
      name: "clients-owned-by-clients",
      severity: "error",
      comment:
        "The clients module (src/server/clients) owns clients and project_clients (decision 072): server code outside " +
        "it imports only its surface, src/server/clients/index.ts.",
      from: { path: "^src/server/(?!clients/)" },
      to: { path: "^src/server/clients/(?!index\\.ts$)" },
    },
    {
      name: "clients-not-transport",
      severity: "error",
      comment:
        "The clients module is called by the transport: no src/server/trpc, no src/server/http, no @trpc/server. It asks " +
        "the spaces module and the projects service through ports boot.ts hands in, and imports neither (nor render).",
      from: { path: "^src/server/clients/" },
      to: { path: ["^src/server/(trpc|http|render|services|listing|spaces)/", TRPC_SERVER] },
    },
    {
      name: "styles-behind-its-index",
      severity: "error",
      comment:
        "The styles module (src/server/styles) owns custom_styles and the reference pictures in it (decision 100): " +
        "server code outside it imports only its surface, src/server/styles/index.ts (routers, the reference " +
        "picture's route, boot.ts; the render module asks it through a port).",
      from: { path: "^src/server/(?!styles/)" },
      to: { path: "^src/server/styles/(?!index\\.ts$)" },
    },
    {
      name: "styles-not-transport",
      severity: "error",
      comment:
        "The styles module is called by the transport and, through a port, by the render module: no src/server/trpc, " +
        "no src/server/http, no @trpc/server, and none of the capabilities (render, api, services, spaces, listing, " +
        "review, clients, measures, webhooks): it asks the spaces module a caller's role through a port boot.ts hands in.",
      from: { path: "^src/server/styles/" },
      to: { path: ["^src/server/(trpc|http|render|api|services|spaces|listing|review|clients|measures|webhooks)/", TRPC_SERVER] },
    },
    {
      name: "community-behind-its-index",
      severity: "error",
      comment:
        "The community module (src/server/community) owns publications, their likes, saves, reports, follows and " +
        "publishing blocks, and the published copies (decision 102): server code outside it imports only its surface, " +
        "src/server/community/index.ts (routers, app.ts for its file route, boot.ts).",
      from: { path: "^src/server/(?!community/)" },
      to: { path: "^src/server/community/(?!index\\.ts$)" },
    },
    {
      name: "community-asks-through-ports",
      severity: "error",
      comment:
        "The community module is called by the transport and reaches renders, teams and people through the ports " +
        "boot.ts hands in (context.ts): no src/server/trpc, no src/server/http, no @trpc/server, and none of the " +
        "capabilities' files (render, api, services, spaces, listing, review, clients, measures, webhooks, styles).",
      from: { path: "^src/server/community/" },
      to: {
        path: ["^src/server/(trpc|http|render|api|services|spaces|listing|review|clients|measures|webhooks|styles)/", TRPC_SERVER],
      },
    },
    {
      name: "marketplace-behind-its-index",
      severity: "error",
      comment:
        "The marketplace module (src/server/marketplace) owns marketplace_listings, the listings' copies and " +
        "marketplace_installs (decision 104): server code outside it imports only its surface, " +
        "src/server/marketplace/index.ts (the router, the pictures' route, boot.ts).",
      from: { path: "^src/server/(?!marketplace/)" },
      to: { path: "^src/server/marketplace/(?!index\\.ts$)" },
    },
    {
      name: "marketplace-asks-through-ports",
      severity: "error",
      comment:
        "The marketplace module is called by the transport: no src/server/trpc, no src/server/http, no @trpc/server. " +
        "It asks the styles, render and spaces modules through ports boot.ts hands in, and imports none of them " +
        "(nor any other capability).",
      from: { path: "^src/server/marketplace/" },
      to: {
        path: ["^src/server/(trpc|http|render|api|services|spaces|styles|listing|review|clients|measures|webhooks)/", TRPC_SERVER],
      },
    },
    {
      name: "measures-owned-by-measures",
      severity: "error",
      comment:
        "The measures module (src/server/measures) owns measure_references and room_measures (decision 089): server code " +
        "outside it imports only its surface, src/server/measures/index.ts.",
      from: { path: "^src/server/(?!measures/)" },
      to: { path: "^src/server/measures/(?!index\\.ts$)" },
    },
    {
      name: "measures-not-transport",
      severity: "error",
      comment:
        "The measures module is called by the transport: no src/server/trpc, no src/server/http, no @trpc/server. It asks " +
        "the render module whether the caller may use a photo through a port boot.ts hands in (its Owner type only).",
      from: { path: "^src/server/measures/" },
      to: { path: ["^src/server/(trpc|http|services|listing|spaces|review|clients)/", TRPC_SERVER] },
    },
    {
      name: "api-behind-its-index",
      severity: "error",
      comment:
        "The api module (src/server/api) owns api_keys and /api/v1 (decision 094): server code outside it imports only its " +
        "surface, src/server/api/index.ts.",
      from: { path: "^src/server/(?!api/)" },
      to: { path: "^src/server/api/(?!index\\.ts$)" },
    },
    {
      name: "api-asks-through-ports",
      severity: "error",
      comment:
        "The api module reaches the other capabilities through the ports boot.ts hands in (context.ts), never their files: " +
        "no src/server/services, spaces, listing, review, clients, measures or trpc (the render module's Owner type only).",
      from: { path: "^src/server/api/" },
      to: { path: ["^src/server/(services|spaces|listing|review|clients|measures|trpc|webhooks)/", TRPC_SERVER] },
    },
    {
      name: "webhooks-behind-its-index",
      severity: "error",
      comment:
        "The webhooks module (src/server/webhooks) owns webhook_endpoints, webhook_deliveries, webhook_attempts and " +
        "webhook_cursor (decision 095): server code outside it imports only its surface, src/server/webhooks/index.ts.",
      from: { path: "^src/server/(?!webhooks/)" },
      to: { path: "^src/server/webhooks/(?!index\\.ts$)" },
    },
    {
      name: "webhooks-asks-through-ports",
      severity: "error",
      comment:
        "The webhooks module reaches render events, the API's shape of a render, the spaces' rights and people through " +
        "the ports boot.ts hands in (context.ts), never their files: no src/server/render, api, services, spaces, listing, " +
        "review, clients, measures, trpc or http. The render module must not import it either (it is told nothing: the " +
        "webhooks read its events after a cursor of their own).",
      from: { path: "^src/server/webhooks/" },
      to: { path: ["^src/server/(render|api|services|spaces|listing|review|clients|measures|trpc|http)/", TRPC_SERVER] },
    },
    {
      name: "render-not-webhooks",
      severity: "error",
      comment: "The render module knows nothing of webhooks (decision 095): they read its events through a port.",
      from: { path: "^src/server/render/" },
      to: { path: "^src/server/webhooks/" },
    },
    {
      name: "space-events-is-a-record",
      severity: "error",
      comment:
        "The space-events module (src/server/space-events) owns space_events (decision 098): the credits ledger and the " +
        "listing module append to it, the webhooks read it through a port. It knows nothing of who writes or reads: it " +
        "imports only the database's types.",
      from: { path: "^src/server/space-events/" },
      to: { path: "^src/server/(?!db/|space-events/)" },
    },
    {
      name: "backup-owned-by-backup",
      severity: "error",
      comment:
        "The backup module (src/server/backup) owns the backups table and the archive format: server code outside it " +
        "imports only its surface, src/server/backup/index.ts (the commands in scripts/ may use archive.ts).",
      from: { path: "^src/server/(?!backup/)" },
      to: { path: "^src/server/backup/(?!index\\.ts$)" },
    },
    {
      name: "backup-not-transport",
      severity: "error",
      comment: "The backup module is called by the admin service, the self-test checks and the commands: no tRPC, no HTTP.",
      from: { path: "^src/server/(backup|metrics)/" },
      to: { path: ["^src/server/(trpc|http)/", TRPC_SERVER] },
    },
    {
      name: "coordination-owned-by-coordination",
      severity: "error",
      comment:
        "The coordination module (src/server/coordination) owns scheduled_runs and rate_counts: what instances sharing one " +
        "database agree on through it, which instance runs a scheduled task and how many requests an address made " +
        "(decision 078). Server code outside it imports only its surface, src/server/coordination/index.ts.",
      from: { path: "^src/server/(?!coordination/)" },
      to: { path: "^src/server/coordination/(?!index\\.ts$)" },
    },
    {
      name: "coordination-is-a-leaf",
      severity: "error",
      comment:
        "The coordination module sits under every timer and limit that uses it (housekeeping, listing, backups, mail, " +
        "analytics, the edges' rate limits): it imports only the database, the clock and the logger, never a capability " +
        "or the transport, so that any of them can use it without a cycle.",
      from: { path: "^src/server/coordination/" },
      to: { path: ["^src/server/(?!coordination/|db/|clock\\.ts$|logger\\.ts$)", TRPC_SERVER] },
    },
    {
      name: "settings-not-transport",
      severity: "error",
      comment:
        "The settings module (src/server/settings: the operator's /admin → Studio settings and the studio_settings table) " +
        "is read by the transport and the capabilities, never the other way round: no tRPC, no HTTP.",
      from: { path: "^src/server/settings/" },
      to: { path: ["^src/server/(trpc|http)/", TRPC_SERVER] },
    },
    {
      name: "settings-below-capabilities",
      severity: "error",
      comment:
        "The settings module sits under the capabilities (render, services, backup, listing...): they read it through what " +
        "boot.ts hands them; it imports none of them (the render engine is checked through a function passed in).",
      from: { path: "^src/server/settings/" },
      to: { path: "^src/server/(render|services|backup|listing|housekeeping|metrics)/" },
    },
  ],
  options: {
    // Cruise the code, not the packages: record an import of a package, don't read the package.
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: "^tests/" },
    // Read TypeScript before compilation, so type-only imports are dependencies (marked "type-only").
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Resolve packages as Node does for ESM (the "import" condition first), and find .d.ts-only packages.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
