/**
 * NAIVE reference model of the exchange core, for model-based tests. Written separately from the
 * engine and as simply as possible: decimal strings (src/api/decimal) for every amount, a flat array
 * of orders, linear scans for the best price and for holds. It mirrors the documented rules of
 * the exchange core (docs/engine.md): fees truncated at the quote precision, buy holds
 * price × remaining + taker fee rounded up, market holds by walking the book, STP, TIF, post-only,
 * hidden, iceberg (refill to the back), market-by-funds stop rule, GTT stamped at expiry.
 * Only the symbol of helpers.ts (BTC-USDT, price 0.1, base 0.0001, USDT precision 6) is modelled.
 */
import * as D from '../../../src/api/decimal';

const QUOTE_PREC = '0.000001';
const ID_PREFIX = '6a5d0c00';

/** A model order. Decimal strings. */
export interface MOrder {
  seq: number;
  id: string;
  uid: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price: string; // '0' for market
  size: string | null;
  funds: string | null;
  remain: string; // size orders
  remainFunds: string; // funds orders
  deal: string;
  cancelled: string;
  cancelledFunds: string;
  dealFunds: string;
  fee: string;
  tif: string;
  cancelAfter: number;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visible: string;
  shown: string;
  stp: string;
  taker: string;
  maker: string;
  active: boolean;
  inBook: boolean;
  cancelExist: boolean;
  prio: number;
  expireAt: number;
  lastUpdatedAt: number;
  hold: string; // market orders only (transient)
}

/** A model fill. */
export interface MFill {
  uid: string;
  orderId: string;
  counterOrderId: string;
  tradeId: number;
  side: string;
  liquidity: string;
  forceTaker: boolean;
  price: string;
  size: string;
  funds: string;
  fee: string;
  feeRate: string;
  createdAt: number;
}

/** Order request of the model (a subset of PlaceOrderRequest). */
export interface MReq {
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: string;
  size?: string;
  funds?: string;
  timeInForce?: 'GTC' | 'GTT' | 'IOC' | 'FOK';
  cancelAfter?: number;
  postOnly?: boolean;
  hidden?: boolean;
  iceberg?: boolean;
  visibleSize?: string;
  stp?: 'DC' | 'CO' | 'CN' | 'CB';
}

function gt(a: string, b: string): boolean {
  return D.cmp(a, b) > 0;
}
function isPos(a: string): boolean {
  return D.cmp(a, '0') > 0;
}
function minD(a: string, b: string): string {
  return D.cmp(a, b) <= 0 ? a : b;
}
function feeTrunc(rate: string, funds: string): string {
  return D.roundDown(D.mul(rate, funds), QUOTE_PREC);
}
function feeCeil(rate: string, funds: string): string {
  return isPos(rate) ? D.roundUp(D.mul(rate, funds), QUOTE_PREC) : '0';
}

/** The naive model. */
export class Model {
  bal = new Map<string, string>(); // `${uid}|${cur}|${type}` → balance
  orders: MOrder[] = [];
  fills: MFill[] = [];
  feesUSDT = '0';
  rates = new Map<string, [string, string]>();
  prio = 0;
  tradeId = 0;

  get(uid: string, cur: string, type: string): string {
    return this.bal.get(`${uid}|${cur}|${type}`) ?? '0';
  }
  put(uid: string, cur: string, type: string, v: string): void {
    this.bal.set(`${uid}|${cur}|${type}`, v);
  }
  /** Holds of an account = what its active orders reserve (trade) — recomputed by scan. */
  holds(uid: string, cur: string, type: string): string {
    if (type !== 'trade') return '0';
    let h = '0';
    for (const o of this.orders) {
      if (!o.active || o.uid !== uid) continue;
      if (cur === 'USDT' && o.side === 'buy') h = D.add(h, o.type === 'limit' ? this.limitHold(o) : o.hold);
      if (cur === 'BTC' && o.side === 'sell') h = D.add(h, o.type === 'limit' ? o.remain : o.hold);
    }
    return h;
  }
  available(uid: string, cur: string): string {
    return D.sub(this.get(uid, cur, 'trade'), this.holds(uid, cur, 'trade'));
  }
  limitHold(o: MOrder): string {
    const cost = D.mul(o.price, o.remain);
    return D.add(cost, feeCeil(o.taker, cost));
  }

  deposit(uid: string, cur: string, amt: string): void {
    this.put(uid, cur, 'main', D.add(this.get(uid, cur, 'main'), amt));
  }
  /** Returns an error code or null. */
  transfer(uid: string, cur: string, from: string, to: string, amt: string): string | null {
    const avail = from === 'trade' ? this.available(uid, cur) : this.get(uid, cur, 'main');
    if (gt(amt, avail)) return '200004';
    this.put(uid, cur, from, D.sub(this.get(uid, cur, from), amt));
    this.put(uid, cur, to, D.add(this.get(uid, cur, to), amt));
    return null;
  }

