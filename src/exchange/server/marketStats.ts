/**
 * Rolling-window statistics of a symbol (24 h of GET /api/v1/market/allTickers and /stats, the 24 h / 4 h /
 * 1 h windows of the WebSocket ticker snapshot): open, high, low, last, volume, turnover, change and
 * average price of the trades with `time > since`.
 *
 * Source: the engine's public trade tape when it covers the window (every trade exact, to the
 * millisecond); otherwise the market tape's 1-minute candles (marketTape.ts), whole minutes: the engine
 * keeps the last 10,000 trades of a symbol, fewer than a busy day of the simulated market has, and the
 * history a fresh sandbox starts with (market/history.ts) is candles only. "Covers" means: no candle row
 * is older than the engine's oldest kept trade (so every candle came from trades the engine still has).
 */
import * as D from '../../api/decimal';
import type { PublicTrade } from '../core';
import type { WindowStats } from './feed/payloads';
import type { SandboxState } from './state';

/**
 * Statistics of `symbol` over the minutes after `since` (ms) from the candles, decimals as strings; value
 * rounded down to `quoteIncrement`, change rate and average to 4 and 8 digits — or null when the engine's
 * `trades` of the symbol (oldest first) cover the window and the caller should use them (feed/publisher.ts
 * windowStats; see module doc).
 */
export function candleStats(state: SandboxState, symbol: string, since: number, quoteIncrement: string, trades: readonly Pick<PublicTrade, 'time'>[]): WindowStats | null {
  const oldestRow = state.tape.oldestMinute(symbol);
  const oldestTrade = trades.length ? Math.floor(trades[0].time / 60_000) * 60_000 : Infinity;
  if (oldestRow === null || oldestRow >= oldestTrade) return null;
  const w = state.tape.minuteWindow(symbol, since);
  const changePrice = w.open !== null && w.last !== null ? D.sub(w.last, w.open) : null;
  return {
    open: w.open,
    high: w.high,
    low: w.low,
    last: w.last,
    vol: w.vol,
    volValue: D.roundDown(w.value, quoteIncrement),
    changePrice,
    changeRate: changePrice !== null && w.open !== null ? D.divDown(changePrice, w.open, 4) : null,
    averagePrice: D.isZero(w.vol) ? null : D.divDown(w.value, w.vol, 8),
  };
}
