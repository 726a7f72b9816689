/**
 * Transactions that read, check, then write (decision 080), each raced by many requests at once.
 * On SQLite one writer serialises them; on PostgreSQL (the lane these tests exist for) transactions
 * run side by side, and each of these held only after its rows were locked or its check made part
 * of its write.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptTotp, beginEnrollment, confirmEnrollment, totpCode, totpStep } from "../../src/server/auth/two-factor";
import { consumeEmailToken, createEmailToken } from "../../src/server/services/accounts";
import { creditBalance, ledgerBalance } from "../../src/server/services/credits";
import { takeVisitorUploadBudget } from "../../src/server/render/intake/upload-budgets";
import { createStudioClient, roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { databaseLane } from "../helpers/test-env";

const RACERS = 20;
const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    { VISITOR_UPLOAD_MB_PER_DAY: "1", ADDRESS_UPLOAD_MB_PER_DAY: "1000", DEMO_RENDERS_PER_IP_PER_DAY: "3" },
    { clock },
  );
  // On PostgreSQL, the pool opens its connections first: racers that each waited for a new
  // connection would arrive one after the other, and the race would not be run.
  if (databaseLane() === "postgres") {
    await Promise.all(Array.from({ length: 10 }, () => sql`SELECT pg_sleep(0.05)`.execute(server.deps.db)));
  }
});

afterAll(async () => {
  await server?.stop();
});

/** Runs `race` RACERS times at once; the answers, in order. */
function race<T>(attempt: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: RACERS }, (_, index) => attempt(index)));
}

describe("read, check, then write, raced", () => {
  it("accepts one TOTP code once, of 20 requests with it at once", async () => {
    const user = await signedInClient(server.url);
    const account = { id: user.userId, email: user.email };
    const enrollment = await beginEnrollment(server.deps, account);
    const key = decodeBase32IgnorePadding(enrollment.secret);
    await confirmEnrollment(server.deps, user.userId, totpCode(key, totpStep(clock.now())));
    clock.advance(30_000);
    const code = totpCode(key, totpStep(clock.now()));
    const checks = await race(() => acceptTotp(server.deps, user.userId, code, true));
    expect(checks.filter((check) => check === "accepted")).toHaveLength(1);
    expect(checks.filter((check) => check === "used")).toHaveLength(RACERS - 1);
  });

  it("uses an e-mail token once, of 20 requests with it at once", async () => {
    const user = await signedInClient(server.url);
    const token = await createEmailToken(server.deps, user.userId, "reset_password", 3_600_000);
    const users = await race(() => consumeEmailToken(server.deps, token, "reset_password"));
    expect(users.filter((id) => id === user.userId)).toHaveLength(1);
    expect(users.filter((id) => id === null)).toHaveLength(RACERS - 1);
  });

  it("lets 20 uploads at once take no more than a visitor's daily megabyte", async () => {
    const quarter = 256 * 1024;
    const refusals = await race(() => takeVisitorUploadBudget(server.deps, "racing-visitor", "203.0.113.7", quarter));
    expect(refusals.filter((refusal) => refusal === null)).toHaveLength(4);
    expect(refusals.filter((refusal) => refusal === "uploadVisitorBudgetSpent")).toHaveLength(RACERS - 4);
    const total = await server.deps.db
      .selectFrom("upload_budgets")
      .select("bytes")
      .where("subject", "like", "%racing-visitor%")
      .executeTakeFirstOrThrow();
    expect(total.bytes).toBe(4 * quarter);
  });

  it("gives an address its 3 free demo renders a day, of 8 visitors asking at once", async () => {
    const photo = await roomPhoto();
    const visitors = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const visitor = createStudioClient(server.url);
        const uploaded = await upload(server.url, visitor.jar, photo, { mode: "room-photo", roomType: "bedroom" });
        expect(uploaded.status).toBe(201);
        return { visitor, uploaded: uploaded.body as { projectId: string; imageId: string } };
      }),
    );
    const answers = await Promise.allSettled(
      visitors.map(({ visitor, uploaded }) =>
        visitor.client.render.create.mutate({ projectId: uploaded.projectId, imageId: uploaded.imageId, style: "modern" }),
      ),
    );
    expect(answers.filter((answer) => answer.status === "fulfilled")).toHaveLength(3);
    const demos = await server.deps.db
      .selectFrom("visitor_demo_renders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(demos.n)).toBe(3);
  });

  it("applies 20 admin adjustments of -1 against 10 credits exactly 10 times, never below zero", async () => {
    const user = await signedInClient(server.url);
    const admin = { id: "racing-admin", email: "admin@example.com" };
    expect(await creditBalance(server.deps.db, user.userId)).toBe(10);
    const answers = await Promise.allSettled(
      Array.from({ length: RACERS }, () => server.services.admin.adjustCredits(admin, user.userId, -1, "race")),
    );
    expect(answers.filter((answer) => answer.status === "fulfilled")).toHaveLength(10);
    for (const answer of answers)
      if (answer.status === "rejected") expect(answer.reason).toMatchObject({ messageName: "notEnoughCredits" });
    expect(await creditBalance(server.deps.db, user.userId)).toBe(0);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(0);
    // Each fulfilled answer said the balance it left, once each: 9, 8, … 0.
    const left = answers.flatMap((answer) => (answer.status === "fulfilled" ? [answer.value.credits] : [])).sort((a, b) => a - b);
    expect(left).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
