/**
 * Noise traders: uninformed order flow whose arrivals form a self-exciting (Hawkes) process, with
 * heavy-tailed (power-law) sizes, placing marketable orders, resting limit orders and cancellations.
 *
 * Arrivals: intensity λ(t) = μ·a·e^{r(t)} + E(t) events per second, where μ is {@link NoiseParams.baseRate},
 * a the symbol's activity, r(t) a slow activity regime (an Ornstein–Uhlenbeck log-factor, mean 0, std
 * `regimeStd`, time scale `regimeSeconds`: busy and calm hours), and E the excitation: every marketable
 * event of the noise traders and every marketable order of the other agents adds `branching · decay` to E
 * (see {@link NoiseTrader.excite}), which decays as
 * e^{−decay·t}. With a branching ratio below 1 the process is stationary; its bursts are what make
 * volatility cluster (the autocorrelation of |returns| decays over minutes, at the rate decay·(1 − branching)).
 * Per step of dt seconds the number of events is Poisson(λ·dt).
 *
 * Each event is a marketable order with probability `pMarket` (side 50/50), else a limit order with
 * probability `pLimit / (1 − pMarket)` (side 50/50, `depthBp` exponential with mean `limitDepthBp`), else a
 * cancellation. Sizes: Pareto with tail exponent `sizeAlpha` (P(size > x) = x^−α in unit sizes, capped at
 * `sizeCap`): with α = 1.4 the 99th percentile is about 16 × the median.
 */
import type { Rng } from './rng';
import { AgentKind, type Agent, type OrderFlow, type Side } from './types';

/** Parameters of {@link NoiseTrader} (rates per second at activity 1). */
export interface NoiseParams {
  baseRate: number;
  /** Hawkes branching ratio (expected children per event), < 1. */
  branching: number;
  /** Decay rate of the excitation, 1/s. */
  decay: number;
  pMarket: number;
  pLimit: number;
  sizeAlpha: number;
  sizeCap: number;
  limitDepthBp: number;
  regimeStd: number;
  regimeSeconds: number;
}

/** Defaults of the realistic profile. */
export const NOISE_DEFAULTS: NoiseParams = {
  baseRate: 1.5,
  branching: 0.5,
  decay: 1 / 150,
  pMarket: 0.3,
  pLimit: 0.42,
  sizeAlpha: 1.4,
  sizeCap: 400,
  limitDepthBp: 1.5,
  regimeStd: 1.1,
  regimeSeconds: 1200,
};

/** The noise traders of one symbol (see module doc). */
export class NoiseTrader implements Agent {
  readonly kind = AgentKind.Noise;
  /** Excitation E(t), events per second. */
  excitation = 0;
  /** Activity regime r(t) (log-factor). */
  regime = 0;
  /** e^{−decay·dt}, the regime's decay and innovation scale, cached for the last dt. */
  private lastDt = NaN;
  private kDecay = 0;
  private kRegime = 0;
  private sRegime = 0;

  constructor(readonly p: NoiseParams) {}

  /** Current intensity at activity `activity`, events per second. */
  intensity(activity: number): number {
    return this.p.baseRate * activity * Math.exp(this.regime) + this.excitation;
  }

  /** Register `count` marketable orders (of any agent) of the last step: they excite later arrivals. */
  excite(count: number): void {
    this.excitation += count * this.p.branching * this.p.decay;
  }

  step(f: OrderFlow): void {
    const { rng, dt } = f;
    const p = this.p;
    if (dt !== this.lastDt) {
      this.lastDt = dt;
      this.kDecay = Math.exp(-p.decay * dt);
      this.kRegime = Math.exp(-dt / p.regimeSeconds);
      this.sRegime = p.regimeStd * Math.sqrt(1 - this.kRegime * this.kRegime);
    }
    const mean = this.intensity(f.activity) * dt;
    this.excitation *= this.kDecay;
    this.regime = this.regime * this.kRegime + this.sRegime * rng.normal();
    if (f.marketOnly) {
      // only the marketable orders move the price: draw them alone (Poisson thinning), the rest only as a count
      const m = rng.poisson(mean * p.pMarket);
      this.excite(m + rng.poisson(mean * (1 - p.pMarket)));
      for (let i = 0; i < m; i++) f.market(this.kind, rng.next() < 0.5 ? 0 : 1, sizeOf(rng, p));
      return;
    }
    const n = rng.poisson(mean);
    // the noise traders' own events excite later arrivals (the other agents' marketable orders too: excite())
    this.excite(n);
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      const side: Side = rng.next() < 0.5 ? 0 : 1;
      if (u < p.pMarket) f.market(this.kind, side, sizeOf(rng, p));
      else if (u < p.pMarket + p.pLimit) f.limit(this.kind, side, sizeOf(rng, p), p.limitDepthBp * rng.exp());
      else f.cancel(this.kind);
    }
  }
}

/** A power-law order size in unit sizes. */
function sizeOf(rng: Rng, p: NoiseParams): number {
  return rng.pareto(p.sizeAlpha, p.sizeCap);
}
