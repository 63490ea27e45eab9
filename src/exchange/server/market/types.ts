/**
 * The interface between the market's agents and the two ways their orders are carried out (live through
 * `market.batch` commands, or the history's fast-forward; see scheduler.ts and history.ts).
 *
 * Agents act on one symbol at a time, in steps of `dt` seconds. They see the symbol's fair price as a
 * log-price `x` relative to the symbol's anchor (price = anchor × e^x; the anchor is fixed per symbol,
 * so returns are differences of `x`), and express what they do as intents on an {@link OrderFlow}: a
 * marketable order of `units` unit sizes (its price impact moves `x` at once), a resting limit order
 * some basis points behind the fair price, or a cancellation of one of their resting orders. The
 * executor turns intents into engine orders in whole ticks and lots.
 */
import type { Rng } from './rng';

/** 0 = buy, 1 = sell (the batch encoding of a side). */
export type Side = 0 | 1;
export const BUY: Side = 0;
export const SELL: Side = 1;

/** Which agent placed an intent (executors use it to pick the bot user and for statistics). */
export const enum AgentKind {
  Noise = 0,
  Momentum = 1,
  MeanReversion = 2,
  Informed = 3,
  Arbitrage = 4,
  /** a market maker trading out of too much inventory */
  Maker = 5,
}

/** Intent kinds in {@link OrderFlow}'s buffer. */
export const enum IntentKind {
  Market = 0,
  Limit = 1,
  Cancel = 2,
}

/** What an agent sees of its symbol and does in one step. */
export interface OrderFlow {
  /** the symbol */
  readonly symbol: string;
  /** Step length, seconds. */
  readonly dt: number;
  /** The symbol's activity factor (BTC-USDT = 1) × the profile's activity. */
  readonly activity: number;
  /** Fair log-price relative to the anchor (changes as marketable intents arrive). */
  readonly x: number;
  /** True when only marketable intents matter (the history's coarse steps): agents may skip the others. */
  readonly marketOnly: boolean;
  /** The symbol's random numbers. */
  readonly rng: Rng;
  /** A marketable order of `units` (≥ 1) unit sizes: moves `x` by ±impact·√units at once. */
  market(agent: AgentKind, side: Side, units: number): void;
  /** A resting limit order `depthBp` basis points behind the fair price (0: at the touch). */
  limit(agent: AgentKind, side: Side, units: number, depthBp: number): void;
  /** Cancel one of the agent's resting orders (the executor picks which). */
  cancel(agent: AgentKind): void;
}

/** An agent of one symbol: acts once per step. */
export interface Agent {
  readonly kind: AgentKind;
  /** Act for one step of `flow.dt` seconds. */
  step(flow: OrderFlow): void;
}
