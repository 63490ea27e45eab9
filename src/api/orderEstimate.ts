/**
 * What an order will cost before it is placed (placement confirmation; shared with the
 * Order Ticket and the order documents' hover so they never disagree): the notional in the quote
 * currency, whether it would rest as a maker or execute at once as a taker, the fee at the
 * user's rate, and warnings — a limit order that crosses the spread, one far from the market, a
 * post-only order that would be cancelled.
 *
 * A market order is estimated by WALKING THE VISIBLE BOOK ({@link walkBook}): it takes the opposite
 * side level by level, best first, so its estimate is the volume-weighted average price of what it
 * would take, with the slippage from the best price in basis points, and a warning when it is larger
 * than the visible depth (then it fills deeper than anyone can see, or not at all). Without book
 * levels, the best price stands in (and the estimate says so).
 *
 * Exact decimals (src/api/decimal.ts). Pure: no `vscode`, no DOM (bundled into the market webview).
 */
import * as D from './decimal';
import { depthWarning, walkBook, walkSummary, type BookLevel, type BookWalk } from './bookWalk';

// The walk lives in src/api (the language server may import only src/api); this module is its one home
// for the ticket and the request builder, re-exported so that every surface calls the same function.
export { depthWarning, walkBook, walkSummary, type BookLevel, type BookWalk } from './bookWalk';

/** The order as the request builder sends it (decimal strings; fields absent when empty). */
export interface EstimateOrder {
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: string;
  size?: string;
  funds?: string;
  postOnly?: boolean;
  /** The base currency's code, for the messages (optional). */
  base?: string;
  /** Fraction digits of the lot (baseIncrement) for a funds order's walk; default 8. */
  baseDigits?: number;
}

/** The market when the order is confirmed: best bid/ask and the visible levels (decimal strings), when known. */
export interface EstimateMarket {
  bestBid?: string;
  bestAsk?: string;
  /** Bids, best (highest) first. */
  bids?: readonly BookLevel[];
  /** Asks, best (lowest) first. */
  asks?: readonly BookLevel[];
}

/** The user's fee rates (GET /api/v1/base-fee: decimal fractions, e.g. "0.001" = 0.1 %). */
export interface EstimateFees {
  takerFeeRate: string;
  makerFeeRate: string;
}

/**
 * The user's rates on one symbol, KuCoin's rule: the base rates (GET /api/v1/base-fee) × the symbol's
 * fee coefficients (GET /api/v2/symbols `makerFeeCoefficient` / `takerFeeCoefficient`; "1" when the
 * symbol or a coefficient is unknown). Exact decimal strings. The request builder and the Order
 * Ticket both take their rates from here, so their fee estimates agree.
 */
export function symbolFeeRates(base: EstimateFees, symbol?: { makerFeeCoefficient?: string; takerFeeCoefficient?: string }): EstimateFees {
  const k = (coef: string | undefined) => (coef !== undefined && D.isDecimal(coef) ? coef : '1');
  return {
    makerFeeRate: D.normalize(D.mul(base.makerFeeRate, k(symbol?.makerFeeCoefficient))),
    takerFeeRate: D.normalize(D.mul(base.takerFeeRate, k(symbol?.takerFeeCoefficient))),
  };
}

/** An estimate (see the module docs). */
export interface OrderEstimate {
  /** Price × size (limit), funds, or what the visible book charges for the size (market); undefined when unknown. */
  notional?: string;
  /** True when `notional` is an estimate from the current book (a market order by size). */
  approximate: boolean;
  /** A market order's walk of the visible book (undefined without book levels). */
  walk?: BookWalk;
  /** How the order would trade now: resting (maker), at once (taker), or unknown (no market data). */
  liquidity: 'maker' | 'taker' | 'unknown';
  /** The rate that applies, when known. */
  feeRate?: string;
  /** Notional × rate, rounded up to `digits`, when both are known. */
  fee?: string;
  /** Things the person should know before confirming. */
  warnings: string[];
}

/** Share of the mid beyond which a limit price counts as far from the market. */
export const FAR_FROM_MARKET = '0.1';

/** Percent of `part` / `whole` with two decimals, e.g. "12.34". */
function percentOf(part: string, whole: string): string {
  return D.normalize(D.divDown(D.mul(part, '100'), whole, 2));
}

/**
 * Estimate `o` against `m` and `fees`. `digits` is the quote currency's precision for the fee
 * (default 8); `quote` names it in the warnings.
 */
