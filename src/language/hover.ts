/**
 * Hovers of order documents (Markdown):
 * - on the `symbol` value: the symbol's rules (GET /api/v2/symbols) and its live best bid/ask and
 *   last price (from the client — the extension has the feed — or GET /api/v1/market/allTickers);
 * - on a `price`: its distance from the mid in basis points, and whether it would cross the spread;
 * - on a `size`: its funds in the quote currency (price × size); a market order's estimate WALKS the
 *   visible book it takes (asks for a buy, bids for a sell: src/api/bookWalk.ts `walkBook`, the one
 *   walk the ticket and the request builder use) — average price, slippage in bps, and a warning
 *   when the order is larger than the visible depth;
 * - on a `funds` (market order): the base amount it buys or sells, by the same walk;
 * - on a `stopPrice` (stop and OCO orders): when it fires (`stop` loss: the last trade price at or below it;
 *   entry: at or above; an OCO's stop leg: the side's way) and how far the last price is from it, or that it
 *   fires at once; on an OCO's `price` (take profit) the same for its leg; on an OCO's `limitPrice` its funds;
 * - on a property key: the field's documentation (of the order's kind: HF, stop or OCO).
 * All arithmetic is exact decimal (src/api/decimal.ts): bps truncated to 2 places, estimates to
 * the symbol's increment.
 */
import * as D from '../api/decimal';
import type { OrderDocument, OrderEntry } from './document';
import { enumValues, fieldDoc } from './fields';
import { orderKind, triggerSign } from '../api/advancedOrderRules';
import type { MarketResult, SymbolsStatus } from './protocol';
import type { SymbolMeta } from './symbols';
import { depthWarning, walkBook, walkSummary } from '../api/bookWalk';

/** What a hover needs from the server. */
export interface HoverContext {
  symbols: ReadonlyMap<string, SymbolMeta> | undefined;
  status: SymbolsStatus;
  /** Live market of a symbol (with `depth`: its visible levels too); rejects or resolves null when unavailable. */
  market(symbol: string, depth?: boolean): Promise<MarketResult>;
}

/** A hover: Markdown and the absolute span it applies to. */
export interface HoverResult {
  markdown: string;
  offset: number;
  length: number;
}

/** The mid price (bid + ask) / 2, exact; undefined without two positive sides. */
export function midOf(m: MarketResult): string | undefined {
  const ok = (v: string | null | undefined): v is string => !!v && D.isDecimal(v) && !D.isNegative(v) && !D.isZero(v);
  if (!m || !ok(m.bestBid) || !ok(m.bestAsk)) return undefined;
  const digits = Math.max(D.fractionDigits(m.bestBid), D.fractionDigits(m.bestAsk)) + 1;
  return D.divDown(D.add(m.bestBid, m.bestAsk), '2', digits);
}

/** (price − mid) / mid in basis points, truncated toward zero to 2 decimals ("-12.5", "0"). */
export function bpsFromMid(price: string, mid: string): string {
  return D.divDown(D.mul(D.sub(price, mid), '10000'), mid, 2);
}

function metaNote(status: SymbolsStatus): string {
  if (status.state === 'offline') return `\n\n_Offline: symbol rules as of ${status.fetchedAt ? new Date(status.fetchedAt).toISOString() : 'an earlier session'} (last refresh failed: ${status.error ?? 'unknown error'})._`;
  if (status.state === 'stale') return `\n\n_Symbol rules as of ${status.fetchedAt ? new Date(status.fetchedAt).toISOString() : '?'} (a refresh is due)._`;
  return '';
}

