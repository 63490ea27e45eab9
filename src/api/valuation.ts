/**
 * The ONE price a holding is valued at, everywhere SpotDesk shows a value: the Accounts row, its
 * tooltip, the Portfolio total and the status bar item, so that they agree with each other and
 * with the unrealized P&L beside them (which uses the same pair's last trade).
 *
 * Rule (what KuCoin's GET /api/v1/prices does on the exchange side: fiat prices derived from the
 * last trades through the USDT pairs, spec "Get Fiat Price"):
 * - a currency with a live last trade on its `C-USDT` pair: that last × the fiat price of USDT
 *   (from GET /api/v1/prices), so a tick on the pair moves the value at once;
 * - USDT itself, and any other currency: its GET /api/v1/prices figure;
 * - no figure at all: unpriced (left out of totals, listed as such).
 *
 * Exact decimals (src/api/decimal.ts). Pure: no `vscode`, no Node API.
 */
import * as D from './decimal';

/** The quote through which live prices are bridged to fiat (KuCoin's own rule). */
export const VALUATION_BRIDGE = 'USDT';

/** The pair whose last trade values `currency`, or undefined for the bridge itself. */
export function valuationPair(currency: string): string | undefined {
  return currency === VALUATION_BRIDGE ? undefined : `${currency}-${VALUATION_BRIDGE}`;
}

/** A currency's fiat price and where it comes from. */
export interface CurrencyPrice {
  /** Fiat per unit, exact decimal string. */
  price: string;
  /** The pair and its last trade when the price follows the market live; absent for GET /api/v1/prices. */
  market?: { symbol: string; last: string; bridgePrice: string };
}

/**
 * The fiat price of `currency` by the rule above.
 * @param fiat GET /api/v1/prices (fiat per unit, by currency), undefined when it failed.
 * @param last the live last trade price of a symbol, undefined when unknown.
 */
export function currencyPrice(currency: string, fiat: Readonly<Record<string, string>> | undefined, last: (symbol: string) => string | undefined): CurrencyPrice | undefined {
  const pair = valuationPair(currency);
  const bridge = fiat?.[VALUATION_BRIDGE];
  const l = pair !== undefined ? last(pair) : undefined;
  if (pair !== undefined && l !== undefined && bridge !== undefined && D.isDecimal(l) && D.isDecimal(bridge) && !D.isZero(l)) {
    return { price: D.mul(l, bridge), market: { symbol: pair, last: l, bridgePrice: bridge } };
  }
  const p = fiat?.[currency];
  return p !== undefined && D.isDecimal(p) ? { price: p } : undefined;
}

/** {@link currencyPrice} of each of `currencies`, as plain prices (the priced ones only). */
export function currencyPrices(currencies: Iterable<string>, fiat: Readonly<Record<string, string>> | undefined, last: (symbol: string) => string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of currencies) {
    const p = currencyPrice(c, fiat, last);
    if (p) out[c] = p.price;
  }
  return out;
}

/** One line saying where a price comes from ("last BTC-USDT trade 67085.7 × 0.9995 USD per USDT"). */
export function priceSource(p: CurrencyPrice, fiatCode: string): string {
  return p.market
    ? `the last ${p.market.symbol} trade ${p.market.last} × ${D.normalize(p.market.bridgePrice)} ${fiatCode} per ${VALUATION_BRIDGE}`
    : `GET /api/v1/prices`;
}
