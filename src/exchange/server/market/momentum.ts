/**
 * Momentum (trend-following) traders: they buy after the price rose and sell after it fell.
 *
 * Signal: the difference of a fast and a slow exponential moving average of the fair log-price (time
 * constants `fastSeconds`, `slowSeconds`), in units of `scaleBp` basis points. They send marketable orders
 * as a Poisson process of rate `rate · activity · min(1, |signal|)` per second, on the side of the signal,
 * with power-law sizes (tail `sizeAlpha`, cap `sizeCap`). Their impact pushes the trend on; the
 * mean-reversion traders (meanReversion.ts) push back, so that 1-minute returns stay nearly uncorrelated.
 */
import { AgentKind, type Agent, type OrderFlow } from './types';

/** Parameters of {@link MomentumTrader}. */
export interface MomentumParams {
  rate: number;
  fastSeconds: number;
  slowSeconds: number;
  scaleBp: number;
  sizeAlpha: number;
  sizeCap: number;
}

/** Defaults of the realistic profile. */
export const MOMENTUM_DEFAULTS: MomentumParams = { rate: 0.08, fastSeconds: 60, slowSeconds: 600, scaleBp: 15, sizeAlpha: 1.5, sizeCap: 200 };

/** The momentum traders of one symbol (see module doc). */
export class MomentumTrader implements Agent {
  readonly kind = AgentKind.Momentum;
  fast = NaN;
  slow = NaN;
  private lastDt = NaN;
  private kFast = 0;
  private kSlow = 0;

  constructor(readonly p: MomentumParams) {}

  /** Current signal (fast − slow average, in units of scaleBp). */
  signal(): number {
    return Number.isNaN(this.fast) ? 0 : (this.fast - this.slow) / (this.p.scaleBp * 1e-4);
  }

  step(f: OrderFlow): void {
    if (Number.isNaN(this.fast)) this.fast = this.slow = f.x;
    if (f.dt !== this.lastDt) {
      this.lastDt = f.dt;
      this.kFast = 1 - Math.exp(-f.dt / this.p.fastSeconds);
      this.kSlow = 1 - Math.exp(-f.dt / this.p.slowSeconds);
    }
    const x = f.x;
    this.fast += (x - this.fast) * this.kFast;
    this.slow += (x - this.slow) * this.kSlow;
    const s = this.signal();
    const n = f.rng.poisson(this.p.rate * f.activity * Math.min(1, Math.abs(s)) * f.dt);
    for (let i = 0; i < n; i++) f.market(this.kind, s > 0 ? 0 : 1, f.rng.pareto(this.p.sizeAlpha, this.p.sizeCap));
  }
}
