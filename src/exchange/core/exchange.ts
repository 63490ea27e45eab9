/**
 * Sandbox exchange core: a deterministic price-time-priority matching engine with an exact ledger (spec
 * "General rules" 3–5, "States and transitions"). {@link Exchange} is its public API, a facade over parts it
 * owns, each in its own module with a narrow interface (docs/engine.md "Parts"):
 * - CoreState (state.ts): reference data, users, counters, live-order rows (OrderRows), archive, fill store,
 *   GTT heap, and the lookups every part uses;
 * - Ledger (ledger.ts): fees, holds and the Number-path accumulators;
 * - OrderParser (parser.ts): requests and rule checks → a Parsed order with its hold;
 * - EventPublisher (events.ts): level, trade, order and balance events to the sink;
 * - OrderBook (orderbook.ts): price-level queues, rest, cancel, finish, GTT expiry;
 * - Matcher (matching.ts): submit, match, fill; then Queries, Funds, StopBook, Invariants, SnapshotCodec.
 * A placement: Exchange.placeOrder → OrderParser.parseOrder → Matcher.submit → match / fill → OrderBook.rest
 * or finish.
 *
 * The rules in their most readable form: the naive reference model, test/unit/exchange/model.ts. Numbers,
 * memory layout, history, snapshots, book sequence, events and the documented readings of the spec:
 * docs/engine.md. Determinism: no I/O, no randomness, time only from the injected clock.
 */
import { fromUnits, toUnits } from '../../api/decimal';
import type { Account, AccountType, FillsQuery, HfFill, HfOrder, Level2, PlaceOrderRequest, PlaceOrderResult, PublicTrade, SymbolRules } from './types';
import {
  BUY,
  LEDGER_SCALE,
  MAX_LOTS,
  RATE_SCALE,
  STP_NAMES,
  TIF_GTT,
  TIF_NAMES,
  orderIdString,
  perr,
  pow10,
  seqOfOrderId,
} from './base';
import { MAX_SYMBOLS, Sym, type Level } from './book';
import { EventPublisher, type CoreEventSink } from './events';
import { Invariants } from './invariants';
import { Ledger } from './ledger';
import { Matcher } from './matching';
import { OrderBook } from './orderbook';
import { OrderParser, type LimitTicksOptions } from './parser';
import { F_SELL, LF_SEQ, LF_STRIDE, LF_TICKS, type OrderRows } from './rows';
import { SnapshotCodec, type SnapshotRecord } from './snapshot';
import { StopBook } from './stops';
import { Queries, type BestBidAsk } from './queries';
import { Funds } from './funds';
import { CoreState, type CoreOptions } from './state';
import { orderView } from './views';

export { HISTORY_WINDOW_MS, LEDGER_SCALE, ORDER_ID_PREFIX, RATE_SCALE } from './base';

export type { BestBidAsk } from './queries';

export type { LimitTicksOptions } from './parser';

/**
 * The sandbox exchange: currencies, symbols, users' fee rates, ledger (main/trade accounts, withdrawal
 * holds, collected fees) and one order book per symbol. All methods are synchronous; every mutating method
 * either succeeds completely or throws {@link ExchangeError} having changed nothing.
 */
export class Exchange {
  private declare readonly st: CoreState;
  private declare readonly rows: OrderRows;
  private declare readonly ledger: Ledger;
  private declare readonly parser: OrderParser;
  private declare readonly events: EventPublisher;
  private declare readonly book: OrderBook;
  private declare readonly matcher: Matcher;
  private declare readonly invariants: Invariants;
  private declare readonly snapshots: SnapshotCodec;
  private declare readonly stops: StopBook;
  private declare readonly queries: Queries;
  private declare readonly funds: Funds;

  /**
   * @param opts.now injected clock, ms since epoch (the only time source of the core).
   * @param opts.bigIntOnly testing aid: compute every amount on the BigInt path (results are identical).
   * @param opts.fastPaths testing aid: false runs the canonical code instead of the written-out fast paths
   *   (Matcher.restPlain, OrderBook.cancelResting; results are identical).
   * @param opts.release testing aid: false never releases history nobody can read (results are identical).
   */
  constructor(opts: CoreOptions) {
    const st = new CoreState(opts);
    this.st = st;
    this.rows = st.rows;
    this.ledger = new Ledger(st);
    this.parser = new OrderParser(st, this.ledger);
    this.events = new EventPublisher(st);
    this.book = new OrderBook(st, this.ledger, this.events);
    this.matcher = new Matcher(st, this.ledger, this.events, this.book);
    this.invariants = new Invariants(st, this.ledger);
    this.stops = new StopBook(st, this.parser, this.matcher, this.book, this.events);
    this.snapshots = new SnapshotCodec(st, this.ledger, this.book, this.invariants, this.stops);
    this.queries = new Queries(st, this.book);
    this.funds = new Funds(st, this.book, this.events);
  }

