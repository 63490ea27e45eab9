/**
 * The matching engine of the exchange core ({@link Matcher}): an order is created with its hold, matched in
 * price-time priority against the opposite side (FOK check, post-only check, STP), each fill settled
 * (balances, fees, holds, fill record, trade tape), and its remainder rested (OrderBook) or cancelled.
 * The readable statement of these rules is the naive model, test/unit/exchange/model.ts. Fast path:
 * {@link Matcher.submit} rests a plain limit order that cannot cross in one body ({@link Matcher.restPlain}),
 * next to its canonical version {@link Matcher.submitCanonical} (docs/engine.md, "Fast paths").
 */
import { BUY, STP_CB, STP_CN, STP_CO, STP_NONE, TIF_FOK, TIF_GTC, TIF_GTT, ZERO } from './base';
import { TAPE_MAX, TAPE_STRIDE, type Level } from './book';
import { FS_FORCE, FS_MAKER, FS_MARKET } from './fillstore';
import type { Acc } from './accounts';
import type { EventPublisher } from './events';
import type { Ledger } from './ledger';
import type { OrderBook } from './orderbook';
import {
  F_ACTIVE,
  F_CANCEL_EXIST,
  F_EXT,
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
  LF_HOLDN,
  LF_LOTS,
  LF_REMAIN,
  LF_SEQ,
  LF_SHOWN,
  LF_STRIDE,
  LF_TICKS,
  LF_UPDATED,
  LI_FLAGS,
  LI_MAKER,
  LI_NEXT,
  LI_PREV,
  LI_STRIDE,
  LI_TAKER,
  LI_US,
  OrderExt,
  type OrderRows,
  type Parsed,
} from './rows';
import type { CoreState } from './state';
import type { PublicTrade } from './types';
import { tradeView } from './views';

/** submit → match → fill; the FOK and post-only checks. */
export class Matcher {
  /** listeners of every trade (Exchange.onTrade) */
  readonly tradeListeners: ((t: PublicTrade) => void)[] = [];
  private declare readonly rows: OrderRows;
  /** CoreState.fastPaths, copied */
  private declare readonly fastPaths: boolean;

  private declare readonly st: CoreState;
  private declare readonly ledger: Ledger;
  private declare readonly events: EventPublisher;
  private declare readonly book: OrderBook;

  constructor(st: CoreState, ledger: Ledger, events: EventPublisher, book: OrderBook) {
    this.st = st;
    this.ledger = ledger;
    this.events = events;
    this.book = book;
    this.rows = st.rows;
    this.fastPaths = st.fastPaths;
  }

  /**
   * Create the order, take its hold, match, then rest / cancel the remainder. Returns the order's seq.
   * FAST PATH: a plain GTC limit order (no OrderExt fields, not post-only / hidden / iceberg, hold on the
   * Number path) that cannot cross the opposite best level rests at once ({@link restPlain}); anything else
   * goes to {@link submitCanonical}.
   */
  submit(p: Parsed): number {
    if (
      this.fastPaths &&
      p.holdN >= 0 &&
      p.acc !== null &&
      !p.market &&
      p.tif === TIF_GTC &&
      !p.postOnly &&
      !p.hidden &&
      !p.iceberg &&
      p.clientOid === '' &&
      p.remark === '' &&
      p.tags === ''
    ) {
      const s = p.sym;
      const ob = p.side === BUY ? s.asks.best() : s.bids.best();
      if (ob === undefined || (p.side === BUY ? ob.ticks > p.ticks : ob.ticks < p.ticks)) return this.restPlain(p);
    }
    return this.submitCanonical(p);
  }

