/**
 * Matching of the exchange core ({@link Matching}, the layer over Resting): an order is created with its
 * hold, matched in price-time priority against the opposite side (FOK check, post-only check, STP), each
 * fill settled (balances, fees, holds, fill record, trade tape), and its remainder rested or cancelled.
 * The readable statement of these rules is the naive model, test/unit/exchange/model.ts.
 */
import { BUY, STP_CB, STP_CN, STP_CO, STP_NONE, TIF_FOK, TIF_GTC, TIF_GTT, ZERO } from './base';
import { TAPE_MAX, TAPE_STRIDE, type Level } from './book';
import { FS_FORCE, FS_MAKER, FS_MARKET } from './fillstore';
import { Resting } from './resting';
import {
  F_ACTIVE,
  F_CANCEL_EXIST,
  F_EXT,
  F_HIDDEN,
  F_ICEBERG,
  F_MARKET,
  F_POST,
  F_SELL,
  F_STP_SHIFT,
  F_TIF_SHIFT,
  OrderExt,
  type Parsed,
} from './rows';
import { tradeView } from './views';

/** submit → match → fill; the FOK and post-only checks. */
export abstract class Matching extends Resting {
  /** Create the order, take its hold, match, then rest / cancel the remainder. Returns the order's seq. */
  protected submit(p: Parsed): number {
    const now = this.tNow;
    const u = p.user;
    const s = p.sym;
    const seq = ++this.orderSeq;
    const o = this.allocSlot();
    this.archive.add(seq, o);
    const r = s.rules;
    const acc = p.acc ?? this.wallet(u, p.side === BUY ? r.quoteCurrency : r.baseCurrency).trade;
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
    this.writeRow(o, seq, p.ticks, p.lots, 0, p.holdN >= 0 ? p.holdN : -1, now, fl, us.idx, u.taker.id, u.maker.id);
    const plain = p.lots > 0 && p.cancelAfter === 0 && p.visible === 0 && p.clientOid === '' && p.remark === '' && p.tags === '';
    // lx[o] is null here (freed slots are cleared)
    if (!plain) {
      this.lx[o] = new OrderExt(p);
      this.setFlags(o, fl | F_EXT);
    }
    if (p.clientOid !== '') u.byClientOid.set(p.clientOid, seq);
    if (p.holdN >= 0) {
      acc.addHoldsN(p.holdN);
    } else {
      if (p.hold !== ZERO) this.ext(o).hold = p.hold;
      acc.addHoldsBig(p.hold);
    }
    if (u.watched) {
      this.emitOrder(seq, us, 'received');
      this.emitHold(us, seq, p.side !== BUY);
    }
    // a limit order that cannot cross the opposite best level does not match (its remainder rests, except a
    // FOK, which is then not fillable); the best level may be hidden-only: it still crosses
    const ob = p.side === BUY ? s.asks.best() : s.bids.best();
    const mayRest =
      p.market || (ob !== undefined && (p.side === BUY ? ob.ticks <= p.ticks : ob.ticks >= p.ticks)) ? this.match(o) : p.tif !== TIF_FOK;
    const tif = (fl >> F_TIF_SHIFT) & 3;
    if (mayRest && this.remainLots(o) > 0 && !p.market && (tif === TIF_GTC || tif === TIF_GTT)) {
      this.rest(o, level);
    } else {
      this.finish(o, true);
    }
    return seq;
  }

  /** Would a post-only order cross any ordinary (not hidden, not iceberg) resting order? */
  protected postOnlyBlocked(o: number): boolean {
    const fl = this.flags(o);
    const isBuy = (fl & F_SELL) === 0;
    const ticks = this.priceTicks(o);
    const s = this.usOf(o).sym;
    const opp = isBuy ? s.asks : s.bids;
    for (let i = opp.count - 1; i >= 0; i--) {
      const lv = opp.at(i) as Level;
      if (isBuy ? lv.ticks > ticks : lv.ticks < ticks) return false;
      for (let m = lv.head; m !== -1; m = this.nextInLevel(m)) {
        if ((this.flags(m) & (F_HIDDEN | F_ICEBERG)) === 0) return true;
      }
    }
    return false;
  }

