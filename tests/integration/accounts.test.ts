import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VALIDATION_MESSAGES as V } from "../../src/shared/auth-schemas";
import { MESSAGES } from "../../src/shared/messages";
import type { AppRouter } from "../../src/server/trpc/root";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, MINUTE, TestClock } from "../helpers/test-clock";
import { createBrowserLikeClient } from "../helpers/trpc-client";

const clock = new TestClock();
let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

const PASSWORD = "Correct-Horse1";
function uniqueEmail(): string {
  counter += 1;
  return `user${counter}.${Date.now()}@example.com`;
}
async function registered(fullName = "Ana María O'Neil-Ruiz"): Promise<string> {
  const email = uniqueEmail();
  await createBrowserLikeClient(server.url).client.auth.signUp.mutate({ email, password: PASSWORD, fullName });
  return email;
}
function failure(error: unknown) {
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<AppRouter>;
  return {
    message: e.message,
    data: e.data as { code: string; httpStatus: number; zodError: { fieldErrors: Record<string, string[]> } | null },
  };
}

describe("sign-up", () => {
  it.each([
    [{ email: "", password: PASSWORD, fullName: "Ana" }, "email", V.emailRequired],
    [{ email: "   ", password: PASSWORD, fullName: "Ana" }, "email", V.emailRequired],
    [{ email: "not-an-email", password: PASSWORD, fullName: "Ana" }, "email", V.emailInvalid],
    [{ email: `${"a".repeat(250)}@example.com`, password: PASSWORD, fullName: "Ana" }, "email", V.emailTooLong],
    [{ email: "a@example.com", password: "Sh0rt", fullName: "Ana" }, "password", V.passwordTooShort],
    [{ email: "a@example.com", password: `Aa1${"x".repeat(126)}`, fullName: "Ana" }, "password", V.passwordTooLong],
    [{ email: "a@example.com", password: "lowercase1", fullName: "Ana" }, "password", V.passwordNeedsUppercase],
    [{ email: "a@example.com", password: "UPPERCASE1", fullName: "Ana" }, "password", V.passwordNeedsLowercase],
    [{ email: "a@example.com", password: "NoNumbersHere", fullName: "Ana" }, "password", V.passwordNeedsNumber],
    [{ email: "a@example.com", password: PASSWORD, fullName: " A " }, "fullName", V.nameTooShort],
    [{ email: "a@example.com", password: PASSWORD, fullName: "A".repeat(101) }, "fullName", V.nameTooLong],
    [{ email: "a@example.com", password: PASSWORD, fullName: "Ana 2000" }, "fullName", V.nameInvalidCharacters],
  ])("refuses %j with the spec's message on %s", async (input, field, message) => {
    const { data } = failure(
      await createBrowserLikeClient(server.url)
        .client.auth.signUp.mutate(input)
        .catch((e: unknown) => e),
    );
    expect(data.code).toBe("BAD_REQUEST");
    expect(data.zodError?.fieldErrors[field]).toContain(message);
  });

  it("accepts names in any script", async () => {
    for (const fullName of ["Zoë Saldaña", "Дмитрий Иванов", "李小龍", "Jean-Luc D'Arcy"]) {
      const email = uniqueEmail();
      await expect(createBrowserLikeClient(server.url).client.auth.signUp.mutate({ email, password: PASSWORD, fullName })).resolves.toEqual(
        {
          email,
        },
      );
      // Stored as written.
      const profile = await server.deps.db.selectFrom("profiles").select("full_name").where("email", "=", email).executeTakeFirstOrThrow();
      expect(profile.full_name).toBe(fullName);
    }
  });

  it("creates a profile with the full name and 10 credits, with the e-mail trimmed", async () => {
    const email = uniqueEmail();
    await createBrowserLikeClient(server.url).client.auth.signUp.mutate({
      email: `  ${email} `,
      password: PASSWORD,
      fullName: "  Ana Ruiz ",
    });
    const profile = await server.deps.db.selectFrom("profiles").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ full_name: "Ana Ruiz", credits_remaining: 10 });
    const user = await server.deps.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user.email_confirmed_at).toBeNull();
  });

  it("answers an existing e-mail (in any case) with User already registered", async () => {
    const email = await registered();
    const { message, data } = failure(
      await createBrowserLikeClient(server.url)
        .client.auth.signUp.mutate({ email: email.toUpperCase(), password: PASSWORD, fullName: "Other" })
        .catch((e: unknown) => e),
    );
    expect(message).toBe(MESSAGES.userAlreadyRegistered);
    expect(data.code).toBe("CONFLICT");
  });

  it("does not sign the new user in", async () => {
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signUp.mutate({ email: uniqueEmail(), password: PASSWORD, fullName: "Ana" });
    expect(await client.auth.session.query()).toEqual({ user: null, session: null });
  });
});

