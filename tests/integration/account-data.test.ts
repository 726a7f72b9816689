/** The user's own account: /profile's figures, changing the name, and deleting the account with all its data. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { collectEvents, createStudioClient, isFinal, PASSWORD, roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";

describe("the user's own account", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows the profile with credits, member since and render statistics; the name can change", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(400, 300));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: ["coastal", "coastal", "modern"],
    });
    for (const job of jobs) await collectEvents(user, { jobId: job.id }, (seen) => seen.some((e) => isFinal(e.event)));
    const profile = await user.client.account.profile.query();
    expect(profile).toMatchObject({
      email: user.email,
      fullName: "Ana Lima",
      credits: 8,
      hasPassword: true,
      renders: { total: 2, succeeded: 2, failed: 0 },
      projects: 1,
    });
    expect(profile.favouriteStyles).toEqual(
      expect.arrayContaining([
        { style: "coastal", count: 1, styleName: null, palette: null },
        { style: "modern", count: 1, styleName: null, palette: null },
      ]),
    );
    expect(Math.abs(profile.memberSince - Date.now())).toBeLessThan(60_000);
    await user.client.account.updateProfile.mutate({ fullName: "Ana María Lima" });
    expect((await user.client.account.profile.query()).fullName).toBe("Ana María Lima");
    expect(await user.client.account.updateProfile.mutate({ fullName: "A" }).catch(failure)).toMatchObject({
      data: { code: "BAD_REQUEST" },
    });

    const stats = await createStudioClient(server.url).client.system.landingStats.query();
    expect(stats.rendersMade).toBeGreaterThanOrEqual(2);
    expect(stats.averageRenderSeconds).toBeGreaterThan(0);
  });

  it("deletes the account and all its data only with the e-mail and password typed", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(400, 300));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "luxury",
    });
    await collectEvents(user, { jobId: jobs[0]!.id }, (seen) => seen.some((e) => isFinal(e.event)));

    expect(
      await user.client.account.deleteAccount.mutate({ confirmEmail: "someone@else.com", password: PASSWORD }).catch(failure),
    ).toMatchObject({ message: MESSAGES.deleteConfirmationMismatch });
    expect(
      await user.client.account.deleteAccount.mutate({ confirmEmail: user.email, password: "Wrong-password1" }).catch(failure),
    ).toMatchObject({ message: MESSAGES.currentPasswordWrong });
    expect(await user.client.account.deleteAccount.mutate({ confirmEmail: user.email.toUpperCase(), password: PASSWORD })).toEqual({
      ok: true,
    });

    expect((await user.client.auth.session.query()).user).toBeNull();
    const db = server.deps.db;
    for (const table of ["users", "profiles", "sessions", "projects", "uploads", "render_jobs", "credit_ledger"] as const) {
      const column = table === "users" ? "id" : "user_id";
      const rows = await db.selectFrom(table).select(column).where(column, "=", user.userId).execute();
      expect(rows, table).toEqual([]);
    }
    const storage = path.join(server.deps.env.DATA_DIR, "storage/project-uploads");
    expect(fs.readdirSync(path.join(storage, "uploads", uploaded.body.imageId))).toEqual([]);
    expect(fs.readdirSync(path.join(storage, "renders", jobs[0]!.id))).toEqual([]);
    expect(await createStudioClient(server.url).client.auth.signIn.mutate({ email: user.email, password: PASSWORD })).toMatchObject({
      status: "invalid-credentials",
    });
  });
});
