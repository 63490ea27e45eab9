/**
 * Order book view-model (issue 6): pure functions from level-2 snapshots to what the panel shows.
 *
 * - {@link BookStore}: the book state keyed by `sequence`; rejects older or equal sequences
 *   (compared as BigInt, since real sequences exceed 2^53). Ready for an incremental feed: a
 *   future WebSocket path rebuilds a snapshot per update and goes through the same gate.
 * - {@link buildView}: price grouping in multiples of priceIncrement, per-level and cumulative
 *   sizes (exact, scaled BigInt via `src/api/decimal`), spread (absolute and bps), mid price,
 *   depth-bar ratios and changed-level flags.
 * - {@link isStale}: whether updates stopped.
 *
 * Money stays exact: prices and sizes are the API's strings at grouping ×1, and every derived
 * amount (grouped size, cumulative size, spread, mid) is computed on scaled BigInts. Only the
 * presentational ratios (bar widths, chart coordinates) are `Number`s.
 *
 * No `vscode`, no DOM, no Node APIs: shared by the webview bundle, the extension and unit tests.
 */
import { fractionDigits, fromUnits, fromUnitsFixed, toUnits } from '../../api/decimal';
import { SEQUENCE_RE, type BookLevel, type BookSnapshot, type Grouping } from './protocol';

/** Default age (ms) after which the book is shown as stale when no snapshot arrived. */
export const STALE_AFTER_MS = 3000;

/**
 * Compare two `sequence` strings (decimal digits, possibly > 2^53) exactly.
 * @returns −1 if a < b, 0 if equal, 1 if a > b.
 * @throws RangeError when either is not a string of decimal digits.
 */
export function compareSequence(a: string, b: string): -1 | 0 | 1 {
  if (!SEQUENCE_RE.test(a) || !SEQUENCE_RE.test(b)) throw new RangeError(`not a sequence: ${a} / ${b}`);
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
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
 * refreshes {@link lastSeenAt}, which drives the stale state; an older one does not.
 */
export class BookStore {
  private current: BookSnapshot | undefined;
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
   * @param now local clock, ms (used by {@link isStale}).
   */
  accept(snap: BookSnapshot, now: number): AcceptResult {
    if (snap.symbol !== this.symbol) return 'wrong-symbol';
    if (this.current) {
      const c = compareSequence(snap.sequence, this.current.sequence);
      if (c <= 0) {
        this.rejected++;
        if (c === 0) {
          this.seenAt = now;
          return 'duplicate';
        }
        return 'stale-sequence';
      }
    }
    this.current = snap;
    this.acceptedAt = now;
    this.seenAt = now;
    return 'accepted';
  }

  /** Forget the current snapshot (e.g. after a symbol or depth change the next snapshot starts fresh). */
  reset(): void {
    this.current = undefined;
    this.acceptedAt = undefined;
    this.seenAt = undefined;
  }
}

/**
 * True when the book should be shown as stale: no snapshot seen yet, or the last one was seen more
 * than `staleAfterMs` (default 3000 ms) before `now` (pass {@link BookStore.lastSeenAt}).
 */
export function isStale(lastSeenAt: number | undefined, now: number, staleAfterMs = STALE_AFTER_MS): boolean {
  return lastSeenAt === undefined || now - lastSeenAt > staleAfterMs;
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
 * Memo of parsed sizes (decimal string → integer units at `scale`, via `toUnits`): most levels keep
 * their size from one snapshot to the next, so each distinct string is parsed once. Exact; bounded
 * (cleared beyond 4096 entries or when the scale changes).
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
      // Exact for every size of the current snapshot (scale is their maximum fraction digits); a
      // previous snapshot's size with more digits (only compared for the flash direction) truncates.
      u = toUnits(s, scale, 'down');
      this.map.set(s, u);
    }
    return u;
  }
}

/** Remembered sizes by price of the previous view, per side (for change flags), and the size memo. */
export interface PreviousSizes {
  asks: Map<string, string>;
  bids: Map<string, string>;
  readonly memo: UnitMemo;
}

/** Empty {@link PreviousSizes}. */
export function emptyPrevious(): PreviousSizes {
  return { asks: new Map(), bids: new Map(), memo: new UnitMemo() };
}

/**
 * The grouping step: `priceIncrement × grouping` ("0.1" × "10" = "1"), exact.
 * @throws DecimalFormatError when priceIncrement is not a decimal.
 */
export function groupingStep(priceIncrement: string, grouping: Grouping): string {
  const scale = fractionDigits(priceIncrement);
  return fromUnits(toUnits(priceIncrement, scale) * BigInt(grouping), scale);
}

