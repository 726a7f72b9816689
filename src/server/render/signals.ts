/**
 * The render module's own signals between its queue and its worker, so that neither holds the
 * other and nobody outside the module holds the worker: the queue says "a job was added" or
 * "stop this running job", and the worker listens.
 */
export class RenderSignals {
  private readonly jobAddedListeners = new Set<() => void>();
  private abortHandler: (jobId: string) => boolean = () => false;

  /** A job entered the queue (created, retried, or put back). */
  jobAdded(): void {
    for (const listener of this.jobAddedListeners) listener();
  }

  onJobAdded(listener: () => void): () => void {
    this.jobAddedListeners.add(listener);
    return () => this.jobAddedListeners.delete(listener);
  }

  /** Asks the worker to stop a running job; false when no worker here is running it. */
  abortRunning(jobId: string): boolean {
    return this.abortHandler(jobId);
  }

  handleAborts(handler: (jobId: string) => boolean): void {
    this.abortHandler = handler;
  }
}
