/**
 * Sandbox exchange core: a deterministic price-time-priority matching engine with an exact ledger
 * (spec "General rules" 3–5, "States and transitions"; issue 3).
 *
 * The rules in their most readable form: the naive reference model, test/unit/exchange/model.ts (decimal
 * strings, a flat array of orders, linear scans), which the model-based tests hold this engine to.
 *
 * Modules (one folder; esbuild bundles them into one scope, so the split costs nothing at run time):
 * - records: base.ts (constants, order ids, fast decimals, fee rates), ledger.ts (Acc, Wallet, User,
 *   UserSym), book.ts (Level, LevelIndex, BookSide, Sym), rows.ts (the live-order row layout, OrderExt and
 *   the row accessors), archive.ts (done orders), fillstore.ts (fills), gtt.ts (GTT expiries), views.ts
 *   (wire objects);
 * - layers of one class, each adding behaviour to the one below: state.ts CoreState (state and lookups) →
 *   holds.ts Holds (fees, holds, Number accumulators) → parsing.ts Parsing (requests and rule checks) →
 *   events.ts Emitting (core events: level, trade, order, balance) → resting.ts Resting (book queues, rest,
 *   cancel, finish, GTT expiry) → matching.ts Matching (submit, match, fill) → fastpaths.ts FastPaths (the
 *   written-out common cases, each mirroring a canonical method) → invariants.ts Invariants
 *   (checkInvariants) → snapshot.ts Snapshots (exportSnapshot / loadSnapshot) → this file's Exchange (the public
 *   API).
 *
 * Determinism: no I/O, no randomness, time only from the injected clock. The same commands at the same
 * clock values produce the same order ids, fills, sequences and balances (the sandbox journals commands
 * and replays them on restart). Queries never change observable state except GTT expiry, which stamps
 * the expiry time (not the query time) so it is independent of when it is processed.
 *
 * Numbers (no binary floating point in money paths):
 * - prices are integer ticks (price / priceIncrement) and sizes integer lots (size / baseIncrement),
 *   JS numbers bounded by Number.MAX_SAFE_INTEGER: an order whose ticks or lots exceed 2^53−1 is rejected
 *   (400100), and an order that could push a level's aggregated lots past 2^53−1 is rejected too;
 * - money (balances, holds, funds, fees, collected fees) is BigInt in "ledger units" of 10^-18 of the
 *   currency (LEDGER_SCALE). A symbol needs fraction digits(priceIncrement)+digits(baseIncrement) ≤ 18,
 *   so price × size is exact in ledger units; currencies need precision ≤ 18.
 * - fee rates are BigInt at 10^-12 (RATE_SCALE).
 * - Number fast path: per-order and per-fill amounts (price × size, fees) are computed in doubles, in
 *   units of 10^-qs of the quote (qs = max(digits(priceIncrement)+digits(baseIncrement), quote precision)),
 *   only when every operand and result is an integer below 2^53 (checked on every call); otherwise, or
 *   with `bigIntOnly`, the same value is computed with BigInt. Both give identical results (tested).
 *   Resting-order holds likewise live in a per-account Number accumulator in units of 10^-K of the
 *   currency (K fixed by the first symbol using the currency), flushed into the BigInt part before it
 *   could leave ±(2^53−1); availability is checked against a Number lower bound of the free balance
 *   and, when that is inconclusive, exactly in BigInt. Fast-path fills add to Number accumulators the
 *   same way: account balances (10^-K units), an order's dealFunds and fee and a symbol's collected fees
 *   (qs units); each flushes into its BigInt part before an addition could leave ±(2^53−1), so every
 *   Number sum is exact (a double sum of safe integers is exact whenever its true value is safe).
 * - String API: price/size strings of ≤ 15 digits with no more fraction digits than the increment are
 *   parsed to ticks/lots in doubles (exact); anything else goes through src/api/decimal (BigInt), which
 *   also produces the errors.
 *
 * Memory layout: live orders are rows of typed arrays indexed by a pool slot, not objects (LF_* doubles
 * for the fields that may exceed 2^31, LI_* int32 for links, flags, owner and fee-rate ids; price-level
 * queues and a user's active list are linked by slot; rarely used fields and BigInt parts in an OrderExt
 * only for the orders that need one; freed slots reused last-freed first). Every order has a 32-byte int32
 * record by seq (the Archive): its pool slot while it is live, its final state once done (wider values in a
 * side map); done records also chain each user's done orders per symbol. Fill records and the public trade
 * tape are typed arrays too (FillStore, Sym.tape ring); wire objects are built only when queried. So the
 * garbage collector has no per-order object to trace or move, however deep the book. Large typed arrays
 * are written once per 4 KiB page when allocated (prefaulted), so page faults do not land on the order path. The trade accounts of a
 * user's orders on a symbol are cached on the user's per-symbol record (no Map lookup per fill).
 * Price levels are found through a LevelIndex per book side (a direct array over a 2^16-tick window
 * centred on the side's first price, a Map outside it) instead of a Map lookup per order. The internal
 * steps of a command (submit, match, fill, rest, finish, cancelResting) read the command's time from a
 * field (`tNow`) rather than a parameter, so no boxed double is passed between them.
 *
 * History and memory (issue 18): fills and done orders are readable for 3 × 24 h (HISTORY_WINDOW_MS; the window
 * ends at the latest clock value seen and never moves back), and not at all for a user whose history is
 * disabled (disableHistory: the sandbox's bots). What nobody can read any more is released in passes every
 * 4,096 orders / 10 min of clock (CoreState.releaseHistory): archive chunks once the entries they still need are
 * few (those move to side maps), fill-store chunks older than the window, GTT entries of done orders. Memory
 * thus follows the live state and the readable history, not the age of the engine; a query never depends on
 * when a pass ran (tests compare with `release: false`). This needs a clock that does not go backwards (the
 * sandbox's never does): a done-order chain is walked in done-time order and ends at a released record.
 *
 * Snapshots (snapshot.ts): exportSnapshot() streams the whole engine as small records and
 * Exchange.importSnapshot() rebuilds an engine that behaves exactly like the exported one.
 *
 * Book sequence (per symbol, `sequence()` and the level-2 snapshot's `sequence`): the last number consumed by
 * a visible change of a price level, i.e. of its aggregated visible size. Every such change consumes exactly
 * one (an order resting, leaving or decreasing, a fill of a visible maker, an iceberg refill); a hidden order
 * never consumes one, nor does removing an order that shows nothing any more. A trade carries the sequence of
 * its fill's visible change (the current one when the maker is hidden). So a level-2 snapshot with sequence S
 * plus the level changes numbered after S rebuilds the visible book exactly (KuCoin's sync algorithm).
 *
 * Events (events.ts; the contract with the sandbox's WebSocket feed is docs/events.md): with a sink set
 * (setEventSink) every visible level change and trade of a watched symbol (watchSymbol) and every order and
 * ledger change of a watched user (watchUser) is delivered synchronously, in order, inside the command that
 * causes it. Nobody listening costs one flag test per change; behaviour never depends on the sink.
 *
 * Other readings (documented choices):
 * - STP is the INCOMING order's `stp` (KuCoin): CN cancels the incoming order's remainder, CO cancels the
 *   resting own order and goes on, CB cancels both, DC decreases both by the smaller remaining size (the
 *   order reaching 0 is cancelled); DC is rejected for market orders by funds (400100).
 * - FOK: all-or-nothing checked before any fill; an own resting order met first under stp CN/CB/DC makes
 *   the FOK fail (no fill), under CO it is skipped in the check.
 * - post-only: cancelled (no fill at all) if ANY crossing resting order is ordinary (not hidden/iceberg).
 * - postOnly/hidden/iceberg/timeInForce GTT are for limit orders; postOnly with IOC/FOK is rejected.
 * - A limit order's `funds` is price × size, cancelledFunds = price × cancelledSize and remainFunds =
 *   funds − dealFunds − cancelledFunds (as in the KuCoin order fixture); market orders show price "0",
 *   size "0" for funds orders, funds "0" for size orders.
 * - clientOid must be unique among the user's ACTIVE orders (400100 "clientOid already exists").
 *
 * Fee rule (documented reading of rule 5): fees are always in the quote currency, fee = rate × funds of
 * the fill, truncated toward zero at the quote currency's precision (so rebates of a negative maker rate
 * are truncated toward zero too). Holds: a buy limit order holds price × remainSize + ceil(takerRate ×
 * price × remainSize) at the quote precision; since Σ trunc(fee_i) ≤ ceil(Σ fee), a hold recomputed after
 * every fill always covers the fills it pays for, and the difference (price improvement and the surplus
 * taker fee of maker fills) is released at once. A sell holds remainSize of base.
 * Market buy by funds holds funds + ceil(takerRate × funds). Market buy by size holds the cost of walking
 * the opposite book for `size` (own orders skipped when stp is set) + ceil(takerRate × cost); market sell
 * by funds holds the lots needed to raise `funds` by the same walk. If available does not cover that
 * hold → 200004. Market holds are transient: whatever is left is released when the order completes.
 *
 * Fee roles: the incoming order is the taker (liquidity 'taker') and pays the taker rate, except a
 * post-only order that fills against hidden/iceberg orders, which pays the maker rate. A resting order
 * pays the maker rate (liquidity 'maker') unless it is hidden or iceberg: then it pays the taker rate and
 * its fill has forceTaker true (liquidity stays 'maker'). Rates are snapshotted per order at placement.
 *
 * Market buy by funds stop rule: at each price the order buys floor(remainFunds / (price × baseIncrement))
 * lots; when that is 0 (the remaining funds cannot buy one baseIncrement at the next price) the order
 * stops and the remaining funds are cancelled ("cancelledFunds"). Market sell by funds is symmetric.
 */
