/**
 * The shared state of the exchange core ({@link CoreState}): reference data, users and ledger totals, the
 * live-order rows (an {@link OrderRows}), the archive, the fill store and the GTT heap, the command's time,
 * plus the lookups every part uses. Data and lookups only: the behaviour lives in the parts that Exchange
 * owns (docs/engine.md, "Parts"), each of which is handed this object.
 */
import { toUnits } from '../../api/decimal';
import { E_SYMBOL, ExchangeError } from './errors';
import { ACCOUNT_ID_PREFIX, CHUNK_MASK, HISTORY_WINDOW_MS, LEDGER_SCALE, RateTable, ZERO, hex16, objectArray, perr, pow10, seqOfOrderId, type SideN } from './base';
import { Archive } from './archive';
import type { BookSide, Level, Sym } from './book';
import { FillStore } from './fillstore';
import { GttHeap } from './gtt';
import { Acc, User, Wallet, type UserSym, type WHold } from './accounts';
import {
  F_ACTIVE,
  F_CANCEL_EXIST,
  F_HIDDEN,
  F_ICEBERG,
  F_IN_BOOK,
  F_MARKET,
  F_POST,
  F_SELL,
  F_STP_SHIFT,
  F_TIF_SHIFT,
  LF_CANC,
  LF_CREATED,
  LF_DEAL,
  LF_DEALN,
  LF_FEEN,
  LF_LOTS,
  LF_REMAIN,
  LF_SEQ,
  LF_STRIDE,
  LF_TICKS,
  LF_UPDATED,
  OrderRows,
  type OrderState,
} from './rows';

/** Options of the core's constructor (see Exchange). */
export interface CoreOptions {
  /** injected clock, ms since epoch (the only time source of the core) */
  now: () => number;
  /** testing aid: compute every amount on the BigInt path (results are identical) */
  bigIntOnly?: boolean;
  /** testing aid: false runs the canonical code instead of the written-out fast paths (the plain rest of
   * matching.ts, the plain cancel of resting.ts; results are identical) */
  fastPaths?: boolean;
  /** testing aid: false never releases history nobody can read (results are identical; memory grows) */
  release?: boolean;
}

/**
 * A user's dead-man's switch (KuCoin "Set DCP", POST /api/v1/hf/orders/dead-cancel-all): at `triggerAt`
 * (ms) every active order of the user on `symbols` (empty: every symbol) is cancelled, unless the switch
 * was set again or unset before.
 */
export interface DeadCancel {
  /** the timeout it was set with, seconds (5..86400) */
  timeout: number;
  /** symbols it covers, in the order given; empty = all */
  symbols: string[];
  /** clock time (ms) at which it fires */
  triggerAt: number;
}

/** Clock time (ms) between two release passes at most (one also runs every CHUNK orders). */
export const RELEASE_EVERY_MS = 10 * 60 * 1000;

