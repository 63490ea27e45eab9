/**
 * Seeded random numbers of the market simulation: one small, fast, serialisable generator (sfc32-like
 * mulberry32 stream) with the distributions the agents draw from. Deterministic: the same seed gives the
 * same sequence on every platform (32-bit integer arithmetic only; the float transforms use Math.log,
 * Math.exp, Math.sqrt, Math.cos and Math.pow, which V8 computes identically on every machine it runs on).
 *
 * The floats never reach money: agents turn them into whole price ticks and size lots before an order
 * is built (src/api/decimal.ts conventions).
 */

/** A seeded pseudo-random generator (mulberry32) with the distributions the agents use. */
export class Rng {
  private a: number;
  /** A second normal from the last Box–Muller draw (NaN: none cached). */
  private spare = NaN;

  /** @param seed any integer (only the low 32 bits count) */
  constructor(seed: number) {
    this.a = seed >>> 0;
  }

  /** A derived, independent generator (for one agent or symbol), keyed by `salt`. Does not advance this one. */
  fork(salt: number): Rng {
    let h = (this.a ^ Math.imul(salt + 0x9e3779b9, 0x85ebca6b)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
    return new Rng((h ^ (h >>> 16)) >>> 0);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer uniform in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Standard normal (Box–Muller, the second value cached). */
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const s = this.spare;
      this.spare = NaN;
      return s;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with mean 1. */
  exp(): number {
    return -Math.log(1 - this.next());
  }

  /**
   * Poisson count with mean `mean` ≥ 0: Knuth's product method below 30, a rounded normal
   * approximation above (never negative).
   */
  poisson(mean: number): number {
    if (!(mean > 0)) return 0;
    if (mean < 30) {
      const limit = Math.exp(-mean);
      let k = 0;
      let p = this.next();
      while (p > limit) {
        k++;
        p *= this.next();
      }
      return k;
    }
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
  }

  /**
   * Pareto (power-law) draw: P(X > x) = x^−alpha for x ≥ 1, capped at `cap` (heavy-tailed order sizes
   * in units of a symbol's unit size).
   */
  pareto(alpha: number, cap: number): number {
    const x = Math.pow(1 - this.next(), -1 / alpha);
    return x > cap ? cap : x;
  }

  /** The generator's state (to continue a stream elsewhere). */
  get state(): number {
    return this.a;
  }
}