  /** FOK: can the whole size be filled now (see module doc for STP)? */
  protected fokFillable(o: number): boolean {
    const fl = this.flags(o);
    const isBuy = (fl & F_SELL) === 0;
    const stp = (fl >> F_STP_SHIFT) & 7;
    const own = this.usIdx(o);
    const ticks = this.priceTicks(o);
    const opp = isBuy ? this.usList[own].sym.asks : this.usList[own].sym.bids;
    let need = this.remainLots(o);
    for (let i = opp.count - 1; i >= 0; i--) {
      const lv = opp.at(i) as Level;
      if (isBuy ? lv.ticks > ticks : lv.ticks < ticks) return false;
      for (let m = lv.head; m !== -1; m = this.nextInLevel(m)) {
        // same UserSym ⇔ same user (the maker is on the same symbol)
        if (stp !== STP_NONE && this.usIdx(m) === own) {
          if (stp === STP_CO) continue;
          return false;
        }
        need -= this.remainLots(m);
        if (need <= 0) return true;
      }
    }
    return false;
  }

  /** Match the incoming order against the opposite side. Returns false when its remainder must be
   * cancelled whatever its time in force (FOK not fillable, post-only blocked, STP CN/CB). */
  protected match(o: number): boolean {
    const fo = this.flags(o);
    const own = this.usIdx(o);
    const s = this.usList[own].sym;
    const isBuy = (fo & F_SELL) === 0;
    const market = (fo & F_MARKET) !== 0;
    const byFunds = this.sizeLots(o) < 0;
    const stp = (fo >> F_STP_SHIFT) & 7;
    const ticks = this.priceTicks(o);
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
        if (stp !== STP_NONE && this.usIdx(m) === own) {
          if (stp === STP_CN) {
            return false; // taker remainder cancelled by caller
          } else if (stp === STP_CO) {
            this.cancelResting(m, lv);
            continue;
          } else if (stp === STP_CB) {
            this.cancelResting(m, lv);
            return false;
          } else {
            // DC: decrease both by the smaller remaining size; the one reaching 0 is cancelled
            const remain = this.remainLots(o);
            const d = Math.min(remain, this.remainLots(m));
            this.setRemainLots(o, remain - d);
            this.addCancelledLots(o, d);
            this.setFlags(o, this.flags(o) | F_CANCEL_EXIST);
            if (!market) this.reholdLimit(o);
            const us = this.usList[own];
            if (us.user.watched) {
              const seq = this.seqAt(o);
              this.emitOrder(seq, us, 'update', remain);
              this.emitHold(us, seq, !isBuy);
            }
            this.reduceResting(m, lv, d);
            if (this.remainLots(o) === 0) return true;
            continue;
          }
        }
        const shown = this.shownLots(m);
        let qty: number;
        if (byFunds) {
          const x = this.lx[o] as OrderExt;
          const can = x.remainFunds / perLot;
          if (can === ZERO) return true;
          qty = can < BigInt(shown) ? Number(can) : shown;
          if (!isBuy) {
            const holdLots = x.hold / s.lotUnits;
            if (holdLots < BigInt(qty)) qty = Number(holdLots);
            if (qty === 0) return true;
          }
        } else {
          const remain = this.remainLots(o);
          qty = remain < shown ? remain : shown;
        }
        this.fill(o, m, lv, qty);
        if (byFunds ? (this.lx[o] as OrderExt).remainFunds === ZERO : this.remainLots(o) === 0) return true;
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
  protected fill(o: number, m: number, lv: Level, qty: number): void {
    const now = this.tNow;
    const fo = this.flags(o);
    const fm = this.flags(m);
    const ous = this.usOf(o);
    const mus = this.usOf(m);
    const s = ous.sym;
    const ticks = lv.ticks;
    // fee roles: a post-only taker pays the maker rate, a hidden / iceberg maker the taker rate
    const mForce = (fm & (F_HIDDEN | F_ICEBERG)) !== 0;
    const rates = this.rates.objs;
    const oRate = rates[(fo & F_POST) !== 0 ? this.makerRateId(o) : this.takerRateId(o)];
    const mRate = rates[mForce ? this.takerRateId(m) : this.makerRateId(m)];
    const isBuy = (fo & F_SELL) === 0;
    const bus = isBuy ? ous : mus;
    const sus = isBuy ? mus : ous;
    const bq = bus.qAcc ?? this.tradeAccOf(bus, true);
    const bb = bus.bAcc ?? this.tradeAccOf(bus, false);
    const sq = sus.qAcc ?? this.tradeAccOf(sus, true);
    const sb = sus.bAcc ?? this.tradeAccOf(sus, false);
    const oMarket = (fo & F_MARKET) !== 0;
    const oFunds = this.sizeLots(o) < 0;
    const fq = this.costQ(s, ticks, qty);
    const ofq = fq >= 0 ? this.feeQ(s, oRate, fq, false) : -1;
    const mfq = fq >= 0 ? this.feeQ(s, mRate, fq, false) : -1;
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
      this.addDealN(o, s, fq, ofq);
      this.addDealN(m, s, fq, mfq);
      const bFee = isBuy ? ofq : mfq;
      const sFee = isBuy ? mfq : ofq;
      this.addQuoteN(bq, s, -fq, -bFee);
      this.addQuoteN(sq, s, fq, -sFee);
      this.addBaseN(bb, s, qty);
      this.addBaseN(sb, s, -qty);
      this.addFeesN(s, bFee, sFee);
      if (oFunds || oMarket) {
        // funds orders and market holds work in BigInt (only the incoming order can be a market order)
        funds = BigInt(fq) * s.qFactor;
        oFee = BigInt(ofq) * s.qFactor;
        mFee = BigInt(mfq) * s.qFactor;
      }
    } else {
      funds = BigInt(ticks) * BigInt(qty) * s.unitFunds;
      oFee = this.truncFee(s, oRate, funds);
      mFee = this.truncFee(s, mRate, funds);
      const bFee = isBuy ? oFee : mFee;
      const sFee = isBuy ? mFee : oFee;
      const baseAmt = BigInt(qty) * s.lotUnits;
      const ox = this.ext(o);
      const mx = this.ext(m);
      ox.dealB += funds;
      mx.dealB += funds;
      ox.feeB += oFee;
      mx.feeB += mFee;
      bq.addBalance(-(funds + bFee));
      bb.addBalance(baseAmt);
      sb.addBalance(-baseAmt);
      sq.addBalance(funds - sFee);
      this.addFeesBig(s.rules.quoteCurrency, bFee + sFee);
    }
    // order state: the taker's remaining lots (a funds order: its remaining funds) and the maker's remaining
    // and shown lots go down; the level's visible size with a visible maker's
    if (oFunds) {
      this.addDealtLots(o, qty, now);
      (this.lx[o] as OrderExt).remainFunds -= funds;
    } else {
      this.addFilledLots(o, qty, now);
    }
    this.addFilledLots(m, qty, now);
    this.setShownLots(m, this.shownLots(m) - qty);
    if ((fm & F_HIDDEN) === 0) {
      lv.size -= qty;
      s.sequence++;
      if (s.watched) this.emitLevel(s, lv);
    }
    // holds (the maker is a resting limit order; a limit order with nothing left is done: its hold is
    // released whole, no recomputation)
    if (oMarket) {
      this.consumeHold(o, isBuy ? bq : sb, isBuy ? funds + oFee : BigInt(qty) * s.lotUnits);
    } else if (this.remainLots(o) === 0) {
      this.releaseHold(o);
    } else {
      this.reholdLimit(o);
    }
    const mRemain = this.remainLots(m);
    if (mRemain === 0) this.releaseHold(m);
    else this.reholdLimit(m);
    // records: the trade is the (fillSeq / 2)-th, its fills 2k+1 (taker) and 2k+2 (maker); it is recorded only
    // when a side's owner keeps history, and each such user's fills are chained newest first (taker's fill,
    // then maker's: a self-trade lists both)
    const tradeId = ++s.tradeSeq;
    const k = this.fillSeq / 2;
    this.fillSeq += 2;
    const ou = ous.user;
    const mu = mus.user;
    if (ou.keepHistory || mu.keepHistory) {
      const fs = this.fillStore;
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
        this.seqAt(o),
        this.seqAt(m),
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
    const oSeq = this.seqAt(o);
    const mSeq = this.seqAt(m);
    if (s.watched) this.emitTrade(s, tradeId, ticks, qty, (fo & F_SELL) !== 0, oSeq, mSeq, ou, mu);
    if (ou.watched || mu.watched) {
      const oFeeBig = fast ? BigInt(ofq) * s.qFactor : oFee;
      const mFeeBig = fast ? BigInt(mfq) * s.qFactor : mFee;
      if (ou.watched) this.emitOrder(oSeq, ous, 'match', -1, { ticks, lots: qty, tradeId, maker: false, fee: oFeeBig });
      if (mu.watched) this.emitOrder(mSeq, mus, 'match', -1, { ticks, lots: qty, tradeId, maker: true, fee: mFeeBig });
      if (ou.watched) this.emitSettled(ous, oSeq, tradeId);
      if (mu.watched) this.emitSettled(mus, mSeq, tradeId);
    }
    // maker bookkeeping
    if (mRemain === 0) {
      this.unlink(m, lv, false);
      this.finish(m, false);
    } else if (this.shownLots(m) === 0) {
      // iceberg refill: new tranche to the back of the level's queue
      this.unlink(m, lv, true);
      this.setShownLots(m, Math.min((this.lx[m] as OrderExt).visible, mRemain));
      this.link(m, lv);
    }
  }
}
