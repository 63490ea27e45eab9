/**
 * Order book view-model: pure functions from level-2 snapshots to what the panel shows.
 *
 * - {@link BookStore}: the drawn book keyed by `sequence`; rejects older or equal sequences
 *   (parsed once to a bigint, since real sequences exceed 2^53). The streamed path keeps its full
 *   book in a `LiveBook` (model/liveBook.ts) and passes the top `depth` of it through the same gate.
 * - {@link buildView}: price grouping in multiples of priceIncrement, per-level and cumulative
 *   sizes (exact, scaled BigInt via `src/api/decimal`), spread (absolute and bps), mid price,
 *   depth-bar ratios and changed-level flags.
 *
 * Money stays exact: prices and sizes are the API's strings at grouping ×1, and every derived
 * amount (grouped size, cumulative size, spread, mid) is computed on scaled BigInts. Only the
 * presentational ratios (bar widths, chart coordinates) are `Number`s.
 *
 * No `vscode`, no DOM, no Node APIs: shared by the webview bundle, the extension and unit tests.
 */
import { fractionDigits, fromUnits, fromUnitsFixed, toUnits } from '../../../api/decimal';
import { SEQUENCE_RE, type BookLevel, type BookSnapshot, type Grouping } from '../protocol';

/**
 * Parse a `sequence` of the webview protocol (decimal digits, possibly > 2^53) into the bigint the
 * book is compared by: done once per received snapshot, at the protocol boundary.
 * @throws RangeError when it is not a string of decimal digits.
 */
export function parseSequence(s: string): bigint {
  if (!SEQUENCE_RE.test(s)) throw new RangeError(`not a sequence: ${s}`);
  return BigInt(s);
}

/**
 * Result of {@link BookStore.accept}: `accepted` (newer sequence, now current), `duplicate` (same
 * sequence: not applied, but it confirms the current book is still live), `stale-sequence` (older:
 * dropped), `wrong-symbol` (dropped).
 */
export type AcceptResult = 'accepted' | 'duplicate' | 'stale-sequence' | 'wrong-symbol';

/**
 * The book state of one symbol, keyed by `sequence`. Applies a snapshot only when its sequence is
 * strictly greater than the current one; older and equal sequences are rejected (counted in
 * `rejected`). An equal sequence still proves the feed is alive (a quiet market re-polled), so it
 * refreshes {@link lastSeenAt} (the controller counts it as an answered poll, src/features/market/model/freshness.ts); an older one does not.
 */
export class BookStore {
  private current: BookSnapshot | undefined;
  /** The current snapshot's sequence, parsed once when it was accepted. */
  private currentSeq: bigint | undefined;
  private acceptedAt: number | undefined;
  private seenAt: number | undefined;
  /** Number of snapshots rejected because their sequence was not newer (older or equal). */
  rejected = 0;

  constructor(readonly symbol: string) {}

  /** The last accepted snapshot, if any. */
  get snapshot(): BookSnapshot | undefined {
    return this.current;
  }

  /** Local time (ms) when the current snapshot was accepted, if any. */
  get lastAcceptedAt(): number | undefined {
    return this.acceptedAt;
  }

  /** Local time (ms) of the last snapshot that was accepted or confirmed the current one (equal sequence). */
  get lastSeenAt(): number | undefined {
    return this.seenAt;
  }

  /**
   * Offer a snapshot (see {@link AcceptResult}). Only `accepted` changes the state.
   * @param now local clock, ms.
   */
  accept(snap: BookSnapshot, now: number): AcceptResult {
    if (snap.symbol !== this.symbol) return 'wrong-symbol';
    const seq = parseSequence(snap.sequence);
    if (this.currentSeq !== undefined) {
      if (seq <= this.currentSeq) {
        this.rejected++;
        if (seq === this.currentSeq) {
          this.seenAt = now;
          return 'duplicate';
        }
        return 'stale-sequence';
      }
    }
    this.current = snap;
    this.currentSeq = seq;
    this.acceptedAt = now;
    this.seenAt = now;
    return 'accepted';
  }

  /**
   * Make `snap` current whatever its sequence (a streamed book loaded again, or the same book cut to
   * another depth): the source said so, the sequence gate does not apply.
   * @returns false (nothing changed) for another symbol.
   */
  replace(snap: BookSnapshot, now: number): boolean {
    if (snap.symbol !== this.symbol) return false;
    this.current = snap;
    this.currentSeq = parseSequence(snap.sequence);
    this.acceptedAt = now;
    this.seenAt = now;
    return true;
  }