describe("sign-in and sessions", () => {
  it("signs in with an HttpOnly, SameSite=Lax session cookie, and signs out", async () => {
    const email = await registered("Ana Ruiz");
    const { client, jar } = createBrowserLikeClient(server.url);
    expect(await client.auth.signIn.mutate({ email, password: PASSWORD })).toEqual({ status: "signed-in" });
    const cookie = jar.setCookieHeaders.at(-1)!;
    expect(cookie).toMatch(/^session=[a-z0-9]{24}\.[a-z0-9]{24};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Expires"); // not remembered: ends with the browser session

    const { user, session } = await client.auth.session.query();
    expect(user).toMatchObject({ email, fullName: "Ana Ruiz", emailConfirmed: false, twoFactorEnabled: false, creditsRemaining: 10 });
    expect(session).toMatchObject({ persistent: false, idleExpiresAt: clock.now() + 30 * MINUTE });

    // Only a hash of the secret is stored.
    const [id, secret] = jar.cookies.get("session")!.split(".");
    const row = await server.deps.db.selectFrom("sessions").selectAll().where("id", "=", id!).executeTakeFirstOrThrow();
    expect(Buffer.from(row.secret_hash).toString("utf8")).not.toContain(secret);
    expect(row.secret_hash.length).toBe(32);

    await client.auth.signOut.mutate();
    expect(jar.cookies.has("session")).toBe(false);
    expect(await server.deps.db.selectFrom("sessions").select("id").where("id", "=", id!).executeTakeFirst()).toBeUndefined();
  });

  it("issues a new token on every sign-in and ends the previous one", async () => {
    const email = await registered();
    const { client, jar } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    const first = jar.cookies.get("session");
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    const second = jar.cookies.get("session");
    expect(second).not.toBe(first);
    const firstId = first!.split(".")[0]!;
    expect(await server.deps.db.selectFrom("sessions").select("id").where("id", "=", firstId).executeTakeFirst()).toBeUndefined();
  });

  it("refuses a forged secret for a real session id", async () => {
    const email = await registered();
    const { client, jar } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    const [id] = jar.cookies.get("session")!.split(".");
    jar.cookies.set("session", `${id}.${"a".repeat(24)}`);
    expect((await client.auth.session.query()).user).toBeNull();
    expect(jar.cookies.has("session")).toBe(false);
  });

  it("ends the session of an account disabled while it was signed in, on its next request", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    expect((await client.auth.session.query()).user?.email).toBe(email);
    // Disabled in the database alone: the session row stays, the session check must refuse it.
    await server.deps.db.updateTable("users").set({ disabled_at: clock.now() }).where("email", "=", email).execute();
    expect((await client.auth.session.query()).user).toBeNull();
  });

  it("ends a session after 30 minutes without activity, and activity keeps it alive", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    clock.advance(20 * MINUTE);
    expect((await client.auth.session.query()).user?.email).toBe(email); // activity recorded
    clock.advance(20 * MINUTE);
    const alive = await client.auth.session.query();
    expect(alive.user?.email).toBe(email);
    expect(alive.session?.idleExpiresAt).toBe(clock.now() + 30 * MINUTE);
    clock.advance(30 * MINUTE);
    expect(await client.auth.session.query()).toEqual({ user: null, session: null });
  });

  it("sends its own (injected) time in a header, which the client's idle timer uses", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(Number(response.headers.get("x-server-time"))).toBe(clock.now());
  });

  it("records activity at most once a minute", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    const signedInAt = clock.now();
    clock.advance(30_000);
    expect((await client.auth.session.query()).session?.idleExpiresAt).toBe(signedInAt + 30 * MINUTE);
    clock.advance(30_000);
    expect((await client.auth.session.query()).session?.idleExpiresAt).toBe(clock.now() + 30 * MINUTE);
  });

  it("extendSession restarts the idle timer", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    clock.advance(25 * MINUTE);
    expect(await client.auth.extendSession.mutate()).toMatchObject({ idleExpiresAt: clock.now() + 30 * MINUTE });
  });

  it("remember me keeps the session 30 days whatever the activity, then ends it", async () => {
    const email = await registered();
    const { client, jar } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD, rememberMe: true });
    expect(jar.setCookieHeaders.at(-1)).toContain(`Expires=${new Date(clock.now() + 30 * DAY).toUTCString()}`);
    expect((await client.auth.session.query()).session).toMatchObject({
      persistent: true,
      idleExpiresAt: null,
      expiresAt: clock.now() + 30 * DAY,
    });
    clock.advance(30 * DAY - MINUTE);
    expect((await client.auth.session.query()).user?.email).toBe(email);
    clock.advance(MINUTE);
    expect((await client.auth.session.query()).user).toBeNull();
  });

  it("behind HTTPS uses a Secure __Host- cookie", async () => {
    const secure = await startTestServer({ PUBLIC_URL: "https://studio.example.com" }, { clock });
    try {
      const { client, jar } = createBrowserLikeClient(secure.url);
      const email = uniqueEmail();
      await client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana" });
      await client.auth.signIn.mutate({ email, password: PASSWORD });
      const cookie = jar.setCookieHeaders.at(-1)!;
      expect(cookie).toMatch(/^__Host-session=/);
      expect(cookie).toContain("Secure");
      expect(cookie).toContain("Path=/");
      expect(cookie).not.toContain("Domain");
      expect((await client.auth.session.query()).user?.email).toBe(email);
    } finally {
      await secure.stop();
    }
  });

  it("without SMTP_URL keeps mail in the built-in outbox", async () => {
    const email = await registered();
    const mail = await server.deps.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", email).executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ transport: "outbox", subject: "Confirm your RoomCanvas account", sent_at: null, error: null });
    expect(mail.text_body).toMatch(/\/auth\/confirm\?token=/);
  });

  it("REQUIRE_EMAIL_VERIFICATION refuses an unconfirmed address", async () => {
    const strict = await startTestServer({ REQUIRE_EMAIL_VERIFICATION: "true" }, { clock });
    try {
      const { client } = createBrowserLikeClient(strict.url);
      const email = uniqueEmail();
      await client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana" });
      expect(await client.auth.signIn.mutate({ email, password: PASSWORD })).toEqual({ status: "email-not-confirmed" });
    } finally {
      await strict.stop();
    }
  });

  it("creates a missing profile at sign-in", async () => {
    const email = await registered();
    await server.deps.db.deleteFrom("profiles").where("email", "=", email).execute();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    expect((await client.auth.session.query()).user).toMatchObject({ fullName: email, creditsRemaining: 10 });
  });
});