import { fromUnits, toUnits } from '../../api/decimal';
import { E_BALANCE, E_DISABLED, E_SYMBOL, ExchangeError } from './errors';
import type { Account, AccountType, FillsQuery, HfFill, HfOrder, Level2, PlaceOrderRequest, PlaceOrderResult, PublicTrade, SymbolRules } from './types';
import {
  BUY,
  LEDGER_SCALE,
  MAX_LOTS,
  RATE_SCALE,
  SELL,
  TIF_GTC,
  TIF_IOC,
  TIF_FOK,
  ZERO,
  orderIdString,
  perr,
  pow10,
} from './base';
import { MAX_SYMBOLS, Sym, TAPE_MAX, TAPE_STRIDE, type BookSide, type Level } from './book';
import { FS_MARKET, FS_SIDE } from './fillstore';
import { Snapshots, type SnapshotRecord } from './snapshot';
import { LF_SEQ, LF_STRIDE, type OrderState } from './rows';
import type { CoreEventSink } from './events';
import type { CoreOptions } from './state';
import { fillView, orderView, tradeView } from './views';

export { HISTORY_WINDOW_MS, LEDGER_SCALE, ORDER_ID_PREFIX, RATE_SCALE } from './base';

/** Best bid/ask (visible levels only); null when that side has no visible level. */
export interface BestBidAsk {
  bestBid: string | null;
  bestBidSize: string | null;
  bestAsk: string | null;
  bestAskSize: string | null;
}

