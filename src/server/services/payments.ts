/**
 * Credit purchases through Stripe Checkout (spec sections 7 and 9: purchase-credits, refunds within
 * 30 days). Buying creates a pending credit_purchases row and a Checkout Session; the credits are
 * granted only by the signed webhook saying the session was paid, once per session however often
 * and in whatever order Stripe delivers. Every event is recorded in stripe_events in the same
 * transaction as what it changes, so a redelivered event does nothing and a failed one changes
 * nothing (and Stripe retries it).
 *
 * Events handled:
 * - checkout.session.completed with payment_status "paid" (cards), and
 *   checkout.session.async_payment_succeeded (delayed methods: the completed event said "unpaid"):
 *   mark the purchase paid and grant its credits (ledger reference = the session id). When the
 *   amount or currency paid differs from the package's, nothing is granted: the payment is held
 *   for an admin (payment_holds), who credits it anyway or dismisses it (and refunds at Stripe).
 * - charge.refunded, when the charge is fully refunded (charge.refunded true; partial refunds only
 *   log): within CREDITS.refundWindowDays of payment, take the credits back (what is left of them)
 *   and mark the purchase refunded; later, mark it refunded and keep the credits. A held payment
 *   had no credits to take: it is marked refunded and its hold resolved.
 * - checkout.session.expired: a pending purchase becomes expired.
 * Every other event is acknowledged and ignored.
 *
 * Owns the tables credit_purchases, stripe_events, payment_holds and credit_packages (decision 054);
 * the credits themselves are the credits module's.
 */
import { forUpdate } from "../db/locking";
import { sql, type Selectable, type Transaction } from "kysely";
// Types only: the SDK is loaded when first used (it cost about 0.3 s of every start, decision 045).
import type Stripe from "stripe";
import { CREDITS, PRODUCT_NAME } from "../../shared/constants";
import type { CreditPackage } from "../../shared/billing";
import type { CreditPackageInput } from "../../shared/credit-packages";
import { DomainError, notFound } from "../errors";
import type { AppDatabase } from "../db/client";
import type { CreditPackagesTable, CreditPurchasesTable, Database, PaymentHoldResolution } from "../db/schema";
import type { Clock } from "../clock";
import type { Env } from "../env";
import type { Logger } from "../logger";
import { generateSecureRandomString } from "../auth/tokens";
import { grantCredits, grantTeamCredits, reversePurchaseCredits, reverseTeamPurchaseCredits } from "./credits";

const DAY_MS = 86_400_000;

export type CreditPurchase = Selectable<CreditPurchasesTable>;
type Db = Transaction<Database>;

/** What the refund rule compares against: a purchase paid longer ago keeps its credits. */
export const REFUND_WINDOW_MS = CREDITS.refundWindowDays * DAY_MS;

const clients = new Map<string, Stripe>();