  /** Forget the current snapshot (e.g. after a symbol or depth change the next snapshot starts fresh). */
  reset(): void {
    this.current = undefined;
    this.currentSeq = undefined;
    this.acceptedAt = undefined;
    this.seenAt = undefined;
  }
}

/** One displayed (possibly grouped) level. Strings are exact decimals. */
export interface ViewLevel {
  /** Level price: the API string at grouping ×1, else the bucket price at the step's precision. */
  readonly price: string;
  /** Size at this level (sum of the grouped levels), exact. */
  readonly size: string;
  /** Cumulative size from the best price to this level inclusive, exact. */
  readonly total: string;
  /** total / max(total over both sides), for the depth bar: 0..1 (presentation only). */
  readonly ratio: number;
  /** 'up' / 'down' when the size at this price grew / shrank since the previous view, 'new' for a new price, null if unchanged. */
  readonly change: 'up' | 'down' | 'new' | null;
}

/** Everything the panel renders for one snapshot. */
export interface BookView {
  readonly sequence: string;
  /** Exchange time of the snapshot, ms. */
  readonly time: number;
  /** Best first: lowest ask first (the renderer reverses it so the best ask sits above the spread). */
  readonly asks: readonly ViewLevel[];
  /** Best first: highest bid first. */
  readonly bids: readonly ViewLevel[];
  /** bestAsk − bestBid, exact; null when a side is empty. */
  readonly spread: string | null;
  /** spread / mid × 10 000, truncated toward zero to 2 decimals ("1.49"); null when a side is empty. */
  readonly spreadBps: string | null;
  /** (bestAsk + bestBid) / 2, exact; null when a side is empty. */
  readonly mid: string | null;
  /** Price step used for grouping (priceIncrement × grouping), decimal string. */
  readonly step: string;
}

/**
 * Memo of parsed sizes (decimal string → integer units at `scale`, via `toUnits`) for the exact
 * BigInt path of {@link buildView}: each distinct string is parsed once. Exact; bounded (cleared
 * beyond 4096 entries or when the scale changes).
 */
export class UnitMemo {
  private scale = -1;
  private readonly map = new Map<string, bigint>();

  /** `toUnits(s, scale, 'down')`, memoised. @throws DecimalFormatError when `s` is not a decimal. */
  units(s: string, scale: number): bigint {
    if (scale !== this.scale || this.map.size > 4096) {
      this.map.clear();
      this.scale = scale;
    }
    let u = this.map.get(s);
    if (u === undefined) {
      u = toUnits(s, scale, 'down');
      this.map.set(s, u);
    }
    return u;
  }
}

/** Powers of ten that are exact Numbers, 10^0 … 10^15. */
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** The levels of one side of the previous view, by index (best first), for change flags. */
class SideMemory {
  prices: string[] = [];
  sizes: string[] = [];
  length = 0;
  /** Offset (previous index − current index) of the last price found away from its index (the book moved). */
  offset = 0;
  /** Previous price → index, built only when a price is not found at its index (or index + offset). */
  private byPrice: Map<string, number> | null = null;
  // Second buffers, swapped with prices/sizes after each view: no per-update allocation.
  private nextPrices: string[] = [];
  private nextSizes: string[] = [];

  /** Previous size at `price` (expected near index `i`), or undefined when the price is new. */
  sizeAt(price: string, i: number): string | undefined {
    if (i < this.length && this.prices[i] === price) return this.sizes[i];
    const j = i + this.offset;
    if (j >= 0 && j < this.length && this.prices[j] === price) return this.sizes[j];
    if (!this.byPrice) {
      this.byPrice = new Map();
      for (let k = 0; k < this.length; k++) this.byPrice.set(this.prices[k], k);
    }
    const k = this.byPrice.get(price);
    if (k === undefined) return undefined;
    this.offset = k - i;
    return this.sizes[k];
  }

  /** Record level `i` of the view being built. */
  record(i: number, price: string, size: string): void {
    this.nextPrices[i] = price;
    this.nextSizes[i] = size;
  }

  /** Make the recorded `n` levels the previous ones. */
  commit(n: number): void {
    [this.prices, this.nextPrices] = [this.nextPrices, this.prices];
    [this.sizes, this.nextSizes] = [this.nextSizes, this.sizes];
    this.length = n;
    this.byPrice = null;
  }