/** Options of the numeric entry point {@link Exchange.placeLimitTicks}. */
export interface LimitTicksOptions {
  tif?: 'GTC' | 'IOC' | 'FOK';
  postOnly?: boolean;
  clientOid?: string;
}

/**
 * The sandbox exchange: currencies, symbols, users' fee rates, ledger (main/trade accounts, withdrawal
 * holds, collected fees) and one order book per symbol. All methods are synchronous; every mutating method
 * either succeeds completely or throws {@link ExchangeError} having changed nothing.
 */
export class Exchange extends Snapshots {
  /**
   * @param opts.now injected clock, ms since epoch (the only time source of the core).
   * @param opts.bigIntOnly testing aid: compute every amount on the BigInt path (results are identical).
   * @param opts.fastPaths testing aid: false runs the canonical code instead of the written-out fast paths
   *   of fastpaths.ts (results are identical).
   * @param opts.release testing aid: false never releases history nobody can read (results are identical).
   */
  constructor(opts: CoreOptions) {
    super(opts);
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
    ex.loadSnapshot(records);
    return ex;
  }

  // ───────────────────────────── reference data ─────────────────────────────

  /** Register a currency with its precision (fraction digits, 0..18). Re-adding updates the precision of
   * an unused currency. @throws ExchangeError 400100 on a bad precision. */
  addCurrency(c: { currency: string; precision: number }): void {
    if (!Number.isInteger(c.precision) || c.precision < 0 || c.precision > LEDGER_SCALE) {
      throw perr(`precision of ${c.currency} must be an integer in 0..${LEDGER_SCALE}`);
    }
    this.currencies.set(c.currency, c.precision);
  }

  /** Currency codes registered with {@link addCurrency}, with precision. */
  currencyList(): { currency: string; precision: number }[] {
    return [...this.currencies].map(([currency, precision]) => ({ currency, precision }));
  }

