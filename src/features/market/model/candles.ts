/**
 * Candles of the market panel's chart: the intervals of GET /api/v1/market/candles
 * (1min … 1week), the interval a trade falls into, and the live update of the last candle from the
 * trades of `/market/match` — exact decimal strings throughout (src/api/decimal.ts); only the chart
 * converts them to Numbers to draw.
 *
 * A candle is KuCoin's row `[start (s), open, close, high, low, volume (base), turnover (quote)]`.
 * An interval starts at a multiple of its length since the epoch (UTC); weeks start on Monday
 * 00:00 UTC (the sandbox's choice, src/exchange/server/marketTape.ts). A trade of an interval newer
 * than the last candle opens a new candle; a trade of the last candle's interval updates its close,
 * high, low, volume and turnover; a trade older than the last candle is already in the history and
 * is ignored (the history of the REST answer wins).
 *
 * Pure: no `vscode`, no DOM, no Node API (bundled into the market webviews and unit-tested).
 */
import * as D from '../../../api/decimal';
import { CANDLE_SECONDS } from '../../../api/candleIntervals';

/** Candle intervals, finest first, with their length in seconds (KuCoin's, src/api/candleIntervals.ts). */
export const CANDLE_INTERVALS = CANDLE_SECONDS;

/** A candle interval (`type` of GET /api/v1/market/candles). */
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

/** Every interval, finest first. */
export const INTERVALS = Object.keys(CANDLE_INTERVALS) as CandleInterval[];

/** Default interval of a new chart. */
export const DEFAULT_INTERVAL: CandleInterval = '1min';

/** Monday 1970-01-05 00:00 UTC, seconds: weeks start here. */
const WEEK_ORIGIN_S = 4 * 86_400;

/** One candle: `[start s (digit string), open, close, high, low, volume, turnover]`, decimals as strings. */
export type CandleRow = readonly [start: string, open: string, close: string, high: string, low: string, volume: string, turnover: string];

/** A trade as the chart needs it: price and size (decimal strings), time in ms. */
export interface ChartTrade {
  readonly price: string;
  readonly size: string;
  readonly time: number;
}

/** True for a known interval name. */
export function isInterval(x: unknown): x is CandleInterval {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(CANDLE_INTERVALS, x);
}

/** Start (s) of the interval of `interval` that holds second `s`. */
export function candleStart(interval: CandleInterval, s: number): number {
  const len = CANDLE_INTERVALS[interval];
  if (interval === '1week') return Math.floor((s - WEEK_ORIGIN_S) / len) * len + WEEK_ORIGIN_S;
  return Math.floor(s / len) * len;
}

/**
 * Apply one trade to `candles` (oldest first; changed in place, the last row replaced by a new
 * array) for `interval`. Returns `'new'` (a candle was opened), `'updated'` (the last candle
 * changed) or `'ignored'` (the trade is older than the last candle).
 * @throws DecimalFormatError when price or size is not a decimal.
 */
export function applyTrade(candles: CandleRow[], interval: CandleInterval, trade: ChartTrade): 'new' | 'updated' | 'ignored' {
  const start = candleStart(interval, Math.floor(trade.time / 1000));
  const last = candles[candles.length - 1];
  const turnover = D.mul(trade.price, trade.size);
  if (!last || Number(last[0]) < start) {
    candles.push([String(start), trade.price, trade.price, trade.price, trade.price, trade.size, turnover]);
    return 'new';
  }
  if (Number(last[0]) > start) return 'ignored';
  const [t, open, , high, low, vol, turn] = last;
  candles[candles.length - 1] = [
    t,
    open,
    trade.price,
    D.cmp(trade.price, high) > 0 ? trade.price : high,
    D.cmp(trade.price, low) < 0 ? trade.price : low,
    D.add(vol, trade.size),
    D.add(turn, turnover),
  ];
  return 'updated';
}

/** GET /api/v1/market/candles answers newest first; the chart wants oldest first, one row per start. */
export function oldestFirst(rows: readonly CandleRow[]): CandleRow[] {
  const byStart = new Map<string, CandleRow>();
  for (const r of rows) byStart.set(r[0], r);
  return [...byStart.values()].sort((a, b) => Number(a[0]) - Number(b[0]));
}