  /**
   * An engine rebuilt from a snapshot's records (snapshot.ts; {@link exportSnapshot} of another engine, read
   * back one at a time): it answers every later command and query exactly as the exported engine would. Trade
   * listeners, the event sink and watched users and symbols are not part of a snapshot: register them again.
   * @param opts constructor options (the clock; testing aids)
   * @throws Error ("snapshot: …") when a record is out of place or inconsistent, the end record is missing
   *   (a torn snapshot) or the restored state breaks an invariant.
   */
  static importSnapshot(opts: CoreOptions, records: Iterable<SnapshotRecord>): Exchange {
    const ex = new Exchange(opts);
    ex.snapshots.importRecords(records);
    return ex;
  }

  // ───────────────────────────── reference data ─────────────────────────────

  /** Register a currency with its precision (fraction digits, 0..18). Re-adding updates the precision of
   * an unused currency. @throws ExchangeError 400100 on a bad precision. */
  addCurrency(c: { currency: string; precision: number }): void {
    if (!Number.isInteger(c.precision) || c.precision < 0 || c.precision > LEDGER_SCALE) {
      throw perr(`precision of ${c.currency} must be an integer in 0..${LEDGER_SCALE}`);
    }
    this.st.currencies.set(c.currency, c.precision);
  }

  /** Currency codes registered with {@link addCurrency}, with precision. */
  currencyList(): { currency: string; precision: number }[] {
    return [...this.st.currencies].map(([currency, precision]) => ({ currency, precision }));
  }

  /**
   * Register a trading pair (fields as in GET /api/v2/symbols). Both currencies must have been added.
   * Re-adding an existing symbol only updates `enableTrading`.
   * @throws ExchangeError 400100 on unknown currencies or unusable increments.
   */
  addSymbol(rules: SymbolRules): void {
    const existing = this.st.syms.get(rules.symbol);
    if (existing) {
      existing.enableTrading = rules.enableTrading;
      return;
    }
    if (this.st.symList.length >= MAX_SYMBOLS) throw perr(`at most ${MAX_SYMBOLS} symbols`);
    const qp = this.st.currencies.get(rules.quoteCurrency);
    if (qp === undefined || !this.st.currencies.has(rules.baseCurrency)) {
      throw perr(`currencies of ${rules.symbol} must be added first`);
    }
    const sym = new Sym({ ...rules, feeCurrency: rules.feeCurrency ?? rules.quoteCurrency }, qp, this.st.symList.length);
    // fast scale of a currency: fixed by the first symbol using it; later symbols needing finer units
    // simply keep their holds on the BigInt path
    const kq = this.st.fastScale.get(rules.quoteCurrency) ?? Math.max(qp, sym.qs);
    this.st.fastScale.set(rules.quoteCurrency, kq);
    const kb = this.st.fastScale.get(rules.baseCurrency) ?? Math.max(this.st.currencies.get(rules.baseCurrency) as number, sym.bs);
    this.st.fastScale.set(rules.baseCurrency, kb);
    sym.quoteK = kq;
    sym.baseK = kb;
    sym.quoteMulK = kq >= sym.qs ? 10 ** (kq - sym.qs) : 0;
    // one lot is baseInc units at bs, i.e. baseInc × 10^(kb − bs) units of 10^-kb (baseIncrement need not be a power of ten)
    const bm = kb >= sym.bs ? sym.baseInc * pow10(kb - sym.bs) : 0n;
    sym.baseMulK = bm <= BigInt(MAX_LOTS) ? Number(bm) : 0;
    if (sym.quoteMulK > MAX_LOTS) sym.quoteMulK = 0;
    this.st.symList.push(sym);
    this.st.syms.set(rules.symbol, sym);
  }

  /** Set whether a symbol accepts new orders (cancellation always works). @throws 900001 unknown symbol. */
  setTradingEnabled(symbol: string, enabled: boolean): void {
    this.st.sym(symbol).enableTrading = enabled;
  }

  /** All symbols' rules (copies), in registration order. */
  symbols(): SymbolRules[] {
    return [...this.st.syms.values()].map((s) => ({ ...s.rules, enableTrading: s.enableTrading }));
  }

  /** True when the symbol is registered. */
  hasSymbol(symbol: string): boolean {
    return this.st.syms.has(symbol);
  }

  /**
   * Set a user's fee rates (decimal strings). Applies to orders placed afterwards (rates are snapshotted
   * per order). 0 ≤ taker ≤ 0.1, −0.1 ≤ maker ≤ taker (negative maker = rebate). Default 0.001/0.001.
   * @throws ExchangeError 400100 outside those bounds or with more than 12 fraction digits.
   */
  setFeeRates(uid: string, takerFeeRate: string, makerFeeRate: string): void {
    let t: bigint;
    let m: bigint;
    try {
      t = toUnits(takerFeeRate, RATE_SCALE);
      m = toUnits(makerFeeRate, RATE_SCALE);
    } catch {
      throw perr('fee rates must be decimals with at most 12 fraction digits');
    }
    const lim = pow10(RATE_SCALE - 1);
    if (t < 0n || t > lim || m < -lim || m > t) throw perr('fee rates must satisfy 0 <= taker <= 0.1 and -0.1 <= maker <= taker');
    const u = this.st.user(uid);
    u.taker = this.st.rates.intern(takerFeeRate);
    u.maker = this.st.rates.intern(makerFeeRate);
  }