  /**
   * Register a trading pair (fields as in GET /api/v2/symbols). Both currencies must have been added.
   * Re-adding an existing symbol only updates `enableTrading`.
   * @throws ExchangeError 400100 on unknown currencies or unusable increments.
   */
  addSymbol(rules: SymbolRules): void {
    const existing = this.syms.get(rules.symbol);
    if (existing) {
      existing.enableTrading = rules.enableTrading;
      return;
    }
    if (this.symList.length >= MAX_SYMBOLS) throw perr(`at most ${MAX_SYMBOLS} symbols`);
    const qp = this.currencies.get(rules.quoteCurrency);
    if (qp === undefined || !this.currencies.has(rules.baseCurrency)) {
      throw perr(`currencies of ${rules.symbol} must be added first`);
    }
    const sym = new Sym({ ...rules, feeCurrency: rules.feeCurrency ?? rules.quoteCurrency }, qp, this.symList.length);
    // fast scale of a currency: fixed by the first symbol using it; later symbols needing finer units
    // simply keep their holds on the BigInt path
    const kq = this.fastScale.get(rules.quoteCurrency) ?? Math.max(qp, sym.qs);
    this.fastScale.set(rules.quoteCurrency, kq);
    const kb = this.fastScale.get(rules.baseCurrency) ?? Math.max(this.currencies.get(rules.baseCurrency) as number, sym.bs);
    this.fastScale.set(rules.baseCurrency, kb);
    sym.quoteK = kq;
    sym.baseK = kb;
    sym.quoteMulK = kq >= sym.qs ? 10 ** (kq - sym.qs) : 0;
    // one lot is baseInc units at bs, i.e. baseInc × 10^(kb − bs) units of 10^-kb (baseIncrement need not be a power of ten)
    const bm = kb >= sym.bs ? sym.baseInc * pow10(kb - sym.bs) : 0n;
    sym.baseMulK = bm <= BigInt(MAX_LOTS) ? Number(bm) : 0;
    if (sym.quoteMulK > MAX_LOTS) sym.quoteMulK = 0;
    this.symList.push(sym);
    this.syms.set(rules.symbol, sym);
  }

  /** Set whether a symbol accepts new orders (cancellation always works). @throws 900001 unknown symbol. */
  setTradingEnabled(symbol: string, enabled: boolean): void {
    this.sym(symbol).enableTrading = enabled;
  }

  /** All symbols' rules (copies), in registration order. */
  symbols(): SymbolRules[] {
    return [...this.syms.values()].map((s) => ({ ...s.rules, enableTrading: s.enableTrading }));
  }

  /** True when the symbol is registered. */
  hasSymbol(symbol: string): boolean {
    return this.syms.has(symbol);
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
    const u = this.user(uid);
    u.taker = this.rates.intern(takerFeeRate);
    u.maker = this.rates.intern(makerFeeRate);
  }

  /** A user's current fee rates as decimal strings (spec "Base fee rates"). */
  feeRates(uid: string): { takerFeeRate: string; makerFeeRate: string } {
    const u = this.users[uid];
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
    this.user(uid).keepHistory = false;
  }

  // ───────────────────────────── orders ─────────────────────────────

  /**
   * Check everything placement checks (symbol, trading rules, increments, min/max, balance) without
   * changing anything (POST /api/v1/hf/orders/test). Returns what placeOrder would return, except that
   * the orderId is the id the NEXT order would get.
   * @throws ExchangeError 900001 unknown symbol, 400600 trading disabled, 400100 rule violation, 200004 balance.
   */
  validateOrder(uid: string, req: PlaceOrderRequest): PlaceOrderResult {
    const now = this.now();
    this.expire(now);
    this.parseOrder(uid, req, false);
    return { orderId: orderIdString(this.orderSeq + 1), clientOid: req.clientOid ?? '' };
  }

  /**
   * Place an order (POST /api/v1/hf/orders): validate, hold funds in `trade`, match (price-time
   * priority, STP, TIF, post-only), rest the remainder (limit GTC/GTT) or cancel it (market, IOC).
   * @returns the new order id (24 lowercase hex: ORDER_ID_PREFIX + 16-hex counter) and clientOid ('' if none).
   * @throws ExchangeError as {@link validateOrder}; nothing changes on error.
   */
  placeOrder(uid: string, req: PlaceOrderRequest): PlaceOrderResult {
    const now = this.now();
    this.expire(now);
    const p = this.parseOrder(uid, req, true);
    this.tNow = now;
    const seq = this.submit(p);
    return { orderId: orderIdString(seq), clientOid: p.clientOid };
  }

