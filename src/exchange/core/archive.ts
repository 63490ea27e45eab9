/**
 * Order archive of the exchange core: one 32-byte int32 record per order by seq — its pool slot while it is
 * live, its final state once done — with side maps only for the values that do not fit. Chunks whose done
 * orders nobody can read any more are released; the few entries they still need move to side maps.
 */
import { CHUNK_BITS, CHUNK_MASK, ZERO, doubleArray, i32, objectArray, prefaulted, type SideN } from './base';
import type { UserSym } from './accounts';
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

/**
 * A chunk is released once the entries it still needs (live orders + done orders still readable) are at most
 * this many: they move to side maps (Archive.outside / Archive.kept, ~100–200 bytes each against the chunk's
 * 128 KiB).
 */
export const RELEASE_MAX_ENTRIES = 256;

/** Archived fields of orders that have any of them. */
export interface ArchivedExt {
  clientOid: string;
  remark: string;
  tags: string;
  visible: number;
  cancelAfter: number;
}

/** A done order's numbers when one of them does not fit the int32 record. */
export interface WideRecord {
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

/** A done order whose chunk was released: its numbers and its archived flags. */
export interface KeptRecord extends WideRecord {
  /** the order's flags (F_ARCHIVED bits) */
  flags: number;
}

/** Per-chunk bookkeeping of the release (see {@link Archive.release}). */
export interface ChunkData {
  /** chunk index (its seqs are index × 4,096 … + 4,095) */
  c: number;
  /** the records (live orders' slots written as 0: slots are not state) */
  rec: Int32Array;
  /** createdAt of the first order archived in it (NaN until then) */
  base: number;
  /** [dealN, feeN] pairs of its done orders with Number-path fills */
  amt: Float64Array;
  live: number;
  histN: number;
  histMin: number;
  histMax: number;
  checkAfter: number;
}

/** The archive's state as plain data: what a snapshot carries (typed arrays shared, not copied). */
export interface ArchiveData {
  count: number;
  /** chunks below this are sealed (every seq placed) */
  sealedUpTo: number;
  /** kept chunks, ascending */
  chunks: ChunkData[];
  /** sealed chunks waiting for release, in order */
  retained: number[];
  /** by UserSym index: seq of its latest done order (0: none) */
  lastDone: Float64Array;
  big: [number, bigint[]][];
  ext: [number, ArchivedExt][];
  wide: [number, WideRecord][];
  /** seqs of live orders whose chunk was released */
  outside: number[];
  kept: [number, KeptRecord][];
  keptDue: number;
}

/**
 * Order archive: one int32 record per seq (32 bytes per order, plus 16 for one with fills on the Number
 * path; no per-order objects for the garbage collector to trace). While an order is live its record holds
 * its pool slot (seq → slot, so no separate index); when it is done, its final state. BigInt amounts,
 * strings and out-of-range numbers only for the orders that have them. The done orders of one user and
 * symbol are chained newest first (Archive.lastDone, then [6]).
 *
 * Release ({@link release}): a sealed chunk (every seq of it placed) whose entries still needed — live orders,
 * and done orders still readable (owner keeps history, lastUpdatedAt in the window) — number at most
 * {@link RELEASE_MAX_ENTRIES} is dropped; its live orders' slots move to `outside`, its readable done orders
 * to `kept` (an order done after its chunk was released goes there too), everything else is forgotten
 * (side-map entries included). A done-order chain ends where it reaches a forgotten order: the chain is in
 * done-time order, so what lies beyond is older still, or of the same user without history.
 */
export class Archive {
  /** chunks of CHUNK orders: no copying as the history grows (null: released) */
  private readonly recC: (Int32Array | null)[] = objectArray();
  /** per chunk: createdAt of the first order archived in it (NaN until then) */
  private readonly baseC: number[] = doubleArray();
  /** per chunk: [dealN, feeN] (qs units) of its done orders with fills on the Number path (grown by doubling),
   * and how many pairs are used */
  private readonly amtC: (Float64Array | null)[] = objectArray();
  private readonly amtN: number[] = [];
  /** per chunk: live orders in it */
  private readonly liveN: number[] = [];
  /** per chunk: done orders archived while their owner kept history, and their earliest / latest lastUpdatedAt */
  private readonly histN: number[] = [];
  private readonly histMin: number[] = doubleArray();
  private readonly histMax: number[] = doubleArray();
  /** per chunk: no release check until the window starts after this time (ms) */
  private readonly checkAfter: number[] = doubleArray();
  /** chunks below this are sealed (listed in `retained` or released) */
  private sealedUpTo = 0;
  /** sealed chunks not released yet, ascending */
  private retained: number[] = [];
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
  /** seq → pool slot of a live order whose chunk was released */
  readonly outside = new Map<number, number>();
  /** seq → record of a done order whose chunk was released */
  readonly kept = new Map<number, KeptRecord>();
  /** `kept` needs a look once the window starts after this time (−Infinity: at the next release) */
  private keptDue = Infinity;