/** The exchange core's state and lookups, shared by its parts. */
export class CoreState {
  /** the live orders' rows and slot pool */
  readonly rows = new OrderRows();
  readonly now: () => number;
  readonly currencies = new Map<string, number>();
  readonly syms = new Map<string, Sym>();
  /** uid → user: a prototype-less dictionary object rather than a Map (V8 looks string keys up in it faster,
   * ~14 ns per order on stream B); iterate `userList` (creation order) */
  readonly users: Record<string, User | undefined> = Object.create(null) as Record<string, User | undefined>;
  readonly userList: User[] = objectArray();
  /** currency → fast scale K of Number holds (see Acc) */
  readonly fastScale = new Map<string, number>();
  readonly symList: Sym[] = objectArray();
  /** done orders + seq → live slot */
  archive = new Archive();
  /** every user's per-symbol record, by UserSym.idx (live orders keep the index) */
  readonly usList: UserSym[] = objectArray();
  orderSeq = 0;
  /** the latest clock value seen by a history query or a release pass (see winStart) */
  hw = -Infinity;
  fillSeq = 0;
  /** time (ms) of the command being processed (GTT expiry: the expiry time), read by the internal steps
   * instead of a parameter: a double argument would be boxed (a heap number per call). Starts as -0, a double:
   * a field that starts as a small integer and later holds a time changes its representation, which replaces
   * this object's hidden class, and every part holding `st` then checks its map again on each access (bench
   * engine-instr: 27 more instructions per order on stream B) */
  tNow = -0;
  /** every fill record, by fill id */
  fillStore = new FillStore();
  accountSeq = 0;
  holdSeq = 0;
  /** the fee rates this exchange has used (live rows and fill records keep their ids) */
  rates = new RateTable();
  readonly fees = new Map<string, bigint>();
  readonly deposited = new Map<string, bigint>();
  readonly withdrawn = new Map<string, bigint>();
  readonly wholds = new Map<string, WHold>();
  /** GTT expiries by (expireAt, seq) */
  readonly gtt = new GttHeap();
  /** the GTT heap is rebuilt from the live orders' entries when it grows beyond this */
  gttRebuildAt = 1024;
  /** the next release pass (releaseHistory) runs at this clock time, or once orderSeq reaches relSeq; set it
   * through {@link setRelAt}, which keeps {@link dueAt} */
  relAt = -Infinity;
  relSeq = 0;
  /** uids whose order and balance events are on (User.watched; kept for users not created yet) */
  readonly watchedUids = new Set<string>();
  /** dead-man's switches (Exchange.setDeadCancel), by user; fired by OrderBook.expire */
  readonly deadCancels = new Map<User, DeadCancel>();
  /** the earliest triggerAt of {@link deadCancels} (Infinity: none), so that expire() tests one number */
  deadCancelAt = Infinity;
  /** min({@link relAt}, {@link deadCancelAt}): a command tests this one time, not both (Exchange.placeLimitTicks) */
  dueAt = -Infinity;

  /** Disable the Number fast path (tests run the model on both paths). */
  readonly bigOnly: boolean;
  /** Use the written-out fast paths (Matcher.restPlain, OrderBook.cancelResting; false: their canonical versions;
   * tests compare both). */
  readonly fastPaths: boolean;
  /** Release history nobody can read (false: keep everything; tests compare both). */
  readonly releases: boolean;

  /** @param opts see {@link CoreOptions}. */
  constructor(opts: CoreOptions) {
    this.now = opts.now;
    this.bigOnly = opts.bigIntOnly === true;
    this.fastPaths = opts.fastPaths !== false;
    this.releases = opts.release !== false;
  }

  /**
   * A release pass (every RELEASE_EVERY_MS of clock time and every CHUNK orders, at the start of a command or
   * query): forget what nobody can read any more — done orders older than the 3 × 24 h window or of users
   * without history (Archive.release: whole chunks, the few entries they still need moved aside, their
   * clientOids out of byClientOid), fill records older than the window (FillStore.release), and GTT entries of
   * orders done before they expired (the heap is rebuilt when it doubled). Invisible to every query: they
   * already hide all of it. O(what is released) + O(chunks kept).
   */
  releaseHistory(now: number): void {
    this.setRelAt(now + RELEASE_EVERY_MS);
    this.relSeq = this.orderSeq + CHUNK_MASK + 1;
    if (!this.releases) return;
    const win = this.winStart(now);
    const usList = this.usList;
    this.archive.release(
      win,
      (i) => usList[i].user.keepHistory,
      (seq, i, coid) => {
        if (coid === '') return;
        const u = usList[i].user;
        if (u.byClientOid.get(coid) === seq) u.byClientOid.delete(coid);
      },
    );
    this.fillStore.release(win);
    if (this.gtt.length > this.gttRebuildAt) {
      this.gtt.retain((e) => this.liveOf(e.seq) >= 0);
      this.gttRebuildAt = Math.max(1024, 2 * this.gtt.length);
    }
  }

  /** A registered symbol. @throws ExchangeError 900001 unknown symbol. */
  sym(symbol: string): Sym {
    const s = this.syms.get(symbol);
    if (!s) throw new ExchangeError(E_SYMBOL, 'symbol not exists!');
    return s;
  }

  /** A user's record (created on first use). */
  user(uid: string): User {
    let u = this.users[uid];
    if (!u) {
      u = new User(uid, this.userList.length, this.usList);
      if (this.watchedUids.has(uid)) u.watched = true;
      this.userList.push(u);
      this.users[uid] = u;
    }
    return u;
  }