  /**
   * Numeric entry point for benchmarks: a limit order of `ticks` × priceIncrement and `lots` ×
   * baseIncrement. Same rule checks (numeric form), holds, matching and settlement as {@link placeOrder}
   * (which parses strings and then runs the same `submit`). Returns the order sequence number (the id is
   * {@link orderIdOf}(seq)). @throws ExchangeError as placeOrder.
   */
  placeLimitTicks(uid: string, symbol: string, side: 'buy' | 'sell', ticks: number, lots: number, opts?: LimitTicksOptions): number {
    const now = this.now();
    if (this.gtt.length > 0 || now >= this.relAt || this.orderSeq >= this.relSeq) this.expire(now);
    let sym = this.lastSymbolSym;
    if (symbol !== this.lastSymbolName || sym === null) {
      sym = this.syms.get(symbol) ?? null;
      if (sym === null) throw new ExchangeError(E_SYMBOL, 'symbol not exists!');
      this.lastSymbolName = symbol;
      this.lastSymbolSym = sym;
    }
    if (!sym.enableTrading) throw new ExchangeError(E_DISABLED, 'trading is disabled on this symbol');
    const user = this.user(uid);
    if (!Number.isSafeInteger(ticks) || ticks <= 0) throw perr('price must be positive');
    if (!Number.isSafeInteger(lots) || lots <= 0) throw perr('size must be positive');
    const tifName = opts?.tif ?? 'GTC';
    // one scratch request object, reused (submit copies every field into the order's row)
    const p = this.scratch;
    p.user = user;
    p.sym = sym;
    p.side = side === 'buy' ? BUY : SELL;
    p.ticks = ticks;
    p.lots = lots;
    p.tif = tifName === 'GTC' ? TIF_GTC : tifName === 'IOC' ? TIF_IOC : TIF_FOK;
    p.postOnly = opts?.postOnly ?? false;
    p.clientOid = opts?.clientOid ?? '';
    p.hold = ZERO;
    this.checkLimitAndHold(p);
    this.tNow = now;
    return this.submit(p);
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
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.findSeq(uid, symbol, orderId, this.winStart(now));
    if (seq < 0) throw perr('order not exists');
    const o = this.liveOf(seq);
    if (o < 0) throw perr('order is not active');
    this.tNow = now;
    this.cancelResting(o);
    return { orderId };
  }

  /** Cancel an active order by sequence number (benchmark entry point; same path as cancelOrder).
   * Returns false (and changes nothing) when it is not an active order of `uid`. */
  cancelSeq(uid: string, seq: number): boolean {
    const now = this.now();
    if (this.gtt.length > 0 || now >= this.relAt || this.orderSeq >= this.relSeq) this.expire(now);
    const o = this.liveOf(seq);
    if (o < 0 || this.usOf(o).user.uid !== uid) return false;
    this.tNow = now;
    this.cancelResting(o);
    return true;
  }

  /** Cancel an active order by clientOid (DELETE /api/v1/hf/orders/client-order/{clientOid}).
   * @returns {clientOid}. @throws ExchangeError 400100 "order not exists" when no active order has it. */
  cancelOrderByClientOid(uid: string, symbol: string, clientOid: string): { clientOid: string } {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.users[uid]?.byClientOid.get(clientOid) ?? -1;
    const o = this.liveOf(seq);
    if (o < 0 || this.usOf(o).sym.rules.symbol !== symbol) throw perr('order not exists');
    this.tNow = now;
    this.cancelResting(o);
    return { clientOid };
  }

  /** Cancel all active orders of a user on a symbol (DELETE /api/v1/hf/orders?symbol=).
   * @returns the cancelled order ids, oldest first. @throws ExchangeError 900001 unknown symbol. */
  cancelAll(uid: string, symbol: string): string[] {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const u = this.users[uid];
    if (!u) return [];
    const list = this.activeSlots(u.us(this.sym(symbol)));
    const ids = list.map((o) => this.orderIdOf(this.lf[o * LF_STRIDE + LF_SEQ]));
    this.tNow = now;
    for (const o of list) this.cancelResting(o);
    return ids;
  }