  /** A user's current fee rates as decimal strings (spec "Base fee rates"). */
  feeRates(uid: string): { takerFeeRate: string; makerFeeRate: string } {
    const u = this.st.users[uid];
    return u ? { takerFeeRate: u.taker.str, makerFeeRate: u.maker.str } : { takerFeeRate: '0.001', makerFeeRate: '0.001' };
  }

  /**
   * Keep no history of a user, for good (users keep theirs by default). For a user nobody can query (the
   * sandbox's market-simulation bots and seeded liquidity: their keys are never handed out): its done orders
   * are unreadable from now on, earlier ones included (getOrder → "order not exists", doneOrders → none), its
   * fills are never listed nor recorded, and the records are released like history older than 3 × 24 h; its
   * live orders and balances are unaffected and its trades stay on the public tape. One way, so that what a
   * query shows never depends on when history was released.
   */
  disableHistory(uid: string): void {
    this.st.user(uid).keepHistory = false;
  }

  // ───────────────────────────── orders ─────────────────────────────

  /**
   * Check everything placement checks (symbol, trading rules, increments, min/max, balance) without
   * changing anything (POST /api/v1/hf/orders/test). Returns what placeOrder would return, except that
   * the orderId is the id the NEXT order would get.
   * @throws ExchangeError 900001 unknown symbol, 400600 trading disabled, 400100 rule violation, 200004 balance.
   */
  validateOrder(uid: string, req: PlaceOrderRequest): PlaceOrderResult {
    const now = this.st.now();
    this.book.expire(now);
    this.parser.parseOrder(uid, req, false);
    return { orderId: orderIdString(this.st.orderSeq + 1), clientOid: req.clientOid ?? '' };
  }

  /**
   * Place an order (POST /api/v1/hf/orders): validate, hold funds in `trade`, match (price-time
   * priority, STP, TIF, post-only), rest the remainder (limit GTC/GTT) or cancel it (market, IOC).
   * @returns the new order id (24 lowercase hex: ORDER_ID_PREFIX + 16-hex counter) and clientOid ('' if none).
   * @throws ExchangeError as {@link validateOrder}; nothing changes on error.
   */
  placeOrder(uid: string, req: PlaceOrderRequest): PlaceOrderResult {
    const now = this.st.now();
    this.book.expire(now);
    const p = this.parser.parseOrder(uid, req, true);
    this.st.tNow = now;
    let seq: number;
    if (this.stops.live === 0) {
      seq = this.matcher.submit(p);
    } else {
      const s = p.sym;
      const from = s.tapeCount;
      seq = this.matcher.submit(p);
      this.stops.afterTrades(s, from);
    }
    return { orderId: orderIdString(seq), clientOid: p.clientOid };
  }

  /**
   * Numeric entry point for benchmarks: a limit order of `ticks` × priceIncrement and `lots` ×
   * baseIncrement. Same rule checks (numeric form), holds, matching and settlement as {@link placeOrder}
   * (which parses strings and then runs the same `submit`). Returns the order sequence number (the id is
   * {@link orderIdOf}(seq)). @throws ExchangeError as placeOrder.
   */
  placeLimitTicks(uid: string, symbol: string, side: 'buy' | 'sell', ticks: number, lots: number, opts?: LimitTicksOptions): number {
    const now = this.st.now();
    if (this.st.gtt.length > 0 || now >= this.st.dueAt || this.st.orderSeq >= this.st.relSeq) this.book.expire(now);
    const p = this.parser.limitTicks(uid, symbol, side, ticks, lots, opts);
    this.st.tNow = now;
    if (this.stops.live === 0) return this.matcher.submit(p);
    const s = p.sym;
    const from = s.tapeCount;
    const seq = this.matcher.submit(p);
    this.stops.afterTrades(s, from);
    return seq;
  }

  /**
   * Stop and OCO orders (stops.ts; KuCoin /api/v1/stop-order and /api/v3/oco): place, cancel, query. They
   * wait outside the book, hold nothing, and fire on the last trade price inside the command of the trade
   * that reaches them (docs/engine.md, "Stop and OCO orders").
   */
  get advanced(): StopBook {
    return this.stops;
  }

  /** Order id string of an order sequence number (see {@link placeLimitTicks}). */
  orderIdOf(seq: number): string {
    return orderIdString(seq);
  }