/** The Stripe SDK pointed at STRIPE_API_URL (tests run a fake there), one per key and URL. */
export async function stripeClient(env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_API_URL">): Promise<Stripe> {
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new Error("STRIPE_SECRET_KEY is not set");
  const cacheKey = `${env.STRIPE_API_URL}\n${key}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const api = new URL(env.STRIPE_API_URL);
    const protocol = api.protocol === "http:" ? "http" : "https";
    const { default: StripeSdk } = await import("stripe");
    client = new StripeSdk(key, {
      host: api.hostname,
      port: api.port || (protocol === "http" ? 80 : 443),
      protocol,
      // POSTs are retried with an idempotency key, so a retry never creates a second session.
      maxNetworkRetries: 2,
      timeout: 20_000,
    });
    clients.set(cacheKey, client);
  }
  return client;
}

export interface PurchaseView {
  id: string;
  packageId: string;
  credits: number;
  amountCents: number;
  currency: string;
  status: CreditPurchase["status"];
  createdAt: number;
  paidAt: number | null;
  refundedAt: number | null;
}

export function purchaseView(row: CreditPurchase): PurchaseView {
  return {
    id: row.id,
    packageId: row.package_id,
    credits: row.credits,
    amountCents: row.amount_cents,
    currency: row.currency,
    status: row.status,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    refundedAt: row.refunded_at,
  };
}

/** The user's purchases, newest first. */
export async function listPurchases(db: AppDatabase, userId: string, limit = 100): Promise<PurchaseView[]> {
  const rows = await db
    .selectFrom("credit_purchases")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(purchaseView);
}

/** How many accounts have paid for credits (refunded purchases count): the admin's conversion figure. */
export async function countPurchasers(db: AppDatabase): Promise<number> {
  const purchasers = await db
    .selectFrom("credit_purchases")
    .select(sql<number>`count(DISTINCT user_id)`.as("n"))
    .where("status", "in", ["paid", "refunded"])
    .executeTakeFirstOrThrow();
  return Number(purchasers.n);
}

/** A package as /admin lists it: on sale or retired. */
export interface AdminCreditPackage extends CreditPackage {
  name: string | null;
  retiredAt: number | null;
  /** Paid purchases of it, all time. */
  sold: number;
}

const packageColumns = ["id", "name", "credits", "price_cents", "currency", "licence", "retired_at"] as const;
const toPackage = (
  row: Pick<Selectable<CreditPackagesTable>, "id" | "name" | "credits" | "price_cents" | "currency" | "licence">,
): CreditPackage => ({
  id: row.id,
  name: row.name,
  credits: row.credits,
  priceCents: row.price_cents,
  currency: row.currency,
  licence: row.licence,
});

/** The packages on sale, in their order. */
export async function packagesOnSale(db: AppDatabase): Promise<CreditPackage[]> {
  const rows = await db
    .selectFrom("credit_packages")
    .select(packageColumns)
    .where("retired_at", "is", null)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map(toPackage);
}

/** A package on sale by id (a retired one cannot be bought). */
async function packageOnSale(db: AppDatabase, id: string): Promise<CreditPackage | undefined> {
  const row = await db
    .selectFrom("credit_packages")
    .select(packageColumns)
    .where("id", "=", id)
    .where("retired_at", "is", null)
    .executeTakeFirst();
  return row ? toPackage(row) : undefined;
}

/** What payments ask of the spaces module: who may buy for a team, and the team's log. */
export interface PurchaseTeams {
  requireRight(userId: string, teamId: string, right: "manageCredits"): Promise<unknown>;
  record(teamId: string, actorId: string | null, action: "creditsBought", details: Record<string, string | number | null>): Promise<void>;
}

export interface CheckoutDeps {
  env: Env;
  db: AppDatabase;
  clock: Clock;
  /** The studio's name on Stripe's checkout page (/admin → Studio). */
  brandName?: () => string;
}

/**
 * Starts a purchase: a pending row, then a Checkout Session for it (the row's id travels in the
 * session's metadata), then the session id on the row. When Stripe refuses or cannot be reached,
 * the row is removed and the error thrown.
 */
export async function createCheckout(
  deps: CheckoutDeps,
  user: { id: string; email: string },
  pack: CreditPackage,
  baseUrl: string,
  teamId: string | null = null,
): Promise<{ url: string; purchaseId: string; sessionId: string }> {
  const stripe = await stripeClient(deps.env);
  const purchaseId = generateSecureRandomString();
  await deps.db
    .insertInto("credit_purchases")
    .values({
      id: purchaseId,
      user_id: user.id,
      team_id: teamId,
      package_id: pack.id,
      credits: pack.credits,
      amount_cents: pack.priceCents,
      currency: pack.currency,
      checkout_session_id: null,
      payment_intent_id: null,
      status: "pending",
      created_at: deps.clock.now(),
      paid_at: null,
      refunded_at: null,
    })
    .execute();
  const metadata = { userId: user.id, packageId: pack.id, purchaseId };
  const base = baseUrl.replace(/\/+$/, "");
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [
          {
            price_data: {
              currency: pack.currency,
              unit_amount: pack.priceCents,
              product_data: { name: `${pack.credits} ${deps.brandName?.() ?? PRODUCT_NAME} credits (${pack.id})` },
            },
            quantity: 1,
          },
        ],
        client_reference_id: user.id,
        customer_email: user.email,
        metadata,
        payment_intent_data: { metadata },
        success_url: `${base}/dashboard?purchase=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/pricing?purchase=canceled`,
      },
      { idempotencyKey: `checkout-${purchaseId}` },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  } catch (error) {
    await deps.db.deleteFrom("credit_purchases").where("id", "=", purchaseId).execute();
    throw error;
  }
  await deps.db.updateTable("credit_purchases").set({ checkout_session_id: session.id }).where("id", "=", purchaseId).execute();
  return { url: session.url, purchaseId, sessionId: session.id };
}

export interface WebhookDeps {
  db: AppDatabase;
  clock: Clock;
  log: Logger;
  /** The team's log, written once the event's transaction has committed. */
  teams?: Pick<PurchaseTeams, "record">;
}

/** handled: this delivery changed something; duplicate: the event was handled before; ignored: nothing to do. */
export type StripeEventOutcome = "handled" | "duplicate" | "ignored";

const HANDLED_EVENTS = new Set<string>([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.expired",
  "charge.refunded",
]);

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** The session's purchase, locked until the transaction ends: two events for one session are applied one after the other. */
async function findSessionPurchase(trx: Db, session: Stripe.Checkout.Session): Promise<CreditPurchase | undefined> {
  const bySession = await forUpdate(
    trx,
    trx.selectFrom("credit_purchases").selectAll().where("checkout_session_id", "=", session.id),
  ).executeTakeFirst();
  if (bySession) return bySession;
  // The session was created but its id never reached the row (crash in between): its metadata names the row.
  const purchaseId = session.metadata?.purchaseId;
  if (!purchaseId) return undefined;
  return forUpdate(
    trx,
    trx.selectFrom("credit_purchases").selectAll().where("id", "=", purchaseId).where("checkout_session_id", "is", null),
  ).executeTakeFirst();
}

/**
 * Applies one verified Stripe event, exactly once per event id, in one transaction with the
 * stripe_events row: redeliveries and concurrent deliveries of the same event do nothing.
 * Throws on a database failure (the caller answers 500 so Stripe retries; nothing was written).
 */
export async function handleStripeEvent(deps: WebhookDeps, event: Stripe.Event): Promise<StripeEventOutcome> {
  if (!HANDLED_EVENTS.has(event.type)) return "ignored";
  // Signed but without the object it should carry: nothing here can use it, and Stripe retries
  // every non-2xx answer for days, so it is acknowledged (and said in the log) instead of failing.
  const object: unknown = (event.data as { object?: unknown } | undefined)?.object;
  if (typeof object !== "object" || object === null || typeof (object as { id?: unknown }).id !== "string") {
    deps.log.warn("stripe: signed event without a usable object, acknowledged and ignored", { event: event.id, type: event.type });
    return "ignored";
  }
  const now = deps.clock.now();
  // What must follow the commit (a team's log entry): other handles wait while the transaction holds the database.
  const afterCommit: Array<() => Promise<void>> = [];
  const outcome = await deps.db.transaction().execute(async (trx) => {
    // A write first, so this transaction holds SQLite's write lock before it reads anything.
    const recorded = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type, processed_at: now })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) !== 1) return "duplicate";

    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
        return completePurchase(deps, trx, event.data.object, event.id, now, afterCommit);
      case "checkout.session.expired":
        return expirePurchase(trx, event.data.object);
      case "charge.refunded":
        return refundPurchase(deps, trx, event.data.object, event.id, now);
      default:
        return "ignored";
    }
  });
  for (const step of afterCommit) await step().catch((error: unknown) => deps.log.warn("stripe: a team's log entry failed", { error }));
  return outcome;
}

/** Credits a paid purchase: to its team when it was bought for one (decision 070), else to the buyer. */
async function grantPurchase(
  trx: Db,
  purchase: Pick<CreditPurchase, "user_id" | "team_id" | "credits">,
  now: number,
  details: { reference: string | null; reason: string },
): Promise<void> {
  const reference = details.reference ?? undefined;
  if (purchase.team_id !== null) {
    await grantTeamCredits(trx, purchase.team_id, purchase.user_id, purchase.credits, "purchase", now, {
      reference,
      reason: details.reason,
    });
  } else {
    await grantCredits(trx, purchase.user_id, purchase.credits, "purchase", now, { reference, reason: details.reason });
  }
}

async function completePurchase(
  deps: WebhookDeps,
  trx: Db,
  session: Stripe.Checkout.Session,
  eventId: string,
  now: number,
  afterCommit: Array<() => Promise<void>>,
): Promise<StripeEventOutcome> {
  if (session.payment_status !== "paid") {
    // Delayed payment methods: checkout.session.async_payment_succeeded follows when the money arrives.
    deps.log.info("stripe: checkout completed, payment not yet received", { session: session.id, paymentStatus: session.payment_status });
    return "ignored";
  }
  const purchase = await findSessionPurchase(trx, session);
  if (!purchase) {
    deps.log.warn("stripe: paid checkout session matches no purchase of this app", { session: session.id, event: eventId });
    return "ignored";
  }
  if (purchase.status === "paid" || purchase.status === "refunded") return "duplicate";
  // Once held, a purchase is credited only by an admin, whichever event for its session comes next.
  const held = await trx.selectFrom("payment_holds").select("purchase_id").where("purchase_id", "=", purchase.id).executeTakeFirst();
  if (held) return "duplicate";
  const paidCurrency = session.currency?.toLowerCase() ?? null;
  if (session.amount_total !== purchase.amount_cents || paidCurrency !== purchase.currency) {
    return holdPurchase(deps, trx, purchase, session, eventId, now);
  }
  await trx
    .updateTable("credit_purchases")
    .set({ status: "paid", paid_at: now, payment_intent_id: idOf(session.payment_intent), checkout_session_id: session.id })
    .where("id", "=", purchase.id)
    .execute();
  await grantPurchase(trx, purchase, now, { reference: session.id, reason: `${purchase.credits} credits (${purchase.package_id})` });
  const teamId = purchase.team_id;
  if (teamId !== null && deps.teams) {
    const teams = deps.teams;
    afterCommit.push(() => teams.record(teamId, purchase.user_id, "creditsBought", { credits: purchase.credits }));
  }
  deps.log.info("stripe: credits purchased", { purchase: purchase.id, user: purchase.user_id, team: teamId, credits: purchase.credits });
  return "handled";
}

/**
 * Holds a paid session whose amount or currency is not its package's: no credits, a payment_holds
 * row for the admin. The session and payment intent go on the purchase so a later charge.refunded
 * finds it. The caller's transaction holds the write lock, so two events cannot both hold it.
 */
async function holdPurchase(
  deps: WebhookDeps,
  trx: Db,
  purchase: CreditPurchase,
  session: Stripe.Checkout.Session,
  eventId: string,
  now: number,
): Promise<StripeEventOutcome> {
  const paymentIntentId = idOf(session.payment_intent);
  await trx
    .updateTable("credit_purchases")
    .set({ checkout_session_id: session.id, payment_intent_id: paymentIntentId })
    .where("id", "=", purchase.id)
    .execute();
  await trx
    .insertInto("payment_holds")
    .values({
      purchase_id: purchase.id,
      checkout_session_id: session.id,
      payment_intent_id: paymentIntentId,
      paid_amount_cents: session.amount_total,
      paid_currency: session.currency?.toLowerCase() ?? null,
      created_at: now,
      resolved_at: null,
      resolution: null,
      resolved_by: null,
    })
    .onConflict((conflict) => conflict.column("purchase_id").doNothing())
    .execute();
  deps.log.warn("stripe: paid amount or currency differs from the package price; held for an admin, no credits granted", {
    purchase: purchase.id,
    user: purchase.user_id,
    event: eventId,
    paid: session.amount_total,
    paidCurrency: session.currency,
    price: purchase.amount_cents,
    currency: purchase.currency,
  });
  return "handled";
}

async function expirePurchase(trx: Db, session: Stripe.Checkout.Session): Promise<StripeEventOutcome> {
  const expired = await trx
    .updateTable("credit_purchases")
    .set({ status: "expired" })
    .where("checkout_session_id", "=", session.id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(expired.numUpdatedRows) > 0 ? "handled" : "ignored";
}

async function refundPurchase(
  deps: WebhookDeps,
  trx: Db,
  charge: Stripe.Charge,
  eventId: string,
  now: number,
): Promise<StripeEventOutcome> {
  const paymentIntentId = idOf(charge.payment_intent);
  const purchase = paymentIntentId
    ? await forUpdate(
        trx,
        trx.selectFrom("credit_purchases").selectAll().where("payment_intent_id", "=", paymentIntentId),
      ).executeTakeFirst()
    : undefined;
  if (!purchase) {
    deps.log.info("stripe: refunded charge matches no purchase of this app", { charge: charge.id, event: eventId });
    return "ignored";
  }
  if (!charge.refunded) {
    deps.log.warn("stripe: partial refund, credits kept (adjust them by hand if needed)", {
      purchase: purchase.id,
      refunded: charge.amount_refunded,
      amount: charge.amount,
    });
    return "ignored";
  }
  if (purchase.status === "refunded") return "duplicate";
  if (purchase.status !== "paid") return refundHeldPurchase(deps, trx, purchase, now);
  const withinWindow = purchase.paid_at !== null && now - purchase.paid_at <= REFUND_WINDOW_MS;
  let taken = 0;
  if (withinWindow) {
    const details = {
      reference: `${purchase.checkout_session_id ?? purchase.id}:refund`,
      reason: `refund of ${purchase.credits} credits (${purchase.package_id})`,
    };
    taken =
      purchase.team_id !== null
        ? await reverseTeamPurchaseCredits(trx, purchase.team_id, purchase.user_id, purchase.credits, now, details)
        : await reversePurchaseCredits(trx, purchase.user_id, purchase.credits, now, details);
  } else {
    deps.log.warn(`stripe: refund more than ${CREDITS.refundWindowDays} days after payment, credits kept`, {
      purchase: purchase.id,
      paidAt: purchase.paid_at,
    });
  }
  await trx.updateTable("credit_purchases").set({ status: "refunded", refunded_at: now }).where("id", "=", purchase.id).execute();
  deps.log.info("stripe: purchase refunded", { purchase: purchase.id, user: purchase.user_id, credits: purchase.credits, taken });
  return "handled";
}

/** A held payment refunded at Stripe: no credits were granted, so none are taken; an open hold ends as refunded. */
async function refundHeldPurchase(deps: WebhookDeps, trx: Db, purchase: CreditPurchase, now: number): Promise<StripeEventOutcome> {
  const hold = await trx.selectFrom("payment_holds").select("resolution").where("purchase_id", "=", purchase.id).executeTakeFirst();
  if (!hold) return "ignored";
  await trx
    .updateTable("payment_holds")
    .set({ resolved_at: now, resolution: "refunded" })
    .where("purchase_id", "=", purchase.id)
    .where("resolved_at", "is", null)
    .execute();
  await trx.updateTable("credit_purchases").set({ status: "refunded", refunded_at: now }).where("id", "=", purchase.id).execute();
  deps.log.info("stripe: held payment refunded, no credits to take back", { purchase: purchase.id, hold: hold.resolution ?? "open" });
  return "handled";
}

/** A held payment as the admin sees it: the package's price next to what Stripe says was paid. */
export interface PaymentHoldView {
  purchaseId: string;
  userId: string;
  packageId: string;
  credits: number;
  priceCents: number;
  currency: string;
  paidCents: number | null;
  paidCurrency: string | null;
  checkoutSessionId: string;
  paymentIntentId: string | null;
  heldAt: number;
  resolvedAt: number | null;
  resolution: PaymentHoldResolution | null;
}

function holdsQuery(db: AppDatabase | Db) {
  return db
    .selectFrom("payment_holds")
    .innerJoin("credit_purchases", "credit_purchases.id", "payment_holds.purchase_id")
    .select([
      "payment_holds.purchase_id as purchaseId",
      "credit_purchases.user_id as userId",
      "credit_purchases.package_id as packageId",
      "credit_purchases.credits as credits",
      "credit_purchases.amount_cents as priceCents",
      "credit_purchases.currency as currency",
      "payment_holds.paid_amount_cents as paidCents",
      "payment_holds.paid_currency as paidCurrency",
      "payment_holds.checkout_session_id as checkoutSessionId",
      "payment_holds.payment_intent_id as paymentIntentId",
      "payment_holds.created_at as heldAt",
      "payment_holds.resolved_at as resolvedAt",
      "payment_holds.resolution as resolution",
    ]);
}

/** The holds no one has resolved yet, oldest first. */
export function openPaymentHolds(db: AppDatabase): Promise<PaymentHoldView[]> {
  return holdsQuery(db).where("payment_holds.resolved_at", "is", null).orderBy("payment_holds.created_at").orderBy("purchaseId").execute();
}

/**
 * Resolves an open hold as the admin decided, in one transaction. The conditional update of the
 * hold comes first: it takes SQLite's write lock, and only one call finds the hold open, so a
 * second "credit" (a double click, two admins) is refused rather than granting twice.
 * "credited" marks the purchase paid and grants its credits (ledger reference = the session id,
 * unique per kind, as for an automatic grant); "dismissed" leaves the purchase unpaid.
 */
export async function resolvePaymentHold(
  deps: { db: AppDatabase; clock: Clock },
  purchaseId: string,
  resolution: "credited" | "dismissed",
  adminId: string,
): Promise<PaymentHoldView> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const resolved = await trx
      .updateTable("payment_holds")
      .set({ resolved_at: now, resolution, resolved_by: adminId })
      .where("purchase_id", "=", purchaseId)
      .where("resolved_at", "is", null)
      .executeTakeFirst();
    const hold = await holdsQuery(trx).where("payment_holds.purchase_id", "=", purchaseId).executeTakeFirst();
    if (!hold) throw notFound();
    if (Number(resolved.numUpdatedRows) !== 1) throw new DomainError("conflict", "paymentHoldResolved");
    if (resolution === "credited") {
      const paid = await trx
        .updateTable("credit_purchases")
        .set({ status: "paid", paid_at: now })
        .where("id", "=", purchaseId)
        .where("status", "in", ["pending", "expired"])
        .executeTakeFirst();
      if (Number(paid.numUpdatedRows) !== 1) throw new DomainError("conflict", "paymentHoldResolved");
      const bought = await trx.selectFrom("credit_purchases").select("team_id").where("id", "=", purchaseId).executeTakeFirstOrThrow();
      await grantPurchase(trx, { user_id: hold.userId, team_id: bought.team_id, credits: hold.credits }, now, {
        reference: hold.checkoutSessionId,
        reason: `${hold.credits} credits (${hold.packageId}), held payment credited by an admin`,
      });
    }
    return { ...hold, resolvedAt: now, resolution };
  });
}

/** "Most popular" needs this many sales of a package in the last 90 days, and more than any other. */
const POPULAR_MIN_SALES = 5;
const POPULAR_WINDOW_MS = 90 * 86_400_000;

export function createPaymentsService(deps: CheckoutDeps & WebhookDeps & { teams?: PurchaseTeams }) {
  return {
    /**
     * The credit packages on sale, whether buying works on this installation, and which package is
     * the most popular: only when sales say so (the most bought of the last 90 days, with at least
     * POPULAR_MIN_SALES sales and more than any other), never by decree.
     */
    async packages() {
      const sales = await deps.db
        .selectFrom("credit_purchases")
        .select((eb) => ["package_id", eb.fn.countAll<number>().as("sold")])
        .where("status", "=", "paid")
        .where("paid_at", ">=", deps.clock.now() - POPULAR_WINDOW_MS)
        .groupBy("package_id")
        .orderBy("sold", "desc")
        .limit(2)
        .execute();
      const [first, second] = sales.map((row) => ({ id: row.package_id, sold: Number(row.sold) }));
      const packages = await packagesOnSale(deps.db);
      const popularId =
        first && first.sold >= POPULAR_MIN_SALES && (!second || first.sold > second.sold) && packages.some((pack) => pack.id === first.id)
          ? first.id
          : null;
      return {
        popularId,
        packages,
        purchasesEnabled: Boolean(deps.env.STRIPE_SECRET_KEY),
        refundWindowDays: CREDITS.refundWindowDays,
      };
    },

    /**
     * purchase-credits: a Stripe Checkout URL for the package; the credits come with the webhook.
     * Checked in the spec's order: a user, then the Stripe key, then the package.
     */
    async purchaseCredits(
      user: { id: string; email: string } | null,
      packageId: string | undefined,
      baseUrl: string,
      teamId: string | null = null,
    ): Promise<{ url: string }> {
      if (!user) throw new DomainError("unauthenticated", "notAuthenticated");
      // In a team's space the credits go to the team: only its Owner and Admins buy them (decision 070).
      if (teamId !== null) {
        if (!deps.teams) throw notFound();
        await deps.teams.requireRight(user.id, teamId, "manageCredits").catch((error: unknown) => {
          throw error instanceof DomainError && error.kind === "forbidden" ? new DomainError("forbidden", "teamPurchaseNotAllowed") : error;
        });
      }
      if (!deps.env.STRIPE_SECRET_KEY) throw new DomainError("not-configured", "stripeNotConfigured");
      const id = packageId?.trim();
      if (!id) throw new DomainError("invalid", "missingRequiredFields");
      const pack = await packageOnSale(deps.db, id);
      if (!pack) throw new DomainError("invalid", "unknownCreditPackage");
      try {
        const checkout = await createCheckout(deps, user, pack, baseUrl, teamId);
        return { url: checkout.url };
      } catch (error) {
        // An unexpected failure: logged with its cause, shown as the generic internal error.
        throw new Error("Stripe checkout session could not be created", { cause: error });
      }
    },

    purchases: (userId: string) => listPurchases(deps.db, userId),

    /** Every package, retired ones too, with how often each sold (/admin → Credits). */
    async allPackages(): Promise<AdminCreditPackage[]> {
      const rows = await deps.db
        .selectFrom("credit_packages")
        .leftJoin("credit_purchases", (join) =>
          join.onRef("credit_purchases.package_id", "=", "credit_packages.id").on("credit_purchases.status", "in", ["paid", "refunded"]),
        )
        .select(packageColumns.map((column) => `credit_packages.${column}` as const))
        .select((eb) => eb.fn.count<number>("credit_purchases.id").as("sold"))
        .groupBy("credit_packages.id")
        .orderBy("credit_packages.retired_at")
        .orderBy("credit_packages.position")
        .orderBy("credit_packages.id")
        .execute();
      return rows.map((row) => ({ ...toPackage(row), name: row.name, retiredAt: row.retired_at, sold: Number(row.sold) }));
    },

    /** A new package, after the others. The admin service audits it. */
    async createPackage(input: CreditPackageInput): Promise<CreditPackage> {
      const now = deps.clock.now();
      const last = await deps.db
        .selectFrom("credit_packages")
        .select((eb) => eb.fn.max("position").as("position"))
        .executeTakeFirst();
      const id = `pack-${generateSecureRandomString().slice(0, 10).toLowerCase()}`;
      await deps.db
        .insertInto("credit_packages")
        .values({
          id,
          name: input.name,
          credits: input.credits,
          price_cents: input.priceCents,
          currency: input.currency,
          licence: input.licence,
          position: Number(last?.position ?? 0) + 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return {
        id,
        name: input.name,
        credits: input.credits,
        priceCents: input.priceCents,
        currency: input.currency,
        licence: input.licence,
      };
    },

    /**
     * Changes a package for the purchases to come; what was bought keeps its credits and price
     * (credit_purchases). Returns the package before and after, for the audit.
     */
    async updatePackage(id: string, input: CreditPackageInput): Promise<{ before: CreditPackage; after: CreditPackage }> {
      const row = await deps.db.selectFrom("credit_packages").select(packageColumns).where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound();
      await deps.db
        .updateTable("credit_packages")
        .set({
          name: input.name,
          credits: input.credits,
          price_cents: input.priceCents,
          currency: input.currency,
          licence: input.licence,
          updated_at: deps.clock.now(),
        })
        .where("id", "=", id)
        .execute();
      return { before: toPackage(row), after: { id, ...input } };
    },

    /** Takes a package off sale (or puts it back). Returns false when it already was. */
    async setPackageRetired(id: string, retired: boolean): Promise<boolean> {
      const row = await deps.db.selectFrom("credit_packages").select("retired_at").where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound();
      if ((row.retired_at !== null) === retired) return false;
      await deps.db
        .updateTable("credit_packages")
        .set({ retired_at: retired ? deps.clock.now() : null, updated_at: deps.clock.now() })
        .where("id", "=", id)
        .execute();
      return true;
    },
    handleEvent: (event: Stripe.Event) => handleStripeEvent(deps, event),

    /** Paid sessions held for an admin (amount or currency not the package's). The admin service audits the decisions. */
    openHolds: () => openPaymentHolds(deps.db),
    /** Grants the held purchase's credits, once; refused (conflict) when the hold is already resolved. */
    creditHold: (purchaseId: string, adminId: string) => resolvePaymentHold(deps, purchaseId, "credited", adminId),
    /** Ends the hold without credits; the purchase stays unpaid (the admin refunds at Stripe). */
    dismissHold: (purchaseId: string, adminId: string) => resolvePaymentHold(deps, purchaseId, "dismissed", adminId),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
