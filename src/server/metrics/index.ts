/**
 * Prometheus metrics (issue 16, decision 048), served at GET /metrics to a scraper holding
 * METRICS_TOKEN. One registry per app (tests run several in one process). What happens is counted
 * as it happens (HTTP answers from the edge; render outcomes, durations, structure scores and
 * credits from the render events); what is a state (queue depth, open event streams, the last
 * backup) is read when scraped. Counters start at zero with the process, as Prometheus expects.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { BackupModule } from "../backup";
import type { Logger } from "../logger";
import type { RenderModule } from "../render";

type RenderSide = Pick<RenderModule, "observeWrittenEvents" | "queueCounts" | "jobFacts" | "eventListenerCount">;

export interface MetricsDeps {
  render: RenderSide;
  backups: Pick<BackupModule, "status">;
  log: Logger;
}

const PREFIX = "roomcanvas_";

export function createMetrics(deps: MetricsDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: "HTTP requests answered, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time to answer an HTTP request (to the last byte handed to the socket), by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const renderJobs = new Counter({
    name: `${PREFIX}render_jobs_total`,
    help: "Render jobs that ended, by engine, kind (render or edit), input mode and outcome (succeeded, failed, canceled).",
    labelNames: ["engine", "kind", "mode", "outcome"] as const,
    registers: [registry],
  });
  const renderDuration = new Histogram({
    name: `${PREFIX}render_duration_seconds`,
    help: "Time from a render's start to its result, for renders that succeeded, by engine and kind.",
    labelNames: ["engine", "kind"] as const,
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers: [registry],
  });
  const structureScore = new Histogram({
    name: `${PREFIX}structure_score`,
    help: "Structure check scores of finished renders (0 to 1: how much of the room's lines a render kept).",
    buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
    registers: [registry],
  });
  const creditsCharged = new Counter({
    name: `${PREFIX}credits_charged_total`,
    help: "Credits taken for renders and edits when they were queued.",
    registers: [registry],
  });
  const creditsRefunded = new Counter({
    name: `${PREFIX}credits_refunded_total`,
    help: "Credits given back for renders and edits that failed or were canceled.",
    registers: [registry],
  });
  new Gauge({
    name: `${PREFIX}render_queue_depth`,
    help: "Render jobs waiting (queued) and being worked on (running).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const counts = await deps.render.queueCounts();
      this.set({ state: "queued" }, counts.queued);
      this.set({ state: "running" }, counts.running);
    },
  });
  new Gauge({
    name: `${PREFIX}event_streams_open`,
    help: "Live render-event streams open (browser tabs watching renders).",
    registers: [registry],
    collect() {
      this.set(deps.render.eventListenerCount);
    },
  });
  new Gauge({
    name: `${PREFIX}last_backup_timestamp_seconds`,
    help: "When the last successful backup started (Unix seconds; 0 when there is none).",
    registers: [registry],
    async collect() {
      const status = await deps.backups.status();
      this.set(status.lastSuccess ? status.lastSuccess.startedAt / 1000 : 0);
    },
  });

  // Outcomes come with the render events; the job's engine, kind, mode and credits from its row.
  // The events this instance wrote: with several instances, each counts its own (decision 082).
  deps.render.observeWrittenEvents((events) => {
    const ended = events.filter(
      (stored) =>
        stored.event.type === "succeeded" ||
        stored.event.type === "failed" ||
        stored.event.type === "canceled" ||
        (stored.event.type === "queued" && !stored.event.resumed),
    );
    for (const stored of events) if (stored.event.type === "scored") structureScore.observe(stored.event.structureScore);
    if (ended.length === 0) return;
    deps.render.jobFacts([...new Set(ended.map((stored) => stored.event.jobId))]).then(
      (rows) => {
        const facts = new Map(rows.map((row) => [row.id, row]));
        for (const { event } of ended) {
          const job = facts.get(event.jobId);
          if (!job) continue;
          if (event.type === "queued") {
            creditsCharged.inc(job.credits_charged);
            continue;
          }
          renderJobs.inc({ engine: job.provider, kind: job.kind, mode: job.mode, outcome: event.type });
          if (event.type === "succeeded") renderDuration.observe({ engine: job.provider, kind: job.kind }, event.elapsedMs / 1000);
          else if ((event.type === "failed" || event.type === "canceled") && event.refunded) creditsRefunded.inc(job.credits_charged);
        }
      },
      (error: unknown) => deps.log.warn("metrics: could not read finished renders", { error }),
    );
  });

  return {
    contentType: registry.contentType,
    /** The exposition text for a scrape. */
    text: () => registry.metrics(),
    /** One answered HTTP request (the edge calls it with a route label of bounded cardinality). */
    recordHttp(method: string, route: string, status: number, seconds: number): void {
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
