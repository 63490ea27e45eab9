/**
 * Order archive of the exchange core: one 32-byte int32 record per order by seq — its pool slot while it is
 * live, its final state once done — with side maps only for the values that do not fit.
 */
import { CHUNK_BITS, CHUNK_MASK, ZERO, i32, prefaulted, type SideN } from './base';
import type { UserSym } from './ledger';
import {
  F_ARCHIVED,
  F_CANCEL_EXIST,
  F_HIDDEN,
  F_ICEBERG,
  F_MARKET,
  F_POST,
  F_SELL,
  F_STP_SHIFT,
  F_TIF_SHIFT,
  LF_CREATED,
  LF_DEAL,
  LF_DEALN,
  LF_FEEN,
  LF_LOTS,
  LF_TICKS,
  LF_UPDATED,
  type OrderExt,
  type OrderState,
} from './rows';

/**
 * Order record: AR_STRIDE int32 per seq (32 bytes), written when the order is placed (its pool slot) and
 * when it is done (its final state).
 * Live order: [0] pool slot, [5] 0. Done order: [0] ticks [1] sizeLots [2] deal [3] createdAt − the
 * chunk's base time [4] lastUpdatedAt − createdAt [5] AR_DONE | UserSym index << 11 | flags (AR_WIDE set:
 * the numbers of [0]–[4], [6], [7] or the UserSym index did not fit and are in Archive.wide) [6] seq − the
 * previous done seq of the same user and symbol (0: none) [7] 1 + index of [dealN, feeN] in the
 * fill-amount store (0: none). cancelledSize is not stored: a done order has nothing remaining, so it is
 * sizeLots − deal (0 for orders by funds).
 */
const AR_STRIDE = 8;
const AR_WIDE = 1 << 31;
const AR_DONE = 1 << 30;
/** UserSym indexes below this fit the record's meta field (bits 11..29) */
const AR_MAX_US = 1 << 19;

/** Archived fields of orders that have any of them. */
interface ArchivedExt {
  clientOid: string;
  remark: string;
  tags: string;
  visible: number;
  cancelAfter: number;
}

/** A done order's numbers when one of them does not fit the int32 record. */
interface WideRecord {
  ticks: number;
  sizeLots: number;
  deal: number;
  createdAt: number;
  lastUpdatedAt: number;
  /** previous done seq of the same user and symbol, 0 when none */
  prevDone: number;
  dealN: number;
  feeN: number;
  /** index of the owner's UserSym */
  usIdx: number;
}

/**
 * Order archive: one int32 record per seq (32 bytes per order, plus 16 for one with fills on the Number
 * path; no per-order objects for the garbage collector to trace). While an order is live its record holds
 * its pool slot (seq → slot, so no separate index); when it is done, its final state. BigInt amounts,
 * strings and out-of-range numbers only for the orders that have them. The done orders of one user and
 * symbol are chained newest first (Archive.lastDone, then [6]).
 */
export class Archive {
  /** chunks of CHUNK orders: no copying as the history grows */
  private readonly recC: Int32Array[] = [];
  /** per chunk: createdAt of the first order archived in it (NaN until then) */
  private readonly baseC: number[] = [];
  /** [dealN, feeN] (qs units) of archived orders with fills on the Number path, in chunks of CHUNK pairs */
  private readonly fillAmtC: Float64Array[] = [];
  private fillAmts = 0;
  /** highest seq with a record (seqs 1..count exist) */
  count = 0;
  /** per UserSym index: seq of its most recently archived done order (0: none); a typed array rather than a
   * UserSym field, measurably cheaper to update on every done order */
  private lastDoneOf: Float64Array = new Float64Array(64);
  /** seq → [funds, dealFunds, cancelledFunds, fee] when any is non-zero (funds orders, filled orders) */
  readonly big = new Map<number, bigint[]>();
  /** seq → clientOid, remark, tags, visible, cancelAfter when any is set */
  readonly ext = new Map<number, ArchivedExt>();
  /** seq → numbers of records flagged AR_WIDE */
  readonly wide = new Map<number, WideRecord>();

  /** Record a new live order: seq (= count + 1) is in pool slot `slot`. */
  add(seq: number, slot: number): void {
    const c = seq >>> CHUNK_BITS;
    if (c >= this.recC.length) {
      this.recC.push(prefaulted(new Int32Array(AR_STRIDE << CHUNK_BITS)));
      this.baseC.push(NaN);
    }
    this.count = seq;
    const rec = this.recC[c];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    rec[r] = slot;
    rec[r + 5] = 0;
  }

