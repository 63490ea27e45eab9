/**
 * The order book of the exchange core ({@link OrderBook}): a price level's FIFO queue and a user's
 * active-order list (link/unlink, pushActive/dropActive), resting an order, the STP decrease of a resting
 * order, cancelling, finishing an order into the archive, and GTT expiry. The book's records (levels, sides,
 * symbols) are book.ts. Fast path: {@link OrderBook.cancelResting} writes the common cancel out in one body,
 * next to its canonical version {@link OrderBook.cancelCanonical} (docs/engine.md, "Fast paths").
 */
import { TIF_GTT, ZERO } from './base';
import type { Level, Sym } from './book';
import type { Acc, User, UserSym } from './accounts';
import type { EventPublisher } from './events';
import type { Ledger } from './ledger';
import {
  F_ACTIVE,
  F_CANCEL_EXIST,
  F_EXT,
  F_HIDDEN,
  F_ICEBERG,
  F_IN_BOOK,
  F_SELL,
  F_TIF_SHIFT,
  LF_CANC,
  LF_HOLDN,
  LF_REMAIN,
  LF_SEQ,
  LF_SHOWN,
  LF_STRIDE,
  LF_TICKS,
  LF_UPDATED,
  LI_ANEXT,
  LI_APREV,
  LI_FLAGS,
  LI_NEXT,
  LI_PREV,
  LI_STRIDE,
  LI_US,
  type OrderExt,
  type OrderRows,
} from './rows';
import type { CoreState, DeadCancel } from './state';

/** Book queues, active lists, rest / cancel / finish, GTT expiry. */
export class OrderBook {
  private declare readonly rows: OrderRows;
  /** CoreState.fastPaths, copied */
  private declare readonly fastPaths: boolean;

  private declare readonly st: CoreState;
  private declare readonly ledger: Ledger;
  private declare readonly events: EventPublisher;

  constructor(st: CoreState, ledger: Ledger, events: EventPublisher) {
    this.st = st;
    this.ledger = ledger;
    this.events = events;
    this.rows = st.rows;
    this.fastPaths = st.fastPaths;
  }

  /** Put resting order `o` at the head (newest end) of its owner's active-order list. */
  pushActive(us: UserSym, o: number): void {
    const li = this.rows.li;
    const head = us.head;
    li[o * LI_STRIDE + LI_ANEXT] = head;
    li[o * LI_STRIDE + LI_APREV] = -1;
    if (head !== -1) li[head * LI_STRIDE + LI_APREV] = o;
    us.head = o;
  }

  /** Take order `o` out of its owner's active-order list. */
  private dropActive(us: UserSym, o: number): void {
    const li = this.rows.li;
    const ap = li[o * LI_STRIDE + LI_APREV];
    const an = li[o * LI_STRIDE + LI_ANEXT];
    if (ap !== -1) li[ap * LI_STRIDE + LI_ANEXT] = an;
    else us.head = an;
    if (an !== -1) li[an * LI_STRIDE + LI_APREV] = ap;
  }

  /** Append order `o` to the back of level `lv`'s queue. */
  link(o: number, lv: Level): void {
    const li = this.rows.li;
    const j = o * LI_STRIDE;
    const tail = lv.tail;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = tail;
    if (tail !== -1) li[tail * LI_STRIDE + LI_NEXT] = o;
    else lv.head = o;
    lv.tail = o;
    // a visible change (a linked order always shows something): one sequence number
    if ((this.rows.flags(o) & F_HIDDEN) === 0) {
      lv.size += this.rows.shownLots(o);
      const s = this.st.usOf(o).sym;
      s.sequence++;
      if (s.watched) this.events.emitLevel(s, lv);
    }
  }

  /** Remove order `o` from its level `lv` (and the level from the book when empty, unless keepLevel). */
  unlink(o: number, lv: Level, keepLevel: boolean): void {
    const li = this.rows.li;
    const j = o * LI_STRIDE;
    const prev = li[j + LI_PREV];
    const next = li[j + LI_NEXT];
    if (prev !== -1) li[prev * LI_STRIDE + LI_NEXT] = next;
    else lv.head = next;
    if (next !== -1) li[next * LI_STRIDE + LI_PREV] = prev;
    else lv.tail = prev;
    const fl = this.rows.flags(o);
    const s = this.st.usOf(o).sym;
    const shown = this.rows.shownLots(o);
    // a visible change only when a visible order still showed lots (not after its last fill, not hidden)
    if ((fl & F_HIDDEN) === 0 && shown > 0) {
      lv.size -= shown;
      s.sequence++;
      if (s.watched) this.events.emitLevel(s, lv);
    }
    li[j + LI_PREV] = -1;
    li[j + LI_NEXT] = -1;
    if (lv.head === -1 && !keepLevel) this.st.ownSide(s, fl).remove(lv);
  }