describe("lockout", () => {
  it("counts down the attempts, locks at 5 for 15 minutes, then lets the right password in", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    for (const remaining of [4, 3, 2, 1]) {
      const result = await client.auth.signIn.mutate({ email, password: "Wrong-pass1" });
      expect(result).toMatchObject({ status: "invalid-credentials", lockout: { isLocked: false, attemptsRemaining: remaining } });
    }
    expect(await client.auth.signIn.mutate({ email, password: "Wrong-pass1" })).toMatchObject({
      status: "locked",
      lockout: { isLocked: true, attemptsRemaining: 0, minutesRemaining: 15 },
    });
    // Even the right password is refused while locked.
    expect(await client.auth.signIn.mutate({ email, password: PASSWORD })).toMatchObject({ status: "locked" });
    expect(await client.auth.validateLogin.query({ email })).toMatchObject({ isLocked: true, minutesRemaining: 15, attemptsRemaining: 0 });
    clock.advance(14 * MINUTE);
    expect(await client.auth.validateLogin.query({ email })).toMatchObject({ isLocked: true, minutesRemaining: 1 });
    clock.advance(MINUTE);
    expect(await client.auth.validateLogin.query({ email })).toMatchObject({ isLocked: false, attemptsRemaining: 5 });
    expect(await client.auth.signIn.mutate({ email, password: PASSWORD })).toEqual({ status: "signed-in" });
  });

  it("a successful sign-in resets the count", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signIn.mutate({ email, password: "Wrong-pass1" });
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    expect(await client.auth.validateLogin.query({ email })).toMatchObject({ isLocked: false, attemptsRemaining: 5 });
  });

  it("40 parallel wrong passwords check at most 5 and lock the account", async () => {
    const email = await registered();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => createBrowserLikeClient(server.url).client.auth.signIn.mutate({ email, password: "Wrong-pass1" })),
    );
    // Attempts 1-4 are checked and refused; the 5th is checked and locks; the other 35 are never checked.
    expect(results.filter((result) => result.status === "invalid-credentials")).toHaveLength(4);
    expect(results.filter((result) => result.status === "locked")).toHaveLength(36);
    const row = await server.deps.db.selectFrom("login_attempts").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(row.failed_count).toBe(5);
    expect(row.locked_until).toBe(clock.now() + 15 * MINUTE);
    expect(await createBrowserLikeClient(server.url).client.auth.signIn.mutate({ email, password: PASSWORD })).toMatchObject({
      status: "locked",
    });
  });

  it("treats an unknown address exactly like a wrong password", async () => {
    const { client } = createBrowserLikeClient(server.url);
    const email = uniqueEmail();
    expect(await client.auth.signIn.mutate({ email, password: PASSWORD })).toMatchObject({
      status: "invalid-credentials",
      lockout: { attemptsRemaining: 4 },
    });
  });

  it("record-login-attempt counts a reported failure, and a visitor claiming success cannot unlock", async () => {
    const email = await registered();
    const { client } = createBrowserLikeClient(server.url);
    expect(await client.auth.recordLoginAttempt.mutate({ email, success: false, ipAddress: null, userAgent: "test" })).toMatchObject({
      isLocked: false,
      attemptsRemaining: 4,
    });
    for (let i = 0; i < 4; i++) await client.auth.recordLoginAttempt.mutate({ email, success: false });
    expect(await client.auth.recordLoginAttempt.mutate({ email, success: true })).toMatchObject({ isLocked: true, attemptsRemaining: 0 });
  });
});

