/**
 * The Order Ticket's arithmetic: what a limit or market order costs, what it pays in fees
 * and how it sits against the market, computed the same way in the market panel's webview (live, as
 * the person types) and in the extension (again, from the exchange's figures, for the confirmation).
 * The order itself is checked by the ONE rules module, src/api/orderRules.ts (`validateOrder`), shared
 * with the request builder, so the ticket and the builder never disagree.
 *
 * Definitions (reference price, notional, maker or taker, fee estimate, cost, far from the market,
 * size for a share of available, stop and OCO orders): docs/market.md, "The Order Ticket's arithmetic".
 * All amounts are exact decimal strings (src/api/decimal.ts), never binary floating point.
 *
 * Pure: no `vscode`, no DOM, no Node API (bundled into the market webview).
 */
import * as D from '../../../api/decimal';
import type { RuleIssue, SymbolRules } from '../../../api/orderRules';
import { stopFor, triggerSign, validateKind } from '../../../api/advancedOrderRules';
import { depthWarning, FAR_FROM_MARKET, walkBook, type BookLevel, type BookWalk } from '../../../api/orderEstimate';

/** Share of the market beyond which a limit price is called "far from the market": the request builder's (10 %). */
export { FAR_FROM_MARKET };

/** The shares of the available balance the ticket offers, in percent. */
export const SIZE_SHARES = [25, 50, 75, 100] as const;

/** The ticket's order types: HF limit and market, stop-limit and stop-market (stop orders), OCO. */
export const TICKET_TYPES = ['limit', 'market', 'stopLimit', 'stopMarket', 'oco'] as const;
/** One of {@link TICKET_TYPES}. */
export type TicketType = (typeof TICKET_TYPES)[number];

/**
 * What the person entered. Amounts are the typed strings (may be empty or malformed). `price` is a limit
 * price (limit, stop-limit) or an OCO's take-profit price; `stopPrice` the trigger (stop orders, OCO);
 * `limitPrice` an OCO stop leg's price.
 */
export interface TicketInput {
  readonly side: 'buy' | 'sell';
  readonly type: TicketType;
  readonly price: string;
  readonly size: string;
  readonly stopPrice?: string;
  readonly limitPrice?: string;
}

/** What the ticket knows about the market and the account. Decimals are strings; null = unknown. */
export interface TicketContext {
  /** The symbol's rules (GET /api/v2/symbols), with base and quote currency. */
  readonly rules: SymbolRules & { baseCurrency: string; quoteCurrency: string };
  readonly bestBid: string | null;
  readonly bestAsk: string | null;
  /** The visible levels, best first (a market order walks them); absent = best price only. */
  readonly bids?: readonly BookLevel[] | null;
  readonly asks?: readonly BookLevel[] | null;
  /** Last traded price (for "far from the market" when a side of the book is empty). */
  readonly last: string | null;
  /** Available in the trade account: base and quote currency. */
  readonly availableBase: string | null;
  readonly availableQuote: string | null;
  /** The user's fee rates on this symbol (e.g. "0.001"). */
  readonly makerFeeRate: string | null;
  readonly takerFeeRate: string | null;
}

/** A warning the ticket and the confirmation show. */
export interface TicketWarning {
  readonly code: 'crosses-spread' | 'far-from-market' | 'insufficient-balance' | 'no-market-price' | 'beyond-depth' | 'fires-at-once';
  readonly message: string;
}

/** The ticket's figures for one input. */
export interface TicketQuote {
  /**
   * The request the ticket would send, without clientOid: the body of POST /api/v1/hf/orders, of POST
   * /api/v1/stop-order (with `stop` and `stopPrice`) or of POST /api/v3/oco/order (`kind` says which).
   */
  readonly order: Record<string, string>;
  readonly kind: 'order' | 'stop' | 'oco';
  /** Stop orders and OCO: what fires them, e.g. "≤ 29500 (loss)" (OCO: "≥ 31000 / ≤ 29500"); else null. */
  readonly trigger: string | null;
  /** validateOrder issues (src/api/orderRules.ts): errors block placement. */
  readonly issues: readonly RuleIssue[];
  /** Price used for the figures (see the module docs), or null. */
  readonly referencePrice: string | null;
  /** A market order's walk of the visible book (average price, slippage, depth), or null. */
  readonly walk: BookWalk | null;
  /** Notional in quote, or null when price or size is unknown. */
  readonly notional: string | null;
  /** `maker` or `taker`, or null without a price. */
  readonly liquidity: 'maker' | 'taker' | null;
  /** The fee rate applied, or null. */
  readonly feeRate: string | null;
  /** Estimated fee in quote (rounded up to the quote increment), or null. */
  readonly fee: string | null;
  /** The currency and amount the order needs (quote for a buy: notional + fee; base for a sell: size), or null. */
  readonly cost: { readonly currency: string; readonly amount: string } | null;
  /** The available balance of that currency, or null when unknown. */
  readonly available: { readonly currency: string; readonly amount: string | null };
  readonly warnings: readonly TicketWarning[];
  /** True when the order can be sent for confirmation (no rule error). */
  readonly ok: boolean;
}

