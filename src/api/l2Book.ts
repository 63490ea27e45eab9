/**
 * An exact local level-2 order book kept current from `/market/level2` increments: KuCoin's
 * documented sync algorithm (https://www.kucoin.com/docs-new/3470068w0, "Calibration procedure"),
 * plus explicit forward-gap detection with automatic resync (ccxt's KuCoin book has no forward-gap
 * check). No `vscode`, no I/O of its own: usable from a bot.
 *
 * `L2BookKeeper`: while **syncing** it buffers increments and loads a REST snapshot, then replays the
 * buffered ones after it; while **live** it drops stale increments, answers a forward gap
 * (`sequenceStart > last + 1`) with a resync, and applies every change whose own sequence is `> last`.
 * Prices and sizes stay the wire's decimal strings (keyed in canonical form); sequences are `bigint`.
 * Events: `update` (with the applied changes when `reportChanges`), `synced`, `gap`, `resync`.
 *
 * The algorithm step by step: docs/ARCHITECTURE.md, "Level-2 book keeper (`src/api/l2Book.ts`)".
 */
import type { SpotClient } from './client';
import { cmp } from './decimal';
import type { WsL2Update } from './streamSchemas';
import { TypedEmitter } from './emitter';

/** A level-2 snapshot as the keeper needs it (GET level2_20/level2_100 `data`; sequence exact). */
export interface L2Snapshot {
  sequence: string | bigint;
  bids: readonly (readonly [string, string])[];
  asks: readonly (readonly [string, string])[];
}

/** A book increment as the keeper needs it (the `data` of a decoded `trade.l2update`). */
export type L2Increment = Pick<WsL2Update, 'sequenceStart' | 'sequenceEnd' | 'changes'> & { time?: number };

/** Options of {@link L2BookKeeper}. */
export interface L2BookKeeperOptions {
  /** Symbol of the book (for events and errors). */
  symbol: string;
  /** Fetch a REST snapshot of the book (e.g. `level2Snapshot(client, symbol)`); may reject (retried). */
  fetchSnapshot: () => Promise<L2Snapshot>;
  /** Increments kept while syncing; beyond, the oldest are dropped and the sync restarts. Default 10,000. */
  maxBuffered?: number;
  /** Delay before the n-th consecutive snapshot retry (n ≥ 1), ms. Default min(50 · 2^(n−1), 2000). */
  retryDelayMs?: (attempt: number) => number;
  /**
   * Put the applied changes into each `update` event ({@link L2UpdateEvent.changes}), for a consumer
   * that forwards increments (the market panel). Default false: no per-increment arrays.
   */
  reportChanges?: boolean;
}

/** Counters of a keeper (all since construction). */
export interface L2BookStats {
  /** Increments given to `apply`. */
  messages: number;
  /** Increments applied to the live book (replayed ones included). */
  applied: number;
  /** Increments ignored because the book already contained them (duplicates, late reorders). */
  stale: number;
  /** Forward gaps detected (`sequenceStart > last + 1`), each followed by a resync. */
  gaps: number;
  /** Resyncs started (gaps, explicit `resync()`, a snapshot older than the stream, buffer overflow). */
  resyncs: number;
  /** Snapshots loaded. */
  snapshots: number;
  /** Snapshot requests that failed or were too old and were retried. */
  snapshotRetries: number;
}

/** Payload of the `update` event: the increment just applied. */
export interface L2UpdateEvent {
  symbol: string;
  /** Book sequence after the increment. */
  sequence: bigint;
  /** Changes applied (those with a sequence above the previous `last`). */
  applied: number;
  /** The increment's exchange time, ms (when it carries one): the book's time after it. */
  time?: number;
  /**
   * With `reportChanges`: the changes applied, in wire order, each `[price, size]` with the price in
   * the keeper's canonical form (as {@link L2BookKeeper.bids} gives it) and size `"0"` for a removed
   * level (any zero on the wire, e.g. "0.000", becomes "0").
   */
  changes?: { asks: [string, string][]; bids: [string, string][] };
}

/** Payload of the `gap` event. */
export interface L2GapEvent {
  symbol: string;
  /** The sequence the book needed next (`last + 1`). */
  expected: bigint;
  /** `sequenceStart` of the increment that arrived. */
  got: bigint;
}

