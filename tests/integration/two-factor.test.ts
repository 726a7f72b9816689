import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { VALIDATION_MESSAGES } from "../../src/shared/auth-schemas";
import { totpCode, totpStep } from "../../src/server/auth/two-factor";
import type { AppRouter } from "../../src/server/trpc/root";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { createBrowserLikeClient } from "../helpers/trpc-client";

const clock = new TestClock();
let server: TestServer;
let counter = 0;
const PASSWORD = "Correct-Horse1";

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

function message(error: unknown): string {
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<AppRouter>).message;
}

/** A user with two-factor enrolled from the shown secret, as an authenticator app would. */
async function enrolledUser() {
  counter += 1;
  const email = `tf${counter}.${Date.now()}@example.com`;
  const { client } = createBrowserLikeClient(server.url);
  await client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana" });
  await client.auth.signIn.mutate({ email, password: PASSWORD });
  const enrollment = await client.twoFactor.beginEnrollment.mutate({ password: PASSWORD });
  expect(enrollment.uri).toMatch(/^otpauth:\/\/totp\/RoomCanvas:.*secret=/);
  expect(enrollment.qrSvg).toMatch(/^<svg/);
  const key = decodeBase32IgnorePadding(enrollment.secret);
  const code = () => totpCode(key, totpStep(clock.now()));
  const { backupCodes } = await client.twoFactor.confirmEnrollment.mutate({ code: code() });
  await client.auth.signOut.mutate();
  clock.advance(30_000); // the next code
  return { email, code, backupCodes, key };
}