  /** The previous levels as a price → size map (inspection and tests; not used on the update path). */
  toMap(): Map<string, string> {
    const m = new Map<string, string>();
    for (let k = 0; k < this.length; k++) m.set(this.prices[k], this.sizes[k]);
    return m;
  }
}

/**
 * What {@link buildView} remembers between views of one panel: each side's previous levels (for
 * the change flags, diffed by index and price without rebuilding a map per update), the size memo
 * of the exact BigInt path, and scratch buffers reused across updates.
 */
export class PreviousSizes {
  /** @internal */ readonly askMem = new SideMemory();
  /** @internal */ readonly bidMem = new SideMemory();
  /** Size memo of the BigInt path (books whose amounts do not fit 2^53 units). */
  readonly memo = new UnitMemo();
  /** @internal Scratch of each side's aggregated levels (see {@link Scratch}). */
  readonly askScratch: Scratch = newScratch();
  /** @internal */ readonly bidScratch: Scratch = newScratch();

  /** Previous ask sizes by price (a fresh Map; for inspection and tests). */
  get asks(): Map<string, string> {
    return this.askMem.toMap();
  }

  /** Previous bid sizes by price (a fresh Map; for inspection and tests). */
  get bids(): Map<string, string> {
    return this.bidMem.toMap();
  }
}

/** Empty {@link PreviousSizes}. */
export function emptyPrevious(): PreviousSizes {
  return new PreviousSizes();
}

/**
 * The grouping step: `priceIncrement × grouping` ("0.1" × "10" = "1"), exact.
 * @throws DecimalFormatError when priceIncrement is not a decimal.
 */
export function groupingStep(priceIncrement: string, grouping: Grouping): string {
  const scale = fractionDigits(priceIncrement);
  return fromUnits(toUnits(priceIncrement, scale) * BigInt(grouping), scale);
}

/**
 * One side's aggregated levels as parallel arrays (reused between updates): display price and size
 * strings, and the cumulative amounts — exact integer units in `cum` (fast path, `exact` false), or
 * exact total strings in `total` with `cum` only approximate (BigInt path, `exact` true).
 */
interface Scratch {
  price: string[];
  size: string[];
  total: string[];
  cum: number[];
  n: number;
  exact: boolean;
}

function newScratch(): Scratch {
  return { price: [], size: [], total: [], cum: [], n: 0, exact: false };
}

/**
 * A {@link ViewLevel} whose `total` string is formatted on first read (the renderer reads it only
 * for rows near the viewport; the chart uses {@link Level.depth}). Immutable once built.
 */
class Level implements ViewLevel {
  private text: string | undefined;
  /** Cumulative size as a Number (presentation only: the depth chart's y). */
  readonly depth: number;

  constructor(
    readonly price: string,
    readonly size: string,
    /** Cumulative integer units at `scale` (exact when `total` is not given). */
    private readonly cum: number,
    private readonly scale: number,
    readonly ratio: number,
    readonly change: ViewLevel['change'],
    total: string | undefined,
  ) {
    this.text = total;
    // Division of two exact integers is correctly rounded: the same Number as Number(total).
    this.depth = total === undefined ? cum / POW10[scale] : Number(total);
  }

  /** Cumulative size from the best price to this level inclusive, exact decimal string. */
  get total(): string {
    return (this.text ??= formatUnits(this.cum, this.scale));
  }

  /** Plain-object form (JSON and structured logs see the same fields as {@link ViewLevel}). */
  toJSON(): ViewLevel {
    return { price: this.price, size: this.size, total: this.total, ratio: this.ratio, change: this.change };
  }
}

// ----- exact integer-unit arithmetic on Numbers (the fast path) -----------------------------------
// Sizes and prices are converted digit by digit to integer units at a fixed scale; every unit count,
// sum and bucket stays an integer ≤ 2^53 − 1, where Number arithmetic is exact (integer lots/ticks).
// Anything larger makes the fast path give up (NaN) and buildView falls back to scaled BigInts.


/**
 * Units of the plain decimal `s` at `scale` (truncated below it), or NaN when the result could
 * exceed 2^53 − 1. `s` is validated by the protocol (digits with at most one dot).
 */