  /** The body of the plain-order case of {@link submit}. Returns the order's seq. */
  private restPlain(p: Parsed): number {
    const now = this.st.tNow;
    const u = p.user;
    const s = p.sym;
    const side = p.side;
    const lots = p.lots;
    const n = p.holdN;
    const acc = p.acc as Acc;
    const known = p.level;
    p.acc = null;
    p.level = undefined;
    const us = u.us(s);
    // checkLimitAndHold has cached it there already, except for a user without a record index
    if (side === BUY) {
      if (us.qAcc !== acc) us.qAcc = acc;
    } else if (us.bAcc !== acc) us.bAcc = acc;
    const seq = ++this.st.orderSeq;
    const o = this.rows.allocSlot();
    this.st.archive.add(seq, o);
    // submitCanonical's row (OrderRows.writeRow) and OrderBook.rest's shown lots and F_IN_BOOK, written out
    const lf = this.rows.lf;
    const li = this.rows.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    lf[k + LF_TICKS] = p.ticks;
    lf[k + LF_LOTS] = lots;
    lf[k + LF_REMAIN] = lots;
    lf[k + LF_SHOWN] = lots;
    lf[k + LF_DEAL] = 0;
    lf[k + LF_CANC] = 0;
    lf[k + LF_HOLDN] = n;
    lf[k + LF_DEALN] = 0;
    lf[k + LF_FEEN] = 0;
    lf[k + LF_CREATED] = now;
    lf[k + LF_UPDATED] = now;
    lf[k + LF_SEQ] = seq;
    li[j + LI_FLAGS] = side | (p.stp << F_STP_SHIFT) | F_ACTIVE | F_IN_BOOK;
    li[j + LI_US] = us.idx;
    li[j + LI_TAKER] = u.taker.id;
    li[j + LI_MAKER] = u.maker.id;
    acc.addHoldsN(n);
    if (u.watched) {
      this.events.emitOrder(seq, us, 'received');
      this.events.emitHold(us, seq, side !== BUY);
    }
    // OrderBook.link(), written out: called from here it is not inlined. A level still in the book is never
    // empty (empty levels are removed at once); the order is neither hidden nor an iceberg, so its whole size
    // is shown: a visible change.
    const lv = known !== undefined && known.head !== -1 ? known : (side === BUY ? s.bids : s.asks).getOrCreate(p.ticks);
    const tail = lv.tail;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = tail;
    if (tail !== -1) li[tail * LI_STRIDE + LI_NEXT] = o;
    else lv.head = o;
    lv.tail = o;
    lv.size += lots;
    s.sequence++;
    if (s.watched) this.events.emitLevel(s, lv);
    this.book.pushActive(us, o);
    if (u.watched) this.events.emitOrder(seq, us, 'open');
    return seq;
  }

  /** Create the order, take its hold, match, then rest / cancel the remainder. Returns the order's seq.
   * Canonical version of {@link submit}. */
  private submitCanonical(p: Parsed): number {
    const now = this.st.tNow;
    const u = p.user;
    const s = p.sym;
    const seq = ++this.st.orderSeq;
    const o = this.rows.allocSlot();
    this.st.archive.add(seq, o);
    const r = s.rules;
    const acc = p.acc ?? this.st.wallet(u, p.side === BUY ? r.quoteCurrency : r.baseCurrency).trade;
    const level = p.level;
    p.acc = null;
    p.level = undefined;
    const us = u.us(s);
    // the hold's trade account is read through the owner's record (see accOf)
    if (p.side === BUY) us.qAcc = acc;
    else us.bAcc = acc;
    const fl =
      p.side |
      (p.market ? F_MARKET : 0) |
      (p.tif << F_TIF_SHIFT) |
      (p.postOnly ? F_POST : 0) |
      (p.hidden ? F_HIDDEN : 0) |
      (p.iceberg ? F_ICEBERG : 0) |
      (p.stp << F_STP_SHIFT) |
      F_ACTIVE;
    this.rows.writeRow(o, seq, p.ticks, p.lots, 0, p.holdN >= 0 ? p.holdN : -1, now, fl, us.idx, u.taker.id, u.maker.id);
    const plain = p.lots > 0 && p.cancelAfter === 0 && p.visible === 0 && p.clientOid === '' && p.remark === '' && p.tags === '';
    // lx[o] is null here (freed slots are cleared)
    if (!plain) {
      this.rows.lx[o] = new OrderExt(p);
      this.rows.setFlags(o, fl | F_EXT);
    }
    if (p.clientOid !== '') u.byClientOid.set(p.clientOid, seq);
    if (p.holdN >= 0) {
      acc.addHoldsN(p.holdN);
    } else {
      if (p.hold !== ZERO) this.rows.ext(o).hold = p.hold;
      acc.addHoldsBig(p.hold);
    }
    if (u.watched) {
      this.events.emitOrder(seq, us, 'received');
      this.events.emitHold(us, seq, p.side !== BUY);
    }
    // a limit order that cannot cross the opposite best level does not match (its remainder rests, except a
    // FOK, which is then not fillable); the best level may be hidden-only: it still crosses
    const ob = p.side === BUY ? s.asks.best() : s.bids.best();
    const mayRest =
      p.market || (ob !== undefined && (p.side === BUY ? ob.ticks <= p.ticks : ob.ticks >= p.ticks)) ? this.match(o) : p.tif !== TIF_FOK;
    const tif = (fl >> F_TIF_SHIFT) & 3;
    if (mayRest && this.rows.remainLots(o) > 0 && !p.market && (tif === TIF_GTC || tif === TIF_GTT)) {
      this.book.rest(o, level);
    } else {
      this.book.finish(o, true);
    }
    return seq;
  }