  /**
   * Cancel an active order (DELETE /api/v1/hf/orders/{orderId}?symbol=): releases its remaining hold.
   * @returns {orderId}.
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists" when the id is unknown, of another
   *   user or another symbol, or a done order no longer readable (see {@link getOrder}); 400100 "order is not
   *   active" when the order is done and still readable.
   */
  cancelOrder(uid: string, symbol: string, orderId: string): { orderId: string } {
    const now = this.st.now();
    this.book.expire(now);
    this.st.sym(symbol);
    const seq = this.st.findSeq(uid, symbol, orderId, this.st.winStart(now));
    if (seq < 0) throw perr('order not exists');
    const o = this.st.liveOf(seq);
    if (o < 0) throw perr('order is not active');
    this.st.tNow = now;
    this.book.cancelResting(o);
    return { orderId };
  }

  /** Cancel an active order by sequence number (benchmark entry point; same path as cancelOrder).
   * Returns false (and changes nothing) when it is not an active order of `uid`. */
  cancelSeq(uid: string, seq: number): boolean {
    const now = this.st.now();
    if (this.st.gtt.length > 0 || now >= this.st.dueAt || this.st.orderSeq >= this.st.relSeq) this.book.expire(now);
    const o = this.st.liveOf(seq);
    if (o < 0 || this.st.usOf(o).user.uid !== uid) return false;
    this.st.tNow = now;
    this.book.cancelResting(o);
    return true;
  }

  /**
   * Remaining lots (baseIncrement units) of a live order by sequence number, or −1 when it is not live (the
   * mirror market reads its own liquidity orders so, src/exchange/server/mirror). Read-only.
   */
  remainingLots(seq: number): number {
    const o = this.st.liveOf(seq);
    return o < 0 ? -1 : this.rows.remainLots(o);
  }

  /**
   * Numeric partial cancel ({@link cancelPartial}'s decrease: the order keeps its queue place) of `uid`'s live
   * order `seq` by `lots` (at least the remainder: the order is cancelled). @returns false (nothing changed)
   * when the order is not live or not the user's, or `lots` ≤ 0.
   */
  reduceSeq(uid: string, seq: number, lots: number): boolean {
    const now = this.st.now();
    this.book.expire(now);
    const o = this.st.liveOf(seq);
    if (o < 0 || lots <= 0 || this.st.usOf(o).user.uid !== uid) return false;
    const remain = this.rows.remainLots(o);
    this.st.tNow = now;
    this.book.reduceResting(o, this.st.levelOf(o) as Level, lots >= remain ? remain : lots);
    return true;
  }

  /**
   * Modify an active limit order (POST /api/v1/hf/orders/alter, KuCoin "Modify Order"): as KuCoin does it,
   * the order is cancelled and a NEW order (a new id, at the back of its price level's queue) is placed on the
   * same symbol with the same side, timeInForce (a GTT order counts its cancelAfter from the new order's
   * creation), postOnly, hidden, iceberg, stp, clientOid, remark and tags, at `newPrice` (default: the old
   * price) for `newSize` − dealSize (default: the old order's remaining size). When `newSize` is not above the
   * dealt size the order is only cancelled and `newOrderId` is null. The new order takes the user's current
   * fee rates and matches like any placement.
   *
   * Atomic: the new order is checked (increments, min/max, balance with the old order's hold counted as
   * free) before anything changes; on error nothing changes. So holds stay exact: the old order's hold is
   * released and the new order holds what a fresh placement of it holds.
   * @param ref the order: `orderId`, or else `clientOid` (one of them is required).
   * @returns `{newOrderId, clientOid}` (clientOid '' when the order has none).
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists" (unknown, another user's or
   *   symbol's, no longer readable), "order is not active" (done), a rule violation of the new order naming the
   *   field (newPrice / newSize rules are the placement's: `price …`, `size …`); 200004 when even with the old
   *   hold released the balance does not cover the new order.
   */
  alterOrder(uid: string, symbol: string, ref: { orderId?: string; clientOid?: string }, change: { newPrice?: string; newSize?: string }): { newOrderId: string | null; clientOid: string } {
    const now = this.st.now();
    this.book.expire(now);
    const sym = this.st.sym(symbol);
    const win = this.st.winStart(now);
    let seq: number;
    if (ref.orderId !== undefined) seq = this.st.findSeq(uid, symbol, ref.orderId, win);
    else if (ref.clientOid !== undefined) {
      seq = this.st.users[uid]?.byClientOid.get(ref.clientOid) ?? -1;
      if (!this.st.owns(uid, symbol, seq, win)) seq = -1;
    } else throw perr('orderId or clientOid is required');
    if (seq < 0) throw perr('order not exists');
    const o = this.st.liveOf(seq);
    if (o < 0) throw perr('order is not active');
    const old = this.st.liveState(o);
    let lots = old.remain;
    if (change.newSize !== undefined) {
      let u: bigint;
      try {
        u = toUnits(change.newSize, LEDGER_SCALE);
      } catch {
        throw perr('newSize must be a decimal with at most 18 fraction digits');
      }
      if (u <= 0n) throw perr('newSize must be positive');
      if (u % sym.lotUnits !== 0n) throw perr(`newSize must be a multiple of baseIncrement ${sym.rules.baseIncrement}`);
      const total = u / sym.lotUnits;
      lots = total > BigInt(old.deal) ? Number(total - BigInt(old.deal)) : 0;
    }
    if (lots === 0) {
      this.st.tNow = now;
      this.book.cancelResting(o);
      return { newOrderId: null, clientOid: old.clientOid };
    }
    const req: PlaceOrderRequest = {
      symbol,
      side: old.side === BUY ? 'buy' : 'sell',
      type: 'limit',
      price: change.newPrice ?? sym.priceStr(old.ticks),
      size: sym.sizeStr(lots),
      timeInForce: TIF_NAMES[old.tif],
      ...(old.tif === TIF_GTT ? { cancelAfter: old.cancelAfter } : {}),
      ...(old.postOnly ? { postOnly: true } : {}),
      ...(old.hidden ? { hidden: true } : {}),
      ...(old.iceberg ? { iceberg: true, visibleSize: sym.sizeStr(Math.min(old.visible, lots)) } : {}),
      ...(old.stp !== 0 ? { stp: STP_NAMES[old.stp] as PlaceOrderRequest['stp'] } : {}),
      ...(old.remark !== '' ? { remark: old.remark } : {}),
      ...(old.tags !== '' ? { tags: old.tags } : {}),
    };
    // check the new order as if the old one's hold were free (its clientOid is still taken: left out here)
    const acc = this.st.accOf(o);
    const held = this.ledger.holdBig(o);
    acc.addHoldsBig(-held);
    try {
      this.parser.parseOrder(uid, req, false);
    } finally {
      acc.addHoldsBig(held);
    }
    this.st.tNow = now;
    this.book.cancelResting(o);
    if (old.clientOid !== '') req.clientOid = old.clientOid;
    const p = this.parser.parseOrder(uid, req, true);
    this.st.tNow = now;
    const newSeq = this.matcher.submit(p);
    return { newOrderId: orderIdString(newSeq), clientOid: old.clientOid };
  }

