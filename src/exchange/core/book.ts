/**
 * Order books of the exchange core: a price level (FIFO queue of live-order slots), the price → level
 * index of one book side, the sorted book side, and a symbol (its rules in exact units, both book sides,
 * the book sequence, trade counter and public trade tape).
 */
import { fromUnits, toUnits } from '../../api/decimal';
import type { SymbolRules } from './types';
import { BUY, LEDGER_SCALE, MAX_LOTS, RATE_SCALE, SELL, fracDigits, perr, pow10, type SideN } from './base';

/** Trades kept in a symbol's public tape (ring). */
export const TAPE_MAX = 10_000;
/** Numbers per tape entry: tradeId, sequence, ticks, lots, side, time. */
export const TAPE_STRIDE = 6;
/** At most 2^20 symbols (a bound on registered pairs). */
export const MAX_SYMBOLS = 1 << 20;

/** A price level: FIFO queue of live-order slots linked through LI_NEXT / LI_PREV. */
export class Level {
  size = 0; // visible lots
  /** first (oldest) order's slot, -1 when empty */
  head = -1;
  /** last (newest) order's slot, -1 when empty */
  tail = -1;
  /** @param ticks its price; @param side the book side it belongs to */
  constructor(
    readonly ticks: number,
    readonly side: SideN,
  ) {}
}

const LX_SPAN = 1 << 16; // ticks covered by a LevelIndex window

/**
 * Price → level index of one book side: a direct array over a window of LX_SPAN ticks centred on the
 * first price seen (one array load instead of a hash lookup), with a Map for prices outside the window.
 * Same contract as the Map it replaces (get/set/delete/size).
 */
export class LevelIndex {
  private base = 0;
  private win: (Level | undefined)[] | null = null;
  private readonly out = new Map<number, Level>();
  /** number of levels indexed */
  size = 0;

  get(ticks: number): Level | undefined {
    const k = ticks - this.base;
    if (this.win !== null && k >= 0 && k < LX_SPAN) return this.win[k];
    return this.out.get(ticks);
  }

  /** Index a level not yet indexed. */
  set(ticks: number, lv: Level): void {
    if (this.win === null) {
      this.base = Math.max(0, ticks - LX_SPAN / 2);
      this.win = new Array<Level | undefined>(LX_SPAN).fill(undefined);
    }
    const k = ticks - this.base;
    if (k >= 0 && k < LX_SPAN) this.win[k] = lv;
    else this.out.set(ticks, lv);
    this.size++;
  }

  /** Remove an indexed level. */
  delete(ticks: number): void {
    const k = ticks - this.base;
    if (this.win !== null && k >= 0 && k < LX_SPAN) this.win[k] = undefined;
    else this.out.delete(ticks);
    this.size--;
  }
}

/**
 * One side of a book. Level prices are kept sorted with the BEST level LAST (bids ascending, asks
 * descending) in a Float64Array (ticks are safe integers, exact in a double): a new or emptied level moves
 * the prices after it with one memmove and no pointer writes, and the best level is appended or popped in
 * O(1). The Level objects live in `map`; `best()` is cached.
 */
export class BookSide {
  /** level prices (ticks), px[0..count), best last */
  private px = new Float64Array(64);
  /** number of levels */
  count = 0;
  /** the best level, undefined when the side is empty */
  private top: Level | undefined = undefined;
  readonly map = new LevelIndex();
  constructor(readonly side: SideN) {}

  /** The best level (highest bid, lowest ask), undefined when empty. */
  best(): Level | undefined {
    return this.top;
  }

  /** The level at sorted index i (0 = the worst, count − 1 = the best); undefined only if the index is broken. */
  at(i: number): Level | undefined {
    return this.map.get(this.px[i]);
  }

  /** The level at `ticks`, created (and placed in price order) when there is none. */
  getOrCreate(ticks: number): Level {
    let lv = this.map.get(ticks);
    if (lv) return lv;
    lv = new Level(ticks, this.side);
    this.map.set(ticks, lv);
    const n = this.count;
    if (n === this.px.length) {
      const px = new Float64Array(n * 2);
      px.set(this.px);
      this.px = px;
    }
    const a = this.px;
    const buy = this.side === BUY;
    // a new best level goes last
    if (n === 0 || (buy ? a[n - 1] < ticks : a[n - 1] > ticks)) {
      a[n] = ticks;
      this.count = n + 1;
      this.top = lv;
      return lv;
    }
    const lo = this.search(ticks);
    a.copyWithin(lo + 1, lo, n);
    a[lo] = ticks;
    this.count = n + 1;
    return lv;
  }

