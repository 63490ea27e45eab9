/**
 * Resting orders of the exchange core ({@link Resting}, the layer over Emitting): a price level's FIFO queue
 * and a user's active-order list (link/unlink, pushActive/dropActive), resting an order, the STP decrease of a
 * resting order, cancelling, finishing an order into the archive, and GTT expiry. These are the canonical
 * versions; fastpaths.ts writes the common cancel out in one body.
 */
import { TIF_GTT, ZERO } from './base';
import type { Level } from './book';
import type { UserSym } from './ledger';
import { Emitting } from './events';
import {
  F_ACTIVE,
  F_CANCEL_EXIST,
  F_HIDDEN,
  F_ICEBERG,
  F_IN_BOOK,
  F_SELL,
  F_TIF_SHIFT,
  LF_STRIDE,
  LI_ANEXT,
  LI_APREV,
  LI_NEXT,
  LI_PREV,
  LI_STRIDE,
  type OrderExt,
} from './rows';

/** Book queues, active lists, rest / cancel / finish, GTT expiry. */
export abstract class Resting extends Emitting {
  /** Put resting order `o` at the head (newest end) of its owner's active-order list. */
  protected pushActive(us: UserSym, o: number): void {
    const li = this.li;
    const head = us.head;
    li[o * LI_STRIDE + LI_ANEXT] = head;
    li[o * LI_STRIDE + LI_APREV] = -1;
    if (head !== -1) li[head * LI_STRIDE + LI_APREV] = o;
    us.head = o;
  }

  /** Take order `o` out of its owner's active-order list. */
  protected dropActive(us: UserSym, o: number): void {
    const li = this.li;
    const ap = li[o * LI_STRIDE + LI_APREV];
    const an = li[o * LI_STRIDE + LI_ANEXT];
    if (ap !== -1) li[ap * LI_STRIDE + LI_ANEXT] = an;
    else us.head = an;
    if (an !== -1) li[an * LI_STRIDE + LI_APREV] = ap;
  }

  /** Append order `o` to the back of level `lv`'s queue. */
  protected link(o: number, lv: Level): void {
    const li = this.li;
    const j = o * LI_STRIDE;
    const tail = lv.tail;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = tail;
    if (tail !== -1) li[tail * LI_STRIDE + LI_NEXT] = o;
    else lv.head = o;
    lv.tail = o;
    // a visible change (a linked order always shows something): one sequence number
    if ((this.flags(o) & F_HIDDEN) === 0) {
      lv.size += this.shownLots(o);
      const s = this.usOf(o).sym;
      s.sequence++;
      if (s.watched) this.emitLevel(s, lv);
    }
  }

  /** Remove order `o` from its level `lv` (and the level from the book when empty, unless keepLevel). */
  protected unlink(o: number, lv: Level, keepLevel: boolean): void {
    const li = this.li;
    const j = o * LI_STRIDE;
    const prev = li[j + LI_PREV];
    const next = li[j + LI_NEXT];
    if (prev !== -1) li[prev * LI_STRIDE + LI_NEXT] = next;
    else lv.head = next;
    if (next !== -1) li[next * LI_STRIDE + LI_PREV] = prev;
    else lv.tail = prev;
    const fl = this.flags(o);
    const s = this.usOf(o).sym;
    const shown = this.shownLots(o);
    // a visible change only when a visible order still showed lots (not after its last fill, not hidden)
    if ((fl & F_HIDDEN) === 0 && shown > 0) {
      lv.size -= shown;
      s.sequence++;
      if (s.watched) this.emitLevel(s, lv);
    }
    li[j + LI_PREV] = -1;
    li[j + LI_NEXT] = -1;
    if (lv.head === -1 && !keepLevel) this.ownSide(s, fl).remove(lv);
  }

  /** Rest a limit order in the book (`level`: its price level when already known to exist). */
  protected rest(o: number, level: Level | undefined): void {
    const fl = this.flags(o);
    const us = this.usOf(o);
    const x = this.extIf(o, fl);
    // a level still in the book is never empty (empty levels are removed at once)
    const lv = level !== undefined && level.head !== -1 ? level : this.ownSide(us.sym, fl).getOrCreate(this.priceTicks(o));
    const remain = this.remainLots(o);
    this.setShownLots(o, (fl & F_ICEBERG) !== 0 ? Math.min((x as OrderExt).visible, remain) : remain);
    this.link(o, lv);
    this.setFlags(o, fl | F_IN_BOOK);
    this.touch(o, this.tNow);
    this.pushActive(us, o);
    if (((fl >> F_TIF_SHIFT) & 3) === TIF_GTT) {
      const ex = x as OrderExt;
      ex.expireAt = this.createdAt(o) + ex.cancelAfter * 1000;
      this.gtt.push({ expireAt: ex.expireAt, seq: this.seqAt(o) });
    }
    if (us.user.watched) this.emitOrder(this.seqAt(o), us, 'open');
  }