function unitsOf(s: string, scale: number): number {
  if (scale > 15) return NaN;
  let n = 0;
  let frac = -1;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 46 /* . */) {
      frac = 0;
      continue;
    }
    if (frac >= 0) {
      if (frac === scale) break; // digits below the scale are truncated
      frac++;
    }
    n = n * 10 + (c - 48);
    if (n > Number.MAX_SAFE_INTEGER) return NaN;
  }
  const u = n * POW10[scale - (frac < 0 ? 0 : frac)];
  return u <= Number.MAX_SAFE_INTEGER ? u : NaN;
}

/** Integer units (0 ≤ u ≤ 2^53 − 1) at `scale` as a plain decimal, trailing zeros removed ("1.5", "0"). */
function formatUnits(u: number, scale: number): string {
  let s = String(u);
  if (scale === 0) return s;
  if (s.length <= scale) s = s.padStart(scale + 1, '0');
  const intLen = s.length - scale;
  let end = s.length;
  while (end > intLen && s.charCodeAt(end - 1) === 48) end--;
  return end === intLen ? s.slice(0, intLen) : `${s.slice(0, intLen)}.${s.slice(intLen, end)}`;
}

/** Integer units at `scale` keeping exactly `scale` fraction digits ("1.50"). */
function formatUnitsFixed(u: number, scale: number): string {
  let s = String(u);
  if (scale === 0) return s;
  if (s.length <= scale) s = s.padStart(scale + 1, '0');
  return `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
}

/**
 * Exact comparison of two plain non-negative decimal strings ("01.50" vs "1.5" → 0) without
 * allocating. @returns −1, 0 or 1.
 */
export function comparePlain(a: string, b: string): -1 | 0 | 1 {
  let ia = 0;
  let ib = 0;
  while (ia < a.length - 1 && a.charCodeAt(ia) === 48 && a.charCodeAt(ia + 1) !== 46) ia++;
  while (ib < b.length - 1 && b.charCodeAt(ib) === 48 && b.charCodeAt(ib + 1) !== 46) ib++;
  let da = a.indexOf('.', ia);
  let db = b.indexOf('.', ib);
  if (da < 0) da = a.length;
  if (db < 0) db = b.length;
  const la = da - ia;
  const lb = db - ib;
  if (la !== lb) return la < lb ? -1 : 1;
  for (let k = 0; k < la; k++) {
    const x = a.charCodeAt(ia + k);
    const y = b.charCodeAt(ib + k);
    if (x !== y) return x < y ? -1 : 1;
  }
  const fa = a.length - da - 1;
  const fb = b.length - db - 1;
  const f = Math.max(fa, fb, 0);
  for (let k = 0; k < f; k++) {
    const x = k < fa ? a.charCodeAt(da + 1 + k) : 48;
    const y = k < fb ? b.charCodeAt(db + 1 + k) : 48;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Fast path: aggregate one side into `out` with Number integer units. Returns the side's grand
 * total in units, or NaN when some amount does not fit 2^53 − 1 units (then nothing is usable).
 */
function aggregateFast(levels: readonly BookLevel[], side: 'asks' | 'bids', grouped: boolean, stepUnits: number, priceScale: number, stepScale: number, sizeScale: number, out: Scratch): number {
  let n = 0;
  let cum = 0;
  const down = POW10[priceScale - stepScale];
  let lastBucket = -1;
  let merged = false;
  for (let i = 0; i < levels.length; i++) {
    const p = levels[i][0];
    const s = levels[i][1];
    const su = unitsOf(s, sizeScale);
    if (su !== su) return NaN;
    if (grouped) {
      const pu = unitsOf(p, priceScale);
      if (pu !== pu) return NaN;
      const r = pu % stepUnits;
      const bucket = r === 0 ? pu : side === 'bids' ? pu - r : pu - r + stepUnits;
      if (bucket > Number.MAX_SAFE_INTEGER) return NaN;
      if (bucket === lastBucket) {
        cum += su;
        if (cum > Number.MAX_SAFE_INTEGER) return NaN;
        out.cum[n - 1] = cum;
        merged = true;
        continue;
      }
      if (merged) out.size[n - 1] = formatUnits(cum - (n >= 2 ? out.cum[n - 2] : 0), sizeScale);
      merged = false;
      lastBucket = bucket;
      out.price[n] = formatUnitsFixed(bucket / down, stepScale);
    } else out.price[n] = p;
    cum += su;
    if (cum > Number.MAX_SAFE_INTEGER) return NaN;
    out.size[n] = s;
    out.cum[n] = cum;
    n++;
  }
  if (merged) out.size[n - 1] = formatUnits(cum - (n >= 2 ? out.cum[n - 2] : 0), sizeScale);
  out.n = n;
  out.exact = false;
  return cum;
}

/**
 * Exact path (scaled BigInt, any magnitude): aggregate one side into `out`. Returns the grand total
 * in units as a BigInt. Bids round down, asks round up onto the step grid.
 */
function aggregateExact(levels: readonly BookLevel[], side: 'asks' | 'bids', step: string, grouped: boolean, sizeScale: number, memo: UnitMemo, out: Scratch): bigint {
  const units: bigint[] = [];
  let n = 0;
  if (!grouped) {
    for (const [p, s] of levels) {
      out.price[n] = p;
      out.size[n] = s;
      units[n++] = memo.units(s, sizeScale);
    }
  } else {
    const stepScale = fractionDigits(step);
    let priceScale = stepScale;
    for (const [p] of levels) priceScale = Math.max(priceScale, fractionDigits(p));
    const stepU = toUnits(step, priceScale);
    const down = 10n ** BigInt(priceScale - stepScale);
    let lastBucket: bigint | undefined;
    let merged = false;
    for (const [p, s] of levels) {
      const pu = toUnits(p, priceScale);
      const r = pu % stepU;
      const bucket = r === 0n ? pu : side === 'bids' ? pu - r : pu - r + stepU;
      const su = memo.units(s, sizeScale);
      if (bucket === lastBucket) {
        units[n - 1] += su;
        merged = true;
      } else {
        if (merged) out.size[n - 1] = fromUnits(units[n - 1], sizeScale);
        merged = false;
        out.price[n] = fromUnitsFixed(bucket / down, stepScale);
        out.size[n] = s;
        units[n++] = su;
        lastBucket = bucket;
      }
    }
    if (merged) out.size[n - 1] = fromUnits(units[n - 1], sizeScale);
  }
  let cum = 0n;
  for (let i = 0; i < n; i++) {
    cum += units[i];
    out.total[i] = fromUnits(cum, sizeScale);
    out.cum[i] = Number(cum); // bar ratio only
  }
  out.n = n;
  out.exact = true;
  return cum;
}

/**
 * Build the {@link BookView} of a snapshot.
 *
 * Cost: with `previous`, the only per-update allocations are the view, its two level arrays and
 * one object per level (plus the grouped price/size strings); each level's total string is
 * formatted when first read: change flags are
 * found by diffing against the previous levels by index (then index + the book's shift, then a
 * map built only when the book moved). Amounts are summed as exact integer units in Numbers while
 * they fit 2^53 − 1 units, else as scaled BigInts — the strings are identical either way.
 *
 * @param snap the accepted snapshot (bids high→low, asks low→high, spec "Order book snapshot").
 * @param priceIncrement the symbol's priceIncrement (decimal string); grouping multiplies it.
 * @param grouping ×1 keeps the API's levels and strings untouched; ×10/×100/×1000 merge levels into
 *   buckets of `priceIncrement × grouping` (bids rounded down, asks rounded up, so a bucket never
 *   crosses the spread).
 * @param previous what the previous view of this panel left (see {@link PreviousSizes}); updated
 *   to this view's levels. Without it no level is flagged as changed.
 * @throws DecimalFormatError when a price or size is not a plain decimal string.
 */
export function buildView(snap: BookSnapshot, priceIncrement: string, grouping: Grouping, previous?: PreviousSizes): BookView {
  const step = groupingStep(priceIncrement, grouping);
  const grouped = grouping !== '1';
  let sizeScale = 0;
  for (let i = 0; i < snap.bids.length; i++) sizeScale = Math.max(sizeScale, fractionDigits(snap.bids[i][1]));
  for (let i = 0; i < snap.asks.length; i++) sizeScale = Math.max(sizeScale, fractionDigits(snap.asks[i][1]));
  const stepScale = fractionDigits(step);
  let priceScale = stepScale;
  if (grouped) {
    for (let i = 0; i < snap.bids.length; i++) priceScale = Math.max(priceScale, fractionDigits(snap.bids[i][0]));
    for (let i = 0; i < snap.asks.length; i++) priceScale = Math.max(priceScale, fractionDigits(snap.asks[i][0]));
  }

  const askOut = previous?.askScratch ?? newScratch();
  const bidOut = previous?.bidScratch ?? newScratch();
  const stepUnits = grouped && priceScale <= 15 ? unitsOf(step, priceScale) : NaN;
  let askTotal = grouped && stepUnits !== stepUnits ? NaN : aggregateFast(snap.asks, 'asks', grouped, stepUnits, priceScale, stepScale, sizeScale, askOut);
  let bidTotal = askTotal !== askTotal ? NaN : aggregateFast(snap.bids, 'bids', grouped, stepUnits, priceScale, stepScale, sizeScale, bidOut);
  if (askTotal !== askTotal || bidTotal !== bidTotal) {
    const memo = previous?.memo ?? new UnitMemo();
    const a = aggregateExact(snap.asks, 'asks', step, grouped, sizeScale, memo, askOut);
    const b = aggregateExact(snap.bids, 'bids', step, grouped, sizeScale, memo, bidOut);
    askTotal = Number(a);
    bidTotal = Number(b);
  }
  const maxTotal = Math.max(askTotal, bidTotal) || 1;

  const side = (agg: Scratch, mem: SideMemory | undefined): ViewLevel[] => {
    const rows: ViewLevel[] = new Array<ViewLevel>(agg.n);
    for (let i = 0; i < agg.n; i++) {
      const price = agg.price[i];
      const size = agg.size[i];
      let change: ViewLevel['change'] = null;
      if (mem && mem.length > 0) {
        const before = mem.sizeAt(price, i);
        if (before === undefined) change = 'new';
        else if (before !== size) {
          const c = comparePlain(before, size);
          change = c < 0 ? 'up' : c > 0 ? 'down' : null;
        }
      }
      mem?.record(i, price, size);
      rows[i] = new Level(price, size, agg.cum[i], sizeScale, agg.cum[i] / maxTotal, change, agg.exact ? agg.total[i] : undefined);
    }
    mem?.commit(agg.n);
    return rows;
  };

  const asks = side(askOut, previous?.askMem);
  const bids = side(bidOut, previous?.bidMem);
  const { spread, mid, bps } = spreadOf(snap.bids[0]?.[0], snap.asks[0]?.[0]);
  return { sequence: snap.sequence, time: snap.time, asks, bids, spread, spreadBps: bps, mid, step };
}

/**
 * Spread, mid and spread in basis points of the best bid and ask (decimal strings), exact:
 * spread = ask − bid; mid = (ask + bid) / 2 (one more fraction digit at most); bps = spread / mid × 10 000
 * truncated toward zero to 2 decimals, always shown with 2 decimals ("0.01"). All null when a side is empty
 * or the mid is not positive.
 */
export function spreadOf(bestBid: string | undefined, bestAsk: string | undefined): { spread: string | null; mid: string | null; bps: string | null } {
  if (bestBid === undefined || bestAsk === undefined) return { spread: null, mid: null, bps: null };
  const scale = Math.max(fractionDigits(bestBid), fractionDigits(bestAsk));
  const b = toUnits(bestBid, scale);
  const a = toUnits(bestAsk, scale);
  const spreadU = a - b;
  const midU2 = a + b; // mid × 2 at `scale`, i.e. mid × 10 at scale + 1 is midU2 × 5
  const spread = fromUnits(spreadU, scale);
  const mid = fromUnits(midU2 * 5n, scale + 1);
  if (midU2 <= 0n) return { spread, mid, bps: null };
  // bps × 100 = spread / mid × 10^6 = spreadU × 2 × 10^6 / midU2 (same scale cancels)
  const bps100 = (spreadU * 2n * 1_000_000n) / midU2;
  return { spread, mid, bps: fromUnitsFixed(bps100, 2) };
}

/** A point of the depth chart: price and cumulative size as Numbers (presentation only). */
export interface DepthPoint {
  readonly x: number;
  readonly y: number;
}

/** Depth chart series of a view: bids and asks, best first, price → cumulative size (Numbers for drawing only). */
export function depthSeries(view: BookView): { bids: DepthPoint[]; asks: DepthPoint[] } {
  const conv = (rows: readonly ViewLevel[]) => rows.map((r) => ({ x: Number(r.price), y: r instanceof Level ? r.depth : Number(r.total) }));
  return { bids: conv(view.bids), asks: conv(view.asks) };
}
