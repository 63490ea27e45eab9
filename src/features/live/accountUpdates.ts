/**
 * How the private stream changes what the Accounts and Active Orders views hold, as
 * pure functions (no `vscode`; unit-tested in test/unit/live/accountUpdates.test.ts):
 *
 * - `/account/balance` (`account.balance`, https://www.kucoin.com/docs-new/3470075w0): one
 *   account's new `total` / `available` / `hold` → {@link applyBalance} replaces that account's
 *   balance, available and holds (an account the view does not know asks for a REST resync);
 * - `/spotMarket/tradeOrdersV2` (`orderChange`, https://www.kucoin.com/docs-new/3470073w0):
 *   `received` / `open` add the order (built from the message by {@link orderFromChange}; the view
 *   then reads the full order once by id), `match` / `update` change its filled and remaining
 *   sizes, `filled` / `canceled` remove it ({@link applyOrderChange});
 * - fills are grouped per order over a short window into one notification ({@link FillAggregator}):
 *   a market order that sweeps ten levels is one "filled" notice, not ten.
 *
 * Decimals stay the wire's strings; sums are exact (src/api/decimal.ts).
 */
import * as D from '../../api/decimal';
import type { Account, HfOrder } from '../../api/schemas';
import type { WsBalance, WsOrderChange } from '../../api/streamSchemas';

/** One symbol's orders as the Active Orders view keeps them. */
export interface OrderBucket {
  symbol: string;
  orders: HfOrder[];
  error?: string;
}

/** ms of a nanosecond digit string. */
function nsToMs(ns: string): number {
  return ns.length > 6 ? Number(ns.slice(0, -6)) : 0;
}

/**
 * An HF order as far as an order change tells it (GET /api/v1/hf/orders/{id} gives the rest: time
 * in force, flags, fee…); fields the message does not carry get the HF order view's neutral values.
 */
export function orderFromChange(c: WsOrderChange): HfOrder {
  const size = c.originSize ?? c.size ?? '0';
  const filled = c.filledSize ?? '0';
  return {
    id: c.orderId,
    symbol: c.symbol,
    opType: 'DEAL',
    type: c.orderType,
    side: c.side,
    price: c.price ?? '0',
    size,
    funds: c.originFunds ?? c.funds ?? '0',
    dealSize: filled,
    dealFunds: '0',
    cancelledSize: c.canceledSize ?? '0',
    cancelledFunds: '0',
    remainSize: c.remainSize ?? D.sub(size, filled),
    remainFunds: c.remainFunds ?? '0',
    fee: '0',
    feeCurrency: '',
    stp: null,
    timeInForce: 'GTC',
    postOnly: false,
    hidden: false,
    iceberg: false,
    visibleSize: '0',
    cancelAfter: -1,
    channel: 'API',
    clientOid: c.clientOid || null,
    remark: null,
    tags: null,
    active: true,
    inOrderBook: c.type !== 'received',
    cancelExist: false,
    createdAt: c.orderTime,
    lastUpdatedAt: nsToMs(c.ts),
    tradeType: 'TRADE',
  };
}

/** What {@link applyOrderChange} did. */
export interface OrderChangeResult {
  /** The view's content changed. */
  changed: boolean;
  /** The order is new to the view: read it once by id for the fields the message lacks. */
  needsDetail: boolean;
}

/**
 * Apply one order change to the view's buckets (in place; a bucket is added for a new symbol).
 * Done orders (`filled`, `canceled`, status `done`) leave the view; an empty bucket stays (the view
 * hides it) so that its symbol keeps being resynced.
 */
export function applyOrderChange(buckets: OrderBucket[], c: WsOrderChange): OrderChangeResult {
  let bucket = buckets.find((b) => b.symbol === c.symbol);
  const idx = bucket ? bucket.orders.findIndex((o) => o.id === c.orderId) : -1;
  const done = c.type === 'filled' || c.type === 'canceled' || c.status === 'done';
  if (done) {
    if (!bucket || idx < 0) return { changed: false, needsDetail: false };
    bucket.orders.splice(idx, 1);
    return { changed: true, needsDetail: false };
  }
  if (!bucket) {
    bucket = { symbol: c.symbol, orders: [] };
    buckets.push(bucket);
  }
  if (idx < 0) {
    bucket.orders.push(orderFromChange(c));
    return { changed: true, needsDetail: true };
  }
  const o = bucket.orders[idx];
  const size = c.size ?? o.size;
  bucket.orders[idx] = {
    ...o,
    size: c.type === 'update' ? size : o.size,
    dealSize: c.filledSize ?? o.dealSize,
    remainSize: c.remainSize ?? o.remainSize,
    cancelledSize: c.canceledSize ?? o.cancelledSize,
    inOrderBook: c.type === 'received' ? o.inOrderBook : true,
    lastUpdatedAt: nsToMs(c.ts) || o.lastUpdatedAt,
  };
  return { changed: true, needsDetail: false };
}