  /** Record a new live order: seq (= count + 1) is in pool slot `slot`. */
  add(seq: number, slot: number): void {
    const c = seq >>> CHUNK_BITS;
    if (c >= this.recC.length) {
      this.recC.push(prefaulted(new Int32Array(AR_STRIDE << CHUNK_BITS)));
      this.baseC.push(NaN);
      this.amtC.push(null);
      this.amtN.push(0);
      this.liveN.push(0);
      this.histN.push(0);
      this.histMin.push(Infinity);
      this.histMax.push(-Infinity);
      this.checkAfter.push(-Infinity);
    }
    this.count = seq;
    // the chunk of the newest seq is never released
    const rec = this.recC[c] as Int32Array;
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    rec[r] = slot;
    rec[r + 5] = 0;
    this.liveN[c]++;
  }

  /** The pool slot of a live order's seq, -1 when done or unknown (any number is accepted). */
  slotOf(seq: number): number {
    if (!(seq >= 1 && seq <= this.count) || Math.floor(seq) !== seq) return -1;
    const rec = this.recC[seq >>> CHUNK_BITS];
    if (rec === null) return this.outside.get(seq) ?? -1;
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    return rec[r + 5] === 0 ? rec[r] : -1;
  }

  /** Point a live order's seq at pool slot `slot` (a snapshot's import). */
  setSlot(seq: number, slot: number): void {
    const rec = this.recC[seq >>> CHUNK_BITS];
    if (rec === null) this.outside.set(seq, slot);
    else rec[(seq & CHUNK_MASK) * AR_STRIDE] = slot;
  }

  /** True when `seq` (any number) is a done order whose record is kept. */
  hasDone(seq: number): boolean {
    if (!(seq >= 1 && seq <= this.count) || Math.floor(seq) !== seq) return false;
    const rec = this.recC[seq >>> CHUNK_BITS];
    if (rec === null) return this.kept.has(seq);
    return rec[(seq & CHUNK_MASK) * AR_STRIDE + 5] !== 0;
  }