  expire(now: number): void {
    for (;;) {
      let best: MOrder | null = null;
      for (const o of this.orders) {
        if (o.active && o.tif === 'GTT' && o.expireAt <= now && (!best || o.expireAt < best.expireAt || (o.expireAt === best.expireAt && o.seq < best.seq))) best = o;
      }
      if (!best) return;
      this.cancel(best, best.expireAt);
    }
  }

  cancel(o: MOrder, now: number): void {
    if (o.funds !== null) {
      if (isPos(o.remainFunds)) {
        o.cancelledFunds = D.add(o.cancelledFunds, o.remainFunds);
        o.remainFunds = '0';
        o.cancelExist = true;
      }
      o.remain = '0';
    } else if (isPos(o.remain)) {
      o.cancelled = D.add(o.cancelled, o.remain);
      o.remain = '0';
      o.cancelExist = true;
    }
    o.active = false;
    o.inBook = false;
    o.shown = '0';
    o.lastUpdatedAt = now;
  }

  /** Resting orders of a side that an incoming order at `price` would cross, in priority order. */
  crossing(o: MOrder): MOrder[] {
    const opp = o.side === 'buy' ? 'sell' : 'buy';
    const list = this.orders.filter(
      (m) => m.active && m.inBook && m.side === opp && (o.type === 'market' || (o.side === 'buy' ? !gt(m.price, o.price) : !gt(o.price, m.price))),
    );
    list.sort((a, b) => {
      const c = D.cmp(a.price, b.price);
      if (c !== 0) return o.side === 'buy' ? c : -c;
      return a.prio - b.prio;
    });
    return list;
  }

  cancelCode(uid: string, id: string, now: number): string | null {
    this.expire(now);
    const o = this.orders.find((x) => x.id === id && x.uid === uid);
    if (!o || !o.active) return '400100';
    this.cancel(o, now);
    return null;
  }

  /**
   * Modify (Exchange.alterOrder, KuCoin "Modify Order"): cancel `id` and place a new limit order with its
   * flags at `newPrice` (default its price) for `newSize` − dealt (default its remaining size); only the
   * cancel when that is not positive (returns null). Checked first, with the old order's hold counted as
   * free: price × size ≥ quoteMinSize 0.1 (400100) and the balance (200004); nothing changes on error.
   */
  alter(uid: string, id: string, newPrice: string | undefined, newSize: string | undefined, now: number): string | MOrder | null {
    this.expire(now);
    const o = this.orders.find((x) => x.id === id && x.uid === uid);
    if (!o || !o.active) return '400100';
    const size = newSize === undefined ? o.remain : D.sub(newSize, o.deal);
    if (!isPos(size)) {
      this.cancel(o, now);
      return null;
    }
    const price = newPrice ?? o.price;
    if (D.cmp(D.mul(price, size), '0.1') < 0) return '400100';
    const r: MReq = { side: o.side, type: 'limit', price, size, timeInForce: o.tif as MReq['timeInForce'] };
    if (o.tif === 'GTT') r.cancelAfter = o.cancelAfter;
    if (o.postOnly) r.postOnly = true;
    if (o.hidden) r.hidden = true;
    if (o.iceberg) {
      r.iceberg = true;
      r.visibleSize = minD(o.visible, size);
    }
    if (o.stp) r.stp = o.stp as MReq['stp'];
    const cur = o.side === 'buy' ? 'USDT' : 'BTC';
    const oldHold = o.side === 'buy' ? this.limitHold(o) : o.remain;
    const [taker] = this.rates.get(uid) ?? ['0.001', '0.001'];
    const cost = D.mul(price, size);
    const newHold = o.side === 'buy' ? D.add(cost, feeCeil(taker, cost)) : size;
    if (gt(newHold, D.add(this.available(uid, cur), oldHold))) return '200004';
    this.cancel(o, now);
    return this.place(uid, r, now);
  }

  /**
   * Partial cancel (Exchange.cancelPartial): the remaining size of an active order decreases by
   * min(cancelSize, remaining), in place (same queue position); the order is done when nothing remains.
   * Returns the size cancelled, or the error code.
   */
  cancelPartial(uid: string, id: string, cancelSize: string, now: number): string {
    this.expire(now);
    const o = this.orders.find((x) => x.id === id && x.uid === uid);
    if (!o || !o.active) return '400100';
    const d = minD(cancelSize, o.remain);
    o.remain = D.sub(o.remain, d);
    o.cancelled = D.add(o.cancelled, d);
    o.cancelExist = true;
    o.lastUpdatedAt = now;
    if (!isPos(o.remain)) {
      o.active = false;
      o.inBook = false;
      o.shown = '0';
    } else {
      o.shown = minD(o.shown, o.remain);
    }
    return d;
  }

