/**
 * Housekeeping (issue 16): one pass removes expired sessions, mail links a week past expiry,
 * expired two-factor challenges, analytics past retention and files that belong to no upload or
 * render (a day old at least), keeps what is still in use, records what it removed for /admin, and
 * an admin's "Run now" is audited and refused while a pass runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { failure } from "../helpers/failure";
import { roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, TestClock } from "../helpers/test-clock";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("housekeeping", () => {
  it("removes what expired and what belongs to nothing, keeps what is in use, and records the pass", async () => {
    const clock = new TestClock(Date.now());
    server = await startTestServer({ ANALYTICS_RETENTION_DAYS: "30" }, { clock });
    const { db } = server.deps;
    const { storage } = server.deps;
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(320, 240));
    expect(uploaded.status).toBe(201);
    await db
      .insertInto("analytics_events")
      .values({
        category: "navigation",
        action: "page_view",
        label: null,
        value: null,
        metadata: null,
        user_id: null,
        session_id: "s1",
        occurred_at: clock.now(),
        received_at: clock.now(),
      })
      .execute();
    // A file of an upload that is gone, and one of a render that never was.
    await storage.put(UPLOAD_BUCKET, "uploads/gone-upload-id/original.jpg", Buffer.from("left behind"), "image/jpeg");
    await storage.put(UPLOAD_BUCKET, "renders/never-was-a-job/full.jpg", Buffer.from("left behind too"), "image/jpeg");

    // The pass every start runs is over.
    await expect.poll(() => server!.services.housekeeping.isRunning()).toBe(false);
    // Today nothing is old enough: the orphans are younger than a day, the session and link are valid.
    const today = await server.services.housekeeping.runNow("schedule");
    expect(today.removed).toMatchObject({ expiredSessions: 0, expiredMailLinks: 0, oldAnalyticsEvents: 0, orphanFiles: 0 });
    expect(await storage.get(UPLOAD_BUCKET, "uploads/gone-upload-id/original.jpg")).not.toBeNull();

    clock.advance(40 * DAY);
    const later = await server.services.housekeeping.runNow("schedule");
    expect(later.errors).toEqual({});
    expect(later.removed.expiredSessions).toBeGreaterThanOrEqual(1);
    expect(later.removed.expiredMailLinks).toBeGreaterThanOrEqual(1);
    expect(later.removed.oldAnalyticsEvents).toBe(1);
    expect(later.removed.orphanFiles).toBe(2);
    expect(later.removed.orphanBytes).toBe("left behind".length + "left behind too".length);
    expect(await storage.get(UPLOAD_BUCKET, "uploads/gone-upload-id/original.jpg")).toBeNull();
    expect(await storage.get(UPLOAD_BUCKET, "renders/never-was-a-job/full.jpg")).toBeNull();
    // The user's own picture stays: its upload row is there.
    const own = await db
      .selectFrom("uploads")
      .select(["original_key", "thumb_key"])
      .where("id", "=", uploaded.body.imageId)
      .executeTakeFirstOrThrow();
    expect(await storage.get(UPLOAD_BUCKET, own.original_key)).not.toBeNull();
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", user.userId).execute()).toEqual([]);

    const last = await server.services.housekeeping.last();
    expect(last).toMatchObject({ id: later.id, trigger: "schedule", removed: later.removed });
  });

  it("lets an admin run a pass from /admin (audited), refuses a second at once, and refuses non-admins", async () => {
    server = await startTestServer();
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    await expect.poll(() => server!.services.housekeeping.isRunning()).toBe(false);
    const [one, two] = await Promise.allSettled([admin.client.admin.runHousekeeping.mutate(), admin.client.admin.runHousekeeping.mutate()]);
    const refused = [one, two].filter((outcome) => outcome.status === "rejected") as PromiseRejectedResult[];
    expect(refused).toHaveLength(1);
    expect(failure(refused[0]!.reason)).toMatchObject({
      message: "Housekeeping is running right now. Wait for it to finish.",
      data: { code: "CONFLICT" },
    });
    const status = await admin.client.admin.housekeeping.query();
    expect(status.running).toBe(false);
    expect(status.last).toMatchObject({ trigger: "admin", errors: {} });
    const audit = await server.deps.db.selectFrom("admin_audit").selectAll().where("action", "=", "housekeeping.run").execute();
    expect(audit).toHaveLength(1);

    const member = await signedInClient(server.url);
    await expect(member.client.admin.runHousekeeping.mutate()).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
  });
});
