/**
 * Informed traders: occasional large orders that move the price to a new value.
 *
 * News arrives as a Poisson process (`newsPerHour` × activity per hour); each piece of news moves the
 * symbol's hidden value by a jump of ±`jumpBp` × Pareto(`jumpAlpha`) basis points (capped at `jumpCapBp`).
 * While the fair price is more than `thresholdBp` away from the hidden value, the informed trader sends
 * large marketable orders toward it (`ordersPerSecond`, sizes `orderUnits` × Pareto(2) unit sizes), whose
 * impact closes the gap within seconds: the jumps of the price path (fat tails) and, through the Hawkes
 * excitation of the noise traders, the bursts of activity after them.
 */
import { AgentKind, type Agent, type OrderFlow } from './types';

/** Parameters of {@link InformedTrader}. */
export interface InformedParams {
  newsPerHour: number;
  jumpBp: number;
  jumpAlpha: number;
  jumpCapBp: number;
  thresholdBp: number;
  ordersPerSecond: number;
  orderUnits: number;
}

/** Defaults of the realistic profile. */
export const INFORMED_DEFAULTS: InformedParams = {
  newsPerHour: 2,
  jumpBp: 8,
  jumpAlpha: 2,
  jumpCapBp: 60,
  thresholdBp: 2,
  ordersPerSecond: 3,
  orderUnits: 25,
};

/** The informed trader of one symbol (see module doc). */
export class InformedTrader implements Agent {
  readonly kind = AgentKind.Informed;
  /** Hidden value minus the fair log-price when news arrived (0: nothing to do). */
  gap = 0;
  /** Fair log-price the gap is measured from. */
  private target = NaN;

  constructor(readonly p: InformedParams) {}

  step(f: OrderFlow): void {
    const p = this.p;
    const rng = f.rng;
    if (rng.next() < (p.newsPerHour * f.activity * f.dt) / 3600) {
      const jump = Math.min(p.jumpCapBp, p.jumpBp * rng.pareto(p.jumpAlpha, 1e9)) * 1e-4;
      this.target = f.x + (rng.next() < 0.5 ? jump : -jump);
    }
    if (Number.isNaN(this.target)) return;
    this.gap = this.target - f.x;
    if (Math.abs(this.gap) < p.thresholdBp * 1e-4) {
      this.target = NaN;
      this.gap = 0;
      return;
    }
    // orders until the gap is closed (a long step sends at most what its duration allows)
    const n = rng.poisson(p.ordersPerSecond * f.dt);
    for (let i = 0; i < n && Math.abs(this.gap) >= p.thresholdBp * 1e-4; i++) {
      f.market(this.kind, this.gap > 0 ? 0 : 1, p.orderUnits * rng.pareto(2, 8));
      this.gap = this.target - f.x;
    }
  }
}
