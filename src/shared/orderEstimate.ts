/**
 * What an order will cost before it is placed (issue 25, placement confirmation; meant to be
 * shared with the coming Order Ticket so the two never disagree): the notional in the quote
 * currency, whether it would rest as a maker or execute at once as a taker, the fee at the
 * user's rate, and warnings — a limit order that crosses the spread, one far from the market, a
 * post-only order that would be cancelled. Exact decimals (src/api/decimal.ts). Pure.
 */
import * as D from '../api/decimal';

/** The order as the request builder sends it (decimal strings; fields absent when empty). */
export interface EstimateOrder {
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: string;
  size?: string;
  funds?: string;
  postOnly?: boolean;
}

/** The market when the order is confirmed: best bid/ask (decimal strings), when known. */
export interface EstimateMarket {
  bestBid?: string;
  bestAsk?: string;
}

/** The user's fee rates (GET /api/v1/base-fee: decimal fractions, e.g. "0.001" = 0.1 %). */
export interface EstimateFees {
  takerFeeRate: string;
  makerFeeRate: string;
}

/** An estimate (see the module docs). */
export interface OrderEstimate {
  /** Price × size (limit), funds, or size × the opposite best price (market); undefined when unknown. */
  notional?: string;
  /** True when `notional` is based on the current best price (a market order by size). */
  approximate: boolean;
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
    if (o.funds) notional = o.funds;
    else if (o.size && opposite) {
      notional = D.mul(o.size, opposite);
      approximate = true;
    }
    if (!o.funds && !opposite) warnings.push('No market price is known: the cost of this market order cannot be estimated.');
  }
  const feeRate = fees && liquidity !== 'unknown' ? (liquidity === 'taker' ? fees.takerFeeRate : fees.makerFeeRate) : undefined;
  const fee = notional !== undefined && feeRate !== undefined ? D.normalize(D.mulUp(notional, feeRate, digits)) : undefined;
  return { ...(notional !== undefined ? { notional: D.normalize(notional) } : {}), approximate, liquidity, ...(feeRate !== undefined ? { feeRate } : {}), ...(fee !== undefined ? { fee } : {}), warnings };
}

/** The estimate as confirmation lines: notional, fee (with the rate and maker/taker), warnings. */
export function estimateLines(e: OrderEstimate, quote: string): string[] {
  const lines: string[] = [];
  lines.push(e.notional !== undefined ? `Notional: ${e.approximate ? '≈ ' : ''}${e.notional} ${quote}` : 'Notional: unknown');
  if (e.fee !== undefined && e.feeRate !== undefined) {
    lines.push(`Estimated fee: ${e.approximate ? '≈ ' : ''}${e.fee} ${quote} (${e.liquidity} rate ${D.normalize(D.mul(e.feeRate, '100'))} %)`);
  } else lines.push(`Estimated fee: unknown (${e.liquidity === 'unknown' ? 'no market data' : 'your fee rate could not be read'})`);
  for (const w of e.warnings) lines.push(`⚠ ${w}`);
  return lines;
}