const dec = (s: string | null | undefined): string | null => (typeof s === 'string' && D.isDecimal(s.trim()) ? D.normalize(s.trim()) : null);
const positive = (s: string | null): s is string => s !== null && !D.isZero(s) && !D.isNegative(s);

/** Mid of bid and ask, or the last price, or null (exact). */
export function marketPrice(bestBid: string | null, bestAsk: string | null, last: string | null): string | null {
  if (positive(bestBid) && positive(bestAsk)) {
    const sum = D.add(bestBid, bestAsk);
    return D.normalize(D.divDown(sum, '2', D.fractionDigits(sum) + 1));
  }
  return positive(last) ? last : null;
}

/** `|a − b| / b` as a percentage with two decimals ("12.34"), truncated. */
function pctDistance(a: string, b: string): string {
  const diff = D.isNegative(D.sub(a, b)) ? D.sub(b, a) : D.sub(a, b);
  return D.divDown(D.mul(diff, '100'), b, 2);
}

/**
 * The ticket's figures (see the module docs). Never throws: malformed amounts give null figures and
 * the rules module's issues.
 */
export function quoteTicket(input: TicketInput, ctx: TicketContext): TicketQuote {
  const { rules } = ctx;
  const base = rules.baseCurrency;
  const quote = rules.quoteCurrency;
  const t = input.type;
  const limit = t === 'limit' || t === 'stopLimit';
  const kind = t === 'oco' ? 'oco' : t === 'stopLimit' || t === 'stopMarket' ? 'stop' : 'order';
  const order: Record<string, string> = { symbol: rules.symbol, side: input.side };
  if (kind !== 'oco') order.type = limit ? 'limit' : 'market';
  const set = (k: string, v: string | undefined) => {
    if (v !== undefined && v.trim() !== '') order[k] = v.trim();
  };
  if (limit || t === 'oco') set('price', input.price);
  set('size', input.size);
  const bid = dec(ctx.bestBid);
  const ask = dec(ctx.bestAsk);
  const last = dec(ctx.last) ?? marketPrice(bid, ask, null);
  const stopPrice = kind === 'order' ? null : dec(input.stopPrice);
  let trigger: string | null = null;
  if (kind !== 'order') {
    set('stopPrice', input.stopPrice);
    if (kind === 'stop' && stopPrice !== null) trigger = `${triggerSign((order.stop = stopFor(input.side, stopPrice, last)))} ${stopPrice} (${order.stop})`;
    if (kind === 'oco') set('limitPrice', input.limitPrice);
  }
  const issues = validateKind(kind, order, { symbols: new Map([[rules.symbol, rules]]) }).filter((i) => i.code !== 'missing-client-oid');
  const price = limit || t === 'oco' ? dec(input.price) : null;
  const size = dec(input.size);
  const warnings: TicketWarning[] = [];

  let referencePrice: string | null = null;
  let liquidity: 'maker' | 'taker' | null = null;
  let walk: BookWalk | null = null;
  if (kind !== 'order') {
    // the liquidity is decided when it fires: the taker rate, on the safe side
    liquidity = 'taker';
    const lp = t === 'oco' ? dec(input.limitPrice) : null;
    referencePrice = t === 'stopMarket' ? stopPrice : t === 'oco' && input.side === 'buy' && positive(price) && positive(lp) ? D.max(price, lp) : price;
    const buy = input.side === 'buy';
    if (t === 'oco' && positive(price) && positive(stopPrice)) trigger = `${buy ? '≤' : '≥'} ${price} / ${buy ? '≥' : '≤'} ${stopPrice}`;
    const at =
      last === null || !positive(stopPrice)
        ? false
        : t === 'oco'
          ? (positive(price) && D.cmp(last, price) * (buy ? -1 : 1) >= 0) || D.cmp(last, stopPrice) * (buy ? 1 : -1) >= 0
          : D.cmp(last, stopPrice) === 0;
    if (at) warnings.push({ code: 'fires-at-once', message: `The last price ${last} already meets the trigger: it fires at once.` });
  } else if (input.type === 'market') {
    referencePrice = input.side === 'buy' ? (positive(ask) ? ask : null) : positive(bid) ? bid : null;
    liquidity = 'taker';
    const levels = input.side === 'buy' ? ctx.asks : ctx.bids;
    if (levels && levels.length && positive(size)) {
      walk = walkBook(input.side, levels, { size }, D.fractionDigits(D.normalize(rules.baseIncrement)));
      if (walk.averagePrice !== null) referencePrice = walk.averagePrice;
      if (walk.exceedsDepth) warnings.push({ code: 'beyond-depth', message: depthWarning(walk, input.side, base, quote) });
    }
    if (referencePrice === null) warnings.push({ code: 'no-market-price', message: `No ${input.side === 'buy' ? 'ask' : 'bid'} in the book: the figures cannot be estimated.` });
  } else if (positive(price)) {
    referencePrice = price;
    const crosses = input.side === 'buy' ? positive(ask) && D.cmp(price, ask) >= 0 : positive(bid) && D.cmp(price, bid) <= 0;
    liquidity = crosses ? 'taker' : 'maker';
    if (crosses) {
      const against = input.side === 'buy' ? `best ask ${ask}` : `best bid ${bid}`;
      warnings.push({ code: 'crosses-spread', message: `Crosses the spread (${against}): executes at once as a taker, not as a resting maker order.` });
    }
    const ref = marketPrice(bid, ask, dec(ctx.last));
    if (ref !== null && D.cmp(D.mul(ref, FAR_FROM_MARKET), D.isNegative(D.sub(price, ref)) ? D.sub(ref, price) : D.sub(price, ref)) < 0) {
      const above = D.cmp(price, ref) > 0;
      warnings.push({ code: 'far-from-market', message: `Far from the market: ${pctDistance(price, ref)} % ${above ? 'above' : 'below'} the ${positive(bid) && positive(ask) ? 'mid' : 'last price'} ${ref}.` });
    }
  }

  // A market order: what the visible levels charge (past them, the average price stands in).
  const notional = walk && walk.averagePrice !== null && !walk.exceedsDepth ? walk.funds : referencePrice !== null && positive(size) ? D.mul(referencePrice, size) : null;
  const feeRate = liquidity === null ? null : dec(liquidity === 'maker' ? ctx.makerFeeRate : ctx.takerFeeRate);
  const fee = notional !== null && feeRate !== null ? D.normalize(D.mulUp(notional, feeRate, D.fractionDigits(D.normalize(rules.quoteIncrement)))) : null;
  const availCurrency = input.side === 'buy' ? quote : base;
  const availAmount = dec(input.side === 'buy' ? ctx.availableQuote : ctx.availableBase);
  let cost: TicketQuote['cost'] = null;
  if (input.side === 'buy' && notional !== null) cost = { currency: quote, amount: D.add(notional, fee ?? '0') };
  if (input.side === 'sell' && positive(size)) cost = { currency: base, amount: size };
  if (cost && availAmount !== null && D.cmp(cost.amount, availAmount) > 0) {
    warnings.push({ code: 'insufficient-balance', message: `Needs ${cost.amount} ${cost.currency}${kind !== 'order' ? ' when it fires' : ''}; ${availAmount} ${cost.currency} is available in the trade account.` });
  }
  return {
    order,
    kind,
    trigger,
    issues,
    referencePrice,
    walk,
    notional,
    liquidity,
    feeRate,
    fee,
    cost,
    available: { currency: availCurrency, amount: availAmount },
    warnings,
    ok: !issues.some((i) => i.severity === 'error'),
  };
}

