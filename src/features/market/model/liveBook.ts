/**
 * The streamed book the market panel's webview holds: loaded from a `book-snapshot`, kept current
 * by `book-delta`s (src/features/market/protocol.ts), cut to the top `depth` levels for drawing.
 *
 * The host forwards the book keeper's increments as deltas (src/features/market/marketFeed.ts), so
 * the webview applies the changed levels instead of receiving a top-N snapshot and diffing it
 * back. A delta applies only when it continues the held sequence (`start` = sequence + 1); a
 * delta that does not (a gap) or that comes without a book is refused, and the caller asks the
 * host for a fresh `book-snapshot` (`book-resync`).
 *
 * Sides are sorted arrays (bids high→low, asks low→high) changed by binary search and splice:
 * a delta of k levels costs O(k · (log n + n)) with small constants; drawing reads the top `depth`
 * without sorting. Prices compare exactly ({@link comparePlain}); sizes stay the wire's strings.
 *
 * No `vscode`, no DOM, no Node APIs: bundled into the webview and unit-tested directly.
 */
import type { BookDelta, BookLevel, BookSnapshot } from '../protocol';
import { BookStore, comparePlain, parseSequence } from './viewModel';

/**
 * Result of {@link LiveBook.apply}: `applied`; `stale` (the delta ends at or before the held
 * sequence: already contained, ignored); `gap` (it does not start at sequence + 1); `no-book` (no
 * `book-snapshot` was loaded); `wrong-symbol`. `gap` and `no-book` call for a `book-resync`.
 */
export type DeltaResult = 'applied' | 'stale' | 'gap' | 'no-book' | 'wrong-symbol';

/** True when a decimal string is zero ("0", "0.00"). */
function isZero(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 48 && c !== 46) return false;
  }
  return true;
}

/** One side: parallel sorted arrays of prices and sizes (best first). */
class SortedSide {
  prices: string[] = [];
  sizes: string[] = [];
  /** `1` asks (ascending prices), `-1` bids (descending). */
  constructor(private readonly dir: 1 | -1) {}

  load(levels: readonly BookLevel[]): void {
    this.prices = [];
    this.sizes = [];
    for (const [p, s] of levels) this.set(p, s);
  }

  /** Set the size at `price` (`"0"` removes the level). */
  set(price: string, size: string): void {
    const p = this.prices;
    // Fast path: a snapshot's levels arrive best first, so each goes after the last one.
    const n = p.length;
    if (n > 0 && this.dir * comparePlain(price, p[n - 1]) > 0) {
      if (!isZero(size)) {
        p.push(price);
        this.sizes.push(size);
      }
      return;
    }
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.dir * comparePlain(p[mid], price) < 0) lo = mid + 1;
      else hi = mid;
    }
    const found = lo < n && comparePlain(p[lo], price) === 0;
    if (isZero(size)) {
      if (found) {
        p.splice(lo, 1);
        this.sizes.splice(lo, 1);
      }
    } else if (found) {
      this.sizes[lo] = size;
    } else {
      p.splice(lo, 0, price);
      this.sizes.splice(lo, 0, size);
    }
  }

  top(depth: number): [string, string][] {
    const n = Math.min(depth, this.prices.length);
    const out: [string, string][] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = [this.prices[i], this.sizes[i]];
    return out;
  }
}

/** The held streamed book of one symbol (see the module docstring). */
export class LiveBook {
  private readonly bidSide = new SortedSide(-1);
  private readonly askSide = new SortedSide(1);
  private seq: bigint | undefined;
  private time = 0;
  private receivedAt = 0;

  constructor(readonly symbol: string) {}

  /** The held sequence (undefined before a `book-snapshot` or after {@link clear}). */
  get sequence(): bigint | undefined {
    return this.seq;
  }

  /** Levels held per side (it may hold more than it draws). */
  get size(): { bids: number; asks: number } {
    return { bids: this.bidSide.prices.length, asks: this.askSide.prices.length };
  }

  /**
   * Replace the book with a `book-snapshot`'s (its sequence may be older than the held one: after
   * a resync the host's book is the truth).
   * @returns false (nothing changed) for another symbol.
   * @throws RangeError when `snap.sequence` is not decimal digits (the protocol already checked it).
   */
  load(snap: BookSnapshot): boolean {
    if (snap.symbol !== this.symbol) return false;
    const seq = parseSequence(snap.sequence);
    this.bidSide.load(snap.bids);
    this.askSide.load(snap.asks);
    this.seq = seq;
    this.time = snap.time;
    this.receivedAt = snap.receivedAt;
    return true;
  }

  /** Apply a `book-delta` when it continues the held sequence (see {@link DeltaResult}); only `applied` changes the book. */
  apply(d: BookDelta): DeltaResult {
    if (d.symbol !== this.symbol) return 'wrong-symbol';
    if (this.seq === undefined) return 'no-book';
    const start = parseSequence(d.start);
    const end = parseSequence(d.end);
    if (end <= this.seq) return 'stale';
    if (start !== this.seq + 1n) return 'gap';
    for (const [p, s] of d.bids) this.bidSide.set(p, s);
    for (const [p, s] of d.asks) this.askSide.set(p, s);
    this.seq = end;
    this.time = d.time;
    this.receivedAt = d.receivedAt;
    return 'applied';
  }