  /** Rest a limit order in the book (`level`: its price level when already known to exist). */
  rest(o: number, level: Level | undefined): void {
    const fl = this.rows.flags(o);
    const us = this.st.usOf(o);
    const x = this.rows.extIf(o, fl);
    // a level still in the book is never empty (empty levels are removed at once)
    const lv = level !== undefined && level.head !== -1 ? level : this.st.ownSide(us.sym, fl).getOrCreate(this.rows.priceTicks(o));
    const remain = this.rows.remainLots(o);
    this.rows.setShownLots(o, (fl & F_ICEBERG) !== 0 ? Math.min((x as OrderExt).visible, remain) : remain);
    this.link(o, lv);
    this.rows.setFlags(o, fl | F_IN_BOOK);
    this.rows.touch(o, this.st.tNow);
    this.pushActive(us, o);
    if (((fl >> F_TIF_SHIFT) & 3) === TIF_GTT) {
      const ex = x as OrderExt;
      ex.expireAt = this.rows.createdAt(o) + ex.cancelAfter * 1000;
      this.st.gtt.push({ expireAt: ex.expireAt, seq: this.rows.seqAt(o) });
    }
    if (us.user.watched) this.events.emitOrder(this.rows.seqAt(o), us, 'open');
  }

  /** DC on a resting order `m` (queued in `lv`): decrease by d lots (cancelled), cancel it when nothing remains. */
  reduceResting(m: number, lv: Level, d: number): void {
    const remain = this.rows.remainLots(m) - d;
    this.rows.setRemainLots(m, remain);
    this.rows.addCancelledLots(m, d);
    const fl = this.rows.flags(m) | F_CANCEL_EXIST;
    this.rows.setFlags(m, fl);
    this.rows.touch(m, this.st.tNow);
    if (remain === 0) {
      this.unlink(m, lv, false);
      this.finish(m, false);
      return;
    }
    const shown = this.rows.shownLots(m);
    const ns = Math.min(shown, remain);
    this.rows.setShownLots(m, ns);
    const us = this.st.usOf(m);
    const s = us.sym;
    if ((fl & F_HIDDEN) === 0 && ns !== shown) {
      lv.size -= shown - ns;
      s.sequence++;
      if (s.watched) this.events.emitLevel(s, lv);
    }
    this.ledger.reholdLimit(m);
    if (us.user.watched) {
      const seq = this.rows.seqAt(m);
      this.events.emitOrder(seq, us, 'update', remain + d);
      this.events.emitHold(us, seq, (fl & F_SELL) !== 0);
    }
  }

  /**
   * Cancel an active order (user cancel, STP, GTT expiry); `lv`: its level when the caller knows it.
   * FAST PATH: mirrors {@link cancelCanonical} = unlink(o, lv, false) + finish(o, true) for a resting order
   * without an OrderExt whose hold is on the Number path (the common cancel), in one body; anything else goes
   * to cancelCanonical.
   */
  cancelResting(o: number, lv?: Level): void {
    // the row is read and written directly (not through the OrderRows accessors): in this body the accessors'
    // inlining would use up V8's inlining budget, and LevelIndex.delete / BookSide.remove would be calls
    const lf = this.rows.lf;
    const li = this.rows.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const fl = li[j + LI_FLAGS];
    const h = lf[k + LF_HOLDN];
    if (!this.fastPaths || (fl & (F_IN_BOOK | F_EXT)) !== F_IN_BOOK || h < 0) {
      this.cancelCanonical(o, lv);
      return;
    }
    const now = this.st.tNow;
    const us = this.st.usList[li[j + LI_US]];
    // unlink(), written out: called from here it is not inlined
    const s = us.sym;
    const side = (fl & F_SELL) === 0 ? s.bids : s.asks;
    const level = lv ?? (side.map.get(lf[k + LF_TICKS]) as Level);
    const prev = li[j + LI_PREV];
    const next = li[j + LI_NEXT];
    if (prev !== -1) li[prev * LI_STRIDE + LI_NEXT] = next;
    else level.head = next;
    if (next !== -1) li[next * LI_STRIDE + LI_PREV] = prev;
    else level.tail = prev;
    const shown = lf[k + LF_SHOWN];
    if ((fl & F_HIDDEN) === 0 && shown > 0) {
      level.size -= shown;
      s.sequence++;
      if (s.watched) this.events.emitLevel(s, level);
    }
    li[j + LI_PREV] = -1;
    li[j + LI_NEXT] = -1;
    if (level.head === -1) side.remove(level);
    // finish(o, true) for an order with a Number-path hold and no OrderExt
    const remain = lf[k + LF_REMAIN];
    if (remain > 0) {
      lf[k + LF_CANC] += remain;
      lf[k + LF_REMAIN] = 0;
    }
    ((fl & F_SELL) === 0 ? (us.qAcc as Acc) : (us.bAcc as Acc)).addHoldsN(-h);
    lf[k + LF_HOLDN] = -1;
    // dropActive(), written out: in this body it is not inlined (the inlining budget)
    const ap = li[j + LI_APREV];
    const an = li[j + LI_ANEXT];
    if (ap !== -1) li[ap * LI_STRIDE + LI_ANEXT] = an;
    else us.head = an;
    if (an !== -1) li[an * LI_STRIDE + LI_APREV] = ap;
    const done = (remain > 0 ? fl | F_CANCEL_EXIST : fl) & ~(F_ACTIVE | F_IN_BOOK);
    li[j + LI_FLAGS] = done;
    lf[k + LF_SHOWN] = 0;
    lf[k + LF_UPDATED] = now;
    const seq = lf[k + LF_SEQ];
    this.st.archive.put(seq, lf, k, done, us, null);
    this.rows.freeSlots.push(o);
    if (us.user.watched) {
      this.events.emitOrder(seq, us, (done & F_CANCEL_EXIST) !== 0 ? 'canceled' : 'filled');
      this.events.emitHold(us, seq, (fl & F_SELL) !== 0);
    }
  }