/**
 * The size for `percent` of the available balance (see the module docs), rounded down to the lot;
 * null when it cannot be computed (no balance, no price for a buy) or rounds to zero.
 */
export function sizeForShare(percent: number, input: Pick<TicketInput, 'side' | 'type' | 'price' | 'stopPrice'>, ctx: TicketContext): string | null {
  if (!(percent > 0 && percent <= 100)) return null;
  const share = D.divDown(String(Math.round(percent)), '100', 2);
  const lot = ctx.rules.baseIncrement;
  let size: string;
  if (input.side === 'sell') {
    const avail = dec(ctx.availableBase);
    if (!positive(avail)) return null;
    size = D.roundDown(D.mul(avail, share), lot);
  } else {
    const avail = dec(ctx.availableQuote);
    const t = input.type;
    const price = t === 'market' ? dec(ctx.bestAsk) : t === 'stopMarket' ? dec(input.stopPrice ?? '') : dec(input.price);
    if (!positive(avail) || !positive(price)) return null;
    const rate = dec(ctx.takerFeeRate) ?? '0';
    const perUnit = D.mul(price, D.add('1', rate));
    size = D.roundDown(D.divDown(D.mul(avail, share), perUnit, D.fractionDigits(lot) + 2), lot);
  }
  return positive(size) ? D.normalize(size) : null;
}

/** Price for the best bid / best ask / mid buttons, on the tick (mid rounded down to the tick); null when unknown. */
export function ticketPrice(which: 'bid' | 'ask' | 'mid', ctx: Pick<TicketContext, 'bestBid' | 'bestAsk' | 'last' | 'rules'>): string | null {
  const bid = dec(ctx.bestBid);
  const ask = dec(ctx.bestAsk);
  if (which === 'bid') return positive(bid) ? bid : null;
  if (which === 'ask') return positive(ask) ? ask : null;
  const mid = marketPrice(bid, ask, null);
  return mid === null ? null : D.normalize(D.roundDown(mid, ctx.rules.priceIncrement));
}