/**
 * Apply one balance change to the accounts list (in place). Returns `updated`, `unchanged` (same
 * figures) or `unknown` (no account with that id: the caller resyncs from REST).
 */
export function applyBalance(accounts: Account[], b: WsBalance): 'updated' | 'unchanged' | 'unknown' {
  const i = accounts.findIndex((a) => a.id === b.accountId);
  if (i < 0) return 'unknown';
  const a = accounts[i];
  if (a.balance === b.total && a.available === b.available && a.holds === b.hold) return 'unchanged';
  accounts[i] = { ...a, balance: b.total, available: b.available, holds: b.hold };
  return 'updated';
}

/** The fills of one order within a window, ready for one notification. */
export interface FillSummary {
  orderId: string;
  symbol: string;
  side: 'buy' | 'sell';
  /** Sum of the fills' sizes (base), exact. */
  size: string;
  /** Size-weighted average fill price, exact to `priceDigits` + 4 fraction digits, truncated. */
  price: string;
  /** Quote value of the fills (Σ price × size), exact. */
  funds: string;
  /** Number of fills. */
  fills: number;
  /** Trade ids of the fills (to find their fees in GET /api/v1/hf/fills). */
  tradeIds: string[];
  /** Whether the order is completely filled (a `filled` change was seen). */
  complete: boolean;
  /** Filled and original size of the order after these fills (when the messages said). */
  filledSize: string | null;
  orderSize: string | null;
  liquidity: 'maker' | 'taker' | null;
}

/**
 * Groups `match` changes per order over `windowMs` (default 250 ms) and hands one
 * {@link FillSummary} per order to `emit`. A `filled` change of an order with pending fills marks
 * the summary complete and emits it at once.
 */
export class FillAggregator {
  private readonly pending = new Map<string, { s: FillSummary; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly emit: (s: FillSummary) => void,
    private readonly windowMs = 250,
  ) {}

  /** Offer one order change (only `match` and `filled` matter). */
  add(c: WsOrderChange): void {
    if (c.type === 'match' && c.matchSize !== undefined && c.matchPrice !== undefined) {
      let p = this.pending.get(c.orderId);
      if (!p) {
        const s: FillSummary = {
          orderId: c.orderId,
          symbol: c.symbol,
          side: c.side,
          size: '0',
          price: '0',
          funds: '0',
          fills: 0,
          tradeIds: [],
          complete: false,
          filledSize: null,
          orderSize: c.originSize ?? c.size ?? null,
          liquidity: c.liquidity ?? null,
        };
        p = { s, timer: setTimeout(() => this.flush(c.orderId), this.windowMs) };
        this.pending.set(c.orderId, p);
      }
      const s = p.s;
      s.size = D.add(s.size, c.matchSize);
      s.funds = D.add(s.funds, D.mul(c.matchPrice, c.matchSize));
      s.fills++;
      if (c.tradeId) s.tradeIds.push(c.tradeId);
      s.filledSize = c.filledSize ?? s.filledSize;
      s.orderSize = c.originSize ?? c.size ?? s.orderSize;
      if (c.liquidity) s.liquidity = c.liquidity;
      const digits = Math.max(D.fractionDigits(c.matchPrice), 0) + 4;
      s.price = D.isZero(s.size) ? c.matchPrice : D.normalize(D.divDown(s.funds, s.size, digits));
      if (c.status === 'done' || (c.remainSize !== undefined && D.isZero(c.remainSize))) s.complete = true;
      return;
    }
    if (c.type === 'filled') {
      const p = this.pending.get(c.orderId);
      if (p) {
        p.s.complete = true;
        this.flush(c.orderId);
      }
    }
  }

  /** Emit every pending summary now. */
  flushAll(): void {
    for (const id of [...this.pending.keys()]) this.flush(id);
  }

  /** Drop pending summaries without emitting (profile change). */
  clear(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  private flush(orderId: string): void {
    const p = this.pending.get(orderId);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(orderId);
    this.emit(p.s);
  }
}
