/**
 * The data of one market panel, free of `vscode` so that the benchmark drives the same code: the level-2
 * book, the trade tape and the 24 h statistics of one symbol, posted to the panel's webview as protocol
 * messages (src/features/market/protocol.ts).
 *
 * **Stream first.** The book is kept by `L2BookKeeper` (src/api/l2Book.ts) on the profile's public
 * WebSocket connection (src/features/live/feed.ts). The webview holds that book: it gets it whole
 * (`book-snapshot`) when the keeper synced, when it (re)loads and when it asks (`book-resync`), and then
 * only the changed levels (`book-delta`), merged per price over at most one {@link BOOK_POST_MS} tick.
 * The tape comes from `/market/match`, the statistics from `/market/snapshot`; the connection's heartbeat
 * is relayed as `heartbeat` messages (a quiet book does not change).
 *
 * **Polling only as a fallback**, while the connection cannot be made, and only while visible: top-`depth`
 * `snapshot`s. While hidden nothing is posted; on `ready` the webview gets everything at once.
 * Details: docs/market.md, "The book's messages" and "The panel's feed".
 */
import { keepBook, type L2BookKeeper, type L2Snapshot } from '../../api/l2Book';
import type { StreamData } from '../../api/streamSchemas';
import { MAX_BOOK_LEVELS, type BookDepth, type BookLevel, type BookSnapshot, type FeedInfo, type MarketStats, type ServiceStatusValue, type ToWebview, type TradePrint } from './protocol';
import { level2Weight, nextPollDelay, type PoolBudget } from './model/pollPolicy';
import { failureText } from '../../api/failure';
import type { FeedStatus, Heartbeat, StreamChannel } from '../live/feed';

/** Trades kept for the tape (and sent to a webview that (re)loads). */
export const TAPE_SIZE = 200;

/**
 * Least time between two `heartbeat` messages to the webview, ms: the stream beats with every data
 * message (many a second in a busy market); the panel only needs to know it still beats.
 */
export const HEARTBEAT_POST_MS = 1000;

/**
 * Least time between two book messages of the stream path (and tape posts), ms: the changes of a
 * busy book are merged over this tick (about an animation frame's worth of three), so it costs at
 * most 20 messages a second; a change after a quiet tick is posted at once.
 */
export const BOOK_POST_MS = 50;

/** Interval of GET /api/v1/status polls while visible, ms. */
export const STATUS_EVERY_MS = 30_000;

/** What the feed needs from the API client (a structural subset of `SpotClient`, src/api/client.ts). */
export interface BookSource {
  /** GET /api/v1/market/orderbook/level2_{depth}: `{sequence, time (ms), bids, asks}` as decimal strings. */
  getLevel2(symbol: string, depth: BookDepth): Promise<{ sequence: string; time: number; bids: readonly (readonly [string, string])[]; asks: readonly (readonly [string, string])[] }>;
  /** GET /api/v1/status. */
  getStatus(): Promise<{ status: string; msg?: string }>;
}

/** Dependencies of a {@link MarketFeed}. */
export interface MarketFeedDeps {
  log(level: 'info' | 'warn' | 'debug', line: string): void;
  /** The active profile's client for public data (no credentials needed; may throw). */
  source(): Promise<BookSource>;
  /** The profile's public stream channel; undefined: no streaming (polling only). */
  channel(): StreamChannel | undefined;
  /** The public pool's budget, when the client knows it. */
  budget(): PoolBudget | undefined;
  /** Configured base poll interval of the fallback, ms. */
  intervalMs(): number;
  /** Local clock, ms. */
  now(): number;
  /** The coalescing tick of the stream's book messages, ms (tests); default {@link BOOK_POST_MS}. */
  bookPostMs?: number;
}

/** Where messages go: the panel's webview (skipped while it is not visible). */
export interface MarketSink {
  post(msg: ToWebview): void;
  readonly visible: boolean;
}

/** Convert a `/market/match` message to a tape print (time: ns digits → ms). */
export function tradeOf(m: Extract<StreamData, { subject: 'trade.l3match' }>['data']): TradePrint {
  const ns = m.time;
  return { tradeId: m.tradeId, price: m.price, size: m.size, side: m.side, time: ns.length > 6 ? Number(ns.slice(0, -6)) : 0 };
}

