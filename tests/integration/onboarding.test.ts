/**
 * The onboarding tour's flag on the account (issue 27, item 4; decision 068) through tRPC on a real
 * server: a new account has not finished it; completing or skipping it on one "browser" (a client
 * with its own cookies) is seen by every other session of the account, an earlier one and a new
 * sign-in, and by no other account; the first time is kept; a visitor cannot set it. And the
 * session's `admin` flag the Quick Admin bar's shell reads (item 3), with the admin procedures
 * still refused to a non-admin by the server.
 */
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import type { AppRouter } from "../../src/server/trpc/root";
import { createStudioClient, PASSWORD, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";

const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

/** Another browser signing in to the same account. */
async function anotherBrowser(email: string) {
  const browser = createStudioClient(server.url);
  await browser.client.auth.signIn.mutate({ email, password: PASSWORD });
  return browser;
}

const doneAt = async (userId: string) =>
  (await server.deps.db.selectFrom("users").select("onboarding_done_at").where("id", "=", userId).executeTakeFirstOrThrow())
    .onboarding_done_at;

function refusal(error: unknown) {
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<AppRouter>;
  return { message: e.message, code: (e.data as { code: string }).code };
}

describe("the onboarding tour's flag on the account", () => {
  it("is not set for a new account", async () => {
    const ana = await signedInClient(server.url);
    expect((await ana.client.auth.session.query()).user).toMatchObject({ onboardingDone: false });
    expect(await doneAt(ana.userId)).toBeNull();
  });

  it("set on one browser, is seen by the account's other sessions and new sign-ins, not by other accounts", async () => {
    const ana = await signedInClient(server.url);
    const laptop = await anotherBrowser(ana.email);
    const bruno = await signedInClient(server.url);

    expect(await ana.client.account.finishOnboarding.mutate()).toEqual({ onboardingDone: true });
    expect(await doneAt(ana.userId)).toBe(clock.now());
    expect((await ana.client.auth.session.query()).user?.onboardingDone).toBe(true);
    // A browser signed in before, and one signed in after.
    expect((await laptop.client.auth.session.query()).user?.onboardingDone).toBe(true);
    const phone = await anotherBrowser(ana.email);
    expect((await phone.client.auth.session.query()).user?.onboardingDone).toBe(true);
    // Someone else's tour is theirs.
    expect((await bruno.client.auth.session.query()).user?.onboardingDone).toBe(false);
    expect(await doneAt(bruno.userId)).toBeNull();
  });

  it("keeps the first time it was finished", async () => {
    const ana = await signedInClient(server.url);
    await ana.client.account.finishOnboarding.mutate();
    const first = clock.now();
    clock.advance(60_000);
    expect(await ana.client.account.finishOnboarding.mutate()).toEqual({ onboardingDone: true });
    expect(await doneAt(ana.userId)).toBe(first);
  });

  it("cannot be set by a visitor", async () => {
    const visitor = createStudioClient(server.url);
    const { code } = refusal(await visitor.client.account.finishOnboarding.mutate().catch((error: unknown) => error));
    expect(code).toBe("UNAUTHORIZED");
  });
});

describe("the session's admin flag", () => {
  it("is false for a member, whom the admin procedures still refuse, and true for an admin", async () => {
    const member = await signedInClient(server.url);
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();

    expect((await member.client.auth.session.query()).user?.admin).toBe(false);
    expect((await admin.client.auth.session.query()).user?.admin).toBe(true);
    expect(refusal(await member.client.admin.paymentHolds.query().catch((error: unknown) => error))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.adminRequired,
    });
    await expect(admin.client.admin.paymentHolds.query()).resolves.toEqual([]);
  });
});