  /** Binary search: the first sorted index whose price is not worse than `ticks` (its index when present). */
  private search(ticks: number): number {
    const a = this.px;
    const buy = this.side === BUY;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (buy ? a[mid] < ticks : a[mid] > ticks) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Remove a level of this side (it must be indexed here). */
  remove(lv: Level): void {
    this.map.delete(lv.ticks);
    const a = this.px;
    const n = this.count;
    const ticks = lv.ticks;
    if (a[n - 1] === ticks) {
      this.count = n - 1;
      this.top = n > 1 ? this.map.get(a[n - 2]) : undefined;
      return;
    }
    const lo = this.search(ticks);
    a.copyWithin(lo, lo + 1, n);
    this.count = n - 1;
  }
}

/** A trading pair: its rules in exact units (Number fast-path factors included), both book sides, the book
 * sequence, the trade counter and the public trade tape. */
export class Sym {
  readonly bids = new BookSide(BUY);
  readonly asks = new BookSide(SELL);
  /** book sequence: the last number consumed by a visible level change (one per change; 1 before any) */
  sequence = 1;
  tradeSeq = 0;
  /** ring of the last TAPE_MAX trades: TAPE_STRIDE numbers each (allocated at the first trade) */
  tape: Float64Array | null = null;
  /** trades ever recorded in `tape` */
  tapeCount = 0;
  /** collected fees not yet added to Exchange.fees, qs units (|feeN| ≤ 2^53−1) */
  feeN = 0;
  /** level and trade events of this symbol go to the event sink (Exchange.watchSymbol) */
  watched = false;
  readonly ps: number;
  readonly bs: number;
  readonly priceInc: bigint; // at ps
  /** priceInc / baseInc as Numbers (0 when not safe integers: string fast path off) */
  readonly priceIncN: number;
  readonly baseIncN: number;
  readonly baseInc: bigint; // at bs
  /** ledger units (quote) of 1 tick × 1 lot */
  readonly unitFunds: bigint;
  /** ledger units (base) of 1 lot */
  readonly lotUnits: bigint;
  readonly feeQ: bigint;
  readonly feeGrid: bigint;
  readonly baseMinLots: number;
  readonly baseMaxLots: number;
  readonly quoteMin: bigint;
  readonly quoteMax: bigint;
  readonly quoteInc: bigint;
  // Number fast path (see Exchange.costQ): amounts in units of 10^-qs of the quote currency
  readonly qs: number;
  /** qs units per tick × lot (0 when not a safe integer: fast path disabled) */
  readonly unitQ: number;
  readonly qFactor: bigint; // ledger units per qs unit
  readonly precStep: number; // qs units per quote-precision unit
  readonly quoteMinQ: number;
  readonly quoteMaxQ: number;
  /** Number path: account units (10^-K) per qs unit of the quote (10^(K_quote − qs)) and per lot of the base
   * (baseIncrement × 10^(K_base − bs)); 0 when not representable (then the BigInt path is used) */
  quoteMulK = 0;
  baseMulK = 0;
  quoteK = -1;
  baseK = -1;
  enableTrading: boolean;
  /**
   * @param rules the symbol's rules; @param quotePrecision the quote currency's precision when the symbol was
   * added; @param idx its index in the exchange's symbol list
   */
  constructor(
    readonly rules: SymbolRules,
    readonly quotePrecision: number,
    readonly idx: number,
  ) {
    this.ps = fracDigits(rules.priceIncrement);
    this.bs = fracDigits(rules.baseIncrement);
    if (this.ps + this.bs > LEDGER_SCALE) throw perr('priceIncrement and baseIncrement need more than 18 fraction digits');
    this.priceInc = toUnits(rules.priceIncrement, this.ps);
    this.baseInc = toUnits(rules.baseIncrement, this.bs);
    this.priceIncN = this.priceInc <= BigInt(MAX_LOTS) ? Number(this.priceInc) : 0;
    this.baseIncN = this.baseInc <= BigInt(MAX_LOTS) ? Number(this.baseInc) : 0;
    if (this.priceInc <= 0n || this.baseInc <= 0n) throw perr('increments must be positive');
    this.unitFunds = this.priceInc * this.baseInc * pow10(LEDGER_SCALE - this.ps - this.bs);
    this.lotUnits = this.baseInc * pow10(LEDGER_SCALE - this.bs);
    this.feeQ = pow10(RATE_SCALE + LEDGER_SCALE - quotePrecision);
    this.feeGrid = pow10(LEDGER_SCALE - quotePrecision);
    const lotsOf = (s: string, up: boolean): number => {
      const u = toUnits(s, LEDGER_SCALE, 'down');
      let l = u / this.lotUnits;
      if (up && l * this.lotUnits < u) l += 1n;
      return l > BigInt(MAX_LOTS) ? MAX_LOTS : Number(l);
    };
    this.baseMinLots = Math.max(1, lotsOf(rules.baseMinSize, true));
    this.baseMaxLots = lotsOf(rules.baseMaxSize, false);
    this.quoteMin = toUnits(rules.quoteMinSize, LEDGER_SCALE, 'down');
    this.quoteMax = toUnits(rules.quoteMaxSize, LEDGER_SCALE, 'down');
    this.quoteInc = toUnits(rules.quoteIncrement, LEDGER_SCALE, 'down');
    if (this.quoteInc <= 0n) throw perr('quoteIncrement must be positive with at most 18 fraction digits');
    this.qs = Math.max(this.ps + this.bs, quotePrecision);
    const uq = this.priceInc * this.baseInc * pow10(this.qs - this.ps - this.bs);
    this.unitQ = uq <= BigInt(MAX_LOTS) ? Number(uq) : 0;
    this.qFactor = pow10(LEDGER_SCALE - this.qs);
    this.precStep = 10 ** (this.qs - quotePrecision);
    const capQ = (v: bigint): number => (v > BigInt(MAX_LOTS) ? MAX_LOTS : Number(v));
    this.quoteMinQ = capQ((this.quoteMin + this.qFactor - 1n) / this.qFactor);
    this.quoteMaxQ = capQ(this.quoteMax / this.qFactor);
    this.enableTrading = rules.enableTrading;
  }
  priceStr(ticks: number): string {
    return fromUnits(BigInt(ticks) * this.priceInc, this.ps);
  }
  sizeStr(lots: number): string {
    return fromUnits(BigInt(lots) * this.baseInc, this.bs);
  }
}
