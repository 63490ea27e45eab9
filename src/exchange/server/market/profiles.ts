/**
 * Market profiles (`--market quiet|realistic|volatile`, setting `spotdesk.sandbox.market`) and the
 * per-symbol parameters the agents of the agent-based market read.
 *
 * - `quiet`: today's two bots of sim.ts (one maker, one taker, one step per second), no history: a slow,
 *   cheap, deterministic market for tests that want one.
 * - `realistic` (default): the agent-based market of this folder, calibrated on KuCoin's majors (a 1-tick
 *   spread on BTC-USDT and ETH-USDT, several trades and tens of level-2 messages per second on BTC-USDT),
 *   with 3 × 24 h of history built at the first start.
 * - `volatile`: the same agents, busier and with about twice the price impact (fatter moves).
 *
 * Liquidity: each symbol has an activity factor (BTC-USDT = 1); event rates scale with it, so minor pairs
 * trade less and their makers quote wider (a spread in basis points, at least one tick).
 */

/** Names of the market profiles. */
export const MARKET_PROFILES = ['quiet', 'realistic', 'volatile'] as const;
/** A market profile name. */
export type MarketProfileName = (typeof MARKET_PROFILES)[number];

/** True for a valid profile name. */
export function isMarketProfile(v: unknown): v is MarketProfileName {
  return typeof v === 'string' && (MARKET_PROFILES as readonly string[]).includes(v);
}

/** The knobs of an agent-based profile (`realistic`, `volatile`). */
export interface AgentProfile {
  name: Exclude<MarketProfileName, 'quiet'>;
  /** Live step, ms of the sandbox clock: one `market.batch` command per step (one level-2 message per changed symbol). */
  tickMs: number;
  /** Multiplier of every event rate. */
  activity: number;
  /** Multiplier of the price impact per order (log-return per √unit). */
  impact: number;
  /** History built on a fresh state dir, ms before the start (3 × 24 h). */
  historyMs: number;
  /** The last part of the history run at live fidelity (every agent's order through the engine), ms. */
  fineHistoryMs: number;
}

/** Profiles of the agent-based market. */
export const AGENT_PROFILES: Readonly<Record<AgentProfile['name'], AgentProfile>> = {
  realistic: { name: 'realistic', tickMs: 75, activity: 1, impact: 1, historyMs: 3 * 86_400_000, fineHistoryMs: 30_000 },
  volatile: { name: 'volatile', tickMs: 75, activity: 1.6, impact: 1.8, historyMs: 3 * 86_400_000, fineHistoryMs: 30_000 },
};

/**
 * Activity factor per symbol (BTC-USDT = 1), roughly KuCoin's relative trade counts; unlisted symbols
 * get {@link DEFAULT_ACTIVITY}.
 */
export const SYMBOL_ACTIVITY: Readonly<Record<string, number>> = {
  'BTC-USDT': 1,
  'ETH-USDT': 0.7,
  'XRP-USDT': 0.3,
  'TRX-USDT': 0.2,
  'LTC-USDT': 0.2,
  'TON-USDT': 0.2,
  'KCS-USDT': 0.15,
  'ETH-BTC': 0.25,
  'LTC-BTC': 0.06,
  'KCS-ETH': 0.05,
  'NEO-ETH': 0.05,
  'TRX-ETH': 0.05,
};
/** Activity of a symbol missing from {@link SYMBOL_ACTIVITY}. */
export const DEFAULT_ACTIVITY = 0.05;

/**
 * Symbols whose makers quote a 1-tick spread (KuCoin's majors); the others quote
 * {@link MINOR_SPREAD_BP} basis points (at least one tick).
 */
export const MAJORS: ReadonlySet<string> = new Set(['BTC-USDT', 'ETH-USDT']);
/** Quoted spread of the minor pairs' makers, basis points of the price. */
export const MINOR_SPREAD_BP = 6;

/**
 * Journal size at which a sandbox running the agent-based market rotates (snapshot + new journal), unless
 * `snapshotEveryBytes` is given: its batches are bigger than the API's commands (about 600 bytes and 20
 * orders each, 13 a second), and a restart after a kill replays the whole current journal through the
 * engine (about 0.1 ms per KiB bundled, on a loaded 2-core box; `npm run bench -- restart`). 3 MiB keeps
 * that replay near 0.3 s, within the 1 s restart with the snapshot's read, at the cost of a background
 * rotation about every five minutes (the worker's rebuild and write: about 1 s of CPU, off the event loop).
 */
export const MARKET_SNAPSHOT_EVERY_BYTES = 3 << 20;

/** Trading-volume share of a symbol's noise-trader event rate at activity 1 (BTC-USDT), events per second. */
export const BASE_NOISE_RATE = 1.3;