  /**
   * Cancel part of an active order (DELETE /api/v1/hf/orders/cancel/{orderId}?symbol=&cancelSize=, KuCoin
   * "Cancel Partial Order"): its remaining size decreases by `cancelSize` (cancelledSize grows, the hold is
   * recomputed from the new remaining size) and it keeps its place in the queue; a `cancelSize` of at least
   * the remaining size cancels the order.
   * @returns `{orderId, cancelSize}`: the size actually cancelled (at most the remaining size).
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists", "order is not active",
   *   `cancelSize …` (not a positive multiple of baseIncrement).
   */
  cancelPartial(uid: string, symbol: string, orderId: string, cancelSize: string): { orderId: string; cancelSize: string } {
    const now = this.st.now();
    this.book.expire(now);
    const sym = this.st.sym(symbol);
    let u: bigint;
    try {
      u = toUnits(cancelSize, LEDGER_SCALE);
    } catch {
      throw perr('cancelSize must be a decimal with at most 18 fraction digits');
    }
    if (u <= 0n) throw perr('cancelSize must be positive');
    if (u % sym.lotUnits !== 0n) throw perr(`cancelSize must be a multiple of baseIncrement ${sym.rules.baseIncrement}`);
    const seq = this.st.findSeq(uid, symbol, orderId, this.st.winStart(now));
    if (seq < 0) throw perr('order not exists');
    const o = this.st.liveOf(seq);
    if (o < 0) throw perr('order is not active');
    const remain = this.rows.remainLots(o);
    const want = u / sym.lotUnits;
    const d = want >= BigInt(remain) ? remain : Number(want);
    this.st.tNow = now;
    this.book.reduceResting(o, this.st.levelOf(o) as Level, d);
    return { orderId, cancelSize: sym.sizeStr(d) };
  }

  /**
   * Set, renew or unset a user's dead-man's switch (POST /api/v1/hf/orders/dead-cancel-all, KuCoin "Set
   * DCP"): `timeout` seconds (5..86400) from now every active order of the user on `symbols` (at most 50;
   * empty = every symbol) is cancelled, unless the switch is set again (which replaces it) or unset
   * (`timeout` −1) before; it fires once, stamped with its trigger time, on the engine's clock (docs/engine.md).
   * @returns `{currentTime, triggerTime}` in SECONDS (KuCoin's units); when unset, triggerTime is 0.
   * @throws ExchangeError 400100 on a timeout outside −1 / 5..86400 or more than 50 symbols; 900001 on an
   *   unknown symbol.
   */
  setDeadCancel(uid: string, timeout: number, symbols: readonly string[]): { currentTime: number; triggerTime: number } {
    const now = this.st.now();
    this.book.expire(now);
    if (!Number.isInteger(timeout) || (timeout !== -1 && (timeout < 5 || timeout > 86_400))) throw perr('timeout must be -1 (unset) or 5..86400 seconds');
    if (symbols.length > 50) throw perr('symbols: at most 50 trading pairs');
    for (const s of symbols) this.st.sym(s);
    const u = this.st.user(uid);
    const currentTime = Math.floor(now / 1000);
    if (timeout === -1) {
      this.st.deadCancels.delete(u);
      this.st.nextDeadCancel();
      return { currentTime, triggerTime: 0 };
    }
    const triggerAt = now + timeout * 1000;
    this.st.deadCancels.set(u, { timeout, symbols: [...new Set(symbols)], triggerAt });
    this.st.nextDeadCancel();
    return { currentTime, triggerTime: Math.floor(triggerAt / 1000) };
  }