  /** Place; returns the error code or the new order. */
  place(uid: string, r: MReq, now: number): string | MOrder {
    this.expire(now);
    const [taker, maker] = this.rates.get(uid) ?? ['0.001', '0.001'];
    const o: MOrder = {
      seq: 0,
      id: '',
      uid,
      side: r.side,
      type: r.type,
      price: r.type === 'limit' ? (r.price as string) : '0',
      size: r.size ?? null,
      funds: r.funds ?? null,
      remain: r.size ?? '0',
      remainFunds: r.funds ?? '0',
      deal: '0',
      cancelled: '0',
      cancelledFunds: '0',
      dealFunds: '0',
      fee: '0',
      tif: r.timeInForce ?? 'GTC',
      cancelAfter: r.cancelAfter ?? 0,
      postOnly: !!r.postOnly,
      hidden: !!r.hidden,
      iceberg: !!r.iceberg,
      visible: r.iceberg ? (r.visibleSize as string) : '0',
      shown: '0',
      stp: r.stp ?? '',
      taker,
      maker,
      active: true,
      inBook: false,
      cancelExist: false,
      prio: 0,
      expireAt: 0,
      lastUpdatedAt: now,
      hold: '0',
    };
    // hold + balance check
    let hold: string;
    const cur = o.side === 'buy' ? 'USDT' : 'BTC';
    if (o.type === 'limit') {
      hold = o.side === 'buy' ? this.limitHold(o) : o.remain;
    } else if (o.side === 'buy' && o.funds !== null) {
      hold = D.add(o.funds, feeCeil(taker, o.funds));
    } else if (o.side === 'sell' && o.size !== null) {
      hold = o.size;
    } else if (o.side === 'buy') {
      let need = o.size as string;
      let cost = '0';
      for (const m of this.crossing(o)) {
        if (o.stp && m.uid === uid) continue;
        const take = minD(need, m.remain);
        cost = D.add(cost, D.mul(m.price, take));
        need = D.sub(need, take);
        if (!isPos(need)) break;
      }
      hold = D.add(cost, feeCeil(taker, cost));
    } else {
      let left = o.funds as string;
      let lots = '0';
      for (const m of this.crossing(o)) {
        if (o.stp && m.uid === uid) continue;
        const can = D.divDown(left, m.price, 4);
        if (!isPos(can)) break;
        const take = minD(m.remain, can);
        lots = D.add(lots, take);
        left = D.sub(left, D.mul(take, m.price));
      }
      hold = lots;
    }
    if (gt(hold, this.available(uid, cur))) return '200004';
    o.seq = this.orders.length + 1;
    o.id = ID_PREFIX + o.seq.toString(16).padStart(16, '0');
    o.hold = o.type === 'market' ? hold : '0';
    this.orders.push(o);
    const mayRest = this.match(o, now);
    if (mayRest && isPos(o.remain) && o.type === 'limit' && (o.tif === 'GTC' || o.tif === 'GTT')) {
      o.inBook = true;
      o.prio = ++this.prio;
      o.shown = o.iceberg ? minD(o.visible, o.remain) : o.remain;
      o.lastUpdatedAt = now;
      if (o.tif === 'GTT') o.expireAt = o.lastUpdatedAt + o.cancelAfter * 1000;
    } else {
      this.cancel(o, now);
    }
    return o;
  }