/** Convert a `/market/snapshot` message to the header's statistics. */
export function statsOf(d: Extract<StreamData, { subject: 'trade.snapshot' }>['data']['data']): MarketStats {
  return {
    last: d.lastTradedPrice ?? null,
    changePrice: d.changePrice ?? null,
    changeRate: d.changeRate ?? null,
    high: d.high ?? null,
    low: d.low ?? null,
    vol: d.vol ?? null,
    volValue: d.volValue ?? null,
  };
}

/** The book, tape and statistics of one symbol (see the module docstring). */
export class MarketFeed {
  /** Level-2 REST polls made by the fallback (host tests assert it stays still while streaming). */
  pollCount = 0;
  /** Book messages posted to the webview (`snapshot`, `book-snapshot`, `book-delta`). */
  postedCount = 0;
  /** `book-delta` messages posted. */
  deltasPosted = 0;
  /** `book-snapshot` messages posted. */
  bookSnapshotsPosted = 0;
  /** The top `depth` levels of the book the webview was last given (what it draws). */
  lastPosted: BookSnapshot | undefined;
  /** The failure shown in the panel (src/api/failure.ts wording), or null. */
  lastError: string | null = null;
  /** The tape, oldest first (at most {@link TAPE_SIZE}). */
  readonly trades: TradePrint[] = [];
  stats: MarketStats | undefined;
  private info: FeedInfo = { mode: 'stream', state: 'connecting', reason: null };
  private status: { status: ServiceStatusValue; msg: string } | undefined;
  private keeper: L2BookKeeper | undefined;
  private stopBook: (() => Promise<void>) | undefined;
  private readonly subs: Array<{ dispose(): void }> = [];
  private channel: StreamChannel | undefined;
  private bookTime = 0;
  /** The sequence of the webview's streamed book after the last book message (undefined: it holds none); the book's one type, bigint. */
  private postedSeq: bigint | undefined;
  /** The next stream book message must be a `book-snapshot` (synced, reloaded, asked for, or changes missed while hidden). */
  private needBook = true;
  /** Changes since the last book message, price → size ("0": removed), per side. */
  private readonly pendingBids = new Map<string, string>();
  private readonly pendingAsks = new Map<string, string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last stream book message or tape post went out (monotonic ms; -∞: never). */
  private flushedAt = -Infinity;
  private pendingTrades: TradePrint[] = [];
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private statusTimer: ReturnType<typeof setInterval> | undefined;
  private inflight = false;
  private again = false;
  private failures = 0;
  private lastPolling = '';
  private started = false;
  private disposed = false;
  private generation = 0;
  private waiters: Array<(s: BookSnapshot) => void> = [];
  private visible = false;
  /** When the last `heartbeat` was posted (local ms; 0: never). */
  private beatPostedAt = 0;
  /** `heartbeat` messages posted (tests). */
  heartbeatsPosted = 0;

  constructor(
    readonly symbol: string,
    private depth: BookDepth,
    private readonly deps: MarketFeedDeps,
    private readonly sink: MarketSink,
  ) {}

  /** Where the book comes from now (stream/polling, state, reason). */
  get feed(): FeedInfo {
    return this.info;
  }

  /** Whether the fallback poll timer is running or a poll is in flight. */
  get polling(): boolean {
    return this.pollTimer !== undefined || this.inflight;
  }

  /** The book keeper while streaming (tests and the benchmark read its counters). */
  get bookKeeper(): L2BookKeeper | undefined {
    return this.keeper;
  }

  /** Best bid and ask of the last snapshot (decimal strings), for the ticket's confirmation. */
  best(): { bid: string | null; ask: string | null } {
    if (this.keeper?.state === 'live') return { bid: this.keeper.bids(1)[0]?.[0] ?? null, ask: this.keeper.asks(1)[0]?.[0] ?? null };
    return { bid: this.lastPosted?.bids[0]?.[0] ?? null, ask: this.lastPosted?.asks[0]?.[0] ?? null };
  }

