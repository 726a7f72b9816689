/**
 * The render module's own signals between its queue and its worker, so that neither holds the
 * other and nobody outside the module holds the worker: the queue says "a job was added" or
 * "stop this running job", and the worker listens.
 *
 * With several instances on one PostgreSQL database (decision 083) the job may have been added
 * through a web instance and the worker running it may be another process: both signals then also
 * travel to the other instances (NOTIFY), so a worker elsewhere claims a new job at once (not at its
 * next look at the queue) and stops a canceled job at once (not at its next lease renewal).
 */
import type { CrossInstanceChannel } from "../coordination";

export const JOB_ADDED_CHANNEL = "render_job_added";
export const ABORT_CHANNEL = "render_abort";

export class RenderSignals {
  private readonly jobAddedListeners = new Set<() => void>();
  private abortHandler: (jobId: string) => boolean = () => false;

  constructor(private readonly others: CrossInstanceChannel | null = null) {
    others?.subscribe(JOB_ADDED_CHANNEL, (from) => {
      if (from !== others.instance) this.tellJobAdded();
    });
    others?.subscribe(ABORT_CHANNEL, (payload) => {
      const { from, jobId } = JSON.parse(payload) as { from: string; jobId: string };
      if (from !== others.instance) this.abortHandler(jobId);
    });
    // Whatever was said while the listening connection was down: the workers look at the queue again
    // (a canceled job's worker learns it at its next lease renewal: every write checks the job).
    others?.onConnected((reconnected) => {
      if (reconnected) this.tellJobAdded();
    });
  }

  /** A job entered the queue (created, retried, or put back): this instance's worker and the others' are told. */
  jobAdded(): void {
    this.tellJobAdded();
    // notify() logs a failure itself; the others' workers then find the job at their next look at the queue.
    void this.others?.notify(JOB_ADDED_CHANNEL, this.others.instance);
  }

  onJobAdded(listener: () => void): () => void {
    this.jobAddedListeners.add(listener);
    return () => this.jobAddedListeners.delete(listener);
  }

  /**
   * Asks the worker running the job to stop it: this instance's when it runs it, else the other
   * instances' (whichever runs it answers). The job's stored state already says canceled.
   */
  abortRunning(jobId: string): void {
    if (this.abortHandler(jobId)) return;
    // A failure is logged by notify(); the worker then stops at its next lease renewal.
    void this.others?.notify(ABORT_CHANNEL, JSON.stringify({ from: this.others.instance, jobId }));
  }

  handleAborts(handler: (jobId: string) => boolean): void {
    this.abortHandler = handler;
  }

  private tellJobAdded(): void {
    for (const listener of this.jobAddedListeners) listener();
  }
}
