/**
 * Live orders of the exchange core as rows of typed arrays (the layout), their flags, the OrderExt of the
 * orders that need rarely used fields, and {@link OrderRows}: the columns, the slot pool and small named
 * accessors, so that the matching code reads `rows.remainLots(o)` instead of `lf[o * LF_STRIDE + 2]`
 * (V8 inlines them: the engine benchmark measures no difference).
 *
 * Live orders (active, or being matched) are rows of two typed arrays indexed by a pool slot, not
 * objects: `lf` (Float64Array, LF_STRIDE numbers per slot: every field that may exceed 2^31) and `li`
 * (Int32Array, LI_STRIDE per slot: links, flags, owner and fee-rate ids). Price levels are FIFO queues
 * of slots (LI_NEXT/LI_PREV), a user's active orders a list of slots (LI_ANEXT/LI_APREV). Rarely used
 * fields and the BigInt parts of amounts live in an {@link OrderExt} per slot (null for plain orders).
 * No per-order heap object: nothing for the garbage collector to trace or move, and a slot freed by
 * a done order is reused first (LIFO), so the hot rows stay in cache. A slot is meaningful only while
 * archive.slotOf(seq) is it; views materialise an {@link OrderState} when queried.
 */
import { ZERO, objectArray, prefaulted, type SideN } from './base';
import type { Level, Sym } from './book';
import type { Acc, User } from './accounts';

export const LF_STRIDE = 12;
/** limit price, ticks (0 for market orders) */
export const LF_TICKS = 0;
/** size, lots (-1 for market orders by funds) */
export const LF_LOTS = 1;
/** remaining lots (size orders) */
export const LF_REMAIN = 2;
/** lots matchable now / displayed (the iceberg tranche) */
export const LF_SHOWN = 3;
export const LF_DEAL = 4;
export const LF_CANC = 5;
/** hold on the Number path in the hold account's 10^-K units; -1 when the hold is ext.hold (BigInt) */
export const LF_HOLDN = 6;
/** Number part of dealFunds, qs units (0..2^53−1): dealFunds = ext.dealB + LF_DEALN × sym.qFactor */
export const LF_DEALN = 7;
/** Number part of the fee, qs units (|·| ≤ 2^53−1): fee = ext.feeB + LF_FEEN × sym.qFactor */
export const LF_FEEN = 8;
/** createdAt, ms */
export const LF_CREATED = 9;
/** lastUpdatedAt, ms */
export const LF_UPDATED = 10;
/** order sequence number (its id is orderIdString(seq)) */
export const LF_SEQ = 11;
export const LI_STRIDE = 8;
/** next (newer) order in the price level's queue, -1 at the tail */
export const LI_NEXT = 0;
export const LI_PREV = 1;
/** next (older) order in the owner's active list, -1 at the end */
export const LI_ANEXT = 2;
export const LI_APREV = 3;
/** packed flags (F_*) */
export const LI_FLAGS = 4;
/** index of the owner's UserSym (gives user, symbol and the trade accounts of the hold) */
export const LI_US = 5;
/** Rate.id of the taker / maker rate snapshotted at placement (an id of the exchange's RateTable) */
export const LI_TAKER = 6;
export const LI_MAKER = 7;

// order flags (LI_FLAGS)
export const F_SELL = 1;
export const F_MARKET = 2;
export const F_TIF_SHIFT = 2; // 2 bits
export const F_POST = 1 << 4;
export const F_HIDDEN = 1 << 5;
export const F_ICEBERG = 1 << 6;
export const F_STP_SHIFT = 7; // 3 bits
export const F_CANCEL_EXIST = 1 << 10;
export const F_ACTIVE = 1 << 11;
export const F_IN_BOOK = 1 << 12;
/** the slot has an OrderExt (lx[slot] !== null): plain orders never read lx */
export const F_EXT = 1 << 13;
/** flags kept in the archive (all but the live-state bits), below 2^11 */
export const F_ARCHIVED = (1 << 11) - 1;

/** Parsed, rule-checked order (internal). */
export interface Parsed {
  user: User;
  sym: Sym;
  side: SideN;
  market: boolean;
  ticks: number;
  lots: number; // -1 for funds
  funds: bigint; // -1n for size
  tif: number;
  cancelAfter: number;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visible: number;
  stp: number;
  clientOid: string;
  remark: string;
  tags: string;
  hold: bigint; // required hold in ledger units (quote for buys, base for sells), when holdN < 0
  holdN: number; // required hold in the account's 10^-K units (Number path), -1 when on the BigInt path
  acc: Acc | null; // the trade account of the hold, when already resolved (limit orders)
  /** own-side level at `ticks` as found by checkLimitAndHold (undefined: none); matching never touches the
   * own side, so it is still the book's level when the order rests */
  level: Level | undefined;
}

