/**
 * ═══ FAST PATHS ═══ The exchange core's written-out versions of its most common commands ({@link FastPaths},
 * the layer over Matching). Each does exactly what the canonical code it mirrors does for one common case,
 * in one body (no general steps, no flag decoding, no calls V8 would not inline), and is kept only while the
 * engine benchmark shows it pays; this is the only place where canonical steps are repeated.
 *
 * - cancelResting (the cancel of a plain resting order): stream B (bench/engine.bench.ts, a cancel per
 *   order) runs ~10% faster with it (measured when the core was split into modules: ~3.95M vs ~3.55M
 *   orders/s). Kept.
 * - Retired: `restPlain` (a plain GTC limit order that cannot cross, rested without the general submit/rest/
 *   link steps) no longer measured faster than Matching.submit once the row setup was shared (writeRow):
 *   streams A and B within noise with and without it.
 *
 * Proof that they agree with the canonical code: `new Exchange({ fastPaths: false })` runs the canonical
 * versions instead, and test/unit/exchange/fastpaths.test.ts replays random command streams and the
 * benchmark streams on both engines, comparing every result and the whole observable state.
 */
import type { Level } from './book';
import type { Acc } from './ledger';
import { Matching } from './matching';
import { F_ACTIVE, F_CANCEL_EXIST, F_EXT, F_HIDDEN, F_IN_BOOK, F_SELL, LF_STRIDE, LI_NEXT, LI_PREV, LI_STRIDE } from './rows';

/** Override of cancelResting with its common case written out. */
export abstract class FastPaths extends Matching {
  /**
   * Mirrors Resting.cancelResting = unlink(o, lv, false) + finish(o, true) for a resting order without an
   * OrderExt whose hold is on the Number path (the common cancel). Anything else goes to Resting.cancelResting.
   */
  protected override cancelResting(o: number, lv?: Level): void {
    const fl = this.flags(o);
    const h = this.holdN(o);
    if (!this.fastPaths || (fl & (F_IN_BOOK | F_EXT)) !== F_IN_BOOK || h < 0) {
      super.cancelResting(o, lv);
      return;
    }
    const now = this.tNow;
    const us = this.usOf(o);
    // Resting.unlink(), written out: called from here it is not inlined
    const s = us.sym;
    const side = (fl & F_SELL) === 0 ? s.bids : s.asks;
    const level = lv ?? (side.map.get(this.priceTicks(o)) as Level);
    const li = this.li;
    const j = o * LI_STRIDE;
    const prev = li[j + LI_PREV];
    const next = li[j + LI_NEXT];
    if (prev !== -1) li[prev * LI_STRIDE + LI_NEXT] = next;
    else level.head = next;
    if (next !== -1) li[next * LI_STRIDE + LI_PREV] = prev;
    else level.tail = prev;
    const shown = this.shownLots(o);
    if ((fl & F_HIDDEN) === 0 && shown > 0) {
      level.size -= shown;
      s.sequence++;
      if (s.watched) this.emitLevel(s, level);
    }
    li[j + LI_PREV] = -1;
    li[j + LI_NEXT] = -1;
    if (level.head === -1) side.remove(level);
    // Resting.finish(o, true) for an order with a Number-path hold and no OrderExt
    const remain = this.remainLots(o);
    if (remain > 0) {
      this.addCancelledLots(o, remain);
      this.setRemainLots(o, 0);
    }
    ((fl & F_SELL) === 0 ? (us.qAcc as Acc) : (us.bAcc as Acc)).addHoldsN(-h);
    this.setHoldN(o, -1);
    this.dropActive(us, o);
    const done = (remain > 0 ? fl | F_CANCEL_EXIST : fl) & ~(F_ACTIVE | F_IN_BOOK);
    this.setFlags(o, done);
    this.setShownLots(o, 0);
    this.touch(o, now);
    const seq = this.seqAt(o);
    this.archive.put(seq, this.lf, o * LF_STRIDE, done, us, null);
    this.freeSlots.push(o);
    if (us.user.watched) {
      this.emitOrder(seq, us, (done & F_CANCEL_EXIST) !== 0 ? 'canceled' : 'filled');
      this.emitHold(us, seq, (fl & F_SELL) !== 0);
    }
  }
}