  /** Archive the final state of the live order in row `k` of `lf` (flags, owner record and ext given). */
  put(seq: number, lf: Float64Array, k: number, flags: number, us: UserSym, x: OrderExt | null): void {
    const c = seq >>> CHUNK_BITS;
    const rec = this.recC[c];
    const created = lf[k + LF_CREATED];
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
    if (x !== null && (x.clientOid !== '' || x.remark !== '' || x.tags !== '' || x.visible !== 0 || x.cancelAfter !== 0)) {
      this.ext.set(seq, { clientOid: x.clientOid, remark: x.remark, tags: x.tags, visible: x.visible, cancelAfter: x.cancelAfter });
    }
    if (rec === null) {
      // done after its chunk was released (it was in `outside`)
      this.outside.delete(seq);
      this.kept.set(seq, { flags: flags & F_ARCHIVED, usIdx: us.idx, ticks, sizeLots: lots, deal, createdAt: created, lastUpdatedAt: updated, prevDone: prev, dealN, feeN });
      const due = us.user.keepHistory ? updated : -Infinity;
      if (due < this.keptDue) this.keptDue = due;
      return;
    }
    this.liveN[c]--;
    if (us.user.keepHistory) {
      this.histN[c]++;
      if (updated < this.histMin[c]) this.histMin[c] = updated;
      if (updated > this.histMax[c]) this.histMax[c] = updated;
    }
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    let base = this.baseC[c];
    if (base !== base) base = this.baseC[c] = created;
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
        const i = this.amtN[c]++;
        let a = this.amtC[c];
        if (a === null || 2 * i >= a.length) a = this.growAmt(c);
        a[2 * i] = dealN;
        a[2 * i + 1] = feeN;
        rec[r + 7] = i + 1;
      } else {
        rec[r + 7] = 0;
      }
    } else {
      meta |= AR_WIDE;
      this.wide.set(seq, { ticks, sizeLots: lots, deal, createdAt: created, lastUpdatedAt: updated, prevDone: prev, dealN, feeN, usIdx: us.idx });
    }
    rec[r + 5] = meta;
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

  private growAmt(c: number): Float64Array {
    const old = this.amtC[c];
    const a = new Float64Array(old === null ? 256 : old.length * 2);
    if (old !== null) a.set(old);
    this.amtC[c] = a;
    return a;
  }

  // The readers below take the seq of a done order whose record is kept (hasDone).