  /**
   * One HF order with every spec field (GET /api/v1/hf/orders/{orderId}?symbol=). A done order is
   * readable for 3 × 24 h after its last update (spec: "a non-active order can be read only within the last
   * 3 x 24 hours"), and never when its owner keeps no history ({@link disableHistory}).
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists" (unknown, other user/symbol, expired).
   */
  getOrder(uid: string, symbol: string, orderId: string): HfOrder {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.findSeq(uid, symbol, orderId, this.winStart(now));
    if (seq < 0) throw perr('order not exists');
    return orderView(this.stateOf(seq));
  }

  /** Like {@link getOrder} but by clientOid (most recent order of that clientOid). */
  getOrderByClientOid(uid: string, symbol: string, clientOid: string): HfOrder {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.users[uid]?.byClientOid.get(clientOid) ?? -1;
    if (!this.owns(uid, symbol, seq, this.winStart(now))) throw perr('order not exists');
    return orderView(this.stateOf(seq));
  }

  /** Active orders of a user on a symbol, sorted by lastUpdatedAt descending (ties: newest first)
   * (GET /api/v1/hf/orders/active). @throws ExchangeError 900001 unknown symbol. */
  activeOrders(uid: string, symbol: string): HfOrder[] {
    this.expire(this.now());
    this.sym(symbol);
    const u = this.users[uid];
    if (!u) return [];
    return this.activeSlots(u.us(this.sym(symbol)))
      .map((o) => this.liveState(o))
      .sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt || b.seq - a.seq)
      .map((o) => orderView(o));
  }

  /**
   * Done orders of a user on a symbol (GET /api/v1/hf/orders/done) whose lastUpdatedAt lies in [startAt, endAt]
   * (ms, clamped to the 3 × 24 h window ending now), of `side` and `type` when given, newest first (lastUpdatedAt
   * descending, then sequence descending), at most `limit` (default 100, max 100). `lastId` pages: only the orders
   * AFTER the done order of that sequence number in this order (the sequence is the counter part of an order id;
   * pass the last item's to get the next page).
   * None for a user that keeps no history.
   * @throws ExchangeError 900001 unknown symbol; 400100 "lastId: …" when lastId is not a done order of this user
   *   and symbol still readable (within the window).
   */
  doneOrders(
    uid: string,
    symbol: string,
    q: { startAt?: number; endAt?: number; limit?: number; side?: 'buy' | 'sell'; type?: 'limit' | 'market'; lastId?: number } = {},
  ): HfOrder[] {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    if (q.lastId !== undefined && (!this.owns(uid, symbol, q.lastId, this.winStart(now)) || this.liveOf(q.lastId) >= 0)) {
      throw perr(`lastId: ${q.lastId} is not a done order of this user and symbol within the 3 × 24 h window`);
    }
    const u = this.users[uid];
    if (!u) return [];
    if (!u.keepHistory) return [];
    const us = u.us(this.sym(symbol));
    const start = Math.max(q.startAt ?? 0, this.winStart(now));
    const end = q.endAt ?? now;
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 100);
    // the page starts after (afterT, afterSeq) in the answer's order
    const afterT = q.lastId !== undefined ? this.archive.lastUpdatedAt(q.lastId) : Infinity;
    const afterSeq = q.lastId ?? Infinity;
    const side = q.side === undefined ? -1 : q.side === 'buy' ? BUY : SELL;
    const out: OrderState[] = [];
    // the chain is in done-time order: it ends where it reaches a forgotten (older) order
    for (let seq = this.archive.lastDone(us.idx); this.archive.hasDone(seq); seq = this.archive.prevDone(seq)) {
      const t = this.archive.lastUpdatedAt(seq);
      if (t < start || t > end || t > afterT || (t === afterT && seq >= afterSeq)) continue;
      const o = this.stateOf(seq);
      if ((side >= 0 && o.side !== side) || (q.type !== undefined && o.market !== (q.type === 'market'))) continue;
      out.push(o);
    }
    out.sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt || b.seq - a.seq);
    return out.slice(0, limit).map((o) => orderView(o));
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
    const now = this.now();
    this.expire(now);
    const sym = this.sym(q.symbol);
    const u = this.users[uid];
    if (!u || !u.keepHistory) return { items: [], lastId: 0 };
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 100);
    const out: HfFill[] = [];
    const winStart = this.winStart(now);
    let start = q.startAt ?? winStart;
    let end = q.endAt ?? now;
    if (start < winStart) {
      start = winStart;
      end = now;
    }
    let oseq = -1;
    if (q.orderId !== undefined) {
      oseq = this.findSeq(uid, q.symbol, q.orderId, winStart);
      if (oseq < 0) return { items: [], lastId: 0 };
    }
    const side = q.side === undefined ? -1 : q.side === 'buy' ? BUY : SELL;
    const fs = this.fillStore;
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
      out.push(fillView(this.fillStore, this.symList, this.rates, ref));
    }
    return { items: out, lastId: out.length ? out[out.length - 1].id : 0 };
  }

  // ───────────────────────────── market data ─────────────────────────────

  /**
   * Aggregated level-2 snapshot, top `depth` visible levels per side (hidden orders never count, icebergs
   * only their visible tranche). `sequence` is the last sequence number consumed: every visible level change
   * (a level's aggregated visible size) consumes exactly one; hidden orders consume none.
   * @throws ExchangeError 900001 unknown symbol.
   */
  level2(symbol: string, depth: number): Level2 {
    const now = this.now();
    this.expire(now);
    const s = this.sym(symbol);
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

  /** Current book sequence of a symbol: the last one consumed by a visible level change (starts at 1). @throws 900001. */
  sequence(symbol: string): number {
    return this.sym(symbol).sequence;
  }

  /** Best visible bid and ask with their aggregated sizes. @throws ExchangeError 900001 unknown symbol. */
  bestBidAsk(symbol: string): BestBidAsk {
    this.expire(this.now());
    const s = this.sym(symbol);
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

  /**
   * Public trades of a symbol with time ≥ sinceMs (default all retained), oldest first. The tape keeps the
   * most recent 10,000 trades per symbol of the last 3 × 24 h (older ones are gone, like fills); use
   * {@link onTrade} for complete statistics.
   * @throws ExchangeError 900001 unknown symbol.
   */
  trades(symbol: string, sinceMs = 0): PublicTrade[] {
    const s = this.sym(symbol);
    const since = Math.max(sinceMs, this.winStart(this.now()));
    const out: PublicTrade[] = [];
    for (let i = Math.max(0, s.tapeCount - TAPE_MAX); i < s.tapeCount; i++) {
      const slot = i % TAPE_MAX;
      if ((s.tape as Float64Array)[slot * TAPE_STRIDE + 5] >= since) out.push(tradeView(s, slot));
    }
    return out;
  }

  /** Register a listener called synchronously after every trade (taker side). Returns an unsubscribe function. */
  onTrade(listener: (t: PublicTrade) => void): () => void {
    this.tradeListeners.push(listener);
    return () => {
      const i = this.tradeListeners.indexOf(listener);
      if (i >= 0) this.tradeListeners.splice(i, 1);
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
    this.sink = sink;
    if (sink !== null) for (const u of this.userList) if (u.watched) this.baseBalances(u);
  }

  /** Turn level and trade events of a symbol on or off. @throws ExchangeError 900001 unknown symbol. */
  watchSymbol(symbol: string, on: boolean): void {
    this.sym(symbol).watched = on;
  }

  /** Turn order and balance events of a user on or off (a user not known yet is watched once created). */
  watchUser(uid: string, on: boolean): void {
    if (on) this.watchedUids.add(uid);
    else this.watchedUids.delete(uid);
    const u = this.users[uid];
    if (u === undefined) return;
    if (on && !u.watched) this.baseBalances(u);
    u.watched = on;
  }

  // ───────────────────────────── ledger ─────────────────────────────

  /**
   * A user's accounts (GET /api/v1/accounts), optionally filtered, in creation order. Accounts exist once
   * a currency was touched (deposit, transfer, fill). Decimal strings.
   */
  accounts(uid: string, f: { currency?: string; type?: AccountType } = {}): Account[] {
    this.expire(this.now());
    const u = this.users[uid];
    if (!u) return [];
    const out: Account[] = [];
    for (const [cur, w] of u.wallets) {
      if (f.currency !== undefined && f.currency !== cur) continue;
      for (const a of [w.main, w.trade]) {
        if (f.type !== undefined && f.type !== a.type) continue;
        out.push({
          id: a.id,
          currency: cur,
          type: a.type,
          balance: fromUnits(a.balance, LEDGER_SCALE),
          available: fromUnits(a.balance - a.holds, LEDGER_SCALE),
          holds: fromUnits(a.holds, LEDGER_SCALE),
        });
      }
    }
    return out;
  }

  /** Credit a deposit to the user's `main` account. `amount` > 0 with at most the currency's precision.
   * @throws ExchangeError 400100 unknown currency or bad amount. */
  deposit(uid: string, currency: string, amount: string): void {
    const now = this.now();
    this.expire(now);
    const v = this.amount(currency, amount);
    const u = this.user(uid);
    const a = this.wallet(u, currency).main;
    a.addBalance(v);
    this.deposited.set(currency, (this.deposited.get(currency) ?? ZERO) + v);
    if (u.watched) {
      this.tNow = now;
      this.emitBalance(a, u, 'main.deposit', '');
    }
  }

  /** Move `amount` between a user's main and trade accounts (no fee).
   * @throws ExchangeError 400100 bad currency/amount/types, 200004 when `from` available is insufficient. */
  transfer(uid: string, currency: string, from: AccountType, to: AccountType, amount: string): void {
    const now = this.now();
    this.expire(now);
    const v = this.amount(currency, amount);
    if ((from !== 'main' && from !== 'trade') || (to !== 'main' && to !== 'trade') || from === to) {
      throw perr('from and to must be main and trade (different)');
    }
    const u = this.user(uid);
    const w = this.wallet(u, currency);
    const src = w[from];
    if (src.balance - src.holds < v) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    src.addBalance(-v);
    w[to].addBalance(v);
    if (u.watched) {
      this.tNow = now;
      this.emitBalance(src, u, `${from}.transfer`, '');
      this.emitBalance(w[to], u, `${to}.transfer`, '');
    }
  }

  /** Hold `amount` (total leaving, fee included) of the user's `main` account for a withdrawal.
   * @returns a hold id. @throws ExchangeError 400100 bad amount, 200004 insufficient available. */
  holdWithdrawal(uid: string, currency: string, amount: string): string {
    const now = this.now();
    this.expire(now);
    const v = this.amount(currency, amount);
    const u = this.user(uid);
    const a = this.wallet(u, currency).main;
    if (a.balance - a.holds < v) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    a.addHoldsBig(v);
    const id = `wh${++this.holdSeq}`;
    this.wholds.set(id, { acc: a, user: u, amount: v, cur: currency });
    if (u.watched) {
      this.tNow = now;
      this.emitBalance(a, u, 'main.withdraw_hold', id);
    }
    return id;
  }

  /** Complete a held withdrawal: the held amount leaves the balance; `fee` (0 ≤ fee ≤ amount) goes to the
   * collected fees, the rest counts as withdrawn. @throws ExchangeError 400100 unknown hold or bad fee. */
  settleWithdrawal(holdId: string, fee: string): void {
    const h = this.wholds.get(holdId);
    if (!h) throw perr('withdrawal hold not exists');
    let f: bigint;
    try {
      f = toUnits(fee, LEDGER_SCALE);
    } catch {
      throw perr('fee must be a decimal');
    }
    if (f < 0n || f > h.amount) throw perr('fee must be between 0 and the held amount');
    this.wholds.delete(holdId);
    h.acc.addHoldsBig(-h.amount);
    h.acc.addBalance(-h.amount);
    this.fees.set(h.cur, (this.fees.get(h.cur) ?? ZERO) + f);
    this.withdrawn.set(h.cur, (this.withdrawn.get(h.cur) ?? ZERO) + h.amount - f);
    if (h.user.watched) {
      this.tNow = this.now();
      this.emitBalance(h.acc, h.user, 'main.withdraw_done', holdId);
    }
  }

  /** Cancel a held withdrawal: the hold is released. @throws ExchangeError 400100 unknown hold. */
  releaseWithdrawal(holdId: string): void {
    const h = this.wholds.get(holdId);
    if (!h) throw perr('withdrawal hold not exists');
    this.wholds.delete(holdId);
    h.acc.addHoldsBig(-h.amount);
    if (h.user.watched) {
      this.tNow = this.now();
      this.emitBalance(h.acc, h.user, 'main.other', holdId);
    }
  }

  /** Fees collected per currency (decimal strings), including withdrawal fees, net of maker rebates. */
  collectedFees(): Record<string, string> {
    this.flushFees();
    const out: Record<string, string> = {};
    for (const [c, v] of this.fees) out[c] = fromUnits(v, LEDGER_SCALE);
    return out;
  }

  /** Process GTT expiries due at the current clock time (each expired order is stamped with its expiry time). */
  tick(): void {
    this.expire(this.now());
  }

  /** Process GTT expiries due at `now` (ms). */
  advanceTo(now: number): void {
    this.expire(now);
  }

}