/** Payload of the `resync` event. */
export interface L2ResyncEvent {
  symbol: string;
  reason: 'start' | 'gap' | 'snapshot-behind' | 'overflow' | 'requested';
}

/** Keeper state: `syncing` until a snapshot is loaded, then `live`; `closed` after close(). */
export type L2BookState = 'idle' | 'syncing' | 'live' | 'closed';

/** True when a decimal string is zero ("0", "0.000"): only '0' and '.' characters. */
function isZeroSize(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 48 && c !== 46) return false;
  }
  return true;
}

/** Canonical price key: no leading zeros, no trailing fraction zeros ("067000.10" → "67000.1"). */
function priceKey(p: string): string {
  let s = p;
  if (s.length > 1 && s.charCodeAt(0) === 48 /* 0 */ && s.charCodeAt(1) !== 46 /* . */) s = s.replace(/^0+(?=\d)/, '');
  if (s.indexOf('.') >= 0 && s.charCodeAt(s.length - 1) === 48) s = s.replace(/\.?0+$/, '');
  return s;
}

/**
 * One side of the book: price key → size, with a sorted view computed on demand (and cached until
 * the next change).
 */
class Side {
  readonly levels = new Map<string, string>();
  private sorted: [string, string][] | null = null;
  constructor(private readonly descending: boolean) {}

  set(price: string, size: string): void {
    const k = priceKey(price);
    if (isZeroSize(size)) {
      if (this.levels.delete(k)) this.sorted = null;
    } else {
      this.levels.set(k, size);
      this.sorted = null;
    }
  }

  /**
   * Apply the changes `[price, size, sequence]` of one side of an increment whose sequence is
   * above `last` (older ones are already in the snapshot); a zero size removes the level.
   * @returns how many changes were applied.
   */
  applyAfter(changes: L2Increment['changes']['asks'], last: bigint, out?: [string, string][]): number {
    let n = 0;
    for (let i = 0; i < changes.length; i++) {
      const c = changes[i];
      if (c[2] > last) {
        this.set(c[0], c[1]);
        if (out) out.push([priceKey(c[0]), isZeroSize(c[1]) ? '0' : c[1]]);
        n++;
      }
    }
    return n;
  }

  load(levels: readonly (readonly [string, string])[]): void {
    this.levels.clear();
    this.sorted = null;
    for (const [p, s] of levels) this.set(p, s);
  }

  view(depth: number): [string, string][] {
    if (this.sorted === null) {
      const d = this.descending ? -1 : 1;
      this.sorted = [...this.levels].sort((a, b) => d * cmp(a[0], b[0]));
    }
    return depth >= this.sorted.length ? this.sorted.slice() : this.sorted.slice(0, depth);
  }
}

/** The events of an {@link L2BookKeeper} and their arguments. */
export type L2BookKeeperEvents = {
  update: [L2UpdateEvent];
  /** A snapshot was loaded; `sequence` is its sequence. */
  synced: [{ symbol: string; sequence: bigint }];
  gap: [L2GapEvent];
  resync: [L2ResyncEvent];
  /** A snapshot request failed (it is retried). */
  error: [Error];
};

/**
 * The L2 book keeper (see the module docstring). Typical use with {@link StreamClient}:
 * `keepBook(stream, symbol, () => level2Snapshot(client, symbol))`.
 *
 * Events: `update` ({@link L2UpdateEvent}), `synced` (`{symbol, sequence}`), `gap`
 * ({@link L2GapEvent}), `resync` ({@link L2ResyncEvent}), `error` (snapshot failures, retried).
 */
export class L2BookKeeper extends TypedEmitter<L2BookKeeperEvents> {
  readonly symbol: string;
  readonly stats: L2BookStats = { messages: 0, applied: 0, stale: 0, gaps: 0, resyncs: 0, snapshots: 0, snapshotRetries: 0 };
  private readonly bidSide = new Side(true);
  private readonly askSide = new Side(false);
  private readonly fetchSnapshot: () => Promise<L2Snapshot>;
  private readonly maxBuffered: number;
  private readonly retryDelay: (attempt: number) => number;
  private readonly reportChanges: boolean;
  private buffer: L2Increment[] = [];
  private last: bigint | undefined;
  private st: L2BookState = 'idle';
  /** Incremented per sync attempt: a snapshot answer of an older attempt is ignored. */
  private epoch = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(opts: L2BookKeeperOptions) {
    super();
    this.symbol = opts.symbol;
    this.fetchSnapshot = opts.fetchSnapshot;
    this.maxBuffered = opts.maxBuffered ?? 10_000;
    this.retryDelay = opts.retryDelayMs ?? ((n) => Math.min(50 * 2 ** (n - 1), 2000));
    this.reportChanges = opts.reportChanges ?? false;
  }