/**
 * Fields of an order as read by views and invariants: materialised from a live order's row (liveState) or
 * from its done-order archive record (Archive.get).
 */
export interface OrderState {
  seq: number;
  user: User;
  sym: Sym;
  side: SideN;
  market: boolean;
  ticks: number;
  sizeLots: number;
  funds: bigint;
  tif: number;
  cancelAfter: number;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visible: number;
  stp: number;
  clientOid: string;
  remark: string;
  tags: string;
  remain: number;
  deal: number;
  cancelled: number;
  dealFunds: bigint;
  remainFunds: bigint;
  cancelledFunds: bigint;
  fee: bigint;
  active: boolean;
  inBook: boolean;
  cancelExist: boolean;
  createdAt: number;
  lastUpdatedAt: number;
}

/** Rarely used order fields and BigInt amounts, allocated only for orders that need them. */
export class OrderExt {
  funds: bigint; // -1n for size orders (ledger units of quote)
  remainFunds: bigint; // funds orders
  cancelledFunds = ZERO;
  cancelAfter: number;
  expireAt = 0;
  visible: number; // iceberg visible lots (0 otherwise)
  clientOid: string;
  remark: string;
  tags: string;
  /** hold on the BigInt path (ledger units), used when LF_HOLDN < 0 */
  hold = ZERO;
  /** BigInt parts of dealFunds and fee (ledger units), see LF_DEALN / LF_FEEN */
  dealB = ZERO;
  feeB = ZERO;
  /** @param p the order's request (null: an order that had none of these fields at placement) */
  constructor(p: Parsed | null) {
    this.funds = p ? p.funds : -1n;
    this.remainFunds = p && p.funds > 0n ? p.funds : ZERO;
    this.cancelAfter = p ? p.cancelAfter : 0;
    this.visible = p ? p.visible : 0;
    this.clientOid = p ? p.clientOid : '';
    this.remark = p ? p.remark : '';
    this.tags = p ? p.tags : '';
  }
}

/**
 * The live-order columns, their slot pool and named accessors of a row's fields (`o` is always a slot).
 * Hot code reads through the accessors; loops that walk many rows (invariants) may index the columns.
 */
export class OrderRows {
  /** live-order columns (see LF_* / LI_*), grown by doubling; read them again after allocSlot() */
  lf = new Float64Array(LF_STRIDE * 1024);
  li = new Int32Array(LI_STRIDE * 1024);
  /** OrderExt of each slot (null: plain order) */
  readonly lx: (OrderExt | null)[] = objectArray();
  /** slots ever allocated, and the capacity of the columns */
  liveSlots = 0;
  liveCap = 1024;
  /** free slots, reused last-freed first */
  readonly freeSlots: number[] = [];

