/**
 * Credit packages an admin creates, edits and retires (issue 16), over real HTTP against the fake
 * Stripe API: the pricing page and checkout follow at once, without a restart; a purchase made
 * before a change keeps its credits and price; a retired package cannot be bought; bad values get
 * the messages of the form; only admins may change anything; every change is audited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { startFakeStripe, type FakeStripe } from "../helpers/fake-stripe";
import { createStudioClient, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

const SECRET_KEY = "sk_test_packages";

describe("credit packages in /admin", () => {
  let fake: FakeStripe;
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  let buyer: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: SECRET_KEY });
    server = await startTestServer({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: "whsec_packages", STRIPE_API_URL: fake.url });
    admin = await signedInClient(server.url);
    buyer = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const onSale = async () => (await createStudioClient(server.url).client.billing.packages.query()).packages;
  const lastCheckout = () => fake.sessionCreates().at(-1)!.form;
  const audit = (action: string) => server.deps.db.selectFrom("admin_audit").selectAll().where("action", "=", action).execute();

  it("starts with the three shipped packages, named by the interface", async () => {
    expect((await onSale()).map((pack) => [pack.id, pack.name, pack.credits, pack.priceCents])).toEqual([
      ["starter", null, 25, 900],
      ["pro", null, 100, 2900],
      ["studio", null, 500, 9900],
    ]);
    expect((await admin.client.admin.creditPackages.query()).map((pack) => [pack.id, pack.retiredAt, pack.sold])).toEqual([
      ["starter", null, 0],
      ["pro", null, 0],
      ["studio", null, 0],
    ]);
  });

  it("an edited price applies to the next purchase at once; the purchase before keeps its own", async () => {
    await buyer.client.billing.purchaseCredits.mutate({ creditPackage: "pro" });
    expect(lastCheckout()["line_items[0][price_data][unit_amount]"]).toBe("2900");

    await admin.client.admin.updateCreditPackage.mutate({
      id: "pro",
      name: "Pro",
      credits: 120,
      priceCents: 3900,
      currency: "eur",
      licence: "commercial",
    });
    await buyer.client.billing.purchaseCredits.mutate({ creditPackage: "pro" });
    expect(lastCheckout()).toMatchObject({
      "line_items[0][price_data][unit_amount]": "3900",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][product_data][name]": "120 RoomCanvas credits (pro)",
    });
    const purchases = await server.deps.db
      .selectFrom("credit_purchases")
      .select(["credits", "amount_cents", "currency"])
      .where("user_id", "=", buyer.userId)
      .orderBy("created_at")
      .execute();
    expect(purchases).toEqual([
      { credits: 100, amount_cents: 2900, currency: "usd" },
      { credits: 120, amount_cents: 3900, currency: "eur" },
    ]);
    expect((await onSale()).find((pack) => pack.id === "pro")).toMatchObject({
      name: "Pro",
      credits: 120,
      priceCents: 3900,
      currency: "eur",
    });
    const [entry] = await audit("credit-package.update");
    expect(JSON.parse(entry!.details!)).toMatchObject({ id: "pro", before: { priceCents: 2900 }, after: { priceCents: 3900 } });
    expect(entry!.admin_user_id).toBe(admin.userId);
  });

  it("creates a package that is on sale at once, and retires one so that it cannot be bought, then puts it back", async () => {
    const created = await admin.client.admin.createCreditPackage.mutate({
      name: "Agency 1000",
      credits: 1000,
      priceCents: 14900,
      currency: "usd",
      licence: "commercial",
    });
    expect((await onSale()).at(-1)).toMatchObject({ id: created.id, name: "Agency 1000", credits: 1000, priceCents: 14900 });
    await buyer.client.billing.purchaseCredits.mutate({ creditPackage: created.id });
    expect(lastCheckout()["metadata[packageId]"]).toBe(created.id);

    await admin.client.admin.setCreditPackageRetired.mutate({ id: "starter", retired: true });
    expect((await onSale()).map((pack) => pack.id)).not.toContain("starter");
    await expect(buyer.client.billing.purchaseCredits.mutate({ creditPackage: "starter" })).rejects.toThrow(MESSAGES.unknownCreditPackage);
    expect((await admin.client.admin.creditPackages.query()).find((pack) => pack.id === "starter")?.retiredAt).toEqual(expect.any(Number));
    // Retiring twice changes nothing and audits once.
    await admin.client.admin.setCreditPackageRetired.mutate({ id: "starter", retired: true });
    expect(await audit("credit-package.retire")).toHaveLength(1);

    await admin.client.admin.setCreditPackageRetired.mutate({ id: "starter", retired: false });
    expect((await onSale()).map((pack) => pack.id)).toContain("starter");
    expect(await audit("credit-package.create")).toHaveLength(1);
    expect(await audit("credit-package.restore")).toHaveLength(1);
  });

  it("refuses bad values with the form's messages, unknown packages, and anyone but an admin", async () => {
    const good = { name: "Small", credits: 10, priceCents: 500, currency: "usd" as const, licence: "personal" as const };
    await expect(admin.client.admin.createCreditPackage.mutate({ ...good, name: "  " })).rejects.toThrow(MESSAGES.packageNameRequired);
    await expect(admin.client.admin.createCreditPackage.mutate({ ...good, name: "x".repeat(41) })).rejects.toThrow(
      MESSAGES.packageNameTooLong,
    );
    await expect(admin.client.admin.createCreditPackage.mutate({ ...good, credits: 0 })).rejects.toThrow(MESSAGES.packageCreditsInvalid);
    await expect(admin.client.admin.createCreditPackage.mutate({ ...good, credits: 1.5 })).rejects.toThrow(MESSAGES.packageCreditsInvalid);
    await expect(admin.client.admin.createCreditPackage.mutate({ ...good, priceCents: 49 })).rejects.toThrow(MESSAGES.packagePriceInvalid);
    await expect(admin.client.admin.updateCreditPackage.mutate({ ...good, id: "no-such-package" })).rejects.toMatchObject({
      data: { code: "NOT_FOUND" },
    });
    await expect(buyer.client.admin.createCreditPackage.mutate(good)).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await expect(buyer.client.admin.setCreditPackageRetired.mutate({ id: "pro", retired: true })).rejects.toMatchObject({
      data: { code: "FORBIDDEN" },
    });
    expect((await onSale()).map((pack) => pack.name)).not.toContain("Small");
  });
});
