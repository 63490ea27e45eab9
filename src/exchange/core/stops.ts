/**
 * Stop orders and OCO orders of the exchange core ({@link StopBook}, a part of `Exchange`). KuCoin "Stop Order"
 * introduction and "Add Stop Order" / "Add OCO Order".
 *
 * - A stop order waits outside the book for its trigger: `loss` fires when the last trade price of its symbol is
 *   at or below `stopPrice`, `entry` when at or above (KuCoin's default is `loss`). Every trade counts, and a
 *   stop whose condition already holds when it is placed fires at once.
 * - When it fires it becomes an ordinary order, inside the command whose trade fired it (its trades may fire
 *   more stops, in further rounds); if that order is refused, the stop is cancelled, as KuCoin cancels it.
 * - A waiting stop holds nothing (KuCoin: "the system will not pre-freeze the assets"); its placement checks
 *   every rule of the order it will become except the balance.
 * - An OCO order is two stop legs of one size and side; the first leg to fire cancels the other in the same
 *   step, so the two never both execute.
 * - Done stops and OCO orders stay readable for 3 × 24 h (HISTORY_WINDOW_MS), then are released.
 *
 * The legs' prices and kinds, the firing order within a round, the ids and the cost for an engine without
 * stops (one counter test per placement): docs/engine.md "Stop and OCO orders".
 */
import type { z } from 'zod';
import { toUnits } from '../../api/decimal';
import type * as A from '../../api/schemas';
import { ExchangeError, E_BALANCE } from './errors';
import { orderIdString, perr } from './base';
import { TAPE_MAX, TAPE_STRIDE, type Sym } from './book';
import type { AdvancedOrderEvent, EventPublisher } from './events';
import type { Matcher } from './matching';
import type { OrderBook } from './orderbook';
import type { OrderParser } from './parser';
import type { CoreState } from './state';
import type { PlaceOrderRequest } from './types';
import {
  ocoIdString,
  ocoView,
  stopIdString,
  stopView,
  type OcoRec,
  type OcoSnapRec,
  type StopListFilter,
  type StopRec,
  type StopSnapRec,
  type StopsSnapshot,
  type StopStatus,
  type SymStops,
} from './stopRecords';

export { OCO_ID_PREFIX, STOP_ID_PREFIX, ocoIdString, stopIdString } from './stopRecords';
export type { OcoSnapRec, StopListFilter, StopSnapRec, StopsSnapshot, StopStatus } from './stopRecords';

/** Stop and OCO orders: placement, triggering, cancellation, queries, snapshot records (module doc). */
export class StopBook {
  /** stop orders and OCO legs waiting for their trigger (0: the engine never looks at the tape) */
  live = 0;
  private stopSeq = 0;
  private ocoSeq = 0;
  private readonly stops = new Map<string, StopRec>();
  private readonly ocos = new Map<string, OcoRec>();
  /** per user, in creation order (waiting ones and done ones still readable) */
  private readonly userStops = new Map<string, Map<string, StopRec>>();
  private readonly userOcos = new Map<string, Map<string, OcoRec>>();
  /** per symbol index */
  private readonly waiting = new Map<number, SymStops>();
  /** done records in done-time order, released once older than the window */
  private doneQueue: (StopRec | OcoRec)[] = [];
  private doneHead = 0;

  private declare readonly st: CoreState;
  private declare readonly parser: OrderParser;
  private declare readonly matcher: Matcher;
  private declare readonly book: OrderBook;
  private declare readonly events: EventPublisher;

  constructor(st: CoreState, parser: OrderParser, matcher: Matcher, book: OrderBook, events: EventPublisher) {
    this.st = st;
    this.parser = parser;
    this.matcher = matcher;
    this.book = book;
    this.events = events;
  }

  // ───────────────────────────── commands ─────────────────────────────

