/**
 * The market's two commands as MarketHost.exec applies them: `market.batch` (batch.ts) and
 * `market.history` (history.ts). Malformed args throw {@link MarketCommandError} before anything changed
 * (state.ts answers it as 400100).
 */
import type { MarketHost } from './host';
import { applyBatch, checkBatch, type MarketBatchArgs, type MarketBatchResult } from './batch';
import { applyHistory, batchTarget, type MarketHistoryArgs, type MarketHistoryResult } from './history';

export { applyBatch, batchTarget };
export type { MarketBatchArgs, MarketBatchResult, MarketHistoryArgs, MarketHistoryResult };

/** Bad args of a market command (nothing changed). */
export class MarketCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarketCommandError';
  }
}

/** Apply `market.batch`. @throws MarketCommandError on malformed args. */
export function execMarketBatch(state: MarketHost, args: MarketBatchArgs): MarketBatchResult {
  const target = batchTarget(state);
  try {
    checkBatch(target, args);
  } catch (e) {
    throw new MarketCommandError((e as Error).message);
  }
  return applyBatch(target, args);
}

/** Apply `market.history`; `setClock` moves the engine's clock through the past. @throws MarketCommandError on bad args or missing bots. */
export function execMarketHistory(state: MarketHost, args: MarketHistoryArgs, setClock: (ms: number) => void): MarketHistoryResult {
  // only a fresh state has no past: nothing may have traded yet
  for (const s of state.world.symbols) if (state.exchange.hasSymbol(s.symbol) && state.exchange.trades(s.symbol).length > 0) throw new MarketCommandError('market.history runs only on a fresh state, before any trade');
  try {
    return applyHistory(state, args, setClock);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('market.history')) throw new MarketCommandError(e.message);
    throw e;
  }
}