  /** A free live-order slot (the last freed one first); grows the columns when none is free. */
  allocSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    const slot = this.liveSlots++;
    if (slot >= this.liveCap) {
      const cap = this.liveCap * 2;
      // prefaulted: the first write to each fresh page would otherwise fault on the order path
      const lf = prefaulted(new Float64Array(cap * LF_STRIDE));
      lf.set(this.lf);
      const li = prefaulted(new Int32Array(cap * LI_STRIDE));
      li.set(this.li);
      this.lf = lf;
      this.li = li;
      this.liveCap = cap;
    }
    this.lx.push(null);
    return slot;
  }

  /** Return a done order's slot to the pool (its OrderExt, if any, is dropped). */
  freeSlot(o: number, x: OrderExt | null): void {
    if (x !== null) this.lx[o] = null;
    this.freeSlots.push(o);
  }

  /** The OrderExt of a live order (created on first use). */
  ext(o: number): OrderExt {
    let x = this.lx[o];
    if (x === null) {
      x = new OrderExt(null);
      this.lx[o] = x;
      this.li[o * LI_STRIDE + LI_FLAGS] |= F_EXT;
    }
    return x;
  }

  /** The OrderExt of a live order when it has one (F_EXT in `fl`, its flags), else null. */
  extIf(o: number, fl: number): OrderExt | null {
    return (fl & F_EXT) !== 0 ? this.lx[o] : null;
  }

  // ── Float64 fields ──
  /** limit price, ticks (0 for market orders) */
  priceTicks(o: number): number {
    return this.lf[o * LF_STRIDE + LF_TICKS];
  }
  /** size, lots (-1 for market orders by funds) */
  sizeLots(o: number): number {
    return this.lf[o * LF_STRIDE + LF_LOTS];
  }
  /** remaining lots (0 for funds orders) */
  remainLots(o: number): number {
    return this.lf[o * LF_STRIDE + LF_REMAIN];
  }
  setRemainLots(o: number, v: number): void {
    this.lf[o * LF_STRIDE + LF_REMAIN] = v;
  }
  /** lots matchable now / displayed (≤ remaining; the tranche of an iceberg) */
  shownLots(o: number): number {
    return this.lf[o * LF_STRIDE + LF_SHOWN];
  }
  setShownLots(o: number, v: number): void {
    this.lf[o * LF_STRIDE + LF_SHOWN] = v;
  }
  /** Add `v` lots to the cancelled lots. */
  addCancelledLots(o: number, v: number): void {
    this.lf[o * LF_STRIDE + LF_CANC] += v;
  }
  /** the order's hold on the Number path (hold account's 10^-K units), -1 when on the BigInt path (OrderExt.hold) */
  holdN(o: number): number {
    return this.lf[o * LF_STRIDE + LF_HOLDN];
  }
  setHoldN(o: number, v: number): void {
    this.lf[o * LF_STRIDE + LF_HOLDN] = v;
  }
  /** createdAt, ms */
  createdAt(o: number): number {
    return this.lf[o * LF_STRIDE + LF_CREATED];
  }
  /** Set lastUpdatedAt (ms). */
  touch(o: number, now: number): void {
    this.lf[o * LF_STRIDE + LF_UPDATED] = now;
  }
  /** the order's sequence number */
  seqAt(o: number): number {
    return this.lf[o * LF_STRIDE + LF_SEQ];
  }
  /** A fill of `qty` lots: dealt lots up, remaining lots down (not for funds orders: see fill), lastUpdatedAt. */
  addFilledLots(o: number, qty: number, now: number): void {
    const k = o * LF_STRIDE;
    const lf = this.lf;
    lf[k + LF_DEAL] += qty;
    lf[k + LF_REMAIN] -= qty;
    lf[k + LF_UPDATED] = now;
  }
  /** A fill of `qty` lots of a funds order (its remaining funds go down in OrderExt): dealt lots, lastUpdatedAt. */
  addDealtLots(o: number, qty: number, now: number): void {
    const k = o * LF_STRIDE;
    this.lf[k + LF_DEAL] += qty;
    this.lf[k + LF_UPDATED] = now;
  }

  // ── Int32 fields ──
  /** packed F_* flags */
  flags(o: number): number {
    return this.li[o * LI_STRIDE + LI_FLAGS];
  }
  setFlags(o: number, fl: number): void {
    this.li[o * LI_STRIDE + LI_FLAGS] = fl;
  }
  /** index of the owner's UserSym */
  usIdx(o: number): number {
    return this.li[o * LI_STRIDE + LI_US];
  }
  /** Rate.id of the taker rate snapshotted at placement */
  takerRateId(o: number): number {
    return this.li[o * LI_STRIDE + LI_TAKER];
  }
  /** Rate.id of the maker rate snapshotted at placement */
  makerRateId(o: number): number {
    return this.li[o * LI_STRIDE + LI_MAKER];
  }
  /** next (newer) order in the level's queue, -1 at the tail */
  nextInLevel(o: number): number {
    return this.li[o * LI_STRIDE + LI_NEXT];
  }
  /** next (older) order in the owner's active list, -1 at the end */
  nextActive(o: number): number {
    return this.li[o * LI_STRIDE + LI_ANEXT];
  }

  /**
   * Write a new order's row: every field (the queue and active-list links unlinked). `holdN` -1: the hold is
   * on the BigInt path; `shown` 0 until the order rests.
   */
  writeRow(o: number, seq: number, ticks: number, lots: number, shown: number, holdN: number, now: number, fl: number, usIdx: number, taker: number, maker: number): void {
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    lf[k + LF_TICKS] = ticks;
    lf[k + LF_LOTS] = lots;
    lf[k + LF_REMAIN] = lots > 0 ? lots : 0;
    lf[k + LF_SHOWN] = shown;
    lf[k + LF_DEAL] = 0;
    lf[k + LF_CANC] = 0;
    lf[k + LF_HOLDN] = holdN;
    lf[k + LF_DEALN] = 0;
    lf[k + LF_FEEN] = 0;
    lf[k + LF_CREATED] = now;
    lf[k + LF_UPDATED] = now;
    lf[k + LF_SEQ] = seq;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = -1;
    li[j + LI_ANEXT] = -1;
    li[j + LI_APREV] = -1;
    li[j + LI_FLAGS] = fl;
    li[j + LI_US] = usIdx;
    li[j + LI_TAKER] = taker;
    li[j + LI_MAKER] = maker;
  }
}