  /** Would a post-only order cross any ordinary (not hidden, not iceberg) resting order? */
  private postOnlyBlocked(o: number): boolean {
    const fl = this.rows.flags(o);
    const isBuy = (fl & F_SELL) === 0;
    const ticks = this.rows.priceTicks(o);
    const s = this.st.usOf(o).sym;
    const opp = isBuy ? s.asks : s.bids;
    for (let i = opp.count - 1; i >= 0; i--) {
      const lv = opp.at(i) as Level;
      if (isBuy ? lv.ticks > ticks : lv.ticks < ticks) return false;
      for (let m = lv.head; m !== -1; m = this.rows.nextInLevel(m)) {
        if ((this.rows.flags(m) & (F_HIDDEN | F_ICEBERG)) === 0) return true;
      }
    }
    return false;
  }

  /** FOK: can the whole size be filled now (docs/engine.md, "Documented readings", for STP)? */
  private fokFillable(o: number): boolean {
    const fl = this.rows.flags(o);
    const isBuy = (fl & F_SELL) === 0;
    const stp = (fl >> F_STP_SHIFT) & 7;
    const own = this.rows.usIdx(o);
    const ticks = this.rows.priceTicks(o);
    const opp = isBuy ? this.st.usList[own].sym.asks : this.st.usList[own].sym.bids;
    let need = this.rows.remainLots(o);
    for (let i = opp.count - 1; i >= 0; i--) {
      const lv = opp.at(i) as Level;
      if (isBuy ? lv.ticks > ticks : lv.ticks < ticks) return false;
      for (let m = lv.head; m !== -1; m = this.rows.nextInLevel(m)) {
        // same UserSym ⇔ same user (the maker is on the same symbol)
        if (stp !== STP_NONE && this.rows.usIdx(m) === own) {
          if (stp === STP_CO) continue;
          return false;
        }
        need -= this.rows.remainLots(m);
        if (need <= 0) return true;
      }
    }
    return false;
  }

