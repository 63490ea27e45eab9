/**
 * Fiat prices of GET /api/v1/prices that follow the sandbox's own market, as KuCoin's do (spec
 * "Get Fiat Price"; KuCoin derives them from its last trades through the USDT pairs):
 *
 * - USDT: the seeded USD price (a stablecoin's peg is not quoted by a USDT pair of its own);
 * - a currency with a `C-USDT` pair that has traded: its last trade × the USD price of USDT;
 * - a currency quoted only against another priced currency (e.g. NEO-ETH): its last trade × that
 *   currency's USD price (the chain is followed until nothing changes, so NEO → ETH → USDT);
 * - anything else (no pair, or no trade within the tape's 3 × 24 h window): the seeded price.
 *
 * Prices are exact products of decimal strings (src/api/decimal.ts) in USD; the route converts them
 * to the requested fiat. Pure over its inputs (the route passes the engine's last trades).
 */
import * as D from '../../../api/decimal';
import type { World } from '../world';

/** The currency every derived price goes through (KuCoin: the USDT pairs). */
export const BRIDGE_CURRENCY = 'USDT';

/** Where a USD price came from: the pair and its last trade, or the seed. */
export interface UsdPrice {
  /** USD per unit, exact decimal string. */
  price: string;
  /** The pair whose last trade it follows, or undefined for the seeded price. */
  via?: string;
}

/**
 * The USD price of each currency the market moves (see the module docs), keyed by currency.
 * Currencies absent from the result keep their seeded price ({@link usdPriceOf}).
 * @param lastPrice the last trade price of a symbol (decimal string), undefined when it has none.
 */
export function marketUsdPrices(world: World, lastPrice: (symbol: string) => string | undefined): Map<string, UsdPrice> {
  const out = new Map<string, UsdPrice>();
  const bridge = world.usdPrices.get(BRIDGE_CURRENCY);
  if (bridge === undefined) return out;
  out.set(BRIDGE_CURRENCY, { price: bridge });
  const lasts = new Map<string, string>();
  for (const s of world.symbols) {
    const p = lastPrice(s.symbol);
    if (p !== undefined && D.isDecimal(p) && !D.isZero(p)) lasts.set(s.symbol, p);
  }
  // USDT pairs first (the direct route), then chains through currencies priced in an earlier round.
  for (const s of world.symbols) {
    const last = lasts.get(s.symbol);
    if (last !== undefined && s.quoteCurrency === BRIDGE_CURRENCY && s.baseCurrency !== BRIDGE_CURRENCY) {
      out.set(s.baseCurrency, { price: D.mul(last, bridge), via: s.symbol });
    }
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of world.symbols) {
      const last = lasts.get(s.symbol);
      const quote = out.get(s.quoteCurrency);
      if (last === undefined || quote === undefined || out.has(s.baseCurrency)) continue;
      out.set(s.baseCurrency, { price: D.mul(last, quote.price), via: s.symbol });
      changed = true;
    }
  }
  return out;
}

/** USD price of `currency`: the market's when it has one, else the seeded price; undefined when neither. */
export function usdPriceOf(world: World, market: ReadonlyMap<string, UsdPrice>, currency: string): string | undefined {
  return market.get(currency)?.price ?? world.usdPrices.get(currency);
}
