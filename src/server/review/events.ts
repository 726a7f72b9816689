/**
 * The review module's live events: comments and decisions, published by project to the studio's
 * open streams (review.events over server-sent events). In this process only: a studio on several
 * instances would need them across instances, as render events have (decision 073 says so).
 */
import type { ReviewEvent } from "../../shared/review";

type Listener = (event: ReviewEvent) => void;

/** Events a stream may hold for a slow reader before it is ended (the panel then reloads). */
const MAX_WAITING = 1000;

export class ReviewEventBus {
  private readonly byProject = new Map<string, Set<Listener>>();
  /** How to end each open stream of a team's project, by "<team>|<user who opened it>" (a member removed: decision 070). */
  private readonly byViewer = new Map<string, Set<() => void>>();
  /** Aborted by close(): every stream ends, and new ones end at once (a graceful shutdown). */
  private readonly closing = new AbortController();

  close(): void {
    this.closing.abort();
  }

  publish(projectId: string, event: ReviewEvent): void {
    for (const listener of this.byProject.get(projectId) ?? []) listener(event);
  }

  /** Open streams of this project (tests). */
  listeners(projectId: string): number {
    return this.byProject.get(projectId)?.size ?? 0;
  }

  /** Ends every stream `userId` holds on the team's projects (they were removed from it, or left). */
  dismiss(teamId: string, userId: string): void {
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
      wake?.();
    };
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