describe("two-factor", () => {
  it("asks for the password again before setting up, and refuses a wrong one (issue 27)", async () => {
    counter += 1;
    const email = `tf${counter}.${Date.now()}@example.com`;
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana" });
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    expect(message(await client.twoFactor.beginEnrollment.mutate({ password: "Wrong-Horse1" }).catch((e: unknown) => e))).toBe(
      MESSAGES.currentPasswordWrong,
    );
    const user = await server.deps.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(await server.deps.db.selectFrom("two_factor").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
    expect((await client.twoFactor.beginEnrollment.mutate({ password: PASSWORD })).secret).toMatch(/^[A-Z2-7]+$/);
  });

  it("stores the key encrypted and gives 10 backup codes of 8 characters, stored hashed", async () => {
    const { email, backupCodes, key } = await enrolledUser();
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const user = await server.deps.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const row = await server.deps.db.selectFrom("two_factor").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.secret_encrypted).toMatch(/^v1\./);
    expect(row.secret_encrypted).not.toContain(Buffer.from(key).toString("base64url"));
    const stored = await server.deps.db.selectFrom("backup_codes").select("code_hash").where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored)
      for (const code of backupCodes) expect(Buffer.from(code_hash).toString("latin1")).not.toContain(code);
  });

  it("issues no session before the second factor, then signs in with a code", async () => {
    const { email, code } = await enrolledUser();
    const { client } = createBrowserLikeClient(server.url);
    const first = await client.auth.signIn.mutate({ email, password: PASSWORD, rememberMe: true });
    expect(first.status).toBe("two-factor-required");
    expect((await client.auth.session.query()).user).toBeNull();
    const challengeToken = (first as { challengeToken: string }).challengeToken;

    expect(await client.auth.verifyTwoFactor.mutate({ challengeToken, code: code(), backup: false })).toEqual({
      status: "signed-in",
      usedBackupCode: false,
    });
    const { user, session } = await client.auth.session.query();
    expect(user).toMatchObject({ email, twoFactorEnabled: true });
    expect(session?.persistent).toBe(true);
  });

  it("says the setup code was already used when it signs in within its 30 s, and a wrong code is still wrong (issue 27)", async () => {
    counter += 1;
    const email = `tf${counter}.${Date.now()}@example.com`;
    const { client } = createBrowserLikeClient(server.url);
    await client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana" });
    await client.auth.signIn.mutate({ email, password: PASSWORD });
    const key = decodeBase32IgnorePadding((await client.twoFactor.beginEnrollment.mutate({ password: PASSWORD })).secret);
    const setupCode = totpCode(key, totpStep(clock.now()));
    await client.twoFactor.confirmEnrollment.mutate({ code: setupCode });
    await client.auth.signOut.mutate();

    const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    const verify = (code: string) => client.auth.verifyTwoFactor.mutate({ challengeToken, code, backup: false }).catch((e: unknown) => e);
    expect(message(await verify(setupCode))).toBe(MESSAGES.verificationCodeUsed);
    expect(message(await verify(setupCode === "000000" ? "111111" : "000000"))).toBe(MESSAGES.invalidVerificationCode);
    clock.advance(30_000);
    expect(await verify(totpCode(key, totpStep(clock.now())))).toEqual({ status: "signed-in", usedBackupCode: false });
  });

  it("refuses a code used once already (replay), saying it was used", async () => {
    const { email, code } = await enrolledUser();
    const used = code();
    const a = createBrowserLikeClient(server.url).client;
    const first = (await a.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    await a.auth.verifyTwoFactor.mutate({ challengeToken: first.challengeToken, code: used, backup: false });

    const b = createBrowserLikeClient(server.url).client;
    const second = (await b.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    expect(
      message(
        await b.auth.verifyTwoFactor.mutate({ challengeToken: second.challengeToken, code: used, backup: false }).catch((e: unknown) => e),
      ),
    ).toBe(MESSAGES.verificationCodeUsed);
    clock.advance(30_000);
    expect((await b.auth.verifyTwoFactor.mutate({ challengeToken: second.challengeToken, code: code(), backup: false })).status).toBe(
      "signed-in",
    );
  });

  it("accepts each backup code once, in any case", async () => {
    const { email, backupCodes } = await enrolledUser();
    const signInWithBackup = async (backupCode: string) => {
      const { client } = createBrowserLikeClient(server.url);
      const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
      return client.auth.verifyTwoFactor.mutate({ challengeToken, code: backupCode, backup: true });
    };
    expect(await signInWithBackup(backupCodes[0]!.toLowerCase())).toEqual({ status: "signed-in", usedBackupCode: true });
    expect(message(await signInWithBackup(backupCodes[0]!).catch((e: unknown) => e))).toBe(MESSAGES.invalidVerificationCode);
    expect((await signInWithBackup(backupCodes[1]!)).status).toBe("signed-in");
  });

  it("validates the code's shape with the spec's messages", async () => {
    const { email } = await enrolledUser();
    const { client } = createBrowserLikeClient(server.url);
    const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    const fieldError = async (code: string, backup: boolean) => {
      const error = (await client.auth.verifyTwoFactor
        .mutate({ challengeToken, code, backup })
        .catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
      return (error.data as { zodError: { fieldErrors: Record<string, string[]> } }).zodError.fieldErrors.code?.[0];
    };
    expect(await fieldError("", false)).toBe(VALIDATION_MESSAGES.codeRequired);
    expect(await fieldError("12345", false)).toBe(VALIDATION_MESSAGES.codeInvalid);
    expect(await fieldError("ABCDEFG", true)).toBe(VALIDATION_MESSAGES.codeInvalid);
  });

  it("ends the pending sign-in after 5 wrong codes", async () => {
    const { email, code } = await enrolledUser();
    const { client } = createBrowserLikeClient(server.url);
    const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    const wrong = code() === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      expect(
        message(await client.auth.verifyTwoFactor.mutate({ challengeToken, code: wrong, backup: false }).catch((e: unknown) => e)),
      ).toBe(MESSAGES.invalidVerificationCode);
    }
    expect(
      message(await client.auth.verifyTwoFactor.mutate({ challengeToken, code: code(), backup: false }).catch((e: unknown) => e)),
    ).toBe(MESSAGES.twoFactorChallengeExpired);
    expect((await client.auth.session.query()).user).toBeNull();
  });

  it("locks the second factor for an hour after 10 wrong codes across sign-ins, and mails the owner (security probe item 3)", async () => {
    const { email, code } = await enrolledUser();
    const { client } = createBrowserLikeClient(server.url);
    const wrong = () => (code() === "000000" ? "111111" : "000000");
    const outbox = () => server.deps.db.selectFrom("mail_outbox").select(["subject"]).where("to_address", "=", email).execute();
    const mailsBefore = (await outbox()).length;
    // A correct password opens a new challenge each time: 4 + 4 + 2 wrong codes over three sign-ins.
    for (const guesses of [4, 4, 2]) {
      const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
      for (let i = 0; i < guesses; i++) {
        expect(
          message(await client.auth.verifyTwoFactor.mutate({ challengeToken, code: wrong(), backup: false }).catch((e: unknown) => e)),
        ).toBe(MESSAGES.invalidVerificationCode);
      }
    }
    // Locked: the password no longer opens a challenge, even with the right code at hand.
    expect(message(await client.auth.signIn.mutate({ email, password: PASSWORD }).catch((e: unknown) => e))).toBe(MESSAGES.twoFactorLocked);
    const mails = await outbox();
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.subject).toMatch(/guessed wrong/);
    // An hour later the failures have aged out and the right code signs in.
    clock.advance(60 * 60_000);
    const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    expect((await client.auth.verifyTwoFactor.mutate({ challengeToken, code: code(), backup: false })).status).toBe("signed-in");
  });

  it("disabling needs a current code", async () => {
    const { email, code } = await enrolledUser();
    const { client } = createBrowserLikeClient(server.url);
    const { challengeToken } = (await client.auth.signIn.mutate({ email, password: PASSWORD })) as { challengeToken: string };
    await client.auth.verifyTwoFactor.mutate({ challengeToken, code: code(), backup: false });
    clock.advance(30_000);
    const wrong = code() === "000000" ? "111111" : "000000";
    expect(message(await client.twoFactor.disable.mutate({ code: wrong }).catch((e: unknown) => e))).toBe(MESSAGES.invalidVerificationCode);
    await client.twoFactor.disable.mutate({ code: code() });
    expect((await client.auth.session.query()).user?.twoFactorEnabled).toBe(false);
    await client.auth.signOut.mutate();
    expect(await client.auth.signIn.mutate({ email, password: PASSWORD })).toEqual({ status: "signed-in" });
  });
});
