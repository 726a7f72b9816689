/**
 * Buying credits over real HTTP on a real SQLite file, against a fake Stripe API the official SDK
 * talks to: purchase-credits answers in the spec's order (user, key, package), Checkout is created
 * with the right line item and metadata, and the signed webhook grants a session's credits exactly
 * once (redeliveries, a second event for the same session, concurrent deliveries), takes them back
 * on a refund within 30 days (only what is left, never below zero) and not after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDIT_PACKAGES } from "../../src/shared/billing";
import { MESSAGES } from "../../src/shared/messages";
import type { AppDatabase } from "../../src/server/db/client";
import { chargeForJob, ledgerBalance, teamLedgerBalance } from "../../src/server/services/credits";
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
import { DAY, TestClock } from "../helpers/test-clock";

const WEBHOOK_SECRET = "whsec_test";
const SECRET_KEY = "sk_test_x";

const balance = async (db: AppDatabase, userId: string) =>
  (await db.selectFrom("profiles").select("credits_remaining").where("user_id", "=", userId).executeTakeFirstOrThrow()).credits_remaining;

const purchaseRows = (db: AppDatabase, userId: string) =>
  db.selectFrom("credit_purchases").selectAll().where("user_id", "=", userId).execute();

const purchaseLedger = (db: AppDatabase, userId: string) =>
  db
    .selectFrom("credit_ledger")
    .select(["kind", "amount", "reference"])
    .where("user_id", "=", userId)
    .where("kind", "=", "purchase")
    .orderBy("created_at")
    .orderBy("amount", "desc")
    .execute();

type Buyer = Awaited<ReturnType<typeof signedInClient>>;

describe("buying credits", () => {
  let fake: FakeStripe;
  let server: TestServer;
  let db: AppDatabase;

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: SECRET_KEY });
    server = await startTestServer({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url });
    db = server.deps.db;
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  /** Signs up, buys the starter package and pays for it at (fake) Stripe: the session as completed. */
  async function buyAndPay(buyer?: Buyer, packageId = "starter"): Promise<{ buyer: Buyer; session: FakeCheckoutSession }> {
    const user = buyer ?? (await signedInClient(server.url));
    const { url } = await user.client.billing.purchaseCredits.mutate({ creditPackage: packageId });
    const sessionId = url.split("/").at(-1)!;
    return { buyer: user, session: fake.pay(sessionId) };
  }

  const deliver = (type: string, object: object, id?: string) => {
    const payload = JSON.stringify(stripeEvent(type, object, { id }));
    return postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET });
  };

  it("lists the packages, with purchases enabled and the 30-day refund window", async () => {
    const visitor = createStudioClient(server.url);
    const answer = await visitor.client.billing.packages.query();
    expect(answer).toEqual({
      popularId: null,
      // The shipped packages, named by the interface (an admin may rename them).
      packages: CREDIT_PACKAGES.map((pack) => ({ ...pack, name: null })),
      purchasesEnabled: true,
      refundWindowDays: 30,
    });
    expect(answer.packages.find((pack) => pack.id === "starter")).toMatchObject({ credits: 25 });
  });

  it('purchase-credits without a user answers exactly "User not authenticated"', async () => {
    const visitor = createStudioClient(server.url);
    await expect(visitor.client.billing.purchaseCredits.mutate({ creditPackage: "starter" })).rejects.toMatchObject({
      message: MESSAGES.notAuthenticated,
      data: { code: "UNAUTHORIZED" },
    });
    await expect(visitor.client.billing.purchaseCredits.mutate({})).rejects.toMatchObject({ message: MESSAGES.notAuthenticated });
    expect(fake.sessionCreates()).toHaveLength(0);
  });

  it("refuses a missing or unknown package", async () => {
    const user = await signedInClient(server.url);
    await expect(user.client.billing.purchaseCredits.mutate({})).rejects.toMatchObject({
      message: MESSAGES.missingRequiredFields,
      data: { code: "BAD_REQUEST" },
    });
    await expect(user.client.billing.purchaseCredits.mutate({ creditPackage: "platinum" })).rejects.toMatchObject({
      message: MESSAGES.unknownCreditPackage,
      data: { code: "BAD_REQUEST" },
    });
    expect(await purchaseRows(db, user.userId)).toEqual([]);
  });

  it("creates a Stripe Checkout Session for the package and a pending purchase", async () => {
    const user = await signedInClient(server.url);
    const before = fake.sessionCreates().length;
    const { url } = await user.client.billing.purchaseCredits.mutate({ creditPackage: "starter" });
    expect(url).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_\\w+$`));

    const creates = fake.sessionCreates();
    expect(creates).toHaveLength(before + 1);
    const request = creates.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const [row] = await purchaseRows(db, user.userId);
    // One key per purchase: a retried request cannot create a second session.
    expect(request.headers["idempotency-key"]).toBe(`checkout-${row!.id}`);
    expect(request.form).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "900",
      "line_items[0][price_data][product_data][name]": "25 RoomCanvas credits (starter)",
      "line_items[0][quantity]": "1",
      client_reference_id: user.userId,
      customer_email: user.email,
      "metadata[userId]": user.userId,
      "metadata[packageId]": "starter",
      "metadata[purchaseId]": row!.id,
      "payment_intent_data[metadata][userId]": user.userId,
      "payment_intent_data[metadata][packageId]": "starter",
      "payment_intent_data[metadata][purchaseId]": row!.id,
      success_url: `${server.url}/dashboard?purchase=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/pricing?purchase=canceled`,
    });
    expect(row).toMatchObject({
      package_id: "starter",
      credits: 25,
      amount_cents: 900,
      currency: "usd",
      status: "pending",
      checkout_session_id: url.split("/").at(-1),
    });

    const purchases = await user.client.billing.purchases.query();
    expect(purchases).toEqual([
      expect.objectContaining({ id: row!.id, packageId: "starter", credits: 25, amountCents: 900, status: "pending", paidAt: null }),
    ]);
    // Nothing is granted before Stripe says it was paid.
    expect(await balance(db, user.userId)).toBe(10);
  });

  it("when Stripe fails, answers the generic error and leaves no pending purchase", async () => {
    const user = await signedInClient(server.url);
    fake.failNextCreates({ status: 400, body: { error: { type: "invalid_request_error", message: "Invalid currency" } } });
    await expect(user.client.billing.purchaseCredits.mutate({ creditPackage: "pro" })).rejects.toMatchObject({
      message: MESSAGES.internalError,
    });
    expect(await purchaseRows(db, user.userId)).toEqual([]);
  });

  it("refuses a webhook with a bad, missing or stale signature, changing nothing", async () => {
    const { buyer, session } = await buyAndPay();
    const payload = JSON.stringify(stripeEvent("checkout.session.completed", session));
    const eventsBefore = await db.selectFrom("stripe_events").select("id").execute();

    expect((await postStripeWebhook(server.url, payload, { secret: "whsec_someoneelse" })).status).toBe(400);
    expect((await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET, signature: null })).status).toBe(400);
    expect((await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET, signature: "t=1,v1=deadbeef" })).status).toBe(400);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect((await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET, timestamp: tenMinutesAgo })).status).toBe(400);
    // Signed, but a different body than the one signed.
    const signature = (await import("stripe")).default.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await postStripeWebhook(server.url, payload.replace('"paid"', '"paid" '), { secret: WEBHOOK_SECRET, signature })).status).toBe(
      400,
    );

    expect(await balance(db, buyer.userId)).toBe(10);
    expect(await db.selectFrom("stripe_events").select("id").execute()).toEqual(eventsBefore);
    expect((await purchaseRows(db, buyer.userId))[0]!.status).toBe("pending");
  });

  it("acknowledges a signed event without a usable object (2xx, never 500), changing nothing", async () => {
    const { buyer } = await buyAndPay();
    const eventsBefore = await db.selectFrom("stripe_events").select("id").execute();
    for (const type of ["checkout.session.completed", "checkout.session.expired", "charge.refunded"]) {
      for (const object of [null, "cs_test_x", {}]) {
        const payload = JSON.stringify({ ...stripeEvent(type, {}), data: { object } });
        expect(await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET })).toEqual({
          status: 200,
          body: { received: true, outcome: "ignored" },
        });
      }
    }
    // No data at all is the same.
    const { data: _data, ...withoutData } = stripeEvent("checkout.session.completed", {});
    expect((await postStripeWebhook(server.url, JSON.stringify(withoutData), { secret: WEBHOOK_SECRET })).status).toBe(200);
    expect(await db.selectFrom("stripe_events").select("id").execute()).toEqual(eventsBefore);
    expect(await balance(db, buyer.userId)).toBe(10);
  });

  it("a signed checkout.session.completed grants the package once, however often it arrives", async () => {
    const { buyer, session } = await buyAndPay();
    const event = stripeEvent("checkout.session.completed", session);
    const payload = JSON.stringify(event);

    const first = await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET });
    expect(first).toEqual({ status: 200, body: { received: true, outcome: "handled" } });
    expect(await balance(db, buyer.userId)).toBe(35);
    expect(await ledgerBalance(db, buyer.userId)).toBe(35);
    expect(await purchaseLedger(db, buyer.userId)).toEqual([{ kind: "purchase", amount: 25, reference: session.id }]);
    const [row] = await purchaseRows(db, buyer.userId);
    expect(row).toMatchObject({ status: "paid", payment_intent_id: session.payment_intent, checkout_session_id: session.id });
    expect(row!.paid_at).toEqual(expect.any(Number));

    // Stripe redelivers the same event (re-signed, as each delivery is).
    const again = await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET });
    expect(again).toEqual({ status: 200, body: { received: true, outcome: "duplicate" } });
    // A different event for the same session (e.g. async_payment_succeeded after completed).
    const other = await deliver("checkout.session.async_payment_succeeded", session);
    expect(other.status).toBe(200);
    expect(await balance(db, buyer.userId)).toBe(35);
    expect(await ledgerBalance(db, buyer.userId)).toBe(35);
    expect(await purchaseLedger(db, buyer.userId)).toHaveLength(1);

    const purchases = await buyer.client.billing.purchases.query();
    expect(purchases[0]).toMatchObject({ status: "paid", credits: 25 });
  });

  it("5 concurrent deliveries of one event grant once", async () => {
    const { buyer, session } = await buyAndPay();
    const payload = JSON.stringify(stripeEvent("checkout.session.completed", session));
    const answers = await Promise.all(Array.from({ length: 5 }, () => postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => (answer.body as { outcome: string }).outcome === "handled")).toHaveLength(1);
    expect(await balance(db, buyer.userId)).toBe(35);
    expect(await ledgerBalance(db, buyer.userId)).toBe(35);
  });

  it("5 concurrent different events for one session grant once", async () => {
    const { buyer, session } = await buyAndPay();
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver("checkout.session.completed", session)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balance(db, buyer.userId)).toBe(35);
    expect(await ledgerBalance(db, buyer.userId)).toBe(35);
  });

  it("a completed session still unpaid (delayed method) grants nothing until async_payment_succeeded", async () => {
    const user = await signedInClient(server.url);
    const { url } = await user.client.billing.purchaseCredits.mutate({ creditPackage: "pro" });
    const sessionId = url.split("/").at(-1)!;
    const unpaid = fake.pay(sessionId, { paymentStatus: "unpaid" });
    expect((await deliver("checkout.session.completed", unpaid)).body).toMatchObject({ outcome: "ignored" });
    expect(await balance(db, user.userId)).toBe(10);
    const paid = fake.pay(sessionId);
    expect((await deliver("checkout.session.async_payment_succeeded", paid)).body).toMatchObject({ outcome: "handled" });
    expect(await balance(db, user.userId)).toBe(110);
    expect(await ledgerBalance(db, user.userId)).toBe(110);
  });

  it("checkout.session.expired marks a pending purchase expired", async () => {
    const user = await signedInClient(server.url);
    const { url } = await user.client.billing.purchaseCredits.mutate({ creditPackage: "starter" });
    const session = fake.sessions.get(url.split("/").at(-1)!)!;
    expect((await deliver("checkout.session.expired", { ...session, status: "expired", url: null })).status).toBe(200);
    expect((await purchaseRows(db, user.userId))[0]!.status).toBe("expired");
    expect(await balance(db, user.userId)).toBe(10);
  });

  it("ignores other events and checkout sessions this app did not create", async () => {
    expect(await deliver("customer.created", { id: "cus_test_1", object: "customer" })).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
    const foreign = { ...(await buyAndPay()).session, id: "cs_test_foreign", metadata: {} };
    expect((await deliver("checkout.session.completed", foreign)).body).toMatchObject({ outcome: "ignored" });
  });

  it("a refund within 30 days takes the credits back once, also when redelivered", async () => {
    const { buyer, session } = await buyAndPay();
    await deliver("checkout.session.completed", session);
    expect(await balance(db, buyer.userId)).toBe(35);

    const refund = JSON.stringify(stripeEvent("charge.refunded", refundedCharge(session)));
    expect(await postStripeWebhook(server.url, refund, { secret: WEBHOOK_SECRET })).toEqual({
      status: 200,
      body: { received: true, outcome: "handled" },
    });
    expect(await balance(db, buyer.userId)).toBe(10);
    expect(await ledgerBalance(db, buyer.userId)).toBe(10);
    expect(await purchaseLedger(db, buyer.userId)).toEqual([
      { kind: "purchase", amount: 25, reference: session.id },
      { kind: "purchase", amount: -25, reference: `${session.id}:refund` },
    ]);
    const [row] = await purchaseRows(db, buyer.userId);
    expect(row).toMatchObject({ status: "refunded", refunded_at: expect.any(Number) });

    // The same event again, and another charge.refunded for the same charge: nothing more.
    expect((await postStripeWebhook(server.url, refund, { secret: WEBHOOK_SECRET })).body).toMatchObject({ outcome: "duplicate" });
    expect((await deliver("charge.refunded", refundedCharge(session))).status).toBe(200);
    // And the completed event arriving late does not grant again.
    expect((await deliver("checkout.session.completed", session)).status).toBe(200);
    expect(await balance(db, buyer.userId)).toBe(10);
    expect(await ledgerBalance(db, buyer.userId)).toBe(10);
    expect(await purchaseLedger(db, buyer.userId)).toHaveLength(2);
  });

  it("in a team's space, the Owner's purchase credits the team once (and its refund takes from the team); a Member may not buy for it", async () => {
    const owner = await signedInClient(server.url);
    const member = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
    await db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", joined_at: Date.now() })
      .execute();
    await member.client.teams.switchSpace.mutate({ teamId: team.id });
    const before = fake.sessionCreates().length;
    await expect(member.client.billing.purchaseCredits.mutate({ creditPackage: "starter" })).rejects.toMatchObject({
      message: MESSAGES.teamPurchaseNotAllowed,
      data: { code: "FORBIDDEN" },
    });
    expect(fake.sessionCreates()).toHaveLength(before);

    const { session } = await buyAndPay(owner);
    expect((await purchaseRows(db, owner.userId))[0]).toMatchObject({ team_id: team.id, status: "pending" });
    expect(await deliver("checkout.session.completed", session)).toMatchObject({ status: 200, body: { outcome: "handled" } });
    expect((await deliver("checkout.session.completed", session)).body).toMatchObject({ outcome: "duplicate" });
    expect(await balance(db, owner.userId)).toBe(10);
    expect((await owner.client.teams.credits.query({ teamId: team.id })).balance).toBe(25);
    expect(await teamLedgerBalance(db, team.id)).toBe(25);
    const log = await owner.client.teams.activity.query({ teamId: team.id });
    expect(log[0]).toMatchObject({ action: "creditsBought", actorId: owner.userId, details: { credits: 25 } });

    await deliver("charge.refunded", refundedCharge(session));
    expect((await owner.client.teams.credits.query({ teamId: team.id })).balance).toBe(0);
    expect(await teamLedgerBalance(db, team.id)).toBe(0);
    expect(await balance(db, owner.userId)).toBe(10);
  });

  it("a partial refund keeps the credits; the full refund that follows takes them", async () => {
    const { buyer, session } = await buyAndPay();
    await deliver("checkout.session.completed", session);
    expect((await deliver("charge.refunded", refundedCharge(session, 300))).body).toMatchObject({ outcome: "ignored" });
    expect(await balance(db, buyer.userId)).toBe(35);
    expect((await purchaseRows(db, buyer.userId))[0]!.status).toBe("paid");
    expect((await deliver("charge.refunded", refundedCharge(session))).body).toMatchObject({ outcome: "handled" });
    expect(await balance(db, buyer.userId)).toBe(10);
  });

  it("a refund after the credits were spent takes only what is left, never below zero", async () => {
    const { buyer, session } = await buyAndPay();
    await deliver("checkout.session.completed", session);
    // 35 credits; 30 spent on renders.
    for (let index = 0; index < 30; index += 1)
      await db.transaction().execute((trx) => chargeForJob(trx, buyer.userId, `job-${buyer.userId}-${index}`, Date.now()));
    expect(await balance(db, buyer.userId)).toBe(5);

    const answers = await Promise.all(Array.from({ length: 3 }, () => deliver("charge.refunded", refundedCharge(session))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await balance(db, buyer.userId)).toBe(0);
    expect(await ledgerBalance(db, buyer.userId)).toBe(0);
    expect(await purchaseLedger(db, buyer.userId)).toEqual([
      { kind: "purchase", amount: 25, reference: session.id },
      { kind: "purchase", amount: -5, reference: `${session.id}:refund` },
    ]);
    expect((await purchaseRows(db, buyer.userId))[0]!.status).toBe("refunded");
  });

  it("a refund when every credit was spent takes nothing and still marks the purchase refunded", async () => {
    const { buyer, session } = await buyAndPay();
    await deliver("checkout.session.completed", session);
    for (let index = 0; index < 35; index += 1)
      await db.transaction().execute((trx) => chargeForJob(trx, buyer.userId, `job-${buyer.userId}-${index}`, Date.now()));
    expect((await deliver("charge.refunded", refundedCharge(session))).status).toBe(200);
    expect(await balance(db, buyer.userId)).toBe(0);
    expect(await ledgerBalance(db, buyer.userId)).toBe(0);
    expect(await purchaseLedger(db, buyer.userId)).toHaveLength(1);
    expect((await purchaseRows(db, buyer.userId))[0]!.status).toBe("refunded");
  });
});

describe("buying credits: configuration", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('without STRIPE_SECRET_KEY answers "Stripe secret key not configured" (after the user check)', async () => {
    const visitor = createStudioClient(server.url);
    await expect(visitor.client.billing.purchaseCredits.mutate({ creditPackage: "starter" })).rejects.toMatchObject({
      message: MESSAGES.notAuthenticated,
    });
    const user = await signedInClient(server.url);
    await expect(user.client.billing.purchaseCredits.mutate({ creditPackage: "starter" })).rejects.toMatchObject({
      message: MESSAGES.stripeNotConfigured,
      data: { code: "PRECONDITION_FAILED" },
    });
    // The key is checked before the package.
    await expect(user.client.billing.purchaseCredits.mutate({ creditPackage: "nope" })).rejects.toMatchObject({
      message: MESSAGES.stripeNotConfigured,
    });
    expect((await visitor.client.billing.packages.query()).purchasesEnabled).toBe(false);
  });

  it("without STRIPE_WEBHOOK_SECRET the webhook answers 503", async () => {
    const payload = JSON.stringify(stripeEvent("checkout.session.completed", { id: "cs_test_1", object: "checkout.session" }));
    const answer = await postStripeWebhook(server.url, payload, { secret: WEBHOOK_SECRET });
    expect(answer.status).toBe(503);
    expect(await server.deps.db.selectFrom("stripe_events").select("id").execute()).toEqual([]);
  });
});

describe("buying credits: the 30-day refund window", () => {
  let fake: FakeStripe;
  let server: TestServer;
  const clock = new TestClock();
  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: SECRET_KEY });
    server = await startTestServer(
      { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
      { clock },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  // The server checks the signature's age against its own clock, as Stripe signs at send time.
  const deliverAt = (type: string, object: object) =>
    postStripeWebhook(server.url, JSON.stringify(stripeEvent(type, object)), {
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(clock.now() / 1000),
    });

  async function paidPurchase() {
    const buyer = await signedInClient(server.url);
    const { url } = await buyer.client.billing.purchaseCredits.mutate({ creditPackage: "starter" });
    const session = fake.pay(url.split("/").at(-1)!);
    expect((await deliverAt("checkout.session.completed", session)).status).toBe(200);
    expect(await balance(server.deps.db, buyer.userId)).toBe(35);
    return { buyer, session };
  }

  it("a refund 29 days after payment takes the credits back", async () => {
    const { buyer, session } = await paidPurchase();
    clock.advance(29 * DAY);
    expect((await deliverAt("charge.refunded", refundedCharge(session))).body).toMatchObject({ outcome: "handled" });
    expect(await balance(server.deps.db, buyer.userId)).toBe(10);
    expect(await ledgerBalance(server.deps.db, buyer.userId)).toBe(10);
  });

  it("a refund 31 days after payment keeps the credits", async () => {
    const { buyer, session } = await paidPurchase();
    clock.advance(31 * DAY);
    expect((await deliverAt("charge.refunded", refundedCharge(session))).status).toBe(200);
    expect(await balance(server.deps.db, buyer.userId)).toBe(35);
    expect(await ledgerBalance(server.deps.db, buyer.userId)).toBe(35);
    expect(await purchaseLedger(server.deps.db, buyer.userId)).toHaveLength(1);
    expect((await purchaseRows(server.deps.db, buyer.userId))[0]).toMatchObject({ status: "refunded" });
  });
});

describe('"Most popular"', () => {
  let server: TestServer;
  const clock = new TestClock(Date.UTC(2026, 10, 23, 12));
  beforeAll(async () => {
    server = await startTestServer({}, { clock });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("names a package only when sales of the last 90 days say so: five or more, and more than any other", async () => {
    const buyer = await signedInClient(server.url);
    let sold = 0;
    const sell = async (packageId: string, count: number, daysAgo = 1) => {
      for (let index = 0; index < count; index++) {
        const pack = CREDIT_PACKAGES.find((candidate) => candidate.id === packageId)!;
        await server.deps.db
          .insertInto("credit_purchases")
          .values({
            id: `popular-${++sold}`,
            user_id: buyer.userId,
            package_id: pack.id,
            credits: pack.credits,
            amount_cents: pack.priceCents,
            currency: pack.currency,
            checkout_session_id: null,
            payment_intent_id: null,
            status: "paid",
            created_at: clock.now() - daysAgo * DAY,
            paid_at: clock.now() - daysAgo * DAY,
            refunded_at: null,
          })
          .execute();
      }
    };
    const popular = async () => (await createStudioClient(server.url).client.billing.packages.query()).popularId;
    expect(await popular()).toBeNull();
    await sell("studio", 4);
    await sell("starter", 9, 120);
    expect(await popular()).toBeNull();
    await sell("studio", 1);
    expect(await popular()).toBe("studio");
    await sell("pro", 5);
    expect(await popular()).toBeNull();
  });
});