  /** Index of the owner's UserSym of a done order. */
  usIdx(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    if (rec === null) return (this.kept.get(seq) as KeptRecord).usIdx;
    const meta = rec[(seq & CHUNK_MASK) * AR_STRIDE + 5];
    if ((meta & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).usIdx;
    return (meta >>> 11) & (AR_MAX_US - 1);
  }
  lastUpdatedAt(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    if (rec === null) return (this.kept.get(seq) as KeptRecord).lastUpdatedAt;
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    if ((rec[r + 5] & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).lastUpdatedAt;
    return this.baseC[seq >>> CHUNK_BITS] + rec[r + 3] + rec[r + 4];
  }
  /** The done order archived before `seq` for the same user and symbol, 0 when none (its record may be gone:
   * check {@link hasDone}). */
  prevDone(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    if (rec === null) return (this.kept.get(seq) as KeptRecord).prevDone;
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    if ((rec[r + 5] & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).prevDone;
    const d = rec[r + 6];
    return d === 0 ? 0 : seq - d;
  }

  /** The numbers of a done order as one record (kept, wide or compact). */
  private recordOf(seq: number): KeptRecord {
    const c = seq >>> CHUNK_BITS;
    const rec = this.recC[c];
    if (rec === null) return this.kept.get(seq) as KeptRecord;
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    const meta = rec[r + 5];
    const flags = meta & F_ARCHIVED;
    if ((meta & AR_WIDE) !== 0) return { ...(this.wide.get(seq) as WideRecord), flags };
    let dealN = 0;
    let feeN = 0;
    if (rec[r + 7] !== 0) {
      const i = rec[r + 7] - 1;
      const a = this.amtC[c] as Float64Array;
      dealN = a[2 * i];
      feeN = a[2 * i + 1];
    }
    const created = this.baseC[c] + rec[r + 3];
    return {
      flags,
      usIdx: (meta >>> 11) & (AR_MAX_US - 1),
      ticks: rec[r],
      sizeLots: rec[r + 1],
      deal: rec[r + 2],
      createdAt: created,
      lastUpdatedAt: created + rec[r + 4],
      prevDone: rec[r + 6] === 0 ? 0 : seq - rec[r + 6],
      dealN,
      feeN,
    };
  }

  /** Materialise a done order (`usList`: the exchange's UserSym records by index). */
  get(seq: number, usList: UserSym[]): OrderState {
    const w = this.recordOf(seq);
    const fl = w.flags;
    const b = this.big.get(seq);
    const ex = this.ext.get(seq);
    const us = usList[w.usIdx];
    const sym = us.sym;
    const qn = (v: number): bigint => (v === 0 ? ZERO : BigInt(v) * sym.qFactor);
    return {
      seq,
      user: us.user,
      sym,
      side: (fl & F_SELL) as SideN,
      market: (fl & F_MARKET) !== 0,
      ticks: w.ticks,
      sizeLots: w.sizeLots,
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
      deal: w.deal,
      cancelled: w.sizeLots < 0 ? 0 : w.sizeLots - w.deal,
      dealFunds: b ? b[1] : qn(w.dealN),
      remainFunds: ZERO,
      cancelledFunds: b ? b[2] : ZERO,
      fee: b ? b[3] : qn(w.feeN),
      active: false,
      inBook: false,
      cancelExist: (fl & F_CANCEL_EXIST) !== 0,
      createdAt: w.createdAt,
      lastUpdatedAt: w.lastUpdatedAt,
    };
  }

  /** Every seq with a record (live or done), chunk by chunk, then `outside`, then `kept` (invariant checks). */
  *seqs(): Generator<number> {
    for (let c = 0; c < this.recC.length; c++) {
      if (this.recC[c] === null) continue;
      const hi = Math.min(this.count, (c << CHUNK_BITS) + CHUNK_MASK);
      for (let seq = Math.max(1, c << CHUNK_BITS); seq <= hi; seq++) yield seq;
    }
    yield* this.outside.keys();
    yield* this.kept.keys();
  }

  /** Chunks kept in memory, and how many of them are released (statistics). */
  stats(): { chunks: number; released: number; outside: number; kept: number } {
    let released = 0;
    for (const r of this.recC) if (r === null) released++;
    return { chunks: this.recC.length - released, released, outside: this.outside.size, kept: this.kept.size };
  }

  /**
   * Check the bookkeeping of the release against the records (checkInvariants): per chunk the live count, the
   * sealed list, `outside` only of released chunks. @returns the first inconsistency, or '' when none.
   */
  checkBookkeeping(): string {
    const sealed = new Set(this.retained);
    for (let c = 0; c < this.recC.length; c++) {
      const rec = this.recC[c];
      if (rec === null) {
        if (c >= this.sealedUpTo || sealed.has(c)) return `released chunk ${c} is not sealed or still listed`;
        continue;
      }
      if (c < this.sealedUpTo && !sealed.has(c)) return `sealed chunk ${c} neither listed nor released`;
      let live = 0;
      const hi = Math.min(this.count, (c << CHUNK_BITS) + CHUNK_MASK);
      for (let seq = Math.max(1, c << CHUNK_BITS); seq <= hi; seq++) if (rec[(seq & CHUNK_MASK) * AR_STRIDE + 5] === 0) live++;
      if (live !== this.liveN[c]) return `chunk ${c} counts ${this.liveN[c]} live orders, holds ${live}`;
    }
    for (const seq of this.outside.keys()) if (this.recC[seq >>> CHUNK_BITS] !== null) return `outside order ${seq} of a kept chunk`;
    for (const seq of this.kept.keys()) if (this.recC[seq >>> CHUNK_BITS] !== null || this.outside.has(seq)) return `kept order ${seq} of a kept chunk, or live`;
    return '';
  }

  /**
   * Release what nobody can read any more (see the class doc): sealed chunks whose needed entries are few, and
   * `kept` records no longer readable. `winStart`: start of the readable window (ms); `keeps(usIdx)`: whether
   * the owner of a UserSym keeps history; `dropped(seq, usIdx, clientOid)` is told of every done order
   * forgotten (its clientOid '' when none). @returns the number of chunks released.
   */
  release(winStart: number, keeps: (usIdx: number) => boolean, dropped: (seq: number, usIdx: number, clientOid: string) => void): number {
    const tail = this.count >>> CHUNK_BITS;
    while (this.sealedUpTo < tail) this.retained.push(this.sealedUpTo++);
    let n = 0;
    const still: number[] = [];
    for (const c of this.retained) {
      if (this.tryRelease(c, winStart, keeps, dropped)) n++;
      else still.push(c);
    }
    this.retained = still;
    if (winStart > this.keptDue) this.cleanKept(winStart, keeps, dropped);
    return n;
  }

  private tryRelease(c: number, winStart: number, keeps: (usIdx: number) => boolean, dropped: (seq: number, usIdx: number, clientOid: string) => void): boolean {
    const live = this.liveN[c];
    if (live > RELEASE_MAX_ENTRIES || this.checkAfter[c] >= winStart) return false;
    if (this.histN[c] > 0 && this.histMax[c] >= winStart && this.histMin[c] >= winStart && live + this.histN[c] > RELEASE_MAX_ENTRIES) {
      // every history record is still in the window: nothing to do before the earliest one leaves it
      this.checkAfter[c] = this.histMin[c];
      return false;
    }
    const rec = this.recC[c] as Int32Array;
    const lo = Math.max(1, c << CHUNK_BITS);
    const hi = (c << CHUNK_BITS) + CHUNK_MASK;
    const readable: number[] = [];
    if (this.histN[c] > 0 && this.histMax[c] >= winStart) {
      for (let seq = lo; seq <= hi; seq++) {
        const meta = rec[(seq & CHUNK_MASK) * AR_STRIDE + 5];
        if (meta === 0) continue;
        const t = this.lastUpdatedAt(seq);
        if (t >= winStart && keeps(this.usIdx(seq))) readable.push(t);
      }
      if (live + readable.length > RELEASE_MAX_ENTRIES) {
        // wait until enough of them leave the window
        readable.sort((a, b) => a - b);
        this.checkAfter[c] = readable[live + readable.length - RELEASE_MAX_ENTRIES - 1];
        return false;
      }
    }
    for (let seq = lo; seq <= hi; seq++) {
      const r = (seq & CHUNK_MASK) * AR_STRIDE;
      if (rec[r + 5] === 0) {
        this.outside.set(seq, rec[r]);
        continue;
      }
      const usIdx = this.usIdx(seq);
      const t = this.lastUpdatedAt(seq);
      if (readable.length > 0 && t >= winStart && keeps(usIdx)) {
        this.kept.set(seq, this.recordOf(seq));
        if (t < this.keptDue) this.keptDue = t;
        this.wide.delete(seq);
        continue;
      }
      this.forget(seq, usIdx, dropped);
    }
    this.recC[c] = null;
    this.amtC[c] = null;
    return true;
  }

  /** Drop the side-map entries of a done order nobody can read (the caller drops its record). */
  private forget(seq: number, usIdx: number, dropped: (seq: number, usIdx: number, clientOid: string) => void): void {
    const ex = this.ext.get(seq);
    if (ex !== undefined) this.ext.delete(seq);
    this.big.delete(seq);
    this.wide.delete(seq);
    dropped(seq, usIdx, ex === undefined ? '' : ex.clientOid);
  }

  private cleanKept(winStart: number, keeps: (usIdx: number) => boolean, dropped: (seq: number, usIdx: number, clientOid: string) => void): void {
    let due = Infinity;
    for (const [seq, k] of this.kept) {
      if (k.lastUpdatedAt >= winStart && keeps(k.usIdx)) {
        if (k.lastUpdatedAt < due) due = k.lastUpdatedAt;
        continue;
      }
      this.kept.delete(seq);
      this.forget(seq, k.usIdx, dropped);
    }
    this.keptDue = due;
  }

  /** The state as plain data (typed arrays shared with the live archive, or copies where live orders' slots
   * are zeroed: serialise before the next change). */
  exportData(): ArchiveData {
    const chunks: ChunkData[] = [];
    for (let c = 0; c < this.recC.length; c++) {
      let rec = this.recC[c];
      if (rec === null) continue;
      if (this.liveN[c] > 0) {
        rec = rec.slice();
        const hi = Math.min(this.count, (c << CHUNK_BITS) + CHUNK_MASK);
        for (let seq = Math.max(1, c << CHUNK_BITS); seq <= hi; seq++) {
          const r = (seq & CHUNK_MASK) * AR_STRIDE;
          if (rec[r + 5] === 0) rec[r] = 0;
        }
      }
      const a = this.amtC[c];
      chunks.push({
        c,
        rec,
        base: this.baseC[c],
        amt: a === null ? new Float64Array(0) : a.subarray(0, 2 * this.amtN[c]),
        live: this.liveN[c],
        histN: this.histN[c],
        histMin: this.histMin[c],
        histMax: this.histMax[c],
        checkAfter: this.checkAfter[c],
      });
    }
    return {
      count: this.count,
      sealedUpTo: this.sealedUpTo,
      chunks,
      retained: [...this.retained],
      lastDone: this.lastDoneOf,
      big: [...this.big],
      ext: [...this.ext],
      wide: [...this.wide],
      outside: [...this.outside.keys()],
      kept: [...this.kept],
      keptDue: this.keptDue,
    };
  }

  /**
   * An archive holding `d` ({@link exportData}); live orders' slots are set afterwards ({@link setSlot}).
   * @throws Error when the chunks do not fit the counts.
   */
  static importData(d: ArchiveData): Archive {
    const a = new Archive();
    const n = d.count === 0 ? 0 : (d.count >>> CHUNK_BITS) + 1;
    if (d.sealedUpTo > n || d.sealedUpTo < 0) throw new Error('snapshot: archive chunks do not fit its count');
    a.count = d.count;
    a.sealedUpTo = d.sealedUpTo;
    for (let c = 0; c < n; c++) {
      a.recC.push(null);
      a.baseC.push(NaN);
      a.amtC.push(null);
      a.amtN.push(0);
      a.liveN.push(0);
      a.histN.push(0);
      a.histMin.push(Infinity);
      a.histMax.push(-Infinity);
      a.checkAfter.push(-Infinity);
    }
    let prev = -1;
    for (const ch of d.chunks) {
      if (!(ch.c > prev && ch.c < n) || ch.rec.length !== AR_STRIDE << CHUNK_BITS || ch.amt.length % 2 !== 0) throw new Error('snapshot: bad archive chunk');
      prev = ch.c;
      a.recC[ch.c] = ch.rec;
      a.baseC[ch.c] = ch.base;
      if (ch.amt.length > 0) {
        const amt = new Float64Array(Math.max(256, 1 << Math.ceil(Math.log2(ch.amt.length))));
        amt.set(ch.amt);
        a.amtC[ch.c] = amt;
      }
      a.amtN[ch.c] = ch.amt.length / 2;
      a.liveN[ch.c] = ch.live;
      a.histN[ch.c] = ch.histN;
      a.histMin[ch.c] = ch.histMin;
      a.histMax[ch.c] = ch.histMax;
      a.checkAfter[ch.c] = ch.checkAfter;
    }
    // the chunk of the newest seq is always kept
    if (n > 0 && a.recC[n - 1] === null) throw new Error('snapshot: the newest archive chunk is missing');
    a.retained = [...d.retained];
    a.lastDoneOf = d.lastDone.length >= 64 ? d.lastDone : Float64Array.from({ length: 64 }, (_, i) => d.lastDone[i] ?? 0);
    for (const [k, v] of d.big) a.big.set(k, v);
    for (const [k, v] of d.ext) a.ext.set(k, v);
    for (const [k, v] of d.wide) a.wide.set(k, v);
    for (const seq of d.outside) a.outside.set(seq, -1);
    for (const [k, v] of d.kept) a.kept.set(k, v);
    a.keptDue = d.keptDue;
    return a;
  }
}