  /**
   * Cancel an active order (user cancel, STP, GTT expiry); `lv`: its level when the caller knows it.
   * Canonical version; {@link cancelResting} writes the common case (a plain resting order with a Number-path
   * hold) out in one body.
   */
  private cancelCanonical(o: number, lv?: Level): void {
    if ((this.rows.flags(o) & F_IN_BOOK) !== 0) this.unlink(o, lv ?? (this.st.levelOf(o) as Level), false);
    this.finish(o, true);
  }

  /** Mark done: cancel whatever remains (if cancel), release the remaining hold, move to history. */
  finish(o: number, cancel: boolean): void {
    let fl = this.rows.flags(o);
    const x = this.rows.extIf(o, fl);
    if (this.rows.sizeLots(o) < 0) {
      // funds order: what is left of the funds is cancelled (a market order that stopped is not flagged)
      const ex = x as OrderExt;
      if (ex.remainFunds > 0n) {
        ex.cancelledFunds += ex.remainFunds;
        ex.remainFunds = ZERO;
        if (cancel) fl |= F_CANCEL_EXIST;
      }
      if (cancel) this.rows.setRemainLots(o, 0);
    } else if (cancel) {
      const remain = this.rows.remainLots(o);
      if (remain > 0) {
        this.rows.addCancelledLots(o, remain);
        this.rows.setRemainLots(o, 0);
        fl |= F_CANCEL_EXIST;
      }
    }
    this.rows.setFlags(o, fl);
    this.ledger.releaseHold(o);
    const us = this.st.usOf(o);
    if ((fl & F_IN_BOOK) !== 0) this.dropActive(us, o);
    fl &= ~(F_ACTIVE | F_IN_BOOK);
    this.rows.setFlags(o, fl);
    this.rows.setShownLots(o, 0);
    this.rows.touch(o, this.st.tNow);
    // archive the final state and free the slot
    const seq = this.rows.seqAt(o);
    this.st.archive.put(seq, this.rows.lf, o * LF_STRIDE, fl, us, x);
    this.rows.freeSlot(o, x);
    if (us.user.watched) {
      this.events.emitOrder(seq, us, (fl & F_CANCEL_EXIST) !== 0 ? 'canceled' : 'filled');
      this.events.emitHold(us, seq, (fl & F_SELL) !== 0);
    }
  }

  /**
   * Cancel GTT orders with expireAt ≤ now, in (expireAt, seq) order, stamped with their expiry time, and fire
   * the dead-man's switches (CoreState.deadCancels) with triggerAt ≤ now, stamped with their trigger time; both
   * in time order (a GTT expiry before a switch at the same time). First a release pass when one is due
   * (CoreState.releaseHistory). Every command and query starts here.
   */
  expire(now: number): void {
    if (now >= this.st.relAt || this.st.orderSeq >= this.st.relSeq) this.st.releaseHistory(now);
    const h = this.st.gtt;
    for (;;) {
      const e = h.peek();
      const g = e !== undefined && e.expireAt <= now ? e.expireAt : Infinity;
      const d = this.st.deadCancelAt <= now ? this.st.deadCancelAt : Infinity;
      if (g === Infinity && d === Infinity) return;
      if (g <= d) {
        h.pop();
        const o = this.st.liveOf((e as { seq: number }).seq);
        if (o >= 0) {
          this.st.tNow = g;
          this.cancelResting(o);
        }
      } else {
        this.fireDeadCancels(d);
      }
    }
  }

  /**
   * Fire the dead-man's switches due at `t` (users in creation order): each cancels its user's active orders
   * on its symbols (every symbol when it names none), stamped `t`, and is gone afterwards (set it again to
   * re-arm it, as KuCoin's docs describe renewal).
   */
  private fireDeadCancels(t: number): void {
    const due: [User, DeadCancel][] = [];
    for (const [u, dc] of this.st.deadCancels) if (dc.triggerAt === t) due.push([u, dc]);
    due.sort((a, b) => a[0].idx - b[0].idx);
    this.st.tNow = t;
    for (const [u, dc] of due) {
      this.st.deadCancels.delete(u);
      const syms = dc.symbols.length === 0 ? this.st.symList : dc.symbols.map((n) => this.st.syms.get(n)).filter((s): s is Sym => s !== undefined);
      for (const s of syms) {
        const us = u.perSym.get(s);
        if (us === undefined) continue;
        for (const o of this.st.activeSlots(us)) this.cancelResting(o);
      }
    }
    this.st.nextDeadCancel();
  }
}