  /** `idle` (not started), `syncing`, `live` or `closed`. */
  get state(): L2BookState {
    return this.st;
  }

  /** Sequence of the last applied change (the snapshot's until an increment applies); undefined before the first snapshot. */
  get sequence(): bigint | undefined {
    return this.last;
  }

  /** Start syncing (idempotent while syncing or live). */
  start(): void {
    if (this.st === 'idle') this.beginSync('start');
  }

  /** Drop the book and sync again from a fresh snapshot (e.g. after the stream reconnected). */
  resync(): void {
    if (this.st !== 'closed') this.beginSync('requested');
  }

  /** Stop: pending snapshot answers and buffered increments are dropped; `apply` does nothing after. */
  close(): void {
    this.st = 'closed';
    this.epoch++;
    this.buffer = [];
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /**
   * Bids, best (highest) first, at most `depth` levels (default all), each `[price, size]`.
   * Prices are in canonical form (no trailing fraction zeros).
   */
  bids(depth = Infinity): [string, string][] {
    return this.bidSide.view(depth);
  }

  /** Asks, best (lowest) first, at most `depth` levels (default all). */
  asks(depth = Infinity): [string, string][] {
    return this.askSide.view(depth);
  }

  /** Number of levels per side. */
  get depth(): { bids: number; asks: number } {
    return { bids: this.bidSide.levels.size, asks: this.askSide.levels.size };
  }

  /**
   * Give the keeper one increment (in arrival order). Buffered while syncing, applied or rejected
   * while live (see the module docstring). Ignored when idle or closed.
   */
  apply(u: L2Increment): void {
    if (this.st === 'idle' || this.st === 'closed') return;
    this.stats.messages++;
    if (this.st === 'syncing') {
      this.bufferIncrement(u);
      return;
    }
    this.applyLive(u);
  }

  private bufferIncrement(u: L2Increment): void {
    this.buffer.push(u);
    if (this.buffer.length > this.maxBuffered) {
      this.buffer.splice(0, this.buffer.length - this.maxBuffered);
      this.beginSync('overflow');
    }
  }

  /** Live step; returns false when it started a resync. */
  private applyLive(u: L2Increment): boolean {
    const last = this.last as bigint;
    if (u.sequenceEnd <= last) {
      this.stats.stale++;
      return true;
    }
    if (u.sequenceStart > last + 1n) {
      this.stats.gaps++;
      this.emit('gap', { symbol: this.symbol, expected: last + 1n, got: u.sequenceStart } satisfies L2GapEvent);
      this.beginSync('gap');
      this.buffer.push(u);
      return false;
    }
    const changes = this.reportChanges && this.listenerCount('update') > 0 ? { asks: [] as [string, string][], bids: [] as [string, string][] } : undefined;
    const n = this.askSide.applyAfter(u.changes.asks, last, changes?.asks) + this.bidSide.applyAfter(u.changes.bids, last, changes?.bids);
    this.last = u.sequenceEnd;
    this.stats.applied++;
    if (this.listenerCount('update') > 0) this.emit('update', { symbol: this.symbol, sequence: u.sequenceEnd, applied: n, time: u.time, ...(changes ? { changes } : {}) } satisfies L2UpdateEvent);
    return true;
  }

  private beginSync(reason: L2ResyncEvent['reason']): void {
    this.st = 'syncing';
    this.stats.resyncs++;
    const epoch = ++this.epoch;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.emit('resync', { symbol: this.symbol, reason } satisfies L2ResyncEvent);
    this.requestSnapshot(epoch);
  }

  private requestSnapshot(epoch: number): void {
    let p: Promise<L2Snapshot>;
    try {
      p = this.fetchSnapshot();
    } catch (e) {
      p = Promise.reject(e);
    }
    p.then(
      (snap) => {
        if (epoch === this.epoch) this.onSnapshot(snap, epoch);
      },
      (err: unknown) => {
        if (epoch !== this.epoch) return;
        this.emit('error', err instanceof Error ? err : new Error(String(err)));
        this.retry(epoch);
      },
    );
  }

  private retry(epoch: number): void {
    this.stats.snapshotRetries++;
    const delay = this.retryDelay(++this.attempt);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (epoch === this.epoch) this.requestSnapshot(epoch);
    }, delay);
    this.retryTimer.unref?.();
  }

  private onSnapshot(snap: L2Snapshot, epoch: number): void {
    const s = typeof snap.sequence === 'bigint' ? snap.sequence : BigInt(snap.sequence);
    const pending = this.buffer.sort((a, b) => (a.sequenceStart < b.sequenceStart ? -1 : a.sequenceStart > b.sequenceStart ? 1 : 0)).filter((u) => u.sequenceEnd > s);
    if (pending.length > 0 && pending[0].sequenceStart > s + 1n) {
      // The snapshot predates the oldest increment we hold: the ones in between are lost to us.
      this.buffer = pending;
      this.retry(epoch);
      return;
    }
    this.attempt = 0;
    this.buffer = [];
    this.bidSide.load(snap.bids);
    this.askSide.load(snap.asks);
    this.last = s;
    this.st = 'live';
    this.stats.snapshots++;
    this.emit('synced', { symbol: this.symbol, sequence: s });
    for (const u of pending) {
      if (!this.applyLive(u)) return; // a gap inside the buffered increments: syncing again
    }
  }
}