export function estimateOrder(o: EstimateOrder, m: EstimateMarket, fees: EstimateFees | undefined, quote = '', digits = 8): OrderEstimate {
  const warnings: string[] = [];
  const q = quote ? ` ${quote}` : '';
  const opposite = o.side === 'buy' ? m.bestAsk : m.bestBid;
  let notional: string | undefined;
  let approximate = false;
  let liquidity: OrderEstimate['liquidity'] = 'unknown';
  let walk: BookWalk | undefined;
  if (o.type === 'limit') {
    if (o.price && o.size) notional = D.mul(o.price, o.size);
    if (o.price && opposite) {
      const crosses = o.side === 'buy' ? D.cmp(o.price, opposite) >= 0 : D.cmp(o.price, opposite) <= 0;
      liquidity = crosses ? 'taker' : 'maker';
      if (crosses) {
        warnings.push(
          o.postOnly
            ? `Post-only, but the price crosses the spread (best ${o.side === 'buy' ? 'ask' : 'bid'} ${opposite}${q}): the exchange cancels it instead of executing it.`
            : `This limit ${o.side} at ${o.price}${q} crosses the spread (best ${o.side === 'buy' ? 'ask' : 'bid'} ${opposite}${q}): it executes at once, as a taker.`,
        );
      }
    } else if (o.price && !opposite) liquidity = 'maker';
    if (o.price && m.bestBid && m.bestAsk) {
      const mid = D.divDown(D.add(m.bestBid, m.bestAsk), '2', 18);
      const away = D.sub(o.price, mid);
      const far = D.mul(mid, FAR_FROM_MARKET);
      if (D.cmp(D.isNegative(away) ? D.sub('0', away) : away, far) > 0) {
        warnings.push(`The price is ${percentOf(D.isNegative(away) ? D.sub('0', away) : away, mid)} % ${D.isNegative(away) ? 'below' : 'above'} the market (mid ${D.normalize(mid)}${q}).`);
      }
    }
  } else {
    liquidity = 'taker';
    const levels = o.side === 'buy' ? m.asks : m.bids;
    const amount = o.funds ? { funds: o.funds } : o.size ? { size: o.size } : undefined;
    if (levels && levels.length && amount) walk = walkBook(o.side, levels, amount, o.baseDigits ?? 8);
    if (o.funds) notional = o.funds;
    else if (o.size && walk && walk.averagePrice !== null) {
      notional = walk.exceedsDepth ? D.mul(o.size, walk.averagePrice) : walk.funds;
      approximate = true;
    } else if (o.size && opposite) {
      notional = D.mul(o.size, opposite);
      approximate = true;
    }
    if (!o.funds && !opposite && !walk?.averagePrice) warnings.push('No market price is known: the cost of this market order cannot be estimated.');
    if (walk?.exceedsDepth) warnings.push(depthWarning(walk, o.side, o.base ?? '', quote));
  }
  const feeRate = fees && liquidity !== 'unknown' ? (liquidity === 'taker' ? fees.takerFeeRate : fees.makerFeeRate) : undefined;
  const fee = notional !== undefined && feeRate !== undefined ? D.normalize(D.mulUp(notional, feeRate, digits)) : undefined;
  return { ...(notional !== undefined ? { notional: D.normalize(notional) } : {}), approximate, ...(walk ? { walk } : {}), liquidity, ...(feeRate !== undefined ? { feeRate } : {}), ...(fee !== undefined ? { fee } : {}), warnings };
}

/** The estimate as confirmation lines: notional, fee (with the rate and maker/taker), warnings. */
export function estimateLines(e: OrderEstimate, quote: string, side: 'buy' | 'sell' = 'buy', base = ''): string[] {
  const lines: string[] = [];
  lines.push(e.notional !== undefined ? `Notional: ${e.approximate ? '≈ ' : ''}${e.notional} ${quote}` : 'Notional: unknown');
  if (e.walk) lines.push(`Market price: ${walkSummary(e.walk, side, quote)}${e.walk.averagePrice !== null ? ` (${D.normalize(e.walk.size)}${base ? ` ${base}` : ''} from the visible book)` : ''}`);
  if (e.fee !== undefined && e.feeRate !== undefined) {
    lines.push(`Estimated fee: ${e.approximate ? '≈ ' : ''}${e.fee} ${quote} (${e.liquidity} rate ${D.normalize(D.mul(e.feeRate, '100'))} %)`);
  } else lines.push(`Estimated fee: unknown (${e.liquidity === 'unknown' ? 'no market data' : 'your fee rate could not be read'})`);
  for (const w of e.warnings) lines.push(`⚠ ${w}`);
  return lines;
}