  /** Match the incoming order against the opposite side. Returns false when its remainder must be
   * cancelled whatever its time in force (FOK not fillable, post-only blocked, STP CN/CB). */
  private match(o: number): boolean {
    const fo = this.rows.flags(o);
    const own = this.rows.usIdx(o);
    const s = this.st.usList[own].sym;
    const isBuy = (fo & F_SELL) === 0;
    const market = (fo & F_MARKET) !== 0;
    const byFunds = this.rows.sizeLots(o) < 0;
    const stp = (fo >> F_STP_SHIFT) & 7;
    const ticks = this.rows.priceTicks(o);
    const opp = isBuy ? s.asks : s.bids;
    if (!market) {
      if (((fo >> F_TIF_SHIFT) & 3) === TIF_FOK && !this.fokFillable(o)) return false;
      if ((fo & F_POST) !== 0 && this.postOnlyBlocked(o)) return false;
    }
    for (;;) {
      const lv = opp.best();
      if (lv === undefined) return true;
      if (!market && (isBuy ? lv.ticks > ticks : lv.ticks < ticks)) return true;
      const perLot = byFunds ? BigInt(lv.ticks) * s.unitFunds : ZERO;
      while (lv.head !== -1) {
        const m = lv.head;
        if (stp !== STP_NONE && this.rows.usIdx(m) === own) {
          if (stp === STP_CN) {
            return false; // taker remainder cancelled by caller
          } else if (stp === STP_CO) {
            this.book.cancelResting(m, lv);
            continue;
          } else if (stp === STP_CB) {
            this.book.cancelResting(m, lv);
            return false;
          } else {
            // DC: decrease both by the smaller remaining size; the one reaching 0 is cancelled
            const remain = this.rows.remainLots(o);
            const d = Math.min(remain, this.rows.remainLots(m));
            this.rows.setRemainLots(o, remain - d);
            this.rows.addCancelledLots(o, d);
            this.rows.setFlags(o, this.rows.flags(o) | F_CANCEL_EXIST);
            if (!market) this.ledger.reholdLimit(o);
            const us = this.st.usList[own];
            if (us.user.watched) {
              const seq = this.rows.seqAt(o);
              this.events.emitOrder(seq, us, 'update', remain);
              this.events.emitHold(us, seq, !isBuy);
            }
            this.book.reduceResting(m, lv, d);
            if (this.rows.remainLots(o) === 0) return true;
            continue;
          }
        }
        const shown = this.rows.shownLots(m);
        let qty: number;
        if (byFunds) {
          const x = this.rows.lx[o] as OrderExt;
          const can = x.remainFunds / perLot;
          if (can === ZERO) return true;
          qty = can < BigInt(shown) ? Number(can) : shown;
          if (!isBuy) {
            const holdLots = x.hold / s.lotUnits;
            if (holdLots < BigInt(qty)) qty = Number(holdLots);
            if (qty === 0) return true;
          }
        } else {
          const remain = this.rows.remainLots(o);
          qty = remain < shown ? remain : shown;
        }
        this.fill(o, m, lv, qty);
        if (byFunds ? (this.rows.lx[o] as OrderExt).remainFunds === ZERO : this.rows.remainLots(o) === 0) return true;
      }
      // level emptied by fills/cancels (removed in unlink)
    }
  }

