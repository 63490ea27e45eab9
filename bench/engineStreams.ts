/**
 * The order streams and the world of the engine benchmark (issue 3), shared by bench/engine.bench.ts and
 * the differential check scripts/engine-diff.ts (which replays the same streams on two engines).
 */
import type { Exchange } from '../src/exchange/core';
import { REF_SYMBOL, addRefMarket, fundTrade } from '../src/exchange/core/refmarket';
import { mulberry32 } from '../src/exchange/server/world';

/** Mid price in ticks of 0.1 (price 100000.0). */
export const MID = 1_000_000;
/** Users placing the stream's orders in turn (order i belongs to user i % USERS). */
export const USERS = 64;
/** Window of stream B: order i is followed by a cancel of order i − WINDOW. */
export const WINDOW = 10_000;
export const SYM = REF_SYMBOL;

/** Pre-generated orders: side (0 buy, 1 sell), price in ticks, size in lots (baseIncrement 0.0001). */
export interface OrderStream {
  side: Uint8Array;
  ticks: Int32Array;
  lots: Int32Array;
}

/** Parameters of streams A, B (= A with cancels) and L (see bench/engine.bench.ts). */
export const STREAMS = {
  A: { seed: 1, aggressive: 0.09, band: 200, alternate: false, cancels: false },
  B: { seed: 1, aggressive: 0.09, band: 200, alternate: false, cancels: true },
  L: { seed: 3, aggressive: 0.27, band: 10, alternate: true, cancels: false },
} as const;

/**
 * `n` orders around MID from the sandbox's seeded mulberry32: a fraction `aggressive` placed through the
 * touch (crossing, 1–20 lots), the rest passive within `band` ticks (1–100 lots); sides random or alternating.
 */
export function genStream(n: number, seed: number, aggressive: number, band: number, alternate: boolean): OrderStream {
  const r = mulberry32(seed);
  const side = new Uint8Array(n);
  const ticks = new Int32Array(n);
  const lots = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = alternate ? i & 1 : r() < 0.5 ? 0 : 1;
    const aggr = r() < aggressive;
    const off = 1 + Math.floor(r() * band);
    let t: number;
    if (aggr) t = s === 0 ? MID + off : MID - off;
    else t = s === 0 ? MID - off : MID + off;
    side[i] = s;
    ticks[i] = t;
    lots[i] = aggr ? 1 + Math.floor(r() * 20) : 1 + Math.floor(r() * 100);
  }
  return { side, ticks, lots };
}

/**
 * Set up the benchmark world on a fresh exchange: the core's reference market (src/exchange/core/refmarket.ts,
 * shared with the unit tests: BTC (precision 8), USDT (6), SYM (price 0.1, size 0.0001)) and USERS users with
 * fee rates 0.001/0.0005 and ample funds in their trade accounts.
 * @returns the user ids, by user index.
 */
export function setUpBenchWorld(ex: Pick<Exchange, 'addCurrency' | 'addSymbol' | 'setFeeRates' | 'deposit' | 'transfer'>): string[] {
  addRefMarket(ex);
  const uids: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const uid = `user${u}`;
    uids.push(uid);
    ex.setFeeRates(uid, '0.001', '0.0005');
    fundTrade(ex, uid, 'USDT', '100000000000');
    fundTrade(ex, uid, 'BTC', '1000000');
  }
  return uids;
}
