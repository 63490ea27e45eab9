/**
 * The triangular-arbitrage agent: keeps a cross pair (ETH-BTC) consistent with its two legs (ETH-USDT and
 * BTC-USDT), the way KuCoin's arbitrageurs do.
 *
 * A cross symbol's fair log-price is `x = x_base-leg − x_quote-leg + b`: it follows its legs, and its own
 * order flow moves only the basis `b`. Two parts:
 * - on the fair price ({@link Arbitrageur.step}): when |b| exceeds `thresholdBp` (the cost of three trades),
 *   at its checks (a Poisson clock of `ratePerSecond`) the agent sends a marketable order against it whose impact takes the excess out (at most `maxUnits`
 *   unit sizes per step): the basis stays within a few basis points;
 * - on the real books ({@link Arbitrageur.bookCheck}): when the cross pair's best ask is below what its legs
 *   pay (leg bids) by more than the threshold, it buys that level; when its best bid is above what the legs
 *   cost (leg asks), it sells into it. That removes stale or mispriced orders (the seeded books, a person's
 *   limit order far through the market) within one step.
 */
import { AgentKind, type Agent, type OrderFlow, type Side } from './types';

/** Parameters of {@link Arbitrageur}. */
export interface ArbitrageParams {
  thresholdBp: number;
  /** How often per second the agent checks the fair basis (a Poisson clock: the same behaviour at any step length). */
  ratePerSecond: number;
  /** Price impact per √unit of the cross pair (log-return), to size the correcting order. */
  impact: number;
  maxUnits: number;
}

/** Best prices of the cross pair and its legs (prices as numbers: only compared, never sent). */
export interface TriangleBooks {
  bid: number | null;
  ask: number | null;
  baseLegBid: number | null;
  baseLegAsk: number | null;
  quoteLegBid: number | null;
  quoteLegAsk: number | null;
}

/** The arbitrageur of one cross symbol (see module doc). */
export class Arbitrageur implements Agent {
  readonly kind = AgentKind.Arbitrage;
  /** The cross pair's basis b (log), kept here: the model adds it to the legs' difference. */
  basis = 0;

  constructor(readonly p: ArbitrageParams) {}

  step(f: OrderFlow): void {
    const thr = this.p.thresholdBp * 1e-4;
    const excess = Math.abs(this.basis) - thr;
    if (excess <= 0 || f.rng.next() >= 1 - Math.exp(-this.p.ratePerSecond * f.dt)) return;
    const units = Math.min(this.p.maxUnits, Math.max(1, (excess / this.p.impact) ** 2));
    f.market(this.kind, this.basis > 0 ? 1 : 0, units);
  }

  /**
   * The arbitrage the real books offer: the side to take on the cross pair, or null when its book is within
   * the threshold of its legs (or a book is empty).
   */
  bookCheck(b: TriangleBooks): Side | null {
    const k = 1 + this.p.thresholdBp * 1e-4;
    if (b.ask !== null && b.baseLegBid !== null && b.quoteLegAsk !== null && b.ask * k < b.baseLegBid / b.quoteLegAsk) return 0;
    if (b.bid !== null && b.baseLegAsk !== null && b.quoteLegBid !== null && b.bid > (b.baseLegAsk / b.quoteLegBid) * k) return 1;
    return null;
  }
}
