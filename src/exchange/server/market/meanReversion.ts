/**
 * Mean-reversion (value) traders: they sell when the price stands above its slow average and buy when it
 * stands below.
 *
 * Signal: the fair log-price minus its exponential moving average over `horizonSeconds`, in units of
 * `scaleBp` basis points. Marketable orders arrive as a Poisson process of rate
 * `rate · activity · min(1, |signal|)` per second, against the signal, with power-law sizes.
 */
import { AgentKind, type Agent, type OrderFlow } from './types';

/** Parameters of {@link MeanReversionTrader}. */
export interface MeanReversionParams {
  rate: number;
  horizonSeconds: number;
  scaleBp: number;
  sizeAlpha: number;
  sizeCap: number;
}

/** Defaults of the realistic profile. */
export const MEAN_REVERSION_DEFAULTS: MeanReversionParams = { rate: 0.25, horizonSeconds: 1800, scaleBp: 40, sizeAlpha: 1.5, sizeCap: 200 };

/** The mean-reversion traders of one symbol (see module doc). */
export class MeanReversionTrader implements Agent {
  readonly kind = AgentKind.MeanReversion;
  mean = NaN;
  private lastDt = NaN;
  private k = 0;

  constructor(readonly p: MeanReversionParams) {}

  /** Current signal (distance from the slow average, in units of scaleBp). */
  signal(x: number): number {
    return Number.isNaN(this.mean) ? 0 : (x - this.mean) / (this.p.scaleBp * 1e-4);
  }

  step(f: OrderFlow): void {
    const x = f.x;
    if (Number.isNaN(this.mean)) this.mean = x;
    if (f.dt !== this.lastDt) {
      this.lastDt = f.dt;
      this.k = 1 - Math.exp(-f.dt / this.p.horizonSeconds);
    }
    this.mean += (x - this.mean) * this.k;
    const s = this.signal(x);
    const n = f.rng.poisson(this.p.rate * f.activity * Math.min(1, Math.abs(s)) * f.dt);
    for (let i = 0; i < n; i++) f.market(this.kind, s > 0 ? 1 : 0, f.rng.pareto(this.p.sizeAlpha, this.p.sizeCap));
  }
}
