/**
 * Pure rules of Active Orders symbol discovery (no `vscode`, unit-tested in
 * test/unit/extension/orderDiscovery.test.ts).
 *
 * GET /api/v1/hf/orders/active needs a symbol, and a hold on a QUOTE currency (e.g. USDT held by
 * an open BUY) does not say which pair holds it. So after polling the known symbols, the view
 * compares each trade-account hold (GET /api/v1/accounts, decimal strings) with what the orders
 * found explain ({@link explainedHolds}); for a currency whose hold is not explained it polls a
 * bounded, rotating list of that currency's symbols ({@link discoveryCandidates}) until the hold
 * is explained.
 */
import type { HfOrder, SymbolInfo, Ticker } from '../../../api/schemas';
import * as dec from '../../../api/decimal';

/**
 * Relative allowance for what holds contain beyond the order cost: buy holds reserve the taker
 * fee on top of price × size (sandbox and KuCoin), at most 1 % on any fee tier. A hold is
 * "explained" when held ≤ explained × (1 + FEE_ALLOWANCE).
 */
export const FEE_ALLOWANCE = '0.01';

/** Extra symbols polled per refresh for unexplained quote-currency holds (each costs weight 2, Spot pool). */
export const MAX_DISCOVERY_PER_REFRESH = 10;

/** Base and quote currency of a symbol. */
export type Pair = Pick<SymbolInfo, 'baseCurrency' | 'quoteCurrency'>;

/** Marker of an order whose hold cannot be computed (market buy by size, market sell by funds): treated as explaining any hold. */
export const UNKNOWN_HOLD = 'unknown';

/** Amounts explained per currency (decimal strings), or {@link UNKNOWN_HOLD}. */
export type Explained = Map<string, string>;

/**
 * What the active `orders` explain of the trade-account holds, per currency (decimal strings):
 * a limit BUY holds about price × remainSize of the quote, a market BUY by funds remainFunds of
 * the quote, a SELL remainSize of the base. Orders of unknown symbols are ignored.
 */
export function explainedHolds(orders: readonly HfOrder[], pairs: ReadonlyMap<string, Pair>): Explained {
  const out: Explained = new Map();
  const addTo = (currency: string, amount: string) => {
    const cur = out.get(currency) ?? '0';
    out.set(currency, cur === UNKNOWN_HOLD || amount === UNKNOWN_HOLD ? UNKNOWN_HOLD : dec.add(cur, amount));
  };
  for (const o of orders) {
    const pair = pairs.get(o.symbol);
    if (!pair) continue;
    if (o.side === 'buy') {
      if (o.type === 'limit') addTo(pair.quoteCurrency, dec.mul(o.price, o.remainSize));
      else if (!dec.isZero(o.funds)) addTo(pair.quoteCurrency, o.remainFunds);
      else addTo(pair.quoteCurrency, UNKNOWN_HOLD);
    } else if (o.type === 'limit' || dec.isZero(o.funds)) {
      addTo(pair.baseCurrency, o.remainSize);
    } else {
      addTo(pair.baseCurrency, UNKNOWN_HOLD);
    }
  }
  return out;
}

/**
 * Currencies whose hold (`held`: currency → trade-account holds, decimal string) exceeds what
 * the orders explain, with the fee allowance. @returns the currencies, in `held` order.
 */
export function unexplainedCurrencies(held: ReadonlyMap<string, string>, explained: Explained): string[] {
  const out: string[] = [];
  const factor = dec.add('1', FEE_ALLOWANCE);
  for (const [currency, amount] of held) {
    if (dec.isZero(amount) || dec.isNegative(amount)) continue;
    const e = explained.get(currency) ?? '0';
    if (e === UNKNOWN_HOLD) continue;
    if (dec.cmp(amount, dec.mul(e, factor)) > 0) out.push(currency);
  }
  return out;
}

/** A candidate from the volume ranking: `rank` is its position in the full ranking (for the rotation cursor). */
export interface RankedCandidate {
  symbol: string;
  rank: number;
}

/**
 * The symbols to try for an unexplained hold of `quote`, in order: `preferred` — the given
 * preferred symbols (watchlist/noted) quoted in `quote` — then `byVolume` — every
 * trading-enabled symbol quoted in `quote`, by 24 h quote volume (`volValue` of
 * GET /api/v1/market/allTickers, descending; symbols without volume last, ties by name), rotated
 * to start at rank `cursor` so successive refreshes cover the long tail (the caller stores
 * `rank + 1` of the last one it polled). Symbols in `exclude` (already polled) are skipped.
 */
export function discoveryCandidates(args: {
  quote: string;
  symbols: readonly SymbolInfo[];
  tickers: ReadonlyMap<string, Pick<Ticker, 'volValue'>>;
  preferred: readonly string[];
  exclude: ReadonlySet<string>;
  cursor: number;
}): { preferred: string[]; byVolume: RankedCandidate[] } {
  const quoted = args.symbols.filter((s) => s.quoteCurrency === args.quote && s.enableTrading);
  const names = new Set(quoted.map((s) => s.symbol));
  const preferred = [...new Set(args.preferred)].filter((s) => names.has(s) && !args.exclude.has(s));
  const vol = (s: string) => args.tickers.get(s)?.volValue ?? undefined;
  const ranked = quoted
    .map((s) => s.symbol)
    .filter((s) => !preferred.includes(s))
    .sort((a, b) => {
      const va = vol(a);
      const vb = vol(b);
      if (va && vb && dec.cmp(va, vb) !== 0) return dec.cmp(vb, va);
      if (va && !vb) return -1;
      if (vb && !va) return 1;
      return a.localeCompare(b);
    });
  const n = ranked.length;
  const start = n ? ((args.cursor % n) + n) % n : 0;
  const byVolume: RankedCandidate[] = [];
  for (let i = 0; i < n; i++) {
    const rank = (start + i) % n;
    if (!args.exclude.has(ranked[rank])) byVolume.push({ symbol: ranked[rank], rank });
  }
  return { preferred, byVolume };
}
