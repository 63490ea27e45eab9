/**
 * The engine's read side that walks history and books (Exchange delegates to it; docs/engine.md, "Parts"):
 * done orders and fills of the 3 × 24 h window, level-2 snapshots, best bid/ask, the public trade tape.
 * Read-only, except that each query first runs the GTT expiry due at the clock's time, as every command does.
 */
import type { FillsQuery, HfFill, HfOrder, Level2, PublicTrade } from './types';
import { BUY, SELL } from './base';
import { TAPE_MAX, TAPE_STRIDE, type BookSide, type Level } from './book';
import { FS_MARKET, FS_SIDE } from './fillstore';
import type { OrderBook } from './orderbook';
import type { OrderState } from './rows';
import type { CoreState } from './state';
import { fillView, orderView, tradeView } from './views';

/** Best bid/ask (visible levels only); null when that side has no visible level. */
export interface BestBidAsk {
  bestBid: string | null;
  bestBidSize: string | null;
  bestAsk: string | null;
  bestAskSize: string | null;
}

/** History and market-data queries; each method is documented where Exchange exposes it. */
export class Queries {
  constructor(
    private readonly st: CoreState,
    private readonly book: OrderBook,
  ) {}

  /** Exchange.doneOrders. */
  doneOrders(
    uid: string,
    symbol: string,
    q: { startAt?: number; endAt?: number; limit?: number; side?: 'buy' | 'sell'; type?: 'limit' | 'market'; lastId?: number } = {},
  ): HfOrder[] {
    const now = this.st.now();
    this.book.expire(now);
    this.st.sym(symbol);
    // a lastId that is no done order of this list (unknown, live, another user's or symbol's, gone): an empty
    // page, as KuCoin answers it
    if (q.lastId !== undefined && (!this.st.owns(uid, symbol, q.lastId, this.st.winStart(now)) || this.st.liveOf(q.lastId) >= 0)) return [];
    const u = this.st.users[uid];
    if (!u) return [];
    if (!u.keepHistory) return [];
    const us = u.us(this.st.sym(symbol));
    const start = Math.max(q.startAt ?? 0, this.st.winStart(now));
    const end = q.endAt ?? now;
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 100);
    // the page starts after (afterT, afterSeq) in the answer's order
    const afterT = q.lastId !== undefined ? this.st.archive.lastUpdatedAt(q.lastId) : Infinity;
    const afterSeq = q.lastId ?? Infinity;
    const side = q.side === undefined ? -1 : q.side === 'buy' ? BUY : SELL;
    const out: OrderState[] = [];
    // the chain is in done-time order: it ends where it reaches a forgotten (older) order
    for (let seq = this.st.archive.lastDone(us.idx); this.st.archive.hasDone(seq); seq = this.st.archive.prevDone(seq)) {
      const t = this.st.archive.lastUpdatedAt(seq);
      if (t < start || t > end || t > afterT || (t === afterT && seq >= afterSeq)) continue;
      const o = this.st.stateOf(seq);
      if ((side >= 0 && o.side !== side) || (q.type !== undefined && o.market !== (q.type === 'market'))) continue;
      out.push(o);
    }
    out.sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt || b.seq - a.seq);
    return out.slice(0, limit).map((o) => orderView(o));
  }

  /** Exchange.fills. */
  fills(uid: string, q: FillsQuery): { items: HfFill[]; lastId: number } {
    const now = this.st.now();
    this.book.expire(now);
    const sym = this.st.sym(q.symbol);
    const u = this.st.users[uid];
    if (!u || !u.keepHistory) return { items: [], lastId: 0 };
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 100);
    const out: HfFill[] = [];
    const winStart = this.st.winStart(now);
    let start = q.startAt ?? winStart;
    let end = q.endAt ?? now;
    if (start < winStart) {
      start = winStart;
      end = now;
    }
    let oseq = -1;
    if (q.orderId !== undefined) {
      oseq = this.st.findSeq(uid, q.symbol, q.orderId, winStart);
      if (oseq < 0) return { items: [], lastId: 0 };
    }
    const side = q.side === undefined ? -1 : q.side === 'buy' ? BUY : SELL;
    const fs = this.st.fillStore;
    for (let ref = u.lastFill; fs.has(ref) && out.length < limit; ref = fs.prev(ref)) {
      if (fs.symIdx(ref) !== sym.idx) continue;
      if (oseq >= 0) {
        if (fs.orderSeq(ref) !== oseq || fs.createdAt(ref) < winStart) continue;
      } else {
        const fl = fs.flags(ref);
        if (q.lastId !== undefined && fs.fillId(ref) >= q.lastId) continue;
        if (side >= 0 && (fl & FS_SIDE) !== side) continue;
        if (q.type !== undefined && ((fl & FS_MARKET) !== 0 ? 'market' : 'limit') !== q.type) continue;
        const at = fs.createdAt(ref);
        if (at < start || at > end) continue;
      }
      out.push(fillView(this.st.fillStore, this.st.symList, this.st.rates, ref));
    }
    return { items: out, lastId: out.length ? out[out.length - 1].id : 0 };
  }

  /** Exchange.level2. */
  level2(symbol: string, depth: number): Level2 {
    const now = this.st.now();
    this.book.expire(now);
    const s = this.st.sym(symbol);
    const side = (b: BookSide): [string, string][] => {
      const out: [string, string][] = [];
      for (let i = b.count - 1; i >= 0 && out.length < depth; i--) {
        const lv = b.at(i) as Level;
        if (lv.size > 0) out.push([s.priceStr(lv.ticks), s.sizeStr(lv.size)]);
      }
      return out;
    };
    return { sequence: String(s.sequence), time: now, bids: side(s.bids), asks: side(s.asks) };
  }

  /** Exchange.bestBidAsk. */
  bestBidAsk(symbol: string): BestBidAsk {
    this.book.expire(this.st.now());
    const s = this.st.sym(symbol);
    const best = (b: BookSide): Level | undefined => {
      for (let i = b.count - 1; i >= 0; i--) {
        const lv = b.at(i) as Level;
        if (lv.size > 0) return lv;
      }
      return undefined;
    };
    const bb = best(s.bids);
    const ba = best(s.asks);
    return {
      bestBid: bb ? s.priceStr(bb.ticks) : null,
      bestBidSize: bb ? s.sizeStr(bb.size) : null,
      bestAsk: ba ? s.priceStr(ba.ticks) : null,
      bestAskSize: ba ? s.sizeStr(ba.size) : null,
    };
  }

  /** Exchange.trades. */
  trades(symbol: string, sinceMs = 0): PublicTrade[] {
    const s = this.st.sym(symbol);
    const since = Math.max(sinceMs, this.st.winStart(this.st.now()));
    const out: PublicTrade[] = [];
    for (let i = Math.max(0, s.tapeCount - TAPE_MAX); i < s.tapeCount; i++) {
      const slot = i % TAPE_MAX;
      if ((s.tape as Float64Array)[slot * TAPE_STRIDE + 5] >= since) out.push(tradeView(s, slot));
    }
    return out;
  }

  /** Exchange.lastTrade. */
  lastTrade(symbol: string): PublicTrade | undefined {
    const s = this.st.sym(symbol);
    if (s.tapeCount === 0) return undefined;
    const slot = (s.tapeCount - 1) % TAPE_MAX;
    if ((s.tape as Float64Array)[slot * TAPE_STRIDE + 5] < this.st.winStart(this.st.now())) return undefined;
    return tradeView(s, slot);
  }
}