  /** Resolves with the next snapshot posted after the call (rejects after `timeoutMs`). */
  nextSnapshot(timeoutMs = 10_000): Promise<BookSnapshot> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no order book snapshot for ${this.symbol} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((s) => {
        clearTimeout(t);
        resolve(s);
      });
    });
  }

  /** Start the stream subscriptions (once); `visible` starts the status poll (and the fallback if needed). */
  start(visible: boolean): void {
    if (this.disposed) return;
    if (!this.started) {
      this.started = true;
      this.startStream();
    }
    this.setVisible(visible);
  }

  /** The panel became visible or hidden: polling (fallback, status) runs only while visible. */
  setVisible(visible: boolean): void {
    if (this.disposed) return;
    this.visible = visible;
    if (visible) {
      if (this.info.mode === 'polling') this.schedulePoll(0);
      // Changes missed while hidden: the whole book goes out (also when the webview was kept and says no `ready`).
      if (this.keeper?.state === 'live' && this.needBook) this.scheduleFlush();
      if (this.statusTimer === undefined) {
        void this.pollStatus();
        this.statusTimer = setInterval(() => void this.pollStatus(), STATUS_EVERY_MS);
      }
    } else {
      this.stopTimers();
      if (this.info.mode === 'polling') this.setPolling('paused', 0);
    }
  }

  /** The webview (re)loaded: send it everything it shows. */
  replay(): void {
    this.beatPostedAt = 0;
    this.post({ type: 'feed', ...this.info });
    if (this.status) this.post({ type: 'status', ...this.status });
    if (this.lastError !== null) this.post({ type: 'error', message: this.lastError });
    if (this.keeper?.state === 'live') this.resendBook();
    else if (this.lastPosted && this.deps.now() - this.lastPosted.receivedAt < 3000) this.post({ type: 'snapshot', snapshot: this.lastPosted });
    this.post({ type: 'trades', trades: this.trades.slice(), replace: true });
    this.pendingTrades = [];
    if (this.stats) this.post({ type: 'stats', stats: this.stats });
    if (this.info.mode === 'polling' && this.visible) this.schedulePoll(0);
  }

  /**
   * A new depth (20 or 100 levels) from the panel's control. A streamed book is held whole by the
   * webview, which redraws it at the new depth itself; the fallback polls the new depth now.
   */
  setDepth(depth: BookDepth): void {
    if (depth === this.depth) return;
    this.depth = depth;
    if (this.keeper?.state === 'live') this.lastPosted = this.topOfKeeper(this.keeper);
    else this.schedulePoll(0);
  }

  /**
   * The webview asks for the streamed book again (`book-resync`: its deltas lost continuity): the
   * keeper's book goes out as a `book-snapshot` now. Nothing while the book is not live on the
   * stream (its `book-snapshot` follows the sync; polling posts snapshots anyway).
   */
  resendBook(): void {
    if (this.disposed) return;
    this.needBook = true;
    this.clearPending();
    const k = this.keeper;
    if (k?.state === 'live' && k.sequence !== undefined && this.sink.visible) this.postBook(k, k.sequence);
  }

  /** Retry / Refresh: a resync of the book (stream) or a poll now (fallback). */
  refresh(): void {
    if (this.info.mode === 'polling' || !this.keeper) this.schedulePoll(0);
    else this.keeper.resync();
  }

  /**
   * The active profile changed: what the panel shows belongs to the old one. Forget it, tell the
   * webview to clear, and start again on the new profile's connection.
   */
  profileChanged(): void {
    if (this.disposed) return;
    this.teardownStream();
    this.lastPosted = undefined;
    this.lastError = null;
    this.status = undefined;
    this.stats = undefined;
    this.trades.length = 0;
    this.failures = 0;
    this.post({ type: 'reset' });
    this.post({ type: 'trades', trades: [], replace: true });
    if (this.started) this.startStream();
    if (this.visible) {
      this.stopTimers();
      this.setVisible(true);
    }
  }

  /** Stop everything (panel closed). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopTimers();
    this.teardownStream();
    this.waiters = [];
  }

  // ----- stream -------------------------------------------------------------------------------

  private startStream(): void {
    const ch = this.deps.channel();
    const gen = ++this.generation;
    if (!ch) {
      this.setFeed({ mode: 'polling', state: 'polling', reason: 'streaming is not available for this profile' });
      return;
    }
    this.channel = ch;
    this.subs.push(
      ch.onStatus((st) => this.onChannelStatus(st)),
      ch.onHeartbeat((b) => this.onHeartbeat(b)),
      ch.subscribe(`/market/match:${this.symbol}`, (m) => {
        if (m.subject === 'trade.l3match') this.onTrade(tradeOf(m.data));
      }),
      ch.subscribe(`/market/snapshot:${this.symbol}`, (m) => {
        if (m.subject !== 'trade.snapshot') return;
        this.stats = statsOf(m.data.data);
        this.post({ type: 'stats', stats: this.stats });
      }),
    );
    this.onChannelStatus(ch.status);
    // GET /api/v1/market/orderbook/level2_100 (public, weight 4) once per sync.
    const fetchSnapshot = async (): Promise<L2Snapshot> => (await this.deps.source()).getLevel2(this.symbol, 100);
    keepBook(ch.bookSource(), this.symbol, fetchSnapshot, { reportChanges: true }).then(
      ({ keeper, stop }) => {
        if (gen !== this.generation || this.disposed) {
          void stop();
          return;
        }
        this.keeper = keeper;
        this.stopBook = stop;
        // The book's time and changes come with the increment the keeper applied (no second subscription).
        keeper.on('update', (e) => {
          if (e.time !== undefined) this.bookTime = e.time;
          this.onBookChanges(e.changes);
        });
        keeper.on('synced', () => {
          if (this.channel?.live) this.setFeed({ mode: 'stream', state: 'live', reason: null });
          // A new book: the webview must load it whole (the replayed increments follow synchronously, in it).
          this.needBook = true;
          this.clearPending();
          this.scheduleFlush();
        });
        keeper.on('resync', (e: { reason: string }) => {
          if (this.channel?.live && e.reason !== 'start') this.setFeed({ mode: 'stream', state: 'resyncing', reason: e.reason === 'gap' ? 'a sequence gap was detected: loading a fresh snapshot' : 'loading a fresh snapshot' });
        });
        keeper.on('error', (e: Error) => this.deps.log('debug', `market ${this.symbol}: book snapshot failed (retried): ${failureText(e)}`));
        if (keeper.state === 'live') this.scheduleFlush();
      },
      (e: unknown) => {
        if (gen !== this.generation) return;
        this.deps.log('warn', `market ${this.symbol}: the book stream could not be subscribed: ${failureText(e)}`);
        this.setFeed({ mode: 'polling', state: 'polling', reason: `the book stream was refused: ${failureText(e)}` });
      },
    );
  }

  private teardownStream(): void {
    this.generation++;
    for (const s of this.subs.splice(0)) s.dispose();
    const stop = this.stopBook;
    this.stopBook = undefined;
    this.keeper = undefined;
    this.channel = undefined;
    this.postedSeq = undefined;
    this.needBook = true;
    this.clearPending();
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (stop) void stop();
  }

  private onChannelStatus(st: FeedStatus): void {
    switch (st.state) {
      case 'live':
        this.stopPollTimer();
        this.setFeed({ mode: 'stream', state: this.keeper?.state === 'live' ? 'live' : 'resyncing', reason: this.keeper?.state === 'live' ? null : 'loading the book snapshot' });
        return;
      case 'polling':
        this.setFeed({ mode: 'polling', state: 'polling', reason: st.reason ?? 'the stream is unavailable' });
        if (this.visible) this.schedulePoll(0);
        return;
      case 'reconnecting':
        this.setFeed({ mode: 'stream', state: 'reconnecting', reason: st.reason });
        return;
      case 'connecting':
      case 'idle':
        this.setFeed({ mode: 'stream', state: 'connecting', reason: null });
        return;
    }
  }

  /**
   * The connection beat (welcome, pong, data): tell the webview the stream is alive, at most once
   * per {@link HEARTBEAT_POST_MS}, while the book is live on it and the panel is visible. The panel
   * judges staleness by this, not by book changes (src/features/market/model/freshness.ts).
   */
  private onHeartbeat(b: Heartbeat): void {
    if (this.disposed || !this.sink.visible || this.info.mode !== 'stream' || this.info.state !== 'live') return;
    if (this.beatPostedAt !== 0 && b.at - this.beatPostedAt < HEARTBEAT_POST_MS) return;
    this.beatPostedAt = b.at;
    this.heartbeatsPosted++;
    this.post({ type: 'heartbeat', staleAfterMs: Math.max(0, Math.round(b.timeoutMs)) });
  }

  private setFeed(info: FeedInfo): void {
    const prev = this.info;
    if (prev.mode === info.mode && prev.state === info.state && prev.reason === info.reason) return;
    this.info = info;
    this.post({ type: 'feed', ...info });
    if (prev.mode === 'polling' && info.mode === 'stream') this.stopPollTimer();
  }

  /** An increment applied by the keeper: merge its changes into the next `book-delta` (or note that the webview needs the whole book). */
  private onBookChanges(changes: { asks: [string, string][]; bids: [string, string][] } | undefined): void {
    if (!this.sink.visible || changes === undefined) {
      // Nothing is posted while hidden: the webview gets the whole book when it shows again.
      this.needBook = true;
      this.clearPending();
      return;
    }
    if (!this.needBook) {
      for (const [p, sz] of changes.bids) this.pendingBids.set(p, sz);
      for (const [p, sz] of changes.asks) this.pendingAsks.set(p, sz);
    }
    this.scheduleFlush();
  }

  private clearPending(): void {
    this.pendingBids.clear();
    this.pendingAsks.clear();
  }

  /** Flush at once after a quiet tick, else at the end of the current {@link BOOK_POST_MS} tick. */
  private scheduleFlush(): void {
    if (this.flushTimer !== undefined || this.disposed) return;
    const wait = Math.max(0, this.flushedAt + (this.deps.bookPostMs ?? BOOK_POST_MS) - performance.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushNow();
    }, wait);
  }

  /** Post the stream book message (a `book-snapshot` or the merged `book-delta`) and the pending trades. */
  private flushNow(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.disposed) return;
    const k = this.keeper;
    let posted = false;
    if (k?.state === 'live' && k.sequence !== undefined && this.sink.visible) posted = this.postBook(k, k.sequence);
    if (this.pendingTrades.length) {
      const trades = this.pendingTrades;
      this.pendingTrades = [];
      this.post({ type: 'trades', trades, replace: false });
      posted = true;
    }
    if (posted) this.flushedAt = performance.now();
  }

  private onTrade(t: TradePrint): void {
    this.trades.push(t);
    if (this.trades.length > TAPE_SIZE) this.trades.splice(0, this.trades.length - TAPE_SIZE);
    if (!this.sink.visible) return;
    this.pendingTrades.push(t);
    this.scheduleFlush();
  }

  /** The keeper's top `depth` levels as the snapshot the webview draws. */
  private topOfKeeper(k: L2BookKeeper): BookSnapshot {
    const now = this.deps.now();
    return { symbol: this.symbol, sequence: (k.sequence ?? 0n).toString(), time: this.bookTime || now, receivedAt: now, bids: k.bids(this.depth), asks: k.asks(this.depth) };
  }

  /**
   * Post the keeper's book at `seq`: whole (`book-snapshot`) when the webview needs it or the merged
   * changes are more than a message carries, else the merged changes since the last book message.
   * @returns whether a message was posted.
   */
  private postBook(k: L2BookKeeper, seq: bigint): boolean {
    const tooMany = this.pendingBids.size > MAX_BOOK_LEVELS || this.pendingAsks.size > MAX_BOOK_LEVELS;
    if (this.needBook || this.postedSeq === undefined || tooMany) {
      const now = this.deps.now();
      // The webview protocol carries the sequence as a decimal string (JSON has no bigint): converted here only.
      const whole: BookSnapshot = { symbol: this.symbol, sequence: seq.toString(), time: this.bookTime || now, receivedAt: now, bids: k.bids(MAX_BOOK_LEVELS), asks: k.asks(MAX_BOOK_LEVELS) };
      this.needBook = false;
      this.clearPending();
      this.bookSnapshotsPosted++;
      this.deliver({ type: 'book-snapshot', snapshot: whole }, this.topOfKeeper(k), seq);
      return true;
    }
    if (seq === this.postedSeq || (this.pendingBids.size === 0 && this.pendingAsks.size === 0)) return false;
    const now = this.deps.now();
    const bids: BookLevel[] = [...this.pendingBids];
    const asks: BookLevel[] = [...this.pendingAsks];
    this.clearPending();
    this.deltasPosted++;
    this.deliver({ type: 'book-delta', delta: { symbol: this.symbol, start: (this.postedSeq + 1n).toString(), end: seq.toString(), time: this.bookTime || now, receivedAt: now, bids, asks } }, this.topOfKeeper(k), seq);
    return true;
  }

  /**
   * Post one book message; `top` is the book the webview draws after it. `seq`: the stream book's
   * sequence after it (undefined for a polled snapshot: no delta continues it).
   */
  private deliver(msg: ToWebview, top: BookSnapshot, seq?: bigint): void {
    this.lastPosted = top;
    this.postedSeq = seq;
    if (this.lastError !== null) {
      this.lastError = null;
      this.post({ type: 'error', message: null });
    }
    if (!this.sink.visible) return;
    this.postedCount++;
    this.sink.post(msg);
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f(top);
  }

  private post(msg: ToWebview): void {
    if (!this.disposed && this.sink.visible) this.sink.post(msg);
  }

  // ----- polling (fallback) and service status --------------------------------------------------

  private stopTimers(): void {
    this.stopPollTimer();
    if (this.statusTimer !== undefined) clearInterval(this.statusTimer);
    this.statusTimer = undefined;
  }

  private stopPollTimer(): void {
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  private schedulePoll(ms: number): void {
    if (this.disposed || !this.visible || this.info.mode !== 'polling') return;
    this.stopPollTimer();
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      void this.poll();
    }, ms);
  }

  private async poll(): Promise<void> {
    if (this.inflight) {
      this.again = true;
      return;
    }
    this.inflight = true;
    let rateLimited = false;
    const depth = this.depth;
    const gen = this.generation;
    try {
      const src = await this.deps.source();
      this.pollCount++;
      const book = await src.getLevel2(this.symbol, depth);
      this.failures = 0;
      if (gen === this.generation && this.info.mode === 'polling') {
        const snapshot: BookSnapshot = { symbol: this.symbol, sequence: book.sequence, time: book.time, receivedAt: this.deps.now(), bids: book.bids, asks: book.asks };
        this.deliver({ type: 'snapshot', snapshot }, snapshot);
      }
    } catch (err) {
      this.failures++;
      rateLimited = (err as { isRateLimit?: boolean }).isRateLimit === true;
      const text = errText(err);
      if (text !== this.lastError) {
        this.lastError = text;
        this.deps.log('warn', `market ${this.symbol}: ${text}`);
        this.post({ type: 'error', message: text });
      }
    } finally {
      this.inflight = false;
    }
    if (this.disposed || !this.visible || this.info.mode !== 'polling') return;
    if (this.again) {
      this.again = false;
      this.schedulePoll(0);
      return;
    }
    const d = nextPollDelay({ baseMs: this.deps.intervalMs(), weight: level2Weight(depth), budget: this.deps.budget(), failures: this.failures, rateLimited });
    this.setPolling(d.backoff ? 'backoff' : 'running', d.delayMs);
    this.schedulePoll(d.delayMs);
  }

  private async pollStatus(): Promise<void> {
    try {
      const src = await this.deps.source();
      const s = await src.getStatus();
      const status: ServiceStatusValue = s.status === 'close' || s.status === 'cancelonly' ? s.status : 'open';
      this.status = { status, msg: typeof s.msg === 'string' ? s.msg.slice(0, 500) : '' };
      this.post({ type: 'status', ...this.status });
    } catch (err) {
      this.deps.log('debug', `market ${this.symbol}: status unavailable: ${errText(err)}`);
    }
  }

  private setPolling(state: 'running' | 'paused' | 'backoff', intervalMs: number): void {
    const key = `${state}:${intervalMs}`;
    if (key === this.lastPolling) return;
    this.lastPolling = key;
    this.post({ type: 'polling', state, intervalMs: Math.max(0, Math.round(intervalMs)) });
  }
}

/** The failure in words (unreachable and why, timeout, HTTP status, exchange code), at most 300 characters. */
export function errText(err: unknown): string {
  const s = failureText(err);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}