  /**
   * Settle one fill of `qty` lots at maker `m`'s price between taker `o` and maker `m`.
   * Fast path (funds and both fees exact integers below 2^53 in qs units): order amounts, balances and
   * collected fees are added as Numbers (each accumulator flushes into its BigInt part before it could
   * leave ±(2^53−1)); otherwise everything is computed and added in BigInt. Same values either way.
   */
  private fill(o: number, m: number, lv: Level, qty: number): void {
    // the parts in locals: V8 does not keep every `this.rows` / `this.ledger` … load out of this body
    // (bench engine-instr: 18–33 fewer instructions per order on streams A, B and L)
    const rows = this.rows;
    const st = this.st;
    const ledger = this.ledger;
    const events = this.events;
    const book = this.book;
    const now = st.tNow;
    const fo = rows.flags(o);
    const fm = rows.flags(m);
    const ous = st.usOf(o);
    const mus = st.usOf(m);
    const s = ous.sym;
    const ticks = lv.ticks;
    // fee roles: a post-only taker pays the maker rate, a hidden / iceberg maker the taker rate
    const mForce = (fm & (F_HIDDEN | F_ICEBERG)) !== 0;
    const rates = st.rates.objs;
    const oRate = rates[(fo & F_POST) !== 0 ? rows.makerRateId(o) : rows.takerRateId(o)];
    const mRate = rates[mForce ? rows.takerRateId(m) : rows.makerRateId(m)];
    const isBuy = (fo & F_SELL) === 0;
    const bus = isBuy ? ous : mus;
    const sus = isBuy ? mus : ous;
    const bq = bus.qAcc ?? st.tradeAccOf(bus, true);
    const bb = bus.bAcc ?? st.tradeAccOf(bus, false);
    const sq = sus.qAcc ?? st.tradeAccOf(sus, true);
    const sb = sus.bAcc ?? st.tradeAccOf(sus, false);
    const oMarket = (fo & F_MARKET) !== 0;
    const oFunds = rows.sizeLots(o) < 0;
    const fq = ledger.costQ(s, ticks, qty);
    const ofq = fq >= 0 ? ledger.feeQ(s, oRate, fq, false) : -1;
    const mfq = fq >= 0 ? ledger.feeQ(s, mRate, fq, false) : -1;
    // fill-record values: qs units (fast path) or NaN with the BigInt values in the store's map
    let fundsRec = NaN;
    let oFeeRec = NaN;
    let mFeeRec = NaN;
    let funds = ZERO;
    let oFee = ZERO;
    let mFee = ZERO;
    const fast = fq >= 0 && ofq !== -1 && mfq !== -1;
    if (fast) {
      fundsRec = fq;
      oFeeRec = ofq;
      mFeeRec = mfq;
      ledger.addDealN(o, s, fq, ofq);
      ledger.addDealN(m, s, fq, mfq);
      const bFee = isBuy ? ofq : mfq;
      const sFee = isBuy ? mfq : ofq;
      ledger.addQuoteN(bq, s, -fq, -bFee);
      ledger.addQuoteN(sq, s, fq, -sFee);
      ledger.addBaseN(bb, s, qty);
      ledger.addBaseN(sb, s, -qty);
      ledger.addFeesN(s, bFee, sFee);
      if (oFunds || oMarket) {
        // funds orders and market holds work in BigInt (only the incoming order can be a market order)
        funds = BigInt(fq) * s.qFactor;
        oFee = BigInt(ofq) * s.qFactor;
        mFee = BigInt(mfq) * s.qFactor;
      }
    } else {
      funds = BigInt(ticks) * BigInt(qty) * s.unitFunds;
      oFee = ledger.truncFee(s, oRate, funds);
      mFee = ledger.truncFee(s, mRate, funds);
      const bFee = isBuy ? oFee : mFee;
      const sFee = isBuy ? mFee : oFee;
      const baseAmt = BigInt(qty) * s.lotUnits;
      const ox = rows.ext(o);
      const mx = rows.ext(m);
      ox.dealB += funds;
      mx.dealB += funds;
      ox.feeB += oFee;
      mx.feeB += mFee;
      bq.addBalance(-(funds + bFee));
      bb.addBalance(baseAmt);
      sb.addBalance(-baseAmt);
      sq.addBalance(funds - sFee);
      ledger.addFeesBig(s.rules.quoteCurrency, bFee + sFee);
    }
    // order state: the taker's remaining lots (a funds order: its remaining funds) and the maker's remaining
    // and shown lots go down; the level's visible size with a visible maker's
    if (oFunds) {
      rows.addDealtLots(o, qty, now);
      (rows.lx[o] as OrderExt).remainFunds -= funds;
    } else {
      rows.addFilledLots(o, qty, now);
    }
    rows.addFilledLots(m, qty, now);
    rows.setShownLots(m, rows.shownLots(m) - qty);
    if ((fm & F_HIDDEN) === 0) {
      lv.size -= qty;
      s.sequence++;
      if (s.watched) events.emitLevel(s, lv);
    }
    // holds (the maker is a resting limit order; a limit order with nothing left is done: its hold is
    // released whole, no recomputation)
    if (oMarket) {
      ledger.consumeHold(o, isBuy ? bq : sb, isBuy ? funds + oFee : BigInt(qty) * s.lotUnits);
    } else if (rows.remainLots(o) === 0) {
      ledger.releaseHold(o);
    } else {
      ledger.reholdLimit(o);
    }
    const mRemain = rows.remainLots(m);
    if (mRemain === 0) ledger.releaseHold(m);
    else ledger.reholdLimit(m);
    // records: the trade is the (fillSeq / 2)-th, its fills 2k+1 (taker) and 2k+2 (maker); it is recorded only
    // when a side's owner keeps history, and each such user's fills are chained newest first (taker's fill,
    // then maker's: a self-trade lists both)
    const tradeId = ++s.tradeSeq;
    const k = st.fillSeq / 2;
    st.fillSeq += 2;
    const ou = ous.user;
    const mu = mus.user;
    if (ou.keepHistory || mu.keepHistory) {
      const fs = st.fillStore;
      const pos = fs.count;
      let oPrev = 0;
      let mPrev = 0;
      if (ou.keepHistory) {
        oPrev = ou.lastFill;
        ou.lastFill = 2 * pos + 1;
      }
      if (mu.keepHistory) {
        mPrev = mu.lastFill;
        mu.lastFill = 2 * pos + 2;
      }
      fs.put(
        k,
        s.idx,
        tradeId,
        rows.seqAt(o),
        rows.seqAt(m),
        (fo & F_SELL) | (oMarket ? FS_MARKET : 0),
        (fm & F_SELL) | FS_MAKER | (mForce ? FS_FORCE : 0),
        ticks,
        qty,
        fundsRec,
        oFeeRec,
        mFeeRec,
        oRate.id,
        mRate.id,
        now,
        oPrev,
        mPrev,
      );
      if (!fast) fs.big.set(pos, [funds, oFee, mFee]);
    }
    let tape = s.tape;
    if (tape === null) tape = s.tape = new Float64Array(TAPE_MAX * TAPE_STRIDE);
    const slot = s.tapeCount % TAPE_MAX;
    const t = slot * TAPE_STRIDE;
    tape[t] = tradeId;
    tape[t + 1] = s.sequence; // the sequence of the fill's visible change (the last one when the maker is hidden)
    tape[t + 2] = ticks;
    tape[t + 3] = qty;
    tape[t + 4] = fo & F_SELL;
    tape[t + 5] = now;
    s.tapeCount++;
    if (this.tradeListeners.length > 0) {
      const pt = tradeView(s, slot);
      for (const l of this.tradeListeners.slice()) l(pt);
    }
    const oSeq = rows.seqAt(o);
    const mSeq = rows.seqAt(m);
    if (s.watched) events.emitTrade(s, tradeId, ticks, qty, (fo & F_SELL) !== 0, oSeq, mSeq, ou, mu);
    if (ou.watched || mu.watched) {
      const oFeeBig = fast ? BigInt(ofq) * s.qFactor : oFee;
      const mFeeBig = fast ? BigInt(mfq) * s.qFactor : mFee;
      if (ou.watched) events.emitOrder(oSeq, ous, 'match', -1, { ticks, lots: qty, tradeId, maker: false, fee: oFeeBig });
      if (mu.watched) events.emitOrder(mSeq, mus, 'match', -1, { ticks, lots: qty, tradeId, maker: true, fee: mFeeBig });
      if (ou.watched) events.emitSettled(ous, oSeq, tradeId);
      if (mu.watched) events.emitSettled(mus, mSeq, tradeId);
    }
    // maker bookkeeping
    if (mRemain === 0) {
      book.unlink(m, lv, false);
      book.finish(m, false);
    } else if (rows.shownLots(m) === 0) {
      // iceberg refill: new tranche to the back of the level's queue
      book.unlink(m, lv, true);
      rows.setShownLots(m, Math.min((rows.lx[m] as OrderExt).visible, mRemain));
      book.link(m, lv);
    }
  }
}
