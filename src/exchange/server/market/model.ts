/**
 * The fair-price model of the agent-based market: per symbol, its agents (noise traders, momentum and
 * mean-reversion traders, an informed trader, on cross pairs an arbitrageur) and the fair log-price their
 * marketable orders move. Pure numbers and seeded random draws, no engine: the scheduler (live) and the
 * history's fast-forward turn each step's intents into engine orders (executor.ts, history.ts).
 *
 * Price formation: every marketable intent of `u` unit sizes moves the fair log-price by ±impact·√u (the
 * square-root impact law), where `impact` is the profile's impact × the symbol's (larger on less active
 * symbols, so that every symbol has a comparable volatility per minute). A USDT-quoted symbol other than
 * BTC-USDT also moves with BTC-USDT (`x = own + β·x_BTC`, β = {@link MARKET_BETA}: the market factor of crypto
 * prices); a cross pair whose legs are simulated (ETH-BTC from ETH-USDT and BTC-USDT) is
 * `x = x_base-leg − x_quote-leg + basis`, its own flow moving only the basis that its arbitrageur takes out.
 *
 * Order of a step: the symbols without legs first (BTC-USDT first of all), then the cross pairs; within a
 * symbol: noise, momentum, mean-reversion, informed, arbitrage. Each symbol draws from its own generator
 * (forked from the seed by its index), so the model is deterministic by seed whatever the step length.
 */
import { Arbitrageur } from './arbitrage';
import { InformedTrader, INFORMED_DEFAULTS } from './informed';
import { MeanReversionTrader, MEAN_REVERSION_DEFAULTS } from './meanReversion';
import { MomentumTrader, MOMENTUM_DEFAULTS } from './momentum';
import { NoiseTrader, NOISE_DEFAULTS } from './noiseTrader';
import { DEFAULT_ACTIVITY, SYMBOL_ACTIVITY, type AgentProfile } from './profiles';
import { Rng } from './rng';
import { IntentKind, type AgentKind, type OrderFlow, type Side } from './types';

/** Exposure of the other USDT symbols to BTC-USDT's moves. */
export const MARKET_BETA = 0.6;
/** Fair-price impact per √unit at activity 1 (log-return): about 6–7 basis points of 1-minute volatility on BTC-USDT. */
export const BASE_IMPACT = 0.28e-4;
/** Words per intent in {@link SymbolModel.intents}: kind, agent, side, units, depthBp. */
export const INTENT_STRIDE = 5;

/** The model's view of a symbol (from the world). */
export interface ModelSymbol {
  symbol: string;
  baseCurrency: string;
  quoteCurrency: string;
}

/** One symbol of the model: its agents, fair log-price and the intents of the current step. */
export class SymbolModel implements OrderFlow {
  readonly noise: NoiseTrader;
  readonly momentum: MomentumTrader;
  readonly meanReversion: MeanReversionTrader;
  readonly informed: InformedTrader;
  readonly arbitrage: Arbitrageur | null;
  /** The symbol's own component of the log-price (all of it for a symbol without market factor or legs). */
  own = 0;
  dt = 1;
  marketOnly = false;
  /** Intents of the current step, {@link INTENT_STRIDE} words each. */
  readonly intents: number[] = [];
  /** Marketable intents and their unit sizes in the current step. */
  marketCount = 0;
  marketUnits = 0;

  constructor(
    readonly symbol: string,
    readonly index: number,
    readonly activity: number,
    readonly impact: number,
    readonly rng: Rng,
    /** the market factor (BTC-USDT) this symbol follows with β, if any */
    readonly factor: SymbolModel | null,
    /** base and quote legs of a cross pair */
    readonly legs: [SymbolModel, SymbolModel] | null,
  ) {
    this.noise = new NoiseTrader(NOISE_DEFAULTS);
    this.momentum = new MomentumTrader(MOMENTUM_DEFAULTS);
    this.meanReversion = new MeanReversionTrader(MEAN_REVERSION_DEFAULTS);
    this.informed = new InformedTrader(INFORMED_DEFAULTS);
    this.arbitrage = legs ? new Arbitrageur({ thresholdBp: 3, ratePerSecond: 1, impact, maxUnits: 200 }) : null;
  }