  private match(o: MOrder, now: number): boolean {
    if (o.type === 'limit' && o.tif === 'FOK') {
      let need = o.remain;
      let ok = false;
      for (const m of this.crossing(o)) {
        if (o.stp && m.uid === o.uid) {
          if (o.stp === 'CO') continue;
          break;
        }
        need = D.sub(need, m.remain);
        if (!isPos(need)) {
          ok = true;
          break;
        }
      }
      if (!ok) return false;
    }
    if (o.type === 'limit' && o.postOnly && this.crossing(o).some((m) => !m.hidden && !m.iceberg)) return false;
    for (;;) {
      const c = this.crossing(o);
      if (c.length === 0) return true;
      const m = c[0];
      if (o.stp && m.uid === o.uid) {
        if (o.stp === 'CN') return false;
        if (o.stp === 'CO') {
          this.cancel(m, now);
          continue;
        }
        if (o.stp === 'CB') {
          this.cancel(m, now);
          return false;
        }
        const d = minD(o.remain, m.remain);
        o.remain = D.sub(o.remain, d);
        o.cancelled = D.add(o.cancelled, d);
        o.cancelExist = true;
        m.remain = D.sub(m.remain, d);
        m.cancelled = D.add(m.cancelled, d);
        m.cancelExist = true;
        m.lastUpdatedAt = now;
        if (!isPos(m.remain)) {
          m.active = false;
          m.inBook = false;
          m.shown = '0';
        } else {
          m.shown = minD(m.shown, m.remain);
        }
        if (!isPos(o.remain)) return true;
        continue;
      }
      let qty: string;
      if (o.funds !== null) {
        const can = D.divDown(o.remainFunds, m.price, 4);
        if (!isPos(can)) return true;
        qty = minD(can, m.shown);
        if (o.side === 'sell') {
          qty = minD(qty, o.hold);
          if (!isPos(qty)) return true;
        }
      } else {
        qty = minD(o.remain, m.shown);
      }
      this.fill(o, m, qty, now);
      if (o.funds !== null ? !isPos(o.remainFunds) : !isPos(o.remain)) return true;
    }
  }

  private fill(o: MOrder, m: MOrder, qty: string, now: number): void {
    const funds = D.mul(m.price, qty);
    const mForce = m.hidden || m.iceberg;
    const oRate = o.postOnly ? o.maker : o.taker;
    const mRate = mForce ? m.taker : m.maker;
    const oFee = feeTrunc(oRate, funds);
    const mFee = feeTrunc(mRate, funds);
    const buyer = o.side === 'buy' ? o : m;
    const seller = o.side === 'buy' ? m : o;
    const bFee = o.side === 'buy' ? oFee : mFee;
    const sFee = o.side === 'buy' ? mFee : oFee;
    this.put(buyer.uid, 'USDT', 'trade', D.sub(this.get(buyer.uid, 'USDT', 'trade'), D.add(funds, bFee)));
    this.put(buyer.uid, 'BTC', 'trade', D.add(this.get(buyer.uid, 'BTC', 'trade'), qty));
    this.put(seller.uid, 'BTC', 'trade', D.sub(this.get(seller.uid, 'BTC', 'trade'), qty));
    this.put(seller.uid, 'USDT', 'trade', D.add(this.get(seller.uid, 'USDT', 'trade'), D.sub(funds, sFee)));
    this.feesUSDT = D.add(this.feesUSDT, D.add(bFee, sFee));
    if (o.type === 'market') o.hold = D.sub(o.hold, o.side === 'buy' ? D.add(funds, bFee) : qty);
    for (const x of [o, m]) {
      x.deal = D.add(x.deal, qty);
      x.dealFunds = D.add(x.dealFunds, funds);
      x.lastUpdatedAt = now;
    }
    o.fee = D.add(o.fee, oFee);
    m.fee = D.add(m.fee, mFee);
    if (o.funds !== null) o.remainFunds = D.sub(o.remainFunds, funds);
    else o.remain = D.sub(o.remain, qty);
    m.remain = D.sub(m.remain, qty);
    m.shown = D.sub(m.shown, qty);
    const tradeId = ++this.tradeId;
    this.fills.push({
      uid: o.uid, orderId: o.id, counterOrderId: m.id, tradeId, side: o.side, liquidity: 'taker', forceTaker: false,
      price: m.price, size: qty, funds, fee: oFee, feeRate: D.normalize(oRate), createdAt: now,
    });
    this.fills.push({
      uid: m.uid, orderId: m.id, counterOrderId: o.id, tradeId, side: m.side, liquidity: 'maker', forceTaker: mForce,
      price: m.price, size: qty, funds, fee: mFee, feeRate: D.normalize(mRate), createdAt: now,
    });
    if (!isPos(m.remain)) {
      m.active = false;
      m.inBook = false;
      m.shown = '0';
    } else if (!isPos(m.shown)) {
      m.shown = minD(m.visible, m.remain);
      m.prio = ++this.prio;
    }
  }

  /** Aggregated visible book: [bids high→low, asks low→high]. */
  level2(): [string, string][][] {
    const agg = (side: string): [string, string][] => {
      const m = new Map<string, string>();
      for (const o of this.orders) {
        if (o.active && o.inBook && o.side === side && !o.hidden) m.set(o.price, D.add(m.get(o.price) ?? '0', o.shown));
      }
      const out = [...m].map(([p, s]) => [D.normalize(p), s] as [string, string]);
      out.sort((a, b) => (side === 'buy' ? -D.cmp(a[0], b[0]) : D.cmp(a[0], b[0])));
      return out;
    };
    return [agg('buy'), agg('sell')];
  }
}
