/**
 * The review module's live events: comments and decisions, published by project to the studio's
 * open streams (review.events over server-sent events). With several instances on one PostgreSQL
 * database (decision 082), each event and each dismissal is also sent to the other instances with
 * NOTIFY, whose streams get it too. Review events are not stored: an event too long for a
 * notification, or sent while an instance's listening connection was down, ends that instance's
 * streams of the project instead (the panel then reloads, as after a slow reader).
 */
import type { ReviewEvent } from "../../shared/review";

type Listener = (event: ReviewEvent) => void;

/** The channel between instances (render/live/notifications.ts provides it on PostgreSQL). */
export interface ReviewCrossInstance {
  readonly instance: string;
  subscribe(channel: string, handler: (payload: string) => void): () => void;
  onConnected(handler: (reconnected: boolean) => void): () => void;
  notify(channel: string, payload: string): Promise<void>;
}

export const REVIEW_EVENTS_CHANNEL = "review_events";
export const REVIEW_DISMISS_CHANNEL = "review_dismiss";
/** Below NOTIFY's 8000 bytes; a longer event (a comment of 2,000 four-byte characters) ends the others' streams instead. */
const MAX_PAYLOAD_BYTES = 7900;

type Message = { i: string; p: string; e?: ReviewEvent; reload?: true };

/** Events a stream may hold for a slow reader before it is ended (the panel then reloads). */
const MAX_WAITING = 1000;

export class ReviewEventBus {
  private readonly byProject = new Map<string, Set<Listener>>();
  /** How to end each open stream of a team's project, by "<team>|<user who opened it>" (a member removed: decision 070). */
  private readonly byViewer = new Map<string, Set<() => void>>();
  /** Aborted by close(): every stream ends, and new ones end at once (a graceful shutdown). */
  private readonly closing = new AbortController();
  /** How to end each open stream, by project (an event another instance could not pass on). */
  private readonly stops = new Map<string, Set<() => void>>();

  constructor(private readonly others?: ReviewCrossInstance) {
    others?.subscribe(REVIEW_EVENTS_CHANNEL, (payload) => {
      const message = JSON.parse(payload) as Message;
      if (message.i === others.instance) return;
      if (message.e) this.deliver(message.p, message.e);
      else this.endProject(message.p);
    });
    others?.subscribe(REVIEW_DISMISS_CHANNEL, (payload) => {
      const message = JSON.parse(payload) as { i: string; t: string; u: string };
      if (message.i !== others.instance) this.dismissHere(message.t, message.u);
    });
    // Events sent while this instance did not listen are lost: its open streams end (the panels reload).
    others?.onConnected((reconnected) => {
      if (reconnected) for (const projectId of [...this.stops.keys()]) this.endProject(projectId);
    });
  }

  close(): void {
    this.closing.abort();
  }

  /** To this instance's streams of the project, and to the other instances'. */
  publish(projectId: string, event: ReviewEvent): void {
    this.deliver(projectId, event);
    if (!this.others) return;
    let payload = JSON.stringify({ i: this.others.instance, p: projectId, e: event } satisfies Message);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
      payload = JSON.stringify({ i: this.others.instance, p: projectId, reload: true } satisfies Message);
    void this.others.notify(REVIEW_EVENTS_CHANNEL, payload);
  }

  private deliver(projectId: string, event: ReviewEvent): void {
    for (const listener of this.byProject.get(projectId) ?? []) listener(event);
  }

  private endProject(projectId: string): void {
    for (const stop of [...(this.stops.get(projectId) ?? [])]) stop();
  }

  /** Open streams of this project (tests). */
  listeners(projectId: string): number {
    return this.byProject.get(projectId)?.size ?? 0;
  }

  /** Ends every stream `userId` holds on the team's projects (they were removed from it, or left), on every instance. */
  dismiss(teamId: string, userId: string): void {
    this.dismissHere(teamId, userId);
    if (this.others) void this.others.notify(REVIEW_DISMISS_CHANNEL, JSON.stringify({ i: this.others.instance, t: teamId, u: userId }));
  }

  private dismissHere(teamId: string, userId: string): void {
    for (const end of [...(this.byViewer.get(`${teamId}|${userId}`) ?? [])]) end();
  }

  /**
   * The project's events from now on, until `signal` aborts. Subscribes at once, before the first
   * next(). A team project's stream remembers who opened it (`viewer`), so dismiss() can end it.
   */
  stream(projectId: string, signal?: AbortSignal, viewer?: { teamId: string; userId: string }): AsyncGenerator<ReviewEvent> {
    const waiting: ReviewEvent[] = [];
    let wake: (() => void) | null = null;
    let ended = false;
    const listeners = this.byProject.get(projectId) ?? new Set<Listener>();
    this.byProject.set(projectId, listeners);
    const listener: Listener = (event) => {
      if (waiting.length >= MAX_WAITING) ended = true;
      else waiting.push(event);
      wake?.();
    };
    listeners.add(listener);
    const viewerKey = viewer ? `${viewer.teamId}|${viewer.userId}` : null;
    const stop = () => {
      ended = true;
      listeners.delete(listener);
      const ends = viewerKey ? this.byViewer.get(viewerKey) : undefined;
      if (ends) {
        ends.delete(stop);
        if (ends.size === 0) this.byViewer.delete(viewerKey!);
      }
      if (listeners.size === 0 && this.byProject.get(projectId) === listeners) this.byProject.delete(projectId);
      const projectStops = this.stops.get(projectId);
      projectStops?.delete(stop);
      if (projectStops?.size === 0) this.stops.delete(projectId);
      wake?.();
    };
    const projectStops = this.stops.get(projectId) ?? new Set<() => void>();
    this.stops.set(projectId, projectStops);
    projectStops.add(stop);
    if (viewerKey) {
      const ends = this.byViewer.get(viewerKey) ?? new Set<() => void>();
      this.byViewer.set(viewerKey, ends);
      ends.add(stop);
    }
    for (const ending of [signal, this.closing.signal]) {
      ending?.addEventListener("abort", stop, { once: true });
      if (ending?.aborted) stop();
    }
    return (async function* () {
      try {
        while (true) {
          while (waiting.length > 0) yield waiting.shift()!;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      } finally {
        stop();
      }
    })();
  }
}