  /** A user's wallet of a currency (main + trade accounts, created on first use). */
  wallet(u: User, cur: string): Wallet {
    let w = u.wallets.get(cur);
    if (!w) {
      w = new Wallet(
        new Acc(ACCOUNT_ID_PREFIX + hex16(++this.accountSeq), cur, 'main'),
        new Acc(ACCOUNT_ID_PREFIX + hex16(++this.accountSeq), cur, 'trade'),
      );
      const k = this.fastScale.get(cur);
      if (k !== undefined) w.trade.setK(k);
      u.wallets.set(cur, w);
    }
    return w;
  }

  /** A positive amount of a currency (at most its precision) in ledger units.
   * @throws ExchangeError 400100 unknown currency or bad amount. */
  amount(currency: string, amount: string): bigint {
    const prec = this.currencies.get(currency);
    if (prec === undefined) throw perr(`currency ${currency} not exists`);
    let v: bigint;
    try {
      v = toUnits(amount, prec);
    } catch {
      throw perr(`amount must be a decimal with at most ${prec} fraction digits`);
    }
    if (v <= 0n) throw perr('amount must be positive');
    return v * pow10(LEDGER_SCALE - prec);
  }

  /**
   * Start (ms) of the readable history window at clock time `now`: HISTORY_WINDOW_MS before the latest clock
   * value seen (the clock never goes backwards in the sandbox; should it, history released meanwhile stays
   * unreadable). Done orders whose lastUpdatedAt, and fills whose createdAt, lie before it are gone.
   */
  winStart(now: number): number {
    if (now > this.hw) this.hw = now;
    return this.hw - HISTORY_WINDOW_MS;
  }

  /**
   * Seq of an order id of `uid` on `symbol` that a client can still see (live, or done and readable: see
   * {@link owns}), or -1 (unknown id, other user or symbol, history gone).
   */
  findSeq(uid: string, symbol: string, orderId: string, winStart: number): number {
    const seq = seqOfOrderId(orderId);
    return seq >= 0 && this.owns(uid, symbol, seq, winStart) ? seq : -1;
  }

  /**
   * True when seq is a live order of uid on symbol, or a done one still readable: its lastUpdatedAt ≥
   * `winStart` and its owner keeps history (User.keepHistory).
   */
  owns(uid: string, symbol: string, seq: number, winStart: number): boolean {
    if (!(seq >= 1 && seq <= this.orderSeq)) return false;
    const o = this.liveOf(seq);
    if (o >= 0) {
      const us = this.usOf(o);
      return us.user.uid === uid && us.sym.rules.symbol === symbol;
    }
    if (!this.archive.hasDone(seq) || this.archive.lastUpdatedAt(seq) < winStart) return false;
    const us = this.usList[this.archive.usIdx(seq)];
    return us.user.keepHistory && us.user.uid === uid && us.sym.rules.symbol === symbol;
  }

  /**
   * The symbol of order `seq` when `uid` can still see it (live, or done and readable: see {@link owns}),
   * else null. For the endpoints that name an order without its symbol (the classic order API).
   */
  symbolOfSeq(uid: string, seq: number, winStart: number): Sym | null {
    if (!(seq >= 1 && seq <= this.orderSeq)) return null;
    const o = this.liveOf(seq);
    let sym: Sym;
    if (o >= 0) sym = this.usOf(o).sym;
    else if (this.archive.hasDone(seq)) sym = this.usList[this.archive.usIdx(seq)].sym;
    else return null;
    return this.owns(uid, sym.rules.symbol, seq, winStart) ? sym : null;
  }

  /** Recompute {@link deadCancelAt} (and {@link dueAt}) after {@link deadCancels} changed. */
  nextDeadCancel(): void {
    let t = Infinity;
    for (const d of this.deadCancels.values()) if (d.triggerAt < t) t = d.triggerAt;
    this.deadCancelAt = t;
    this.dueAt = Math.min(this.relAt, t);
  }

  /** Set {@link relAt} (ms), keeping {@link dueAt}. */
  setRelAt(t: number): void {
    this.relAt = t;
    this.dueAt = Math.min(t, this.deadCancelAt);
  }