  /**
   * A user's dead-man's switch as GET /api/v1/hf/orders/dead-cancel-all/query answers it: `{timeout (s),
   * symbols (comma-separated, '' = all), currentTime, triggerTime (s)}`, or null when none is set (never set,
   * unset, or fired).
   */
  deadCancelOf(uid: string): { timeout: number; symbols: string; currentTime: number; triggerTime: number } | null {
    const now = this.st.now();
    this.book.expire(now);
    const u = this.st.users[uid];
    const dc = u === undefined ? undefined : this.st.deadCancels.get(u);
    if (dc === undefined) return null;
    return { timeout: dc.timeout, symbols: dc.symbols.join(','), currentTime: Math.floor(now / 1000), triggerTime: Math.floor(dc.triggerAt / 1000) };
  }

  /**
   * The symbol of an order of `uid` that the user can still read (live, or done within the 3 × 24 h window),
   * or null: for the endpoints that name an order without its symbol (the classic order API).
   */
  orderSymbol(uid: string, orderId: string): string | null {
    const now = this.st.now();
    this.book.expire(now);
    return this.st.symbolOfSeq(uid, seqOfOrderId(orderId), this.st.winStart(now))?.rules.symbol ?? null;
  }

  /** Like {@link orderSymbol}, for the user's most recent order with `clientOid`. */
  orderSymbolByClientOid(uid: string, clientOid: string): string | null {
    const now = this.st.now();
    this.book.expire(now);
    const seq = this.st.users[uid]?.byClientOid.get(clientOid) ?? -1;
    return this.st.symbolOfSeq(uid, seq, this.st.winStart(now))?.rules.symbol ?? null;
  }

  /** True when `orderId` is an ACTIVE order of `uid` (any symbol). */
  isActiveOrder(uid: string, orderId: string): boolean {
    this.book.expire(this.st.now());
    const o = this.st.liveOf(seqOfOrderId(orderId));
    return o >= 0 && this.st.usOf(o).user.uid === uid;
  }

  /** Cancel an active order by clientOid (DELETE /api/v1/hf/orders/client-order/{clientOid}).
   * @returns {clientOid}. @throws ExchangeError 400100 "order not exists" when no active order has it. */
  cancelOrderByClientOid(uid: string, symbol: string, clientOid: string): { clientOid: string } {
    const now = this.st.now();
    this.book.expire(now);
    this.st.sym(symbol);
    const seq = this.st.users[uid]?.byClientOid.get(clientOid) ?? -1;
    const o = this.st.liveOf(seq);
    if (o < 0 || this.st.usOf(o).sym.rules.symbol !== symbol) throw perr('order not exists');
    this.st.tNow = now;
    this.book.cancelResting(o);
    return { clientOid };
  }

  /** Cancel all active orders of a user on a symbol (DELETE /api/v1/hf/orders?symbol=).
   * @returns the cancelled order ids, oldest first. @throws ExchangeError 900001 unknown symbol. */
  cancelAll(uid: string, symbol: string): string[] {
    const now = this.st.now();
    this.book.expire(now);
    this.st.sym(symbol);
    const u = this.st.users[uid];
    if (!u) return [];
    const list = this.st.activeSlots(u.us(this.st.sym(symbol)));
    const ids = list.map((o) => this.orderIdOf(this.rows.lf[o * LF_STRIDE + LF_SEQ]));
    this.st.tNow = now;
    for (const o of list) this.book.cancelResting(o);
    return ids;
  }

  /**
   * One HF order with every spec field (GET /api/v1/hf/orders/{orderId}?symbol=). A done order is
   * readable for 3 × 24 h after its last update (spec: "a non-active order can be read only within the last
   * 3 x 24 hours"), and never when its owner keeps no history ({@link disableHistory}).
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists" (unknown, other user/symbol, expired).
   */
  getOrder(uid: string, symbol: string, orderId: string): HfOrder {
    const now = this.st.now();
    this.book.expire(now);
    this.st.sym(symbol);
    const seq = this.st.findSeq(uid, symbol, orderId, this.st.winStart(now));
    if (seq < 0) throw perr('order not exists');
    return orderView(this.st.stateOf(seq));
  }

  /** Like {@link getOrder} but by clientOid (most recent order of that clientOid). */
  getOrderByClientOid(uid: string, symbol: string, clientOid: string): HfOrder {
    const now = this.st.now();
    this.book.expire(now);
    this.st.sym(symbol);
    const seq = this.st.users[uid]?.byClientOid.get(clientOid) ?? -1;
    if (!this.st.owns(uid, symbol, seq, this.st.winStart(now))) throw perr('order not exists');
    return orderView(this.st.stateOf(seq));
  }