async function marketOf(ctx: HoverContext, symbol: string, depth?: boolean): Promise<{ m: MarketResult; error?: string }> {
  try {
    return { m: await ctx.market(symbol, depth) };
  } catch (err) {
    return { m: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/** One line of live prices (or why there are none) and one line saying where they come from. */
function marketLines(m: MarketResult, error: string | undefined): string {
  if (!m) return `Live prices unavailable${error ? `: ${error}` : ''}.`;
  const mid = midOf(m);
  const spread = mid && m.bestBid && m.bestAsk ? D.sub(m.bestAsk, m.bestBid) : undefined;
  return [
    `bid **${m.bestBid ?? '—'}** · ask **${m.bestAsk ?? '—'}** · last ${m.last ?? '—'}${mid && spread ? ` · mid ${mid} · spread ${spread} (${D.divDown(D.mul(spread, '10000'), mid, 2)} bps)` : ' · no mid (a side of the book is empty)'}`,
    `_${m.source} at ${new Date(m.time).toISOString()}_`,
  ].join('  \n');
}

/** The symbol's title line (names, market, trading status). */
function symbolTitle(s: SymbolMeta): string {
  return `**${s.symbol}** — ${s.baseCurrency} / ${s.quoteCurrency}${s.market ? ` · market ${s.market}` : ''} · ${s.enableTrading ? 'trading enabled' : '**trading disabled**'}`;
}

/** The symbol's order rules (GET /api/v2/symbols) as a short list. */
function symbolRules(s: SymbolMeta): string {
  return [
    `- price: a multiple of ${s.priceIncrement} ${s.quoteCurrency}`,
    `- size: ${s.baseMinSize} – ${s.baseMaxSize} ${s.baseCurrency}, a multiple of ${s.baseIncrement}`,
    `- funds: ${s.quoteMinSize} – ${s.quoteMaxSize} ${s.quoteCurrency}, a multiple of ${s.quoteIncrement}${s.minFunds ? `; order value at least ${s.minFunds} ${s.quoteCurrency} (minFunds)` : ''}`,
  ].join('\n');
}

/** The property of `e` whose key or value contains `offset`. */
function propertyAt(doc: OrderDocument, e: OrderEntry, offset: number): { key: string; on: 'key' | 'value'; span: { offset: number; length: number } } | undefined {
  for (const p of doc.properties(e)) {
    if (offset < p.offset || offset >= p.offset + p.length) continue;
    const k = doc.property(e, p.key);
    if (!k) return undefined;
    if (offset >= k.key.offset && offset < k.key.offset + k.key.length) return { key: p.key, on: 'key', span: k.key };
    if (offset >= k.value.offset && offset < k.value.offset + k.value.length) return { key: p.key, on: 'value', span: k.value };
    return undefined;
  }
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && D.isDecimal(v) && !D.isNegative(v) && !D.isZero(v) ? v : undefined);

/**
 * The hover at `offset` of the document, or undefined when there is nothing to say.
 * Never throws (an unavailable market becomes a line in the hover).
 */
export async function hoverAt(doc: OrderDocument, offset: number, ctx: HoverContext): Promise<HoverResult | undefined> {
  const e = doc.entryAt(offset);
  if (!e?.value) return undefined;
  const at = propertyAt(doc, e, offset);
  if (!at) return undefined;
  const order = e.value;
  const kind = orderKind(order);
  const done = (markdown: string): HoverResult => ({ markdown, offset: at.span.offset, length: at.span.length });
  if (at.on === 'key') {
    const doc = fieldDoc(at.key, kind);
    return doc ? done(`**${at.key}** — ${doc}`) : done(`**${at.key}** is not a field of ${kind === 'oco' ? 'an OCO' : kind === 'stop' ? 'a stop' : 'an HF'} order: the exchange ignores it.`);
  }
  const symbol = typeof order.symbol === 'string' ? order.symbol : undefined;
  const rules = symbol ? ctx.symbols?.get(symbol) : undefined;
  const quote = rules?.quoteCurrency ?? 'quote';
  const base = rules?.baseCurrency ?? 'base';
  /** A trigger at `price` that fires at or below (≤) or at or above (≥) it, against the last trade price. */
  const trigger = async (what: string, price: string, sign: '≤' | '≥'): Promise<HoverResult> => {
    const head = `${what} fires when the last trade price is **${sign} ${price} ${quote}**`;
    if (!symbol) return done(`${head}.`);
    const { m, error } = await marketOf(ctx, symbol);
    const last = m?.last;
    if (!last || !D.isDecimal(last) || D.isZero(last)) return done(`${head}; no last price to compare with${error ? ` (${error})` : ''}.`);
    const met = sign === '≤' ? D.cmp(last, price) <= 0 : D.cmp(last, price) >= 0;
    const pct = D.divDown(D.mul(D.sub(price, last), '100'), last, 2);
    return done(`${head}; the last price is ${last}${met ? ': **already met, it fires at once**' : `, the trigger ${pct.startsWith('-') ? pct.slice(1) : pct} % ${pct.startsWith('-') ? 'below' : 'above'} it`}.`);
  };
  if (kind !== 'order') {
    const stop = str(order.stopPrice);
    const sell = order.side === 'sell';
    if (at.key === 'stopPrice' && stop) return trigger(kind === 'oco' ? 'The stop leg' : 'This stop order', stop, kind === 'oco' ? (sell ? '≤' : '≥') : triggerSign(typeof order.stop === 'string' ? order.stop : 'loss'));
    if (kind === 'oco' && at.key === 'price') {
      const price = str(order.price);
      if (price) return trigger(`The take-profit leg (a limit order at ${price})`, price, sell ? '≥' : '≤');
    }
    if (kind === 'oco' && (at.key === 'limitPrice' || at.key === 'size')) {
      const size = str(order.size);
      const lp = str(order.limitPrice);
      const tp = str(order.price);
      if (!size) return undefined;
      return done(`Each leg is ${size} ${base}: take profit ${tp ? `${size} × ${tp} = **${D.mul(size, tp)} ${quote}**` : '(no price yet)'}, stop leg ${lp ? `${size} × ${lp} = **${D.mul(size, lp)} ${quote}**` : '(no limitPrice yet)'}; only one executes.`);
    }
  }
  switch (at.key) {
    case 'symbol': {
      if (!symbol) return undefined;
      if (!rules) {
        const why = ctx.status.state === 'none' ? `no symbol metadata is known yet${ctx.status.error ? ` (${ctx.status.error})` : ''}` : `GET /api/v2/symbols of ${ctx.status.baseUrl ?? '?'} does not list it`;
        return done(`**${symbol}**: unknown — ${why}.`);
      }
      const { m, error } = await marketOf(ctx, symbol);
      return done(`${symbolTitle(rules)}\n\n${marketLines(m, error)}\n\n${symbolRules(rules)}${metaNote(ctx.status)}`);
    }
    case 'price': {
      const price = str(order.price);
      if (!price || !symbol) return undefined;
      const { m, error } = await marketOf(ctx, symbol);
      const mid = midOf(m);
      if (!m || !mid) return done(`price ${price} ${quote}: no mid to compare with${error ? ` (${error})` : m ? ' (a side of the book is empty)' : ''}.`);
      const bps = bpsFromMid(price, mid);
      const where = D.isZero(bps) ? 'at the mid' : D.isNegative(bps) ? `${bps.slice(1)} bps below the mid` : `${bps} bps above the mid`;
      let cross = '';
      if (order.side === 'buy' && m.bestAsk && D.cmp(price, m.bestAsk) >= 0) cross = ` A buy at this price crosses the best ask ${m.bestAsk}: it would take liquidity (not with postOnly).`;
      if (order.side === 'sell' && m.bestBid && D.cmp(price, m.bestBid) <= 0) cross = ` A sell at this price crosses the best bid ${m.bestBid}: it would take liquidity (not with postOnly).`;
      return done(`price ${price} ${quote} is **${where}** ${mid} (bid ${m.bestBid} / ask ${m.bestAsk}).${cross}`);
    }
    case 'size': {
      const size = str(order.size);
      if (!size) return undefined;
      const price = str(order.price);
      if (order.type !== 'market' && price) {
        return done(`size ${size} ${base} × price ${price} = **${D.mul(price, size)} ${quote}** (funds of the order, before fees).`);
      }
      if (order.type === 'market' && symbol) {
        const { m, error } = await marketOf(ctx, symbol, true);
        const side = order.side === 'sell' ? 'sell' : 'buy';
        const levels = side === 'sell' ? m?.bids : m?.asks;
        const at = side === 'sell' ? m?.bestBid : m?.bestAsk;
        if (!at) return done(`size ${size} ${base}: no ${side === 'sell' ? 'bid' : 'ask'} to estimate its funds${error ? ` (${error})` : ''}.`);
        if (!levels?.length) return done(`size ${size} ${base} ≈ **${D.mul(at, size)} ${quote}** at the best ${side === 'sell' ? 'bid' : 'ask'} ${at} (no book levels to walk: it may fill deeper).`);
        const w = walkBook(side, levels, { size }, rules ? D.fractionDigits(rules.baseIncrement) : 8);
        const funds = w.exceedsDepth ? `${D.mul(size, w.averagePrice ?? at)} ${quote}` : `${w.funds} ${quote}`;
        return done(`size ${size} ${base} ≈ **${funds}** — ${walkSummary(w, side, quote)}.${w.exceedsDepth ? `\n\n⚠ ${depthWarning(w, side, base, quote)}` : ''}\n\n_${m!.source}_`);
      }
      return done(`size ${size} ${base}: add a price to see its funds in ${quote}.`);
    }
    case 'funds': {
      const funds = str(order.funds);
      if (!funds || !symbol) return undefined;
      const { m, error } = await marketOf(ctx, symbol, true);
      const side = order.side === 'sell' ? 'sell' : 'buy';
      const at = side === 'sell' ? m?.bestBid : m?.bestAsk;
      if (!at) return done(`funds ${funds} ${quote}: no ${side === 'sell' ? 'bid' : 'ask'} to estimate the size${error ? ` (${error})` : ''}.`);
      const digits = rules ? D.fractionDigits(rules.baseIncrement) : 8;
      const levels = side === 'sell' ? m?.bids : m?.asks;
      if (!levels?.length) return done(`funds ${funds} ${quote} ≈ **${D.divDown(funds, at, digits)} ${base}** at the best ${side === 'sell' ? 'bid' : 'ask'} ${at} (no book levels to walk: it may fill deeper).`);
      const w = walkBook(side, levels, { funds }, digits);
      return done(`funds ${funds} ${quote} ≈ **${D.normalize(w.size)} ${base}** — ${walkSummary(w, side, quote)}.${w.exceedsDepth ? `\n\n⚠ ${depthWarning(w, side, base, quote)}` : ''}\n\n_${m!.source}_`);
    }
    default: {
      const values = enumValues(at.key);
      const v = order[at.key];
      const meaning = values?.find((x) => x.value === v)?.doc;
      const d = fieldDoc(at.key);
      if (!d) return undefined;
      return done(`**${at.key}** — ${d}${meaning ? `\n\n\`${String(v)}\`: ${meaning}` : ''}`);
    }
  }
}