interface Agg {
  price: string;
  units: bigint;
  sizeText: string | null; // the API string when the level was not merged with another
}

/** Group one side in place of the tick grid. Bids round down, asks round up onto the step grid. */
function groupSide(levels: readonly BookLevel[], side: 'asks' | 'bids', step: string, grouped: boolean, sizeScale: number, memo: UnitMemo): Agg[] {
  const out: Agg[] = [];
  if (!grouped) {
    for (const [p, s] of levels) out.push({ price: p, units: memo.units(s, sizeScale), sizeText: s });
    return out;
  }
  const stepScale = fractionDigits(step);
  let priceScale = stepScale;
  for (const [p] of levels) priceScale = Math.max(priceScale, fractionDigits(p));
  const stepU = toUnits(step, priceScale);
  const down = 10n ** BigInt(priceScale - stepScale);
  let lastBucket: bigint | undefined;
  for (const [p, s] of levels) {
    const pu = toUnits(p, priceScale);
    const r = pu % stepU;
    const bucket = r === 0n ? pu : side === 'bids' ? pu - r : pu - r + stepU;
    const su = memo.units(s, sizeScale);
    if (bucket === lastBucket) {
      const a = out[out.length - 1];
      a.units += su;
      a.sizeText = null;
    } else {
      out.push({ price: fromUnitsFixed(bucket / down, stepScale), units: su, sizeText: s });
      lastBucket = bucket;
    }
  }
  return out;
}

/**
 * Build the {@link BookView} of a snapshot.
 *
 * @param snap the accepted snapshot (bids high→low, asks low→high, spec "Order book snapshot").
 * @param priceIncrement the symbol's priceIncrement (decimal string); grouping multiplies it.
 * @param grouping ×1 keeps the API's levels and strings untouched; ×10/×100/×1000 merge levels into
 *   buckets of `priceIncrement × grouping` (bids rounded down, asks rounded up, so a bucket never
 *   crosses the spread).
 * @param previous sizes of the previous view by price; its maps are replaced by this view's sizes.
 * @throws DecimalFormatError when a price or size is not a plain decimal string.
 */
export function buildView(snap: BookSnapshot, priceIncrement: string, grouping: Grouping, previous?: PreviousSizes): BookView {
  const step = groupingStep(priceIncrement, grouping);
  const grouped = grouping !== '1';
  let sizeScale = 0;
  for (const [, s] of snap.bids) sizeScale = Math.max(sizeScale, fractionDigits(s));
  for (const [, s] of snap.asks) sizeScale = Math.max(sizeScale, fractionDigits(s));

  const memo = previous?.memo ?? new UnitMemo();
  const asksAgg = groupSide(snap.asks, 'asks', step, grouped, sizeScale, memo);
  const bidsAgg = groupSide(snap.bids, 'bids', step, grouped, sizeScale, memo);

  let askTotal = 0n;
  for (const a of asksAgg) askTotal += a.units;
  let bidTotal = 0n;
  for (const b of bidsAgg) bidTotal += b.units;
  const maxTotal = Number(askTotal > bidTotal ? askTotal : bidTotal) || 1;

  const side = (aggs: Agg[], prev: Map<string, string> | undefined): ViewLevel[] => {
    const rows: ViewLevel[] = new Array(aggs.length);
    let cum = 0n;
    const next = prev ? new Map<string, string>() : undefined;
    for (let i = 0; i < aggs.length; i++) {
      const a = aggs[i];
      cum += a.units;
      const size = a.sizeText ?? fromUnits(a.units, sizeScale);
      let change: ViewLevel['change'] = null;
      if (prev) {
        const before = prev.get(a.price);
        if (before === undefined) change = prev.size === 0 ? null : 'new';
        else if (before !== size) change = memo.units(before, sizeScale) < a.units ? 'up' : 'down';
        next!.set(a.price, size);
      }
      rows[i] = { price: a.price, size, total: fromUnits(cum, sizeScale), ratio: Number(cum) / maxTotal, change };
    }
    if (next) nextMaps.push(next);
    return rows;
  };

  const nextMaps: Map<string, string>[] = [];
  const asks = side(asksAgg, previous?.asks);
  const bids = side(bidsAgg, previous?.bids);
  if (previous) [previous.asks, previous.bids] = nextMaps;
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
  const conv = (rows: readonly ViewLevel[]) => rows.map((r) => ({ x: Number(r.price), y: Number(r.total) }));
  return { bids: conv(view.bids), asks: conv(view.asks) };
}