  /**
   * Place a stop order (POST /api/v1/stop-order): every rule of the order it will become is checked (not the
   * balance: nothing is held), then it waits — or fires at once when the last trade price already meets it.
   * @returns its id (`vs…`) and clientOid ('' when none).
   * @throws ExchangeError 900001 unknown symbol, 400600 trading disabled, 400100 a rule (stopPrice not a positive
   *   multiple of priceIncrement, clientOid of a waiting stop order, order rules); nothing changes on error.
   */
  place(uid: string, req: A.StopOrderRequest): { orderId: string; clientOid: string } {
    const now = this.begin();
    if (req.tradeType !== undefined && req.tradeType !== 'TRADE') throw perr('tradeType: the sandbox trades spot only (TRADE)');
    const order = orderOf(req);
    const sym = this.check(uid, order);
    const stopTicks = this.ticks(sym, req.stopPrice, 'stopPrice');
    const clientOid = req.clientOid ?? '';
    if (clientOid !== '') for (const r of this.userStops.get(uid)?.values() ?? []) if (r.oco === null && r.status === 'NEW' && r.clientOid === clientOid) throw perr('clientOid already exists');
    const kind = req.stop ?? 'loss';
    const rec = this.newStop(uid, sym, order, clientOid, kind, stopTicks, now, null);
    this.add(rec);
    this.fireAtPlacement(sym, [rec]);
    return { orderId: rec.id, clientOid };
  }

  /**
   * Place an OCO order (POST /api/v3/oco/order): two limit legs of `size` (module doc); a sell needs price >
   * stopPrice, a buy price < stopPrice; clientOid unique among the user's waiting OCO orders.
   * @returns its id. @throws ExchangeError as {@link place}.
   */
  placeOco(uid: string, req: A.OcoOrderRequest): { orderId: string } {
    const now = this.begin();
    const base = { symbol: req.symbol, side: req.side, type: 'limit' as const, size: req.size, ...(req.remark !== undefined ? { remark: req.remark } : {}) };
    const limitLeg: PlaceOrderRequest = { ...base, price: req.price };
    const stopLeg: PlaceOrderRequest = { ...base, price: req.limitPrice };
    const sym = this.check(uid, limitLeg);
    this.check(uid, stopLeg);
    const pTicks = this.ticks(sym, req.price, 'price');
    const sTicks = this.ticks(sym, req.stopPrice, 'stopPrice');
    if (req.side === 'sell' ? pTicks <= sTicks : pTicks >= sTicks) {
      throw perr(req.side === 'sell' ? 'price must be above stopPrice for a sell OCO order' : 'price must be below stopPrice for a buy OCO order');
    }
    for (const o of this.userOcos.get(uid)?.values() ?? []) if (o.status === 'NEW' && o.clientOid === req.clientOid) throw perr('clientOid already exists');
    const oco: OcoRec = { seq: ++this.ocoSeq, id: '', uid, sym, clientOid: req.clientOid, createdAt: now, status: 'NEW', doneAt: -1, legs: null as unknown as [StopRec, StopRec] };
    oco.id = ocoIdString(oco.seq);
    const sell = req.side === 'sell';
    const a = this.newStop(uid, sym, limitLeg, req.clientOid, sell ? 'e_l_o' : 'l_l_o', pTicks, now, oco);
    const b = this.newStop(uid, sym, stopLeg, req.clientOid, sell ? 'l_s_o' : 'e_s_o', sTicks, now, oco);
    oco.legs = [a, b];
    this.ocos.set(oco.id, oco);
    mapOf(this.userOcos, uid).set(oco.id, oco);
    this.add(a);
    this.add(b);
    this.fireAtPlacement(sym, [a, b]);
    return { orderId: oco.id };
  }

  /**
   * Cancel a waiting stop order by id (DELETE /api/v1/stop-order/{orderId}); an OCO leg's id cancels its whole
   * OCO order. @returns the cancelled ids. @throws ExchangeError 400100 "order not exists" (unknown, another
   * user's, or not waiting any more).
   */
  cancel(uid: string, orderId: string): string[] {
    const now = this.begin();
    const r = this.stops.get(orderId);
    if (r === undefined || r.uid !== uid || r.status !== 'NEW') throw perr('order not exists');
    if (r.oco !== null) return this.cancelOcoRec(r.oco, now);
    this.cancelRec(r, now);
    return [r.id];
  }

