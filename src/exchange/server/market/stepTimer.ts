/**
 * The step timer of a running market simulation (sim.ts, market/scheduler.ts): `step` every `intervalMs` on
 * an unref'd timer (0 = none: tests call `step`), and the counters the simulation keeps.
 */

/** What a simulation counts: steps run, bot commands the sandbox rejected and the last rejection ('' when none). */
export interface StepCounters {
  steps: number;
  rejected: number;
  lastRejection: string;
}

/** A running simulation's timer, with read-only views of its counters. */
export class StepTimer {
  private timer: NodeJS.Timeout | null = null;

  /**
   * @param step one step of the simulation (it must not throw: a timer callback has nobody to tell)
   * @param intervalMs ms between steps; 0 starts no timer
   * @param counters the simulation's counters, updated by `step`
   */
  constructor(
    readonly step: () => void,
    intervalMs: number,
    private readonly counters: Readonly<StepCounters>,
  ) {
    if (intervalMs > 0) {
      this.timer = setInterval(step, intervalMs);
      this.timer.unref();
    }
  }

  /** Stop the timer. Idempotent. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Steps run so far. */
  get steps(): number {
    return this.counters.steps;
  }

  /** Commands the sandbox rejected so far. */
  get rejected(): number {
    return this.counters.rejected;
  }

  /** Message of the last rejection ('' when none). */
  get lastRejection(): string {
    return this.counters.lastRejection;
  }
}