  /** Fair log-price relative to the anchor. */
  get x(): number {
    if (this.legs) return this.legs[0].x - this.legs[1].x + (this.arbitrage as Arbitrageur).basis;
    return this.factor ? this.own + MARKET_BETA * this.factor.x : this.own;
  }

  market(agent: AgentKind, side: Side, units: number): void {
    const dx = (side === 0 ? 1 : -1) * this.impact * Math.sqrt(units);
    if (this.arbitrage) this.arbitrage.basis += dx;
    else this.own += dx;
    this.intents.push(IntentKind.Market, agent, side, units, 0);
    this.marketCount++;
    this.marketUnits += units;
  }

  limit(agent: AgentKind, side: Side, units: number, depthBp: number): void {
    this.intents.push(IntentKind.Limit, agent, side, units, depthBp);
  }

  cancel(agent: AgentKind): void {
    this.intents.push(IntentKind.Cancel, agent, 0, 0, 0);
  }

  /**
   * One step of `dt` seconds: every agent acts; the intents are left in {@link intents}. `marketOnly`: only
   * the marketable intents are wanted (the history's coarse steps; see {@link OrderFlow.marketOnly}).
   */
  step(dt: number, marketOnly = false): void {
    this.dt = dt;
    this.marketOnly = marketOnly;
    this.intents.length = 0;
    this.marketCount = 0;
    this.marketUnits = 0;
    this.noise.step(this);
    const noiseMarkets = this.marketCount;
    this.momentum.step(this);
    this.meanReversion.step(this);
    this.informed.step(this);
    this.arbitrage?.step(this);
    // every marketable order of the other agents excites the noise traders too (theirs already did)
    this.noise.excite(this.marketCount - noiseMarkets);
  }
}

/** Every simulated symbol's model; {@link MarketModel.step} advances them all. */
export class MarketModel {
  readonly symbols: SymbolModel[] = [];
  readonly bySymbol = new Map<string, SymbolModel>();
  /** Seconds simulated so far. */
  elapsed = 0;

  /**
   * @param symbols the simulated symbols (order kept for the generators; cross pairs are stepped last)
   * @param seed the simulation seed
   */
  constructor(symbols: readonly ModelSymbol[], seed: number, readonly profile: AgentProfile) {
    const root = new Rng(seed ^ 0x5eed_3a7b);
    const bySymbol = new Map(symbols.map((s) => [s.symbol, s]));
    const btc = bySymbol.get('BTC-USDT');
    const order = [...symbols].sort((a, b) => rank(a) - rank(b));
    function rank(s: ModelSymbol): number {
      if (s.symbol === 'BTC-USDT') return 0;
      return isCross(s) ? 2 : 1;
    }
    function isCross(s: ModelSymbol): boolean {
      return bySymbol.has(`${s.baseCurrency}-USDT`) && bySymbol.has(`${s.quoteCurrency}-USDT`) && s.quoteCurrency !== 'USDT';
    }
    for (const s of order) {
      const index = symbols.indexOf(s);
      const activity = (SYMBOL_ACTIVITY[s.symbol] ?? DEFAULT_ACTIVITY) * profile.activity;
      const impact = (BASE_IMPACT * profile.impact * (s.symbol === 'BTC-USDT' ? 1 : 1.25)) / Math.sqrt(activity / profile.activity);
      const legs: [SymbolModel, SymbolModel] | null = isCross(s)
        ? [this.bySymbol.get(`${s.baseCurrency}-USDT`) as SymbolModel, this.bySymbol.get(`${s.quoteCurrency}-USDT`) as SymbolModel]
        : null;
      const factor = !legs && btc && s.symbol !== 'BTC-USDT' && s.quoteCurrency === 'USDT' ? (this.bySymbol.get('BTC-USDT') ?? null) : null;
      const m = new SymbolModel(s.symbol, index, activity, impact, root.fork(index + 1), factor, legs);
      this.symbols.push(m);
      this.bySymbol.set(s.symbol, m);
    }
  }

  /** Advance every symbol by `dt` seconds. */
  step(dt: number, marketOnly = false): void {
    for (const s of this.symbols) s.step(dt, marketOnly);
    this.elapsed += dt;
  }
}