  /** Cancel the waiting stop order of a clientOid (DELETE /api/v1/stop-order/cancelOrderByClientOid), on `symbol`
   * when given. @throws ExchangeError 400100 "order not exists". */
  cancelByClientOid(uid: string, clientOid: string, symbol?: string): { cancelledOrderId: string; clientOid: string } {
    const now = this.begin();
    if (symbol !== undefined) this.st.sym(symbol);
    for (const r of this.userStops.get(uid)?.values() ?? []) {
      if (r.oco === null && r.status === 'NEW' && r.clientOid === clientOid && (symbol === undefined || r.sym.rules.symbol === symbol)) {
        this.cancelRec(r, now);
        return { cancelledOrderId: r.id, clientOid };
      }
    }
    throw perr('order not exists');
  }

  /** Cancel the user's waiting stop orders (DELETE /api/v1/stop-order/cancel): all, those of `symbol`, or the
   * `orderIds` among them (others are ignored). OCO legs are not touched (DELETE /api/v3/oco/orders cancels
   * those). @returns the cancelled ids, oldest first. @throws ExchangeError 900001 unknown symbol. */
  cancelBatch(uid: string, f: { symbol?: string; orderIds?: string[] }): string[] {
    const now = this.begin();
    if (f.symbol !== undefined) this.st.sym(f.symbol);
    const ids = f.orderIds !== undefined && f.orderIds.length > 0 ? new Set(f.orderIds) : null;
    const out: string[] = [];
    for (const r of [...(this.userStops.get(uid)?.values() ?? [])]) {
      if (r.oco !== null || r.status !== 'NEW' || (f.symbol !== undefined && r.sym.rules.symbol !== f.symbol) || (ids !== null && !ids.has(r.id))) continue;
      this.cancelRec(r, now);
      out.push(r.id);
    }
    return out;
  }

  /** Cancel a waiting OCO order by id (DELETE /api/v3/oco/order/{orderId}). @returns its two legs' ids.
   * @throws ExchangeError 400100 "order not exists" (unknown, another user's, triggered or cancelled). */
  cancelOco(uid: string, orderId: string): string[] {
    const now = this.begin();
    const o = this.ocos.get(orderId);
    if (o === undefined || o.uid !== uid || o.status !== 'NEW') throw perr('order not exists');
    return this.cancelOcoRec(o, now);
  }

  /** Cancel the waiting OCO order of a clientOid (DELETE /api/v3/oco/client-order/{clientOid}). @returns its legs' ids.
   * @throws ExchangeError 400100 "order not exists". */
  cancelOcoByClientOid(uid: string, clientOid: string): string[] {
    const now = this.begin();
    for (const o of this.userOcos.get(uid)?.values() ?? []) if (o.status === 'NEW' && o.clientOid === clientOid) return this.cancelOcoRec(o, now);
    throw perr('order not exists');
  }

  /** Cancel the user's waiting OCO orders (DELETE /api/v3/oco/orders): the `orderIds`, else all of `symbol`, else all.
   * @returns the cancelled legs' ids. @throws ExchangeError 900001 unknown symbol. */
  cancelOcoBatch(uid: string, f: { symbol?: string; orderIds?: string[] }): string[] {
    const now = this.begin();
    if (f.symbol !== undefined) this.st.sym(f.symbol);
    const ids = f.orderIds !== undefined && f.orderIds.length > 0 ? new Set(f.orderIds) : null;
    const out: string[] = [];
    for (const o of [...(this.userOcos.get(uid)?.values() ?? [])]) {
      if (o.status !== 'NEW' || (f.symbol !== undefined && o.sym.rules.symbol !== f.symbol) || (ids !== null && !ids.has(o.id))) continue;
      out.push(...this.cancelOcoRec(o, now));
    }
    return out;
  }

