/** Google sign-in against Google's token endpoint faked at the HTTP layer (undici MockAgent). */
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from "undici";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { CookieJar, createBrowserLikeClient } from "../helpers/trpc-client";

const clock = new TestClock();
let server: TestServer;
let previousDispatcher: Dispatcher;
let google: MockAgent | undefined;
let counter = 0;

function idToken(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part({ iss: "https://accounts.google.com", aud: "client-id", ...claims })}.signature`;
}

beforeAll(async () => {
  server = await startTestServer(
    { GOOGLE_CLIENT_ID: "client-id", GOOGLE_CLIENT_SECRET: "client-secret", PUBLIC_URL: "http://studio.test" },
    { clock },
  );
  previousDispatcher = getGlobalDispatcher();
});
afterEach(async () => {
  setGlobalDispatcher(previousDispatcher);
  await google?.close();
  google = undefined;
});
afterAll(async () => {
  await server?.stop();
});

/** Fakes Google's token endpoint for one exchange and records what it was sent. */
function fakeGoogle(claims: Record<string, unknown>, status = 200): { sent: () => URLSearchParams | null } {
  const agent = new MockAgent();
  google = agent;
  agent.enableNetConnect((host) => host.startsWith("127.0.0.1"));
  let body: URLSearchParams | null = null;
  agent
    .get("https://oauth2.googleapis.com")
    .intercept({ path: "/token", method: "POST" })
    .reply(status, (options) => {
      body = new URLSearchParams(Buffer.from(options.body as Uint8Array).toString("utf8"));
      return status === 200
        ? { access_token: "at", token_type: "Bearer", expires_in: 3600, id_token: idToken(claims) }
        : { error: "invalid_grant" };
    });
  setGlobalDispatcher(agent);
  return { sent: () => body };
}

/** Starts the flow like a browser: follows /auth/google and returns what Google would get (the state and the PKCE challenge). */
async function startFlow(jar: CookieJar): Promise<{ state: string; codeChallenge: string }> {
  const response = await jar.fetch(`${server.url}/auth/google`, { redirect: "manual" });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!);
  expect(location.origin + location.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
  expect(location.searchParams.get("redirect_uri")).toBe("http://studio.test/auth/google/callback");
  expect(location.searchParams.get("code_challenge_method")).toBe("S256");
  expect(location.searchParams.get("scope")).toBe("openid profile email");
  const cookies = response.headers.getSetCookie();
  expect(cookies.every((cookie) => /HttpOnly/.test(cookie) && /Max-Age=600/.test(cookie))).toBe(true);
  return { state: location.searchParams.get("state")!, codeChallenge: location.searchParams.get("code_challenge")! };
}

describe("Google sign-in", () => {
  it("creates an account with a confirmed address and 10 credits, and lands on /dashboard", async () => {
    counter += 1;
    const email = `g${counter}.${Date.now()}@gmail.com`;
    const exchange = fakeGoogle({ sub: `google-${counter}`, email, email_verified: true, name: "Zoë García" });
    const jar = new CookieJar();
    const { state, codeChallenge } = await startFlow(jar);
    const callback = await jar.fetch(`${server.url}/auth/google/callback?code=the-code&state=${state}`, { redirect: "manual" });
    expect(callback.headers.get("location")).toBe("/dashboard");
    expect(exchange.sent()?.get("code")).toBe("the-code");
    // PKCE (S256): the verifier sent to the token endpoint is the one whose SHA-256 the authorization request carried.
    const verifier = exchange.sent()?.get("code_verifier") ?? "";
    expect(verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(codeChallenge);

    const { client } = createBrowserLikeClient(server.url, jar);
    expect((await client.auth.session.query()).user).toMatchObject({
      email,
      fullName: "Zoë García",
      emailConfirmed: true,
      creditsRemaining: 10,
    });
    // No password: the profile says so (it reads whether there is a hash, not the hash).
    expect(await client.account.profile.query()).toMatchObject({ email, hasPassword: false, emailConfirmed: true });
  });

  it("links to the existing account with the same address", async () => {
    counter += 1;
    const email = `g${counter}.${Date.now()}@gmail.com`;
    await createBrowserLikeClient(server.url).client.auth.signUp.mutate({ email, password: "Correct-Horse1", fullName: "Ana" });
    fakeGoogle({ sub: `google-${counter}`, email, email_verified: true, name: "Ana G" });
    const jar = new CookieJar();
    // Signed in with the password first: the Google sign-in replaces that session.
    await createBrowserLikeClient(server.url, jar).client.auth.signIn.mutate({ email, password: "Correct-Horse1" });
    const passwordSessionId = jar.cookies.get("session")!.split(".")[0]!;
    const { state } = await startFlow(jar);
    await jar.fetch(`${server.url}/auth/google/callback?code=c&state=${state}`, { redirect: "manual" });
    expect(jar.cookies.get("session")!.split(".")[0]).not.toBe(passwordSessionId);
    expect(await server.deps.db.selectFrom("sessions").select("id").where("id", "=", passwordSessionId).executeTakeFirst()).toBeUndefined();
    const { user } = await createBrowserLikeClient(server.url, jar).client.auth.session.query();
    expect(user).toMatchObject({ email, fullName: "Ana", emailConfirmed: true });
    const users = await server.deps.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(users).toHaveLength(1);
  });

  it("refuses a callback whose state does not match the cookie", async () => {
    fakeGoogle({ sub: "x", email: "x@gmail.com", email_verified: true });
    const jar = new CookieJar();
    await startFlow(jar);
    const callback = await jar.fetch(`${server.url}/auth/google/callback?code=c&state=forged`, { redirect: "manual" });
    expect(callback.headers.get("location")).toBe("/auth?error=google_failed");
    expect(jar.cookies.has("session")).toBe(false);
  });

  it("refuses an unverified address and a failed code exchange", async () => {
    fakeGoogle({ sub: "y", email: "y@gmail.com", email_verified: false });
    let jar = new CookieJar();
    let { state } = await startFlow(jar);
    expect(
      (await jar.fetch(`${server.url}/auth/google/callback?code=c&state=${state}`, { redirect: "manual" })).headers.get("location"),
    ).toBe("/auth?error=google_failed");
    await google?.close();
    fakeGoogle({}, 400);
    jar = new CookieJar();
    ({ state } = await startFlow(jar));
    expect(
      (await jar.fetch(`${server.url}/auth/google/callback?code=c&state=${state}`, { redirect: "manual" })).headers.get("location"),
    ).toBe("/auth?error=google_failed");
  });

  it("says it is not configured when the keys are missing", async () => {
    const plain = await startTestServer({}, { clock });
    try {
      const response = await fetch(`${plain.url}/auth/google`, { redirect: "manual" });
      expect(response.headers.get("location")).toBe("/auth?error=google_not_configured");
      expect(await createBrowserLikeClient(plain.url).client.auth.providers.query()).toEqual({ google: false });
    } finally {
      await plain.stop();
    }
    expect(await createBrowserLikeClient(server.url).client.auth.providers.query()).toEqual({ google: true });
  });
});
