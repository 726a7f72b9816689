/**
 * The delivery worker (decision 095): in-process, started by boot.ts where the app is served. Each
 * pass runs the fan-out, then sends what is due: per endpoint only its oldest pending delivery (in
 * order: the next waits while it is retried), claimed with a lease so that instances sharing a
 * PostgreSQL database never send one delivery at once; a stopped instance gives its claims back, a
 * crashed one's run out. A try is a POST to the address checked again just before (target.ts),
 * signed, with a 10 s limit and no redirect followed; a 2xx is success. A failed try waits
 * WEBHOOKS.backoffFirstMs, doubled each time (at most backoffMaxMs); a delivery still failing a day
 * after it was made has failed, and its endpoint, failing all that day, is turned off and its maker mailed.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { WEBHOOKS } from "../../shared/webhooks";
import { generateSecureRandomString } from "../auth/tokens";
import { DomainError } from "../errors";
import { webhookDisabledMail } from "../mail/templates";
import type { WebhooksContext } from "./context";
import { secretOf, type EndpointRow } from "./endpoints";
import { fanOut, type GapsSeen } from "./outbox";
import { signatureOf } from "./signing";
import { resolveTarget, type Target } from "./target";

/** How long a claim holds: longer than a try may take. */
export const LEASE_MS = 60_000;
const BATCH = 20;

export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  answer: string | null;
}

/** The wait after the n-th failed try (n from 1). */
export function backoffAfter(failures: number): number {
  return Math.min(WEBHOOKS.backoffMaxMs, WEBHOOKS.backoffFirstMs * 2 ** Math.max(0, failures - 1));
}

/** One POST to the checked address; the answer's status and first bytes. Never throws. */
function post(target: Target, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    // Connect to the address that was checked, not to whatever a second lookup would give.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all)
        (callback as unknown as (error: null, all: Array<{ address: string; family: number }>) => void)(null, [
          { address: target.address, family: target.family },
        ]);
      else callback(null, target.address, target.family);
    };
    const client = target.url.protocol === "https:" ? https : http;
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      target.url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup,
        agent: false,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const answer = Buffer.concat(chunks).subarray(0, WEBHOOKS.answerBytesKept).toString("utf8");
          const status = response.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          finish({ status, error: ok ? null : status !== null && status >= 300 && status < 400 ? "redirect not followed" : null, answer });
        };
        response.on("data", (chunk: Buffer) => {
          if (kept < WEBHOOKS.answerBytesKept) chunks.push(chunk);
          kept += chunk.length;
          if (kept >= WEBHOOKS.answerBytesKept) {
            done();
            response.destroy();
          }
        });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error("no answer within 10 s")), WEBHOOKS.timeoutMs);
    request.on("error", (error) => finish({ status: null, error: signal.aborted ? "stopped" : error.message.slice(0, 200), answer: null }));
    request.end(body);
  });
}