describe("request guards", () => {
  it("refuses a cross-site POST with 403", async () => {
    const email = await registered();
    const evil = createBrowserLikeClient(server.url, undefined, { origin: "http://evil.example" }).client;
    const error = (await evil.auth.signIn.mutate({ email, password: PASSWORD }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error.meta?.response).toMatchObject({ status: 403 });

    const fetchSite = createBrowserLikeClient(server.url, undefined, { "sec-fetch-site": "cross-site" }).client;
    const second = (await fetchSite.auth.signOut.mutate().catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(second.meta?.response).toMatchObject({ status: 403 });

    const host = new URL(server.url).host;
    const same = createBrowserLikeClient(server.url, undefined, { origin: `http://${host}`, "sec-fetch-site": "same-origin" }).client;
    expect(await same.auth.signIn.mutate({ email, password: PASSWORD })).toEqual({ status: "signed-in" });
  });

  it("limits sign-in attempts per client address", async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "3" }, { clock });
    try {
      const { client } = createBrowserLikeClient(limited.url);
      for (let i = 0; i < 3; i++) await client.auth.signIn.mutate({ email: `x${i}@example.com`, password: "Whatever1" });
      const { message, data } = failure(
        await client.auth.signIn.mutate({ email: "y@example.com", password: "Whatever1" }).catch((e: unknown) => e),
      );
      expect(message).toBe(MESSAGES.tooManyRequests);
      expect(data.httpStatus).toBe(429);
      clock.advance(MINUTE);
      await expect(client.auth.signIn.mutate({ email: "z@example.com", password: "Whatever1" })).resolves.toMatchObject({
        status: "invalid-credentials",
      });
    } finally {
      await limited.stop();
    }
  });
});