  /** DC on a resting order `m` (queued in `lv`): decrease by d lots (cancelled), cancel it when nothing remains. */
  protected reduceResting(m: number, lv: Level, d: number): void {
    const remain = this.remainLots(m) - d;
    this.setRemainLots(m, remain);
    this.addCancelledLots(m, d);
    const fl = this.flags(m) | F_CANCEL_EXIST;
    this.setFlags(m, fl);
    this.touch(m, this.tNow);
    if (remain === 0) {
      this.unlink(m, lv, false);
      this.finish(m, false);
      return;
    }
    const shown = this.shownLots(m);
    const ns = Math.min(shown, remain);
    this.setShownLots(m, ns);
    const us = this.usOf(m);
    const s = us.sym;
    if ((fl & F_HIDDEN) === 0 && ns !== shown) {
      lv.size -= shown - ns;
      s.sequence++;
      if (s.watched) this.emitLevel(s, lv);
    }
    this.reholdLimit(m);
    if (us.user.watched) {
      const seq = this.seqAt(m);
      this.emitOrder(seq, us, 'update', remain + d);
      this.emitHold(us, seq, (fl & F_SELL) !== 0);
    }
  }

  /**
   * Cancel an active order (user cancel, STP, GTT expiry); `lv`: its level when the caller knows it.
   * Canonical version; FastPaths.cancelResting writes the common case (a plain resting order with a
   * Number-path hold) out in one body.
   */
  protected cancelResting(o: number, lv?: Level): void {
    if ((this.flags(o) & F_IN_BOOK) !== 0) this.unlink(o, lv ?? (this.levelOf(o) as Level), false);
    this.finish(o, true);
  }

  /** Mark done: cancel whatever remains (if cancel), release the remaining hold, move to history. */
  protected finish(o: number, cancel: boolean): void {
    let fl = this.flags(o);
    const x = this.extIf(o, fl);
    if (this.sizeLots(o) < 0) {
      // funds order: what is left of the funds is cancelled (a market order that stopped is not flagged)
      const ex = x as OrderExt;
      if (ex.remainFunds > 0n) {
        ex.cancelledFunds += ex.remainFunds;
        ex.remainFunds = ZERO;
        if (cancel) fl |= F_CANCEL_EXIST;
      }
      if (cancel) this.setRemainLots(o, 0);
    } else if (cancel) {
      const remain = this.remainLots(o);
      if (remain > 0) {
        this.addCancelledLots(o, remain);
        this.setRemainLots(o, 0);
        fl |= F_CANCEL_EXIST;
      }
    }
    this.setFlags(o, fl);
    this.releaseHold(o);
    const us = this.usOf(o);
    if ((fl & F_IN_BOOK) !== 0) this.dropActive(us, o);
    fl &= ~(F_ACTIVE | F_IN_BOOK);
    this.setFlags(o, fl);
    this.setShownLots(o, 0);
    this.touch(o, this.tNow);
    // archive the final state and free the slot
    const seq = this.seqAt(o);
    this.archive.put(seq, this.lf, o * LF_STRIDE, fl, us, x);
    this.freeSlot(o, x);
    if (us.user.watched) {
      this.emitOrder(seq, us, (fl & F_CANCEL_EXIST) !== 0 ? 'canceled' : 'filled');
      this.emitHold(us, seq, (fl & F_SELL) !== 0);
    }
  }

  /**
   * Cancel GTT orders with expireAt ≤ now, in (expireAt, seq) order, stamped with their expiry time; first a
   * release pass when one is due (CoreState.releaseHistory). Every command and query starts here.
   */
  protected expire(now: number): void {
    if (now >= this.relAt || this.orderSeq >= this.relSeq) this.releaseHistory(now);
    const h = this.gtt;
    for (let e = h.peek(); e !== undefined && e.expireAt <= now; e = h.peek()) {
      h.pop();
      const o = this.liveOf(e.seq);
      if (o >= 0) {
        this.tNow = e.expireAt;
        this.cancelResting(o);
      }
    }
  }
}