/**
 * A snapshot fetcher over REST: GET /api/v1/market/orderbook/level2_{depth} (public, weight 2 / 4).
 * KuCoin's full-depth snapshot (/api/v3/market/orderbook/level2) is the documented source; with a
 * top-`depth` snapshot, levels deeper than `depth` at snapshot time stay unknown until they change.
 */
export function level2Snapshot(client: Pick<SpotClient, 'call'>, symbol: string, depth: 20 | 100 = 100): () => Promise<L2Snapshot> {
  return () => client.call(depth === 20 ? 'level2_20' : 'level2_100', { symbol });
}

/** The part of {@link StreamClient} that {@link keepBook} uses. */
export interface BookStreamSource {
  on(event: 'message', fn: (m: { kind: string; subject?: string; symbol?: string; data?: unknown }) => void): unknown;
  on(event: 'reconnected', fn: () => void): unknown;
  off(event: 'message', fn: (m: { kind: string; subject?: string; symbol?: string; data?: unknown }) => void): unknown;
  off(event: 'reconnected', fn: () => void): unknown;
  subscribe(topic: string): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
}

/**
 * Keep an exact book of `symbol` from a stream: subscribes `/market/level2:{symbol}`, then starts a
 * keeper (its snapshot is taken once the subscription is active), routes the symbol's increments to
 * it and resyncs after every reconnect (increments sent while the
 * connection was down are lost). Returns the keeper and `stop()` (unsubscribes and closes it).
 * @throws (async) when the subscription is refused.
 */
export async function keepBook(
  stream: BookStreamSource,
  symbol: string,
  fetchSnapshot: () => Promise<L2Snapshot>,
  opts: Partial<Omit<L2BookKeeperOptions, 'symbol' | 'fetchSnapshot'>> = {},
): Promise<{ keeper: L2BookKeeper; stop: () => Promise<void> }> {
  const keeper = new L2BookKeeper({ ...opts, symbol, fetchSnapshot });
  const onMessage = (m: { kind: string; subject?: string; symbol?: string; data?: unknown }): void => {
    if (m.kind === 'message' && m.subject === 'trade.l2update' && m.symbol === symbol) keeper.apply(m.data as WsL2Update);
  };
  const onReconnected = (): void => keeper.resync();
  stream.on('message', onMessage);
  stream.on('reconnected', onReconnected);
  const topic = `/market/level2:${symbol}`;
  try {
    await stream.subscribe(topic);
  } catch (e) {
    stream.off('message', onMessage);
    stream.off('reconnected', onReconnected);
    keeper.close();
    throw e;
  }
  // Snapshot only once the subscription is active: increments published before are in the snapshot.
  keeper.start();
  return {
    keeper,
    stop: async () => {
      stream.off('message', onMessage);
      stream.off('reconnected', onReconnected);
      keeper.close();
      await stream.unsubscribe(topic).catch(() => undefined);
    },
  };
}