  /** Forget the book: deltas are refused (`no-book`) until the next {@link load}. */
  clear(): void {
    this.bidSide.load([]);
    this.askSide.load([]);
    this.seq = undefined;
  }

  /**
   * The top `depth` levels a side as a snapshot (what the panel draws), with the held sequence.
   * @throws Error when no book is held.
   */
  top(depth: number): BookSnapshot {
    if (this.seq === undefined) throw new Error(`no book of ${this.symbol} is held`);
    return { symbol: this.symbol, sequence: this.seq.toString(), time: this.time, receivedAt: this.receivedAt, bids: this.bidSide.top(depth), asks: this.askSide.top(depth) };
  }
}

/** Counters of a {@link BookReceiver} (tests and the e2e harness read them). */
export interface BookReceiverStats {
  /** Book states made current (polling snapshots, book snapshots, applied deltas). */
  accepted: number;
  /** Polling snapshots and deltas refused as not newer. */
  rejectedSequence: number;
  /** `book-delta`s applied. */
  deltas: number;
  /** `book-delta`s dropped while a `book-snapshot` was awaited. */
  droppedDeltas: number;
  /** `book-resync` requests made (gaps, deltas without a book). */
  resyncRequests: number;
}

/**
 * What a received book message did: `shown` is the new top-`depth` book to draw (undefined: nothing
 * new to draw); `alive` says it proved the source alive (also a duplicate polling snapshot);
 * `resync` says the host must be asked for a `book-snapshot` now.
 */
export interface BookOutcome {
  readonly shown: BookSnapshot | undefined;
  readonly alive: boolean;
  readonly resync: boolean;
}

const NOTHING: BookOutcome = { shown: undefined, alive: false, resync: false };

/**
 * The webview's book of one symbol from the three book messages (no DOM: the controller in
 * webview/main.ts draws what it returns and posts `book-resync` when told):
 * - `snapshot` (polling): through the {@link BookStore} sequence gate, drawn as it is; the held
 *   streamed book is dropped (no delta continues a polled book);
 * - `book-snapshot`: loaded into the {@link LiveBook}, its top `depth` drawn;
 * - `book-delta`: applied to the held book and its top `depth` drawn; on a gap (or without a held
 *   book) one resync is asked for and deltas are dropped until the next `book-snapshot`.
 */
export class BookReceiver {
  readonly store: BookStore;
  readonly live: LiveBook;
  private awaiting = false;
  /**
   * @param depth levels a side to draw.
   * @param stats the counters to add to (a controller keeps one set across receivers); fresh ones by default.
   */
  constructor(
    readonly symbol: string,
    private depth: number,
    readonly stats: BookReceiverStats = { accepted: 0, rejectedSequence: 0, deltas: 0, droppedDeltas: 0, resyncRequests: 0 },
  ) {
    this.store = new BookStore(symbol);
    this.live = new LiveBook(symbol);
  }

  /** Whether a `book-snapshot` was asked for and deltas are dropped until it arrives. */
  get awaitingBook(): boolean {
    return this.awaiting;
  }

  /** A polling `snapshot` (see the class docstring). @param now local clock, ms. */
  snapshot(snap: BookSnapshot, now: number): BookOutcome {
    const r = this.store.accept(snap, now);
    if (r === 'accepted') {
      this.stats.accepted++;
      this.live.clear();
      return { shown: snap, alive: true, resync: false };
    }
    if (r === 'wrong-symbol') return NOTHING;
    this.stats.rejectedSequence++;
    return r === 'duplicate' ? { shown: undefined, alive: true, resync: false } : NOTHING;
  }

  /** A `book-snapshot`: the held book from now on. */
  bookSnapshot(snap: BookSnapshot, now: number): BookOutcome {
    if (!this.live.load(snap)) return NOTHING;
    this.awaiting = false;
    return this.show(now);
  }

  /** A `book-delta` (see the class docstring). */
  delta(d: BookDelta, now: number): BookOutcome {
    if (this.awaiting) {
      this.stats.droppedDeltas++;
      return NOTHING;
    }
    const r = this.live.apply(d);
    switch (r) {
      case 'applied':
        this.stats.deltas++;
        return this.show(now);
      case 'stale':
        this.stats.rejectedSequence++;
        return NOTHING;
      case 'gap':
      case 'no-book':
        this.awaiting = true;
        this.stats.resyncRequests++;
        return { shown: undefined, alive: false, resync: true };
      case 'wrong-symbol':
        return NOTHING;
    }
  }

  /** The panel's depth changed: a held streamed book is drawn again at once at the new depth. */
  setDepth(depth: number, now: number): BookOutcome {
    this.depth = depth;
    return this.live.sequence === undefined || this.awaiting ? NOTHING : this.show(now);
  }

  private show(now: number): BookOutcome {
    const top = this.live.top(this.depth);
    this.store.replace(top, now);
    this.stats.accepted++;
    return { shown: top, alive: true, resync: false };
  }
}