  /** The pool slot of a live order's seq, -1 when done or unknown (any number is accepted). */
  slotOf(seq: number): number {
    if (!(seq >= 1 && seq <= this.count) || Math.floor(seq) !== seq) return -1;
    const rec = this.recC[seq >>> CHUNK_BITS];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    return rec[r + 5] === 0 ? rec[r] : -1;
  }

  /** True when `seq` (any number) is a done order whose record is kept. */
  hasDone(seq: number): boolean {
    if (!(seq >= 1 && seq <= this.count) || Math.floor(seq) !== seq) return false;
    return this.recC[seq >>> CHUNK_BITS][(seq & CHUNK_MASK) * AR_STRIDE + 5] !== 0;
  }

  /** Archive the final state of the live order in row `k` of `lf` (flags, owner record and ext given). */
  put(seq: number, lf: Float64Array, k: number, flags: number, us: UserSym, x: OrderExt | null): void {
    const c = seq >>> CHUNK_BITS;
    const rec = this.recC[c];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    const created = lf[k + LF_CREATED];
    let base = this.baseC[c];
    if (base !== base) base = this.baseC[c] = created;
    const ticks = lf[k + LF_TICKS];
    const lots = lf[k + LF_LOTS];
    const deal = lf[k + LF_DEAL];
    const updated = lf[k + LF_UPDATED];
    let last: Float64Array = this.lastDoneOf;
    if (us.idx >= last.length) last = this.growLastDone(us.idx);
    const prev = last[us.idx];
    last[us.idx] = seq;
    // dealFunds and fee are non-zero only after a fill (deal > 0), funds/cancelledFunds only for funds orders;
    // size orders whose amounts are all on the Number path keep them as Numbers (qs units)
    let dealN = 0;
    let feeN = 0;
    if (deal > 0 || lots < 0) {
      const dn = lf[k + LF_DEALN];
      const fn = lf[k + LF_FEEN];
      if (lots >= 0 && (x === null || (x.dealB === ZERO && x.feeB === ZERO))) {
        dealN = dn;
        feeN = fn;
      } else {
        const qf = us.sym.qFactor;
        const dealB = x === null ? ZERO : x.dealB;
        const feeB = x === null ? ZERO : x.feeB;
        this.big.set(seq, [
          x === null ? -1n : x.funds,
          dn === 0 ? dealB : dealB + BigInt(dn) * qf,
          x === null ? ZERO : x.cancelledFunds,
          fn === 0 ? feeB : feeB + BigInt(fn) * qf,
        ]);
      }
    }
    const dc = created - base;
    const du = updated - created;
    const dp = prev === 0 ? 0 : seq - prev;
    let meta = AR_DONE | (flags & F_ARCHIVED);
    if (us.idx < AR_MAX_US && i32(ticks) && i32(lots) && i32(deal) && i32(dc) && i32(du) && i32(dp)) {
      meta |= us.idx << 11;
      rec[r] = ticks;
      rec[r + 1] = lots;
      rec[r + 2] = deal;
      rec[r + 3] = dc;
      rec[r + 4] = du;
      rec[r + 6] = dp;
      if (dealN !== 0 || feeN !== 0) {
        const i = this.fillAmts++;
        if (i >>> CHUNK_BITS >= this.fillAmtC.length) this.fillAmtC.push(prefaulted(new Float64Array(2 << CHUNK_BITS)));
        const a = this.fillAmtC[i >>> CHUNK_BITS];
        a[(i & CHUNK_MASK) * 2] = dealN;
        a[(i & CHUNK_MASK) * 2 + 1] = feeN;
        rec[r + 7] = i + 1;
      } else {
        rec[r + 7] = 0;
      }
    } else {
      meta |= AR_WIDE;
      this.wide.set(seq, { ticks, sizeLots: lots, deal, createdAt: created, lastUpdatedAt: updated, prevDone: prev, dealN, feeN, usIdx: us.idx });
    }
    rec[r + 5] = meta;
    if (x !== null && (x.clientOid !== '' || x.remark !== '' || x.tags !== '' || x.visible !== 0 || x.cancelAfter !== 0)) {
      this.ext.set(seq, { clientOid: x.clientOid, remark: x.remark, tags: x.tags, visible: x.visible, cancelAfter: x.cancelAfter });
    }
  }

