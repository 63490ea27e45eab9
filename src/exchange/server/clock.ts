/**
 * The sandbox clock (ms since epoch): the wall clock, never going back past the last command, or a manual
 * clock that only `clock.set` moves (--manual-clock). While a command runs, the engine reads the command's
 * `t` instead ({@link SandboxClock.engineNow}), which is what makes replay deterministic.
 */
export class SandboxClock {
  /** The manual clock's value (snapshot `state` section, record `meta`). */
  manualNow: number;
  /** `t` of the last command executed (snapshot `state` section, record `meta`). */
  lastT = 0;
  /** `t` of the command being executed, else null. */
  execT: number | null = null;

  /**
   * @param manual time only moves by `clock.set`
   * @param wall the wall clock (tests may inject one)
   * @param start the manual clock's first value; default `wall()` now
   */
  constructor(
    readonly manual: boolean,
    private readonly wall: () => number,
    start?: number,
  ) {
    this.manualNow = start ?? wall();
  }

  /** The sandbox clock: the manual value, or the wall clock (never before the last command). */
  now(): number {
    if (this.manual) return this.manualNow;
    return Math.max(this.wall(), this.lastT);
  }

  /** The engine's clock: the running command's `t`, else {@link now}. */
  engineNow(): number {
    return this.execT ?? this.now();
  }
}
