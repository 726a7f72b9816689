/**
 * Each engine's state as this process last saw it (decision 088): up or down, since when and why,
 * from its last health check or its last call, and its latest failures. Kept in memory: it is what
 * this process's own calls found (a worker behind another network path may see otherwise), it
 * changes with every call, and it starts afresh, unknown, at each start.
 */
import type { EngineTask } from "../../../shared/render";

/** How many failures each engine keeps for /admin. */
export const ENGINE_FAILURES_KEPT = 10;

export type EngineCondition = "up" | "down" | "unknown";

export interface EngineFailure {
  at: number;
  task: EngineTask | "check";
  message: string;
}

export interface EngineState {
  id: string;
  state: EngineCondition;
  /** When the state was last set (null: never, this start). */
  at: number | null;
  /** Why it is down (its health check's answer, or the call's error); null when up. */
  message: string | null;
  /** Newest first, at most ENGINE_FAILURES_KEPT. */
  failures: EngineFailure[];
}

export class EngineStates {
  private readonly states = new Map<string, EngineState>();

  private entry(id: string): EngineState {
    let state = this.states.get(id);
    if (!state) {
      state = { id, state: "unknown", at: null, message: null, failures: [] };
      this.states.set(id, state);
    }
    return state;
  }

  /** It answered (a health check passed, or a call made its picture). */
  up(id: string, at: number): void {
    Object.assign(this.entry(id), { state: "up", at, message: null });
  }

  /** It is down: its health check failed, or a call found it unreachable, silent or failing for a while. */
  down(id: string, at: number, task: EngineFailure["task"], message: string): void {
    const entry = Object.assign(this.entry(id), { state: "down", at, message });
    this.remember(entry, { at, task, message });
  }

  /** It answered, but refused or failed this one call (a content refusal): a failure, not a down engine. */
  failed(id: string, at: number, task: EngineTask, message: string): void {
    const entry = this.entry(id);
    Object.assign(entry, { state: "up", at, message: null });
    this.remember(entry, { at, task, message });
  }

  get(id: string): EngineState {
    const { failures, ...rest } = this.entry(id);
    return { ...rest, failures: [...failures] };
  }

  private remember(entry: EngineState, failure: EngineFailure): void {
    entry.failures.unshift(failure);
    entry.failures.length = Math.min(entry.failures.length, ENGINE_FAILURES_KEPT);
  }
}
