/** Helpers of the render tests: photos made with sharp, uploads over HTTP, signed-in clients, live events, waiting for renders. */
import sharp from "sharp";
import type { RenderEvent, UploadResponse } from "../../src/shared/render";
import { createStudioClient, type CookieJar, type StudioClient } from "../../scripts/lib/studio-client";
import type { AppDatabase } from "../../src/server/db/client";
import { waitUntil } from "./wait";

export { createStudioClient, type StudioClient };

export const PASSWORD = "Correct-Horse1";
let counter = 0;
export const uniqueEmail = () => `render${++counter}.${Date.now()}@example.com`;

/** A room-like photo: a JPEG of the given size. */
export function roomPhoto(width = 1200, height = 900): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#b8a98f"/><rect y="${height * 0.7}" width="100%" height="${height * 0.3}" fill="#7c5f43"/><rect x="${width * 0.1}" y="${height * 0.5}" width="${width * 0.4}" height="${height * 0.2}" rx="20" fill="#6b6f76"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export async function signedInClient(baseUrl: string, email = uniqueEmail()): Promise<StudioClient & { email: string; userId: string }> {
  const studio = createStudioClient(baseUrl);
  await studio.client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana Lima" });
  await studio.client.auth.signIn.mutate({ email, password: PASSWORD });
  const session = await studio.client.auth.session.query();
  return { ...studio, email, userId: session.user!.id };
}

/**
 * Confirms the account's address as its owner would: opens the link of the sign-up mail, read from
 * the outbox. Engines that bill each render (Replicate, OpenAI) spend free credits only then.
 */
export async function confirmAddress(baseUrl: string, db: AppDatabase, email: string): Promise<void> {
  const mail = await db
    .selectFrom("mail_outbox")
    .select("text_body")
    .where("to_address", "=", email)
    .where("subject", "like", "Confirm%")
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  const link = /\/auth\/confirm\?token=[\w.-]+/.exec(mail.text_body)?.[0];
  if (!link) throw new Error(`no confirmation link in the mail to ${email}`);
  const response = await fetch(`${baseUrl}${link}`, { redirect: "manual" });
  if (response.headers.get("location") !== "/?emailConfirmed=1") throw new Error(`${email} was not confirmed`);
}

/** A new account, signed in, whose address is confirmed: what renders on engines that bill each call need. */
export async function confirmedClient(server: { url: string; deps: { db: AppDatabase } }) {
  const user = await signedInClient(server.url);
  await confirmAddress(server.url, server.deps.db, user.email);
  return user;
}

export async function upload(
  baseUrl: string,
  jar: CookieJar,
  bytes: Buffer,
  query: Record<string, string> = {},
  contentType = "image/jpeg",
): Promise<{ status: number; body: UploadResponse & { error?: string } }> {
  const params = new URLSearchParams(query).toString();
  const response = await jar.fetch(`${baseUrl}/api/uploads${params ? `?${params}` : ""}`, {
    method: "POST",
    headers: { "content-type": contentType, origin: baseUrl },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: (await response.json()) as UploadResponse & { error?: string } };
}

export interface ReceivedEvent {
  id: string;
  event: RenderEvent;
}

/**
 * Subscribes to render events and collects them until `until` says stop (or the time runs out).
 * lastEventId resumes after an event already seen.
 */
export function collectEvents(
  studio: StudioClient,
  input: { jobId?: string; lastEventId?: string | null },
  until: (events: ReceivedEvent[]) => boolean,
  timeoutMs = 15_000,
): Promise<ReceivedEvent[]> {
  return new Promise((resolve, reject) => {
    const events: ReceivedEvent[] = [];
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`timed out with events: ${JSON.stringify(events.map((e) => e.event.type))}`));
    }, timeoutMs);
    const subscription = studio.client.render.events.subscribe(input, {
      onData(tracked) {
        events.push({ id: tracked.id, event: tracked.data });
        if (until(events)) {
          clearTimeout(timer);
          subscription.unsubscribe();
          resolve(events);
        }
      },
      onError(error) {
        clearTimeout(timer);
        reject(error);
      },
    });
  });
}

export const isFinal = (event: RenderEvent) => event.type === "succeeded" || event.type === "failed" || event.type === "canceled";

/** Collects until every one of the jobs has ended. */
export function untilAllFinal(jobIds: string[]) {
  return (events: ReceivedEvent[]) => jobIds.every((id) => events.some((e) => e.event.jobId === id && isFinal(e.event)));
}

const FINAL_STATUSES = ["succeeded", "failed", "canceled"];

/**
 * Waits until every one of the owner's jobs has ended (by asking render.job, as a page would) and
 * throws unless each one succeeded. The error names the jobs that did not, with their status and error.
 */
export async function waitForRenders(studio: StudioClient, jobIds: string[], options: { timeoutMs?: number } = {}): Promise<void> {
  const read = () =>
    Promise.all(
      jobIds.map(async (id) => {
        const { status, percent, error } = await studio.client.render.job.query({ id });
        return { id, status, percent, error };
      }),
    );
  const jobs = await waitUntil(read, {
    message: `${jobIds.length === 1 ? "the render" : `${jobIds.length} renders`} to end`,
    until: (all) => all.every((job) => FINAL_STATUSES.includes(job.status)),
    timeoutMs: options.timeoutMs ?? 20_000,
    intervalMs: 100,
  });
  const unsuccessful = jobs.filter((job) => job.status !== "succeeded");
  if (unsuccessful.length > 0) {
    const list = unsuccessful.map((job) => `${job.id} ${job.status}${job.error ? ` (${job.error})` : ""}`).join(", ");
    throw new Error(`expected every render to succeed; these did not: ${list}`);
  }
}