export function createDeliveryWorker(deps: WebhooksContext, options: { pollMs: number }) {
  const instance = generateSecureRandomString();
  const gaps: GapsSeen = new Map();
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | null = null;
  let again = false;

  async function tryOne(delivery: { id: string; payload: string; created_at: number; endpoint: EndpointRow }): Promise<void> {
    const started = deps.clock.now();
    const startedReal = performance.now();
    let outcome: AttemptOutcome;
    try {
      const target = await resolveTarget(delivery.endpoint.url, { allowLoopback: deps.allowLoopback, lookup: deps.lookup });
      const seconds = Math.floor(started / 1000);
      outcome = await post(
        target,
        {
          "content-type": "application/json",
          "user-agent": "RoomCanvas-Webhooks/1",
          "webhook-id": delivery.id,
          "webhook-timestamp": String(seconds),
          "webhook-signature": signatureOf(secretOf(deps, delivery.endpoint), delivery.id, seconds, delivery.payload),
        },
        delivery.payload,
        stopping.signal,
      );
    } catch (error) {
      outcome = { status: null, error: error instanceof DomainError ? error.message : String(error).slice(0, 200), answer: null };
    }
    if (stopping.signal.aborted && outcome.status === null) {
      // Stopped mid-try: the claim is given back, untried; the next instance sends it.
      await deps.db
        .updateTable("webhook_deliveries")
        .set({ lease_until: null, lease_owner: null })
        .where("id", "=", delivery.id)
        .where("lease_owner", "=", instance)
        .execute();
      return;
    }
    const now = deps.clock.now();
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    let disabled = false;
    await deps.db.transaction().execute(async (trx) => {
      // Its endpoint may have been deleted during the try: nothing left to record.
      if (!(await trx.selectFrom("webhook_deliveries").select("id").where("id", "=", delivery.id).executeTakeFirst())) return;
      await trx
        .insertInto("webhook_attempts")
        .values({
          delivery_id: delivery.id,
          at: started,
          status: outcome.status,
          error: outcome.error,
          answer: outcome.answer,
          duration_ms: Math.round(performance.now() - startedReal),
        })
        .execute();
      if (ok) {
        await trx
          .updateTable("webhook_deliveries")
          .set({ status: "succeeded", finished_at: now, lease_until: null, lease_owner: null })
          .where("id", "=", delivery.id)
          .execute();
        return;
      }
      if (now - delivery.created_at >= WEBHOOKS.retryForMs) {
        await trx
          .updateTable("webhook_deliveries")
          .set({ status: "failed", finished_at: now, lease_until: null, lease_owner: null })
          .where("id", "=", delivery.id)
          .execute();
        const off = await trx
          .updateTable("webhook_endpoints")
          .set({ disabled_at: now, disabled_reason: "failing" })
          .where("id", "=", delivery.endpoint.id)
          .where("disabled_at", "is", null)
          .executeTakeFirst();
        disabled = Number(off.numUpdatedRows) === 1;
        return;
      }
      const { count } = await trx
        .selectFrom("webhook_attempts")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("delivery_id", "=", delivery.id)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable("webhook_deliveries")
        .set({ next_attempt_at: now + backoffAfter(Number(count)), lease_until: null, lease_owner: null })
        .where("id", "=", delivery.id)
        .execute();
    });
    if (disabled) await mailDisabled(delivery.endpoint);
  }

  async function mailDisabled(endpoint: EndpointRow): Promise<void> {
    try {
      const person = (await deps.people.people([endpoint.user_id])).get(endpoint.user_id);
      if (!person) return;
      await deps.mailer.send(webhookDisabledMail(endpoint.language, person.email, endpoint.url, deps.brandName()));
    } catch (error) {
      deps.log.error("webhooks: the mail saying an endpoint was turned off was not sent", { error });
    }
  }

  /** Claims and tries the due deliveries, each endpoint's oldest pending one only. */
  async function sendDue(): Promise<void> {
    const now = deps.clock.now();
    const due = await deps.db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
      .select(["d.id", "d.payload", "d.created_at", "d.endpoint_id"])
      .where("d.status", "=", "pending")
      .where("e.disabled_at", "is", null)
      .where("d.next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<=", now)]))
      .where((eb) =>
        eb(
          "d.seq",
          "=",
          eb
            .selectFrom("webhook_deliveries as first")
            .select((inner) => inner.fn.min("first.seq").as("seq"))
            .whereRef("first.endpoint_id", "=", "d.endpoint_id")
            .where("first.status", "=", "pending"),
        ),
      )
      .orderBy("d.next_attempt_at")
      .limit(BATCH)
      .execute();
    const claimed: Array<{ id: string; payload: string; created_at: number; endpoint: EndpointRow }> = [];
    for (const row of due) {
      const claim = await deps.db
        .updateTable("webhook_deliveries")
        .set({ lease_until: now + LEASE_MS, lease_owner: instance })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue;
      const endpoint = await deps.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", row.endpoint_id).executeTakeFirst();
      if (endpoint) claimed.push({ id: row.id, payload: row.payload, created_at: Number(row.created_at), endpoint });
    }
    await Promise.all(claimed.map((delivery) => tryOne(delivery)));
  }

  async function runPass(): Promise<void> {
    do {
      again = false;
      try {
        while (!stopping.signal.aborted && (await fanOut(deps, gaps)));
        if (!stopping.signal.aborted) await sendDue();
      } catch (error) {
        deps.log.error("webhooks: a delivery pass failed", { error });
      }
    } while (again && !stopping.signal.aborted);
  }

  /** Runs a pass now (or right after the one running). */
  function kick(): void {
    if (stopping.signal.aborted) return;
    if (pass) {
      again = true;
      return;
    }
    pass = runPass().finally(() => {
      pass = null;
    });
  }

  return {
    start() {
      timer = setInterval(kick, options.pollMs);
      timer.unref();
      kick();
    },
    kick,
    /** Ends the pass running (tries in flight are cut and their claims given back). */
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await pass;
    },
  };
}