  /** The live-order slot of a seq, or -1 when done / unknown (any number is accepted). */
  liveOf(seq: number): number {
    return this.archive.slotOf(seq);
  }

  /** Live order or archived state of an existing seq. */
  stateOf(seq: number): OrderState {
    const o = this.liveOf(seq);
    return o >= 0 ? this.liveState(o) : this.archive.get(seq, this.usList);
  }

  /** The state of the live order in `slot`, materialised for views and invariant checks. */
  liveState(slot: number): OrderState {
    const lf = this.rows.lf;
    const k = slot * LF_STRIDE;
    const fl = this.rows.flags(slot);
    const us = this.usOf(slot);
    const x = this.rows.lx[slot];
    return {
      seq: lf[k + LF_SEQ],
      user: us.user,
      sym: us.sym,
      side: (fl & F_SELL) as SideN,
      market: (fl & F_MARKET) !== 0,
      ticks: lf[k + LF_TICKS],
      sizeLots: lf[k + LF_LOTS],
      funds: x === null ? -1n : x.funds,
      tif: (fl >> F_TIF_SHIFT) & 3,
      cancelAfter: x === null ? 0 : x.cancelAfter,
      postOnly: (fl & F_POST) !== 0,
      hidden: (fl & F_HIDDEN) !== 0,
      iceberg: (fl & F_ICEBERG) !== 0,
      visible: x === null ? 0 : x.visible,
      stp: (fl >> F_STP_SHIFT) & 7,
      clientOid: x === null ? '' : x.clientOid,
      remark: x === null ? '' : x.remark,
      tags: x === null ? '' : x.tags,
      remain: lf[k + LF_REMAIN],
      deal: lf[k + LF_DEAL],
      cancelled: lf[k + LF_CANC],
      dealFunds: (x === null ? ZERO : x.dealB) + BigInt(lf[k + LF_DEALN]) * us.sym.qFactor,
      remainFunds: x === null ? ZERO : x.remainFunds,
      cancelledFunds: x === null ? ZERO : x.cancelledFunds,
      fee: (x === null ? ZERO : x.feeB) + BigInt(lf[k + LF_FEEN]) * us.sym.qFactor,
      active: (fl & F_ACTIVE) !== 0,
      inBook: (fl & F_IN_BOOK) !== 0,
      cancelExist: (fl & F_CANCEL_EXIST) !== 0,
      createdAt: lf[k + LF_CREATED],
      lastUpdatedAt: lf[k + LF_UPDATED],
    };
  }

  /** The owner's per-symbol record of a live order. */
  usOf(o: number): UserSym {
    return this.usList[this.rows.usIdx(o)];
  }

  /** Trade account a live order's hold sits in (quote for buys, base for sells; set on the owner's record at placement). */
  accOf(o: number): Acc {
    const us = this.usOf(o);
    return ((this.rows.flags(o) & F_SELL) === 0 ? us.qAcc : us.bAcc) as Acc;
  }

  /** Trade account of the quote (quote=true) or base currency of a user on a symbol (created if missing), cached on the record. */
  tradeAccOf(us: UserSym, quote: boolean): Acc {
    if (quote) return us.qAcc ?? (us.qAcc = this.wallet(us.user, us.sym.rules.quoteCurrency).trade);
    return us.bAcc ?? (us.bAcc = this.wallet(us.user, us.sym.rules.baseCurrency).trade);
  }

  /** The book side of `s` an order with flags `fl` rests on. */
  ownSide(s: Sym, fl: number): BookSide {
    return (fl & F_SELL) === 0 ? s.bids : s.asks;
  }

  /** The price level a resting order is queued in (undefined when not in the book). */
  levelOf(o: number): Level | undefined {
    const fl = this.rows.flags(o);
    if ((fl & F_IN_BOOK) === 0) return undefined;
    return this.ownSide(this.usOf(o).sym, fl).map.get(this.rows.priceTicks(o));
  }

  /** Slots of a user's active orders on a symbol, oldest first. */
  activeSlots(us: UserSym): number[] {
    const out: number[] = [];
    for (let o = us.head; o !== -1; o = this.rows.nextActive(o)) out.push(o);
    return out.reverse();
  }
}