  /** Seq of the most recently archived done order of a UserSym (by index; 0: none). */
  lastDone(usIdx: number): number {
    return usIdx < this.lastDoneOf.length ? this.lastDoneOf[usIdx] : 0;
  }

  private growLastDone(usIdx: number): Float64Array {
    const a = new Float64Array(Math.max(usIdx + 1, this.lastDoneOf.length * 2));
    a.set(this.lastDoneOf);
    this.lastDoneOf = a;
    return a;
  }

  /** Index of the owner's UserSym of a done order. */
  usIdx(seq: number): number {
    const meta = this.recC[seq >>> CHUNK_BITS][(seq & CHUNK_MASK) * AR_STRIDE + 5];
    if ((meta & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).usIdx;
    return (meta >>> 11) & (AR_MAX_US - 1);
  }
  lastUpdatedAt(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    if ((rec[r + 5] & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).lastUpdatedAt;
    return this.baseC[seq >>> CHUNK_BITS] + rec[r + 3] + rec[r + 4];
  }
  /** The done order archived before `seq` for the same user and symbol, 0 when none. */
  prevDone(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    if ((rec[r + 5] & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).prevDone;
    const d = rec[r + 6];
    return d === 0 ? 0 : seq - d;
  }

  /** Materialise a done order (`usList`: the exchange's UserSym records by index). */
  get(seq: number, usList: UserSym[]): OrderState {
    const c = seq >>> CHUNK_BITS;
    const rec = this.recC[c];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    const meta = rec[r + 5];
    const fl = meta & F_ARCHIVED;
    const w = (meta & AR_WIDE) !== 0 ? (this.wide.get(seq) as WideRecord) : undefined;
    let dealN: number;
    let feeN: number;
    if (w) {
      dealN = w.dealN;
      feeN = w.feeN;
    } else if (rec[r + 7] !== 0) {
      const i = rec[r + 7] - 1;
      dealN = this.fillAmtC[i >>> CHUNK_BITS][(i & CHUNK_MASK) * 2];
      feeN = this.fillAmtC[i >>> CHUNK_BITS][(i & CHUNK_MASK) * 2 + 1];
    } else {
      dealN = 0;
      feeN = 0;
    }
    const created = w ? w.createdAt : this.baseC[c] + rec[r + 3];
    const b = this.big.get(seq);
    const ex = this.ext.get(seq);
    const us = usList[w ? w.usIdx : (meta >>> 11) & (AR_MAX_US - 1)];
    const sym = us.sym;
    const qn = (v: number): bigint => (v === 0 ? ZERO : BigInt(v) * sym.qFactor);
    const sizeLots = w ? w.sizeLots : rec[r + 1];
    const deal = w ? w.deal : rec[r + 2];
    return {
      seq,
      user: us.user,
      sym,
      side: (fl & F_SELL) as SideN,
      market: (fl & F_MARKET) !== 0,
      ticks: w ? w.ticks : rec[r],
      sizeLots,
      funds: b ? b[0] : -1n,
      tif: (fl >> F_TIF_SHIFT) & 3,
      cancelAfter: ex ? ex.cancelAfter : 0,
      postOnly: (fl & F_POST) !== 0,
      hidden: (fl & F_HIDDEN) !== 0,
      iceberg: (fl & F_ICEBERG) !== 0,
      visible: ex ? ex.visible : 0,
      stp: (fl >> F_STP_SHIFT) & 7,
      clientOid: ex ? ex.clientOid : '',
      remark: ex ? ex.remark : '',
      tags: ex ? ex.tags : '',
      remain: 0,
      deal,
      cancelled: sizeLots < 0 ? 0 : sizeLots - deal,
      dealFunds: b ? b[1] : qn(dealN),
      remainFunds: ZERO,
      cancelledFunds: b ? b[2] : ZERO,
      fee: b ? b[3] : qn(feeN),
      active: false,
      inBook: false,
      cancelExist: (fl & F_CANCEL_EXIST) !== 0,
      createdAt: created,
      lastUpdatedAt: w ? w.lastUpdatedAt : created + rec[r + 4],
    };
  }
}