  /** Active orders of a user on a symbol, sorted by lastUpdatedAt descending (ties: newest first)
   * (GET /api/v1/hf/orders/active). @throws ExchangeError 900001 unknown symbol. */
  activeOrders(uid: string, symbol: string): HfOrder[] {
    this.book.expire(this.st.now());
    this.st.sym(symbol);
    const u = this.st.users[uid];
    if (!u) return [];
    return this.st.activeSlots(u.us(this.st.sym(symbol)))
      .map((o) => this.st.liveState(o))
      .sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt || b.seq - a.seq)
      .map((o) => orderView(o));
  }

  /**
   * A user's active orders on a symbol as numbers, appended to `out` (cleared first) as triples
   * `[sequence, side (0 buy, 1 sell), price in ticks]`, oldest first: what the sandbox's market makers
   * (src/exchange/server/market) re-quote against many times a second, without building order views.
   * Read-only. @throws ExchangeError 900001 unknown symbol.
   */
  activeQuotes(uid: string, symbol: string, out: number[] = []): number[] {
    this.book.expire(this.st.now());
    const s = this.st.sym(symbol);
    out.length = 0;
    const u = this.st.users[uid];
    if (!u) return out;
    const lf = this.rows.lf;
    for (const o of this.st.activeSlots(u.us(s))) out.push(lf[o * LF_STRIDE + LF_SEQ], this.rows.flags(o) & F_SELL ? 1 : 0, lf[o * LF_STRIDE + LF_TICKS]);
    return out;
  }

  /**
   * Done orders of a user on a symbol (GET /api/v1/hf/orders/done) whose lastUpdatedAt lies in [startAt, endAt]
   * (ms, clamped to the 3 × 24 h window ending now), of `side` and `type` when given, newest first (lastUpdatedAt
   * descending, then sequence descending), at most `limit` (default 100, max 100). `lastId` pages: only the orders
   * AFTER the done order of that sequence number in this order (the sequence is the counter part of an order id;
   * pass the last item's to get the next page).
   * None for a user that keeps no history.
   * A `lastId` that is no done order of this user and symbol still readable (within the window) gives an empty
   * page (KuCoin answers an unknown lastId so).
   * @throws ExchangeError 900001 unknown symbol.
   */
  doneOrders(
    uid: string,
    symbol: string,
    q: { startAt?: number; endAt?: number; limit?: number; side?: 'buy' | 'sell'; type?: 'limit' | 'market'; lastId?: number } = {},
  ): HfOrder[] {
    return this.queries.doneOrders(uid, symbol, q);
  }

  /**
   * A user's fills (GET /api/v1/hf/fills), newest first, only of the last 3 × 24 h (spec: "only the latest
   * 3 x 24 hours can be read"). With `orderId` every other filter is ignored: the fills of that order (live, or
   * done and still readable as {@link getOrder} says) within the window. Otherwise filters side/type, [startAt,
   * endAt] (ms) — a range starting before the window is replaced by the window ending now — and `lastId`
   * (items with id < lastId). limit default 100, max 100. None for a user that keeps no history.
   * @returns items and lastId (id of the last item returned, 0 when none).
   * @throws ExchangeError 900001 unknown symbol.
   */
  fills(uid: string, q: FillsQuery): { items: HfFill[]; lastId: number } {
    return this.queries.fills(uid, q);
  }

  // ───────────────────────────── market data ─────────────────────────────

  /**
   * Aggregated level-2 snapshot, top `depth` visible levels per side (hidden orders never count, icebergs
   * only their visible tranche). `sequence` is the last sequence number consumed: every visible level change
   * (a level's aggregated visible size) consumes exactly one; hidden orders consume none.
   * @throws ExchangeError 900001 unknown symbol.
   */
  level2(symbol: string, depth: number): Level2 {
    return this.queries.level2(symbol, depth);
  }

  /** Current book sequence of a symbol: the last one consumed by a visible level change (starts at 1). @throws 900001. */
  sequence(symbol: string): number {
    return this.st.sym(symbol).sequence;
  }

  /** Best visible bid and ask with their aggregated sizes. @throws ExchangeError 900001 unknown symbol. */
  bestBidAsk(symbol: string): BestBidAsk {
    return this.queries.bestBidAsk(symbol);
  }

  /**
   * Public trades of a symbol with time ≥ sinceMs (default all retained), oldest first. The tape keeps the
   * most recent 10,000 trades per symbol of the last 3 × 24 h (older ones are gone, like fills); use
   * {@link onTrade} for complete statistics.
   * @throws ExchangeError 900001 unknown symbol.
   */
  trades(symbol: string, sinceMs = 0): PublicTrade[] {
    return this.queries.trades(symbol, sinceMs);
  }

  /**
   * The most recent public trade of a symbol still in the tape's window (3 × 24 h), or undefined when
   * none: what GET /api/v1/prices derives fiat prices from. O(1), unlike {@link trades}.
   * @throws ExchangeError 900001 unknown symbol.
   */
  lastTrade(symbol: string): PublicTrade | undefined {
    return this.queries.lastTrade(symbol);
  }

  /** Register a listener called synchronously after every trade (taker side). Returns an unsubscribe function. */
  onTrade(listener: (t: PublicTrade) => void): () => void {
    this.matcher.tradeListeners.push(listener);
    return () => {
      const i = this.matcher.tradeListeners.indexOf(listener);
      if (i >= 0) this.matcher.tradeListeners.splice(i, 1);
    };
  }

  // ───────────────────────────── events ─────────────────────────────

  /**
   * Set (or with null remove) the receiver of the core's events (events.ts, contract in docs/events.md): level and
   * trade events of watched symbols, order and balance events of watched users, emitted synchronously inside
   * the command that causes them, in the order the changes happen. Balance changes are counted from the
   * moment the sink is set (or the user watched).
   */
  setEventSink(sink: CoreEventSink | null): void {
    this.events.sink = sink;
    if (sink !== null) for (const u of this.st.userList) if (u.watched) this.events.baseBalances(u);
  }

  /** Turn level and trade events of a symbol on or off. @throws ExchangeError 900001 unknown symbol. */
  watchSymbol(symbol: string, on: boolean): void {
    this.st.sym(symbol).watched = on;
  }

  /** Turn order and balance events of a user on or off (a user not known yet is watched once created). */
  watchUser(uid: string, on: boolean): void {
    if (on) this.st.watchedUids.add(uid);
    else this.st.watchedUids.delete(uid);
    const u = this.st.users[uid];
    if (u === undefined) return;
    if (on && !u.watched) this.events.baseBalances(u);
    u.watched = on;
  }

  // ───────────────────────────── ledger ─────────────────────────────

  /**
   * A user's accounts (GET /api/v1/accounts), optionally filtered, in creation order. Accounts exist once
   * a currency was touched (deposit, transfer, fill). Decimal strings.
   */
  accounts(uid: string, f: { currency?: string; type?: AccountType } = {}): Account[] {
    return this.funds.accounts(uid, f);
  }

  /** Credit a deposit to the user's `main` account. `amount` > 0 with at most the currency's precision.
   * @throws ExchangeError 400100 unknown currency or bad amount. */
  deposit(uid: string, currency: string, amount: string): void {
    this.funds.deposit(uid, currency, amount);
  }

  /** Move `amount` between a user's main and trade accounts (no fee).
   * @throws ExchangeError 400100 bad currency/amount/types, 200004 when `from` available is insufficient. */
  transfer(uid: string, currency: string, from: AccountType, to: AccountType, amount: string): void {
    this.funds.transfer(uid, currency, from, to, amount);
  }

  /** Hold `amount` (total leaving, fee included) of the user's `main` account for a withdrawal.
   * @returns a hold id. @throws ExchangeError 400100 bad amount, 200004 insufficient available. */
  holdWithdrawal(uid: string, currency: string, amount: string): string {
    return this.funds.holdWithdrawal(uid, currency, amount);
  }

  /** Complete a held withdrawal: the held amount leaves the balance; `fee` (0 ≤ fee ≤ amount) goes to the
   * collected fees, the rest counts as withdrawn. @throws ExchangeError 400100 unknown hold or bad fee. */
  settleWithdrawal(holdId: string, fee: string): void {
    this.funds.settleWithdrawal(holdId, fee);
  }

  /** Cancel a held withdrawal: the hold is released. @throws ExchangeError 400100 unknown hold. */
  releaseWithdrawal(holdId: string): void {
    this.funds.releaseWithdrawal(holdId);
  }

  /** Fees collected per currency (decimal strings), including withdrawal fees, net of maker rebates. */
  collectedFees(): Record<string, string> {
    this.ledger.flushFees();
    const out: Record<string, string> = {};
    for (const [c, v] of this.st.fees) out[c] = fromUnits(v, LEDGER_SCALE);
    return out;
  }

  /**
   * Check every ledger and book invariant; throws an Error describing the first violation (Invariants.check:
   * per currency Σ balances + collected fees = deposits − withdrawals, holds = what open orders and pending
   * withdrawals reserve, books not crossed, level sizes, order amounts). `opts.done: false` skips the
   * per-order checks of done orders. O(everything).
   */
  checkInvariants(opts: { done?: boolean } = {}): void {
    this.invariants.check(opts);
  }

  /**
   * The whole engine as records (snapshot.ts), produced lazily: consume them before the next command (typed
   * arrays are shared with the engine). A release pass at the clock's time runs first.
   */
  exportSnapshot(): Generator<SnapshotRecord> {
    return this.snapshots.exportRecords();
  }

  /** Process GTT expiries due at the current clock time (each expired order is stamped with its expiry time). */
  tick(): void {
    this.book.expire(this.st.now());
  }

  /** Process GTT expiries due at `now` (ms). */
  advanceTo(now: number): void {
    this.book.expire(now);
  }

}
