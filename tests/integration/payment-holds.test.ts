/**
 * Issue 14, item 12, over real HTTP on a real SQLite file against the fake Stripe: a paid Checkout
 * Session whose amount or currency is not its package's grants nothing and is held for the admin;
 * redeliveries and other events for the session never credit it nor hold it twice; the admin
 * credits it anyway (exactly once, even when asked twice at once) or dismisses it, each audited;
 * a refund at Stripe resolves the hold; only admins see or touch holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import type { AppDatabase } from "../../src/server/db/client";
import type { Logger } from "../../src/server/logger";
import { ledgerBalance } from "../../src/server/services/credits";
import { failure } from "../helpers/failure";
import {
  postStripeWebhook,
  refundedCharge,
  startFakeStripe,
  stripeEvent,
  type FakeCheckoutSession,
  type FakeStripe,
} from "../helpers/fake-stripe";
import { createStudioClient, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { MINUTE, TestClock } from "../helpers/test-clock";

const WEBHOOK_SECRET = "whsec_test";
const SECRET_KEY = "sk_test_x";

type Buyer = Awaited<ReturnType<typeof signedInClient>>;

describe("payments held for the admin", () => {
  let fake: FakeStripe;
  let server: TestServer;
  let db: AppDatabase;
  let admin: Buyer;
  const clock = new TestClock();
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, warn: (message) => void warnings.push(message), error() {} };

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: SECRET_KEY });
    server = await startTestServer(
      {
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: fake.url,
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      },
      { clock, log },
    );
    db = server.deps.db;
    admin = await signedInClient(server.url);
    await db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const balance = async (userId: string) =>
    (await db.selectFrom("profiles").select("credits_remaining").where("user_id", "=", userId).executeTakeFirstOrThrow()).credits_remaining;
  const purchaseRow = async (userId: string) =>
    db.selectFrom("credit_purchases").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
  const holdRows = (purchaseId: string) => db.selectFrom("payment_holds").selectAll().where("purchase_id", "=", purchaseId).execute();
  const purchaseLedger = (userId: string) =>
    db
      .selectFrom("credit_ledger")
      .select(["amount", "reference"])
      .where("user_id", "=", userId)
      .where("kind", "=", "purchase")
      .orderBy("created_at")
      .execute();
  const audits = (action: string, userId: string) =>
    db.selectFrom("admin_audit").selectAll().where("action", "=", action).where("target_user_id", "=", userId).execute();

  // The server checks the signature's age against its own clock, as Stripe signs at send time.
  const deliver = (type: string, object: object, id?: string) =>
    postStripeWebhook(server.url, JSON.stringify(stripeEvent(type, object, { id })), {
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(clock.now() / 1000),
    });

  /** A new user buys the starter package (25 credits, $9.00) and pays: the session as Stripe reports it, changed by `paid`. */
  async function paidSession(paid: Partial<FakeCheckoutSession> = {}): Promise<{ buyer: Buyer; session: FakeCheckoutSession }> {
    const buyer = await signedInClient(server.url);
    const { url } = await buyer.client.billing.purchaseCredits.mutate({ creditPackage: "starter" });
    return { buyer, session: { ...fake.pay(url.split("/").at(-1)!), ...paid } };
  }

  /** A purchase paid with the wrong amount, delivered and held. */
  async function heldPurchase() {
    const { buyer, session } = await paidSession({ amount_total: 100, amount_subtotal: 100 });
    expect((await deliver("checkout.session.completed", session)).body).toMatchObject({ outcome: "handled" });
    const purchase = await purchaseRow(buyer.userId);
    return { buyer, session, purchaseId: purchase.id };
  }

  const listedHold = async (purchaseId: string) =>
    (await admin.client.admin.paymentHolds.query()).find((hold) => hold.purchaseId === purchaseId);

  it("an amount that is not the package's price grants nothing and is held, listed for the admin", async () => {
    warnings.length = 0;
    const { buyer, session } = await paidSession({ amount_total: 100, amount_subtotal: 100 });
    const answer = await deliver("checkout.session.completed", session);
    expect(answer).toEqual({ status: 200, body: { received: true, outcome: "handled" } });

    expect(await balance(buyer.userId)).toBe(10);
    expect(await ledgerBalance(db, buyer.userId)).toBe(10);
    expect(await purchaseLedger(buyer.userId)).toEqual([]);
    // Still unpaid, but with the session and payment intent a refund will be matched by.
    const purchase = await purchaseRow(buyer.userId);
    expect(purchase).toMatchObject({
      status: "pending",
      paid_at: null,
      checkout_session_id: session.id,
      payment_intent_id: session.payment_intent,
    });
    expect(await holdRows(purchase.id)).toEqual([
      {
        purchase_id: purchase.id,
        checkout_session_id: session.id,
        payment_intent_id: session.payment_intent,
        paid_amount_cents: 100,
        paid_currency: "usd",
        created_at: clock.now(),
        resolved_at: null,
        resolution: null,
        resolved_by: null,
      },
    ]);
    expect(await listedHold(purchase.id)).toEqual({
      purchaseId: purchase.id,
      userId: buyer.userId,
      email: buyer.email,
      packageId: "starter",
      credits: 25,
      priceCents: 900,
      currency: "usd",
      paidCents: 100,
      paidCurrency: "usd",
      checkoutSessionId: session.id,
      paymentIntentId: session.payment_intent,
      heldAt: clock.now(),
      resolvedAt: null,
      resolution: null,
    });
    expect(warnings.some((warning) => warning.includes("held for an admin"))).toBe(true);
    expect((await buyer.client.billing.purchases.query())[0]).toMatchObject({ status: "pending", paidAt: null });
  });

  it("a currency that is not the package's is held too, as is a session without an amount", async () => {
    const { buyer, session } = await paidSession({ currency: "eur" });
    expect((await deliver("checkout.session.completed", session)).body).toMatchObject({ outcome: "handled" });
    expect(await balance(buyer.userId)).toBe(10);
    const purchase = await purchaseRow(buyer.userId);
    expect(purchase.status).toBe("pending");
    expect(await listedHold(purchase.id)).toMatchObject({ priceCents: 900, currency: "usd", paidCents: 900, paidCurrency: "eur" });

    const other = await paidSession({ amount_total: null as unknown as number });
    expect((await deliver("checkout.session.completed", other.session)).body).toMatchObject({ outcome: "handled" });
    expect(await balance(other.buyer.userId)).toBe(10);
    expect(await listedHold((await purchaseRow(other.buyer.userId)).id)).toMatchObject({ paidCents: null, paidCurrency: "usd" });
  });

  it("a payment of the package's amount and currency is still credited at once, and not held", async () => {
    const { buyer, session } = await paidSession();
    expect((await deliver("checkout.session.completed", session)).body).toMatchObject({ outcome: "handled" });
    expect(await balance(buyer.userId)).toBe(35);
    const purchase = await purchaseRow(buyer.userId);
    expect(purchase.status).toBe("paid");
    expect(await holdRows(purchase.id)).toEqual([]);
    expect(await listedHold(purchase.id)).toBeUndefined();
  });

  it("a redelivered event, another event for the session, or concurrent ones neither credit nor hold twice", async () => {
    const { buyer, session } = await paidSession({ amount_total: 100, amount_subtotal: 100 });
    const event = stripeEvent("checkout.session.completed", session);
    const send = () =>
      postStripeWebhook(server.url, JSON.stringify(event), { secret: WEBHOOK_SECRET, timestamp: Math.floor(clock.now() / 1000) });
    expect((await send()).body).toMatchObject({ outcome: "handled" });
    expect((await send()).body).toMatchObject({ outcome: "duplicate" });
    // async_payment_succeeded after completed, even one reporting the right amount: the admin decides.
    expect((await deliver("checkout.session.async_payment_succeeded", session)).body).toMatchObject({ outcome: "duplicate" });
    expect((await deliver("checkout.session.async_payment_succeeded", { ...session, amount_total: 900 })).body).toMatchObject({
      outcome: "duplicate",
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver("checkout.session.completed", session)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);

    expect(await balance(buyer.userId)).toBe(10);
    expect(await purchaseLedger(buyer.userId)).toEqual([]);
    const purchase = await purchaseRow(buyer.userId);
    expect(purchase.status).toBe("pending");
    expect(await holdRows(purchase.id)).toHaveLength(1);
    expect((await admin.client.admin.paymentHolds.query()).filter((hold) => hold.userId === buyer.userId)).toHaveLength(1);
  });

  it("concurrent first deliveries of different events for one session hold it once", async () => {
    const { buyer, session } = await paidSession({ currency: "eur" });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver("checkout.session.completed", session)));
    expect(answers.filter((answer) => (answer.body as { outcome: string }).outcome === "handled")).toHaveLength(1);
    expect(await holdRows((await purchaseRow(buyer.userId)).id)).toHaveLength(1);
    expect(await balance(buyer.userId)).toBe(10);
  });

  it("'credit anyway' grants the package once, however often and concurrently it is asked, and audits it", async () => {
    const { buyer, session, purchaseId } = await heldPurchase();
    clock.advance(5 * MINUTE);

    const tries = await Promise.allSettled([
      admin.client.admin.creditHeldPayment.mutate({ id: purchaseId }),
      admin.client.admin.creditHeldPayment.mutate({ id: purchaseId }),
    ]);
    expect(tries.filter((result) => result.status === "fulfilled").map((result) => result.value)).toEqual([{ credits: 25 }]);
    const refused = tries.find((result) => result.status === "rejected");
    expect(failure(refused?.reason)).toMatchObject({ message: MESSAGES.paymentHoldResolved, data: { code: "CONFLICT" } });
    // And once more, later.
    expect(await admin.client.admin.creditHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject({
      message: MESSAGES.paymentHoldResolved,
      data: { code: "CONFLICT" },
    });

    expect(await balance(buyer.userId)).toBe(35);
    expect(await ledgerBalance(db, buyer.userId)).toBe(35);
    expect(await purchaseLedger(buyer.userId)).toEqual([{ amount: 25, reference: session.id }]);
    expect(await purchaseRow(buyer.userId)).toMatchObject({ status: "paid", paid_at: clock.now() });
    expect(await holdRows(purchaseId)).toEqual([
      expect.objectContaining({ resolved_at: clock.now(), resolution: "credited", resolved_by: admin.userId }),
    ]);
    expect(await listedHold(purchaseId)).toBeUndefined();
    const [audit, ...more] = await audits("credit_held_payment", buyer.userId);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ admin_user_id: admin.userId });
    expect(JSON.parse(audit!.details!)).toMatchObject({
      purchaseId,
      packageId: "starter",
      price: { cents: 900, currency: "usd" },
      paid: { cents: 100, currency: "usd" },
      checkoutSessionId: session.id,
    });
    // Dismissing a credited hold is refused too, and a late event for the session grants nothing more.
    expect(await admin.client.admin.dismissHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject({
      data: { code: "CONFLICT" },
    });
    await deliver("checkout.session.async_payment_succeeded", session);
    expect(await balance(buyer.userId)).toBe(35);

    // A credited payment refunded at Stripe takes its credits back like any purchase.
    expect((await deliver("charge.refunded", refundedCharge(session))).body).toMatchObject({ outcome: "handled" });
    expect(await balance(buyer.userId)).toBe(10);
    expect(await ledgerBalance(db, buyer.userId)).toBe(10);
  });

  it("'dismiss' resolves the hold without credits and audits it; the refund at Stripe then marks the purchase refunded", async () => {
    const { buyer, session, purchaseId } = await heldPurchase();
    expect(await admin.client.admin.dismissHeldPayment.mutate({ id: purchaseId })).toEqual({ ok: true });
    expect(await admin.client.admin.dismissHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject({
      message: MESSAGES.paymentHoldResolved,
      data: { code: "CONFLICT" },
    });
    expect(await admin.client.admin.creditHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject({
      data: { code: "CONFLICT" },
    });

    expect(await balance(buyer.userId)).toBe(10);
    expect(await purchaseLedger(buyer.userId)).toEqual([]);
    expect((await purchaseRow(buyer.userId)).status).toBe("pending");
    expect(await holdRows(purchaseId)).toEqual([
      expect.objectContaining({ resolved_at: clock.now(), resolution: "dismissed", resolved_by: admin.userId }),
    ]);
    expect(await listedHold(purchaseId)).toBeUndefined();
    expect(await audits("dismiss_held_payment", buyer.userId)).toEqual([expect.objectContaining({ admin_user_id: admin.userId })]);
    // A late event for the session does not credit a dismissed payment.
    await deliver("checkout.session.async_payment_succeeded", session);
    expect(await balance(buyer.userId)).toBe(10);

    expect((await deliver("charge.refunded", refundedCharge(session))).body).toMatchObject({ outcome: "handled" });
    expect(await purchaseRow(buyer.userId)).toMatchObject({ status: "refunded", refunded_at: clock.now() });
    expect(await holdRows(purchaseId)).toEqual([expect.objectContaining({ resolution: "dismissed" })]);
    expect(await balance(buyer.userId)).toBe(10);
    expect(await ledgerBalance(db, buyer.userId)).toBe(10);
  });

  it("a held payment refunded at Stripe resolves its hold as refunded, taking no credits", async () => {
    const { buyer, session, purchaseId } = await heldPurchase();
    // A partial refund changes nothing: the hold stays for the admin.
    expect((await deliver("charge.refunded", refundedCharge(session, 50))).body).toMatchObject({ outcome: "ignored" });
    expect(await listedHold(purchaseId)).toBeDefined();

    clock.advance(MINUTE);
    const refund = JSON.stringify(stripeEvent("charge.refunded", refundedCharge(session)));
    const send = () => postStripeWebhook(server.url, refund, { secret: WEBHOOK_SECRET, timestamp: Math.floor(clock.now() / 1000) });
    expect((await send()).body).toMatchObject({ outcome: "handled" });
    expect((await send()).body).toMatchObject({ outcome: "duplicate" });

    expect(await holdRows(purchaseId)).toEqual([
      expect.objectContaining({ resolved_at: clock.now(), resolution: "refunded", resolved_by: null }),
    ]);
    expect(await purchaseRow(buyer.userId)).toMatchObject({ status: "refunded", refunded_at: clock.now(), paid_at: null });
    expect(await balance(buyer.userId)).toBe(10);
    expect(await ledgerBalance(db, buyer.userId)).toBe(10);
    expect(await listedHold(purchaseId)).toBeUndefined();
    expect(await admin.client.admin.creditHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject({
      data: { code: "CONFLICT" },
    });
    expect(await balance(buyer.userId)).toBe(10);
  });

  it("refuses holds to non-admins (FORBIDDEN) and visitors (UNAUTHORIZED), changing nothing; an unknown id is NOT_FOUND", async () => {
    const { buyer, purchaseId } = await heldPurchase();
    const visitor = createStudioClient(server.url);
    for (const client of [buyer.client, visitor.client]) {
      const expected =
        client === buyer.client
          ? { message: MESSAGES.adminRequired, data: { code: "FORBIDDEN" } }
          : { message: MESSAGES.notAuthenticated, data: { code: "UNAUTHORIZED" } };
      expect(await client.admin.paymentHolds.query().catch(failure)).toMatchObject(expected);
      expect(await client.admin.creditHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject(expected);
      expect(await client.admin.dismissHeldPayment.mutate({ id: purchaseId }).catch(failure)).toMatchObject(expected);
    }
    expect(await balance(buyer.userId)).toBe(10);
    expect(await holdRows(purchaseId)).toEqual([expect.objectContaining({ resolved_at: null, resolution: null })]);
    expect(await listedHold(purchaseId)).toBeDefined();

    expect(await admin.client.admin.creditHeldPayment.mutate({ id: "no-such-purchase" }).catch(failure)).toMatchObject({
      message: MESSAGES.notFound,
      data: { code: "NOT_FOUND" },
    });
  });
});