  /**
   * After an order of `s` was submitted: fire the stops that the trades from tape entry `from` on reached, then
   * those their orders' trades reach, until none fires (module doc). Called by Exchange after every placement
   * while {@link live} > 0.
   */
  afterTrades(s: Sym, from: number): void {
    const ws = this.waiting.get(s.idx);
    if (ws === undefined || ws.down.length + ws.up.length === 0) return;
    while (from < s.tapeCount) {
      const tape = s.tape as Float64Array;
      let lo = Infinity;
      let hi = -Infinity;
      // a single order of more than TAPE_MAX fills leaves only its last TAPE_MAX on the tape; its fills are
      // monotonic in price, so what is left still contains its extreme in the direction it moved
      for (let i = Math.max(from, s.tapeCount - TAPE_MAX); i < s.tapeCount; i++) {
        const t = tape[(i % TAPE_MAX) * TAPE_STRIDE + 2];
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
      from = s.tapeCount;
      this.fire(ws, lo, hi);
    }
  }

  // ───────────────────────────── queries ─────────────────────────────

  /** A stop order or OCO leg by id (GET /api/v1/stop-order/{orderId}): waiting, or done and still readable.
   * @throws ExchangeError 400100 "order not exists". */
  stopOrder(uid: string, orderId: string): z.input<typeof A.StopOrder> {
    const now = this.begin();
    const r = this.stops.get(orderId);
    if (r === undefined || r.uid !== uid || !this.readable(r.doneAt, now)) throw perr('order not exists');
    return stopView(r);
  }

  /** The stop orders of a clientOid (GET /api/v1/stop-order/queryOrderByClientOid), of `symbol` when given,
   * waiting or still readable, newest first (none: []). */
  stopOrdersByClientOid(uid: string, clientOid: string, symbol?: string): z.input<typeof A.StopOrder>[] {
    const now = this.begin();
    if (symbol !== undefined) this.st.sym(symbol);
    const out: StopRec[] = [];
    for (const r of this.userStops.get(uid)?.values() ?? []) {
      if (r.oco === null && r.clientOid === clientOid && (symbol === undefined || r.sym.rules.symbol === symbol) && this.readable(r.doneAt, now)) out.push(r);
    }
    return out.reverse().map((r) => stopView(r));
  }

  /** The user's waiting stop orders (GET /api/v1/stop-order), filtered, newest first. @throws 900001 unknown symbol. */
  stopOrders(uid: string, f: StopListFilter): z.input<typeof A.StopOrder>[] {
    this.begin();
    if (f.symbol !== undefined) this.st.sym(f.symbol);
    const ids = f.orderIds !== undefined && f.orderIds.length > 0 ? new Set(f.orderIds) : null;
    const out: StopRec[] = [];
    for (const r of this.userStops.get(uid)?.values() ?? []) {
      if (r.status !== 'NEW') continue;
      if (f.stop === 'stop' && r.oco !== null) continue;
      if (f.stop === 'oco' && r.oco === null) continue;
      if (f.symbol !== undefined && r.sym.rules.symbol !== f.symbol) continue;
      if (f.side !== undefined && r.order.side !== f.side) continue;
      if (f.type !== undefined && r.order.type !== f.type) continue;
      if ((f.startAt !== undefined && r.createdAt < f.startAt) || (f.endAt !== undefined && r.createdAt > f.endAt)) continue;
      if (ids !== null && !ids.has(r.id)) continue;
      out.push(r);
    }
    return out.reverse().map((r) => stopView(r));
  }

  /** An OCO order by id (GET /api/v3/oco/order/{orderId}). @throws ExchangeError 400100 "order not exists". */
  ocoOrder(uid: string, orderId: string): A.OcoOrder {
    return ocoView(this.findOco(uid, orderId));
  }

  /** An OCO order with its legs (GET /api/v3/oco/order/details/{orderId}). @throws ExchangeError 400100 "order not exists". */
  ocoOrderDetail(uid: string, orderId: string): A.OcoOrderDetail {
    const o = this.findOco(uid, orderId);
    return { ...ocoView(o), orders: o.legs.map((l) => ({ id: l.id, symbol: l.sym.rules.symbol, side: l.order.side, price: l.order.price as string, stopPrice: l.sym.priceStr(l.stopTicks), size: l.order.size as string, status: l.status })) };
  }

  /** The OCO order of a clientOid (GET /api/v3/oco/client-order/{clientOid}): the newest one still readable.
   * @throws ExchangeError 400100 "order not exists". */
  ocoOrderByClientOid(uid: string, clientOid: string): A.OcoOrder {
    const now = this.begin();
    const list = [...(this.userOcos.get(uid)?.values() ?? [])].reverse();
    const o = list.find((x) => x.clientOid === clientOid && this.readable(x.doneAt, now));
    if (o === undefined) throw perr('order not exists');
    return ocoView(o);
  }

  /** The user's OCO orders still readable (GET /api/v3/oco/orders), filtered, newest first. @throws 900001. */
  ocoOrders(uid: string, f: { symbol?: string; startAt?: number; endAt?: number; orderIds?: string[] }): A.OcoOrder[] {
    const now = this.begin();
    if (f.symbol !== undefined) this.st.sym(f.symbol);
    const ids = f.orderIds !== undefined && f.orderIds.length > 0 ? new Set(f.orderIds) : null;
    const out: OcoRec[] = [];
    for (const o of this.userOcos.get(uid)?.values() ?? []) {
      if (!this.readable(o.doneAt, now)) continue;
      if (f.symbol !== undefined && o.sym.rules.symbol !== f.symbol) continue;
      if ((f.startAt !== undefined && o.createdAt < f.startAt) || (f.endAt !== undefined && o.createdAt > f.endAt)) continue;
      if (ids !== null && !ids.has(o.id)) continue;
      out.push(o);
    }
    return out.reverse().map((o) => ocoView(o));
  }

  /** The stop orders and OCO legs waiting, per symbol (for invariants and tests). */
  waitingCount(symbol?: string): number {
    if (symbol === undefined) return this.live;
    const ws = this.waiting.get(this.st.sym(symbol).idx);
    return ws === undefined ? 0 : ws.down.length + ws.up.length;
  }

  // ───────────────────────────── snapshot ─────────────────────────────

  /** The stop book as one snapshot record's data (release pass first: what is no longer readable is left out). */
  exportData(): StopsSnapshot {
    this.release(this.st.now());
    const stops: StopSnapRec[] = [];
    for (const r of this.stops.values()) {
      stops.push({
        seq: r.seq,
        uid: r.uid,
        symbol: r.sym.rules.symbol,
        order: { ...r.order },
        clientOid: r.clientOid,
        kind: r.kind,
        stopTicks: r.stopTicks,
        createdAt: r.createdAt,
        status: r.status,
        doneAt: r.doneAt,
        triggeredAt: r.triggeredAt,
        orderId: r.orderId,
        error: r.error,
        oco: r.oco === null ? 0 : r.oco.seq,
        takerFeeRate: r.takerFeeRate,
        makerFeeRate: r.makerFeeRate,
      });
    }
    const ocos: OcoSnapRec[] = [...this.ocos.values()].map((o) => ({ seq: o.seq, uid: o.uid, symbol: o.sym.rules.symbol, clientOid: o.clientOid, createdAt: o.createdAt, status: o.status, doneAt: o.doneAt, legs: [o.legs[0].seq, o.legs[1].seq] }));
    return { stopSeq: this.stopSeq, ocoSeq: this.ocoSeq, stops, ocos };
  }

  /** Rebuild from {@link exportData}'s output (a freshly constructed stop book). @throws Error ("snapshot: …") when inconsistent. */
  importData(d: StopsSnapshot): void {
    const fail = (m: string): never => {
      throw new Error(`snapshot: stops: ${m}`);
    };
    this.stopSeq = d.stopSeq;
    this.ocoSeq = d.ocoSeq;
    const bySeq = new Map<number, StopRec>();
    const ocoBySeq = new Map<number, OcoRec>();
    for (const o of d.ocos) {
      const rec: OcoRec = { seq: o.seq, id: ocoIdString(o.seq), uid: o.uid, sym: this.st.sym(o.symbol), clientOid: o.clientOid, createdAt: o.createdAt, status: o.status, doneAt: o.doneAt, legs: null as unknown as [StopRec, StopRec] };
      if (o.seq < 1 || o.seq > d.ocoSeq || ocoBySeq.has(o.seq)) fail(`OCO ${o.seq} out of range or twice`);
      ocoBySeq.set(o.seq, rec);
    }
    for (const s of d.stops) {
      if (s.seq < 1 || s.seq > d.stopSeq || bySeq.has(s.seq)) fail(`stop ${s.seq} out of range or twice`);
      const oco = s.oco === 0 ? null : (ocoBySeq.get(s.oco) ?? fail(`stop ${s.seq} of no OCO ${s.oco}`));
      const r: StopRec = {
        seq: s.seq,
        id: stopIdString(s.seq),
        uid: s.uid,
        sym: this.st.sym(s.symbol),
        order: { ...s.order },
        clientOid: s.clientOid,
        kind: s.kind,
        down: s.kind[0] === 'l',
        stopTicks: s.stopTicks,
        createdAt: s.createdAt,
        status: s.status,
        doneAt: s.doneAt,
        triggeredAt: s.triggeredAt,
        orderId: s.orderId,
        error: s.error,
        oco,
        takerFeeRate: s.takerFeeRate,
        makerFeeRate: s.makerFeeRate,
        indexed: false,
      };
      bySeq.set(r.seq, r);
    }
    // records in creation order (ids count up), so user lists and the index keep the engine's order
    const stops = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    for (const o of [...ocoBySeq.values()].sort((a, b) => a.seq - b.seq)) {
      const src = d.ocos.find((x) => x.seq === o.seq) as OcoSnapRec;
      o.legs = [bySeq.get(src.legs[0]) ?? fail(`OCO ${o.seq} leg missing`), bySeq.get(src.legs[1]) ?? fail(`OCO ${o.seq} leg missing`)];
      this.ocos.set(o.id, o);
      mapOf(this.userOcos, o.uid).set(o.id, o);
    }
    for (const r of stops) {
      this.stops.set(r.id, r);
      mapOf(this.userStops, r.uid).set(r.id, r);
      if (r.status === 'NEW') {
        this.index(r);
        this.live++;
      }
    }
    const done: (StopRec | OcoRec)[] = [...stops.filter((r) => r.status !== 'NEW'), ...[...ocoBySeq.values()].filter((o) => o.status !== 'NEW')];
    done.sort((a, b) => a.doneAt - b.doneAt);
    this.doneQueue = done;
    this.doneHead = 0;
  }

  // ───────────────────────────── internals ─────────────────────────────

  /** Start of a stop command or query: GTT expiry and the release pass; returns the clock. */
  private begin(): number {
    const now = this.st.now();
    this.book.expire(now);
    this.release(now);
    return now;
  }

  /** True when a record done at `doneAt` (−1: not done) is still readable at `now`. */
  private readable(doneAt: number, now: number): boolean {
    return doneAt < 0 || doneAt >= this.st.winStart(now);
  }

  /** Forget the done records that nobody can read any more. */
  private release(now: number): void {
    const start = this.st.winStart(now);
    const q = this.doneQueue;
    while (this.doneHead < q.length && q[this.doneHead].doneAt < start) {
      const r = q[this.doneHead++];
      if ('legs' in r) {
        this.ocos.delete(r.id);
        this.userOcos.get(r.uid)?.delete(r.id);
      } else {
        this.stops.delete(r.id);
        this.userStops.get(r.uid)?.delete(r.id);
      }
    }
    if (this.doneHead > 1024 && this.doneHead * 2 > q.length) {
      this.doneQueue = q.slice(this.doneHead);
      this.doneHead = 0;
    }
  }

  /** Check every rule of the order a stop becomes, except the balance (nothing is held while it waits). */
  private check(uid: string, order: PlaceOrderRequest): Sym {
    const sym = this.st.sym(order.symbol);
    try {
      this.parser.parseOrder(uid, order, false);
    } catch (e) {
      if (!(e instanceof ExchangeError) || e.code !== E_BALANCE) throw e;
    }
    return sym;
  }

  /** Ticks of a price string: a positive multiple of the symbol's priceIncrement. @throws ExchangeError 400100. */
  private ticks(sym: Sym, price: string, field: string): number {
    let u: bigint;
    try {
      u = toUnits(price, sym.ps, 'exact');
    } catch {
      throw perr(`${field} must be a multiple of priceIncrement ${sym.rules.priceIncrement}`);
    }
    if (u <= 0n || u % sym.priceInc !== 0n) throw perr(`${field} must be a positive multiple of priceIncrement ${sym.rules.priceIncrement}`);
    const t = u / sym.priceInc;
    if (t > BigInt(Number.MAX_SAFE_INTEGER)) throw perr(`${field} exceeds the engine bound of 2^53-1 priceIncrements`);
    return Number(t);
  }

  private newStop(uid: string, sym: Sym, order: PlaceOrderRequest, clientOid: string, kind: A.StopKind, stopTicks: number, now: number, oco: OcoRec | null): StopRec {
    const seq = ++this.stopSeq;
    const u = this.st.users[uid];
    return {
      seq,
      id: stopIdString(seq),
      uid,
      sym,
      order,
      clientOid,
      kind,
      down: kind[0] === 'l',
      stopTicks,
      createdAt: now,
      status: 'NEW',
      doneAt: -1,
      triggeredAt: -1,
      orderId: '',
      error: '',
      oco,
      takerFeeRate: u?.taker.str ?? '0.001',
      makerFeeRate: u?.maker.str ?? '0.001',
      indexed: false,
    };
  }

  /** A new waiting stop: recorded, indexed, announced. */
  private add(r: StopRec): void {
    this.stops.set(r.id, r);
    mapOf(this.userStops, r.uid).set(r.id, r);
    this.index(r);
    this.live++;
    this.emit(r, 'open');
  }

  private index(r: StopRec): void {
    let ws = this.waiting.get(r.sym.idx);
    if (ws === undefined) {
      ws = { down: [], up: [] };
      this.waiting.set(r.sym.idx, ws);
    }
    const list = r.down ? ws.down : ws.up;
    // firing order: down — highest stopTicks first; up — lowest first; ties by seq
    const before = (x: StopRec): boolean => (r.down ? x.stopTicks < r.stopTicks : x.stopTicks > r.stopTicks);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(list[mid])) hi = mid;
      else lo = mid + 1;
    }
    list.splice(lo, 0, r);
    r.indexed = true;
  }

  private unindex(r: StopRec): void {
    if (!r.indexed) return;
    const ws = this.waiting.get(r.sym.idx) as SymStops;
    const list = r.down ? ws.down : ws.up;
    const i = list.indexOf(r);
    if (i >= 0) list.splice(i, 1);
    r.indexed = false;
  }

  private done(r: StopRec | OcoRec, status: StopStatus | A.OcoOrder['status'], now: number): void {
    r.status = status as never;
    r.doneAt = now;
    this.doneQueue.push(r);
  }

  private cancelRec(r: StopRec, now: number): void {
    this.unindex(r);
    this.live--;
    this.done(r, 'CANCELLED', now);
    this.emit(r, 'cancel');
  }

  private cancelOcoRec(o: OcoRec, now: number): string[] {
    for (const l of o.legs) if (l.status === 'NEW') this.cancelRec(l, now);
    this.done(o, 'CANCELLED', now);
    return [o.legs[0].id, o.legs[1].id];
  }

  /** New stops of `s`: fire those the last trade price already meets. */
  private fireAtPlacement(s: Sym, recs: StopRec[]): void {
    if (s.tapeCount === 0) return;
    const last = (s.tape as Float64Array)[((s.tapeCount - 1) % TAPE_MAX) * TAPE_STRIDE + 2];
    if (!recs.some((r) => (r.down ? last <= r.stopTicks : last >= r.stopTicks))) return;
    const ws = this.waiting.get(s.idx) as SymStops;
    const from = s.tapeCount;
    this.fire(ws, last, last);
    this.afterTrades(s, from);
  }

  /** One round: fire every waiting stop of a symbol that a trade price in [lo, hi] reaches, in firing order. */
  private fire(ws: SymStops, lo: number, hi: number): void {
    const batch: StopRec[] = [];
    while (ws.down.length > 0 && ws.down[0].stopTicks >= lo) {
      const r = ws.down.shift() as StopRec;
      r.indexed = false;
      batch.push(r);
    }
    while (ws.up.length > 0 && ws.up[0].stopTicks <= hi) {
      const r = ws.up.shift() as StopRec;
      r.indexed = false;
      batch.push(r);
    }
    for (const r of batch) {
      // an OCO leg whose sibling fired earlier in this round was cancelled with it
      if (r.status === 'NEW') this.trigger(r);
    }
  }

  /** Fire one stop: its OCO sibling is cancelled first, then its order is placed (or refused: cancelled). */
  private trigger(r: StopRec): void {
    const now = this.st.now();
    this.unindex(r);
    this.live--;
    if (r.oco !== null) {
      for (const l of r.oco.legs) if (l !== r && l.status === 'NEW') this.cancelRec(l, now);
      this.done(r.oco, 'TRIGGERED', now);
    }
    const req: PlaceOrderRequest = r.clientOid !== '' ? { ...r.order, clientOid: r.clientOid } : r.order;
    let p;
    try {
      p = this.parser.parseOrder(r.uid, req, true);
    } catch (e) {
      if (!(e instanceof ExchangeError)) throw e;
      r.error = e.message;
      r.triggeredAt = now;
      this.done(r, 'CANCELLED', now);
      this.emit(r, 'triggered', false, e.message);
      return;
    }
    r.triggeredAt = now;
    this.done(r, 'TRIGGERED', now);
    this.st.tNow = now;
    const seq = this.matcher.submit(p);
    r.orderId = orderIdString(seq);
    this.emit(r, 'triggered', true);
  }

  private emit(r: StopRec, type: AdvancedOrderEvent['type'], success?: boolean, error?: string): void {
    const sink = this.events.sink;
    if (sink === null || sink.advanced === undefined || this.st.users[r.uid]?.watched !== true) return;
    const e: AdvancedOrderEvent = {
      uid: r.uid,
      symbol: r.sym.rules.symbol,
      orderId: r.id,
      type,
      side: r.order.side,
      stop: r.kind,
      stopPrice: r.sym.priceStr(r.stopTicks),
      createdAt: r.createdAt,
      time: this.st.now(),
    };
    if (r.order.price !== undefined) e.orderPrice = r.order.price;
    if (r.order.size !== undefined) e.size = r.order.size;
    if (r.order.funds !== undefined) e.funds = r.order.funds;
    if (type === 'triggered') {
      e.triggerSuccess = success === true;
      if (success === true) e.triggeredOrderId = r.orderId;
      if (error !== undefined) e.error = error;
    }
    sink.advanced(e);
  }

  private findOco(uid: string, orderId: string): OcoRec {
    const now = this.begin();
    const o = this.ocos.get(orderId);
    if (o === undefined || o.uid !== uid || !this.readable(o.doneAt, now)) throw perr('order not exists');
    return o;
  }
}

/** The order a stop request becomes (the stop fields and clientOid removed; absent fields left out). */
function orderOf(req: A.StopOrderRequest): PlaceOrderRequest {
  const o: PlaceOrderRequest = { symbol: req.symbol, side: req.side, type: req.type };
  const keys = ['price', 'size', 'funds', 'timeInForce', 'cancelAfter', 'postOnly', 'hidden', 'iceberg', 'visibleSize', 'stp', 'remark', 'tags'] as const;
  for (const k of keys) if (req[k] !== undefined) (o as Record<string, unknown>)[k] = req[k];
  return o;
}

function mapOf<V>(m: Map<string, Map<string, V>>, k: string): Map<string, V> {
  let x = m.get(k);
  if (x === undefined) {
    x = new Map();
    m.set(k, x);
  }
  return x;
}
