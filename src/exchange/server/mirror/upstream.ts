/**
 * `UpstreamSource`: the {@link MarketSource} of a live upstream — KuCoin (`https://api.kucoin.com`) or another
 * KuCoin-compatible exchange such as a second SpotDesk sandbox — read through its PUBLIC API only, with
 * SpotDesk's own clients: `SpotClient` (REST, client-side weight budget per pool), `StreamClient` (WebSocket
 * with a `bullet-public` token, reconnect with jittered backoff) and `L2BookKeeper` (KuCoin's documented
 * level-2 sync). No credentials exist here: nothing private is ever sent upstream.
 *
 * Events (source.ts contract): per symbol a `snapshot` at every (re)sync, then its `l2` increments in sequence
 * order; `trade` for every `/market/match` print while the symbol is synced; `status` `unreachable`,
 * `resyncing` or `live`. Also {@link fetchUpstreamWorld}: the mirrored symbols' and currencies' rows and their
 * 1-minute candles back 3 × 24 h. Each event and status, and the candle pages: docs/sandbox.md
 * "Mirror upstream (`mirror/upstream.ts`)".
 */
import { SpotClient } from '../../../api/client';
import { L2BookKeeper, level2Snapshot, type L2Increment } from '../../../api/l2Book';
import type { Candle, Currency, SymbolInfo } from '../../../api/schemas';
import { StreamClient, type StreamClientOptions } from '../../../api/stream';
import type { StreamData, WsL2Update, WsMatch } from '../../../api/streamSchemas';
import type { CandleRowData } from '../marketTape';
import type { MarketEvent, MarketSource, MarketStatusEvent } from './source';

/** Options of {@link UpstreamSource}. */
export interface UpstreamSourceOptions {
  /** e.g. `https://api.kucoin.com` or a sandbox's `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** Symbols to mirror, e.g. `['BTC-USDT']`. */
  symbols: string[];
  /** Give up `start()` when the first snapshots have not all arrived within this many ms. Default 30,000. */
  startTimeoutMs?: number;
  /** Reconnect backoff of the stream (StreamClient): shortest / longest delay, ms. Defaults 250 / 10,000. */
  minReconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** REST timeout per request, ms. Default 10,000. */
  timeoutMs?: number;
  /** Diagnostics (never secrets: there are none). */
  log?: (line: string) => void;
  /** Clock (ms) of `since` fields. Default Date.now. */
  now?: () => number;
}

/** Time the upstream's stream publishes, as ms (the schemas decode `time` to ms or to a ns digit string). */
function msOf(t: unknown, fallback: number): number {
  if (typeof t === 'number') return t;
  if (typeof t === 'bigint') return Number(t / 1_000_000n);
  if (typeof t === 'string' && /^\d+$/.test(t)) return t.length > 15 ? Number(t.slice(0, t.length - 6)) : Number(t);
  return fallback;
}

/** A live upstream's public market (see the module docstring). */
export class UpstreamSource implements MarketSource {
  private readonly opts: UpstreamSourceOptions;
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private client: SpotClient | undefined;
  private stream: StreamClient | undefined;
  private readonly keepers = new Map<string, L2BookKeeper>();
  /** increments handed to a keeper, by sequenceEnd, until it applied or dropped them */
  private readonly pending = new Map<string, Map<bigint, L2Increment>>();
  /** the sequence up to which a symbol's changes were delivered */
  private readonly delivered = new Map<string, bigint>();
  private onEvent: ((e: MarketEvent) => void) | undefined;
  private status: MarketStatusEvent | undefined;
  private streamUp = false;
  private closed = false;

  constructor(opts: UpstreamSourceOptions) {
    if (opts.symbols.length === 0) throw new Error('UpstreamSource: no symbols');
    this.opts = opts;
    this.log = opts.log ?? (() => undefined);
    this.now = opts.now ?? Date.now;
  }

  /** Keeper statistics per symbol (messages, gaps, resyncs…), for diagnostics and tests. */
  stats(): Record<string, L2BookKeeper['stats']> {
    return Object.fromEntries([...this.keepers].map(([s, k]) => [s, { ...k.stats }]));
  }

  /**
   * Connect, subscribe `/market/level2` and `/market/match` for every symbol, sync every book.
   * @throws (async) Error when the first snapshots are not all delivered within `startTimeoutMs` (the upstream
   *   is unreachable, or a symbol is unknown to it); everything is closed then.
   */
  async start(onEvent: (e: MarketEvent) => void): Promise<void> {
    if (this.onEvent) throw new Error('UpstreamSource: already started');
    this.onEvent = onEvent;
    const o = this.opts;
    const client = new SpotClient({ baseUrl: o.baseUrl, timeoutMs: o.timeoutMs });
    this.client = client;
    const streamOpts: StreamClientOptions = { token: () => client.getBulletPublic() };
    if (o.minReconnectDelayMs !== undefined) streamOpts.minReconnectDelayMs = o.minReconnectDelayMs;
    if (o.maxReconnectDelayMs !== undefined) streamOpts.maxReconnectDelayMs = o.maxReconnectDelayMs;
    const stream = new StreamClient(streamOpts);
    this.stream = stream;
    const synced = new Set<string>();
    let allSynced!: () => void;
    const ready = new Promise<void>((resolve) => (allSynced = resolve));

    for (const symbol of o.symbols) {
      const keeper = new L2BookKeeper({ symbol, fetchSnapshot: level2Snapshot(client, symbol, 100), retryDelayMs: (n) => Math.min(100 * 2 ** (n - 1), 5_000) });
      this.keepers.set(symbol, keeper);
      this.pending.set(symbol, new Map());
      keeper.on('error', (e: Error) => this.log(`mirror: ${symbol}: snapshot failed: ${e.message}`));
      keeper.on('resync', (r: { reason: string }) => {
        if (r.reason !== 'start') this.setStatus('resyncing', `the ${symbol} book is resyncing (${r.reason})`, symbol);
      });
      keeper.on('synced', (s: { sequence: bigint }) => {
        this.delivered.set(symbol, s.sequence);
        this.emit({ type: 'snapshot', symbol, sequence: String(s.sequence), bids: keeper.bids(), asks: keeper.asks(), time: this.now() });
        synced.add(symbol);
        if (synced.size === o.symbols.length) allSynced();
        this.checkLive();
      });
      keeper.on('update', (u: { sequence: bigint }) => this.deliverIncrement(symbol, u.sequence));
    }
    stream.on('message', (m: StreamData) => this.onMessage(m));
    stream.on('close', (c: { code?: number; reason?: string }) => {
      this.streamUp = false;
      if (!this.closed) this.setStatus('unreachable', `the upstream's stream closed (${c?.code ?? '?'}${c?.reason ? ` ${c.reason}` : ''})`);
    });
    stream.on('error', (e: Error) => {
      if (!this.streamUp && !this.closed) this.setStatus('unreachable', `the upstream cannot be reached: ${e.message}`);
    });
    stream.on('reconnected', () => {
      this.streamUp = true;
      // increments sent while the connection was down are lost: every book syncs again
      for (const [symbol, k] of this.keepers) {
        this.setStatus('resyncing', `the ${symbol} book is resyncing after a reconnect`, symbol);
        k.resync();
      }
    });

    const timeoutMs = o.startTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the upstream ${o.baseUrl} did not deliver the books of ${o.symbols.join(',')} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([
        (async () => {
          await stream.start();
          this.streamUp = true;
          const list = o.symbols.join(',');
          await stream.subscribe(`/market/match:${list}`);
          await stream.subscribe(`/market/level2:${list}`);
          // snapshots only once the subscriptions are active: increments published before are in them
          for (const k of this.keepers.values()) k.start();
          await ready;
        })(),
        timeout,
      ]);
    } catch (e) {
      await this.close();
      throw e;
    } finally {
      clearTimeout(timer);
    }
    this.checkLive();
  }

  /** Stop: close the stream and the keepers. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const k of this.keepers.values()) k.close();
    this.stream?.close();
    this.client?.close();
  }

  private emit(e: MarketEvent): void {
    if (this.closed || !this.onEvent) return;
    try {
      this.onEvent(e);
    } catch (err) {
      this.log(`mirror: the consumer failed on a ${e.type} event: ${(err as Error).message}`);
    }
  }

  private setStatus(state: MarketStatusEvent['state'], reason: string, symbol?: string): void {
    if (this.status?.state === state && this.status.symbol === symbol) return;
    this.status = { type: 'status', state, reason, since: this.now(), ...(symbol !== undefined ? { symbol } : {}) };
    this.log(`mirror: upstream ${state}: ${reason}`);
    this.emit(this.status);
  }

  private checkLive(): void {
    if (!this.streamUp) return;
    for (const k of this.keepers.values()) if (k.state !== 'live') return;
    this.setStatus('live', 'every book is synced');
  }

  private onMessage(m: StreamData): void {
    if (m.subject === 'trade.l2update') {
      const u = m.data as WsL2Update;
      const keeper = this.keepers.get(u.symbol);
      const pend = this.pending.get(u.symbol);
      if (!keeper || !pend) return;
      pend.set(u.sequenceEnd, u);
      keeper.apply(u);
      // what the keeper holds no more (applied, stale or dropped on overflow) leaves the table
      if (keeper.state === 'live') pend.clear();
      else if (pend.size > 20_000) pend.delete(pend.keys().next().value as bigint);
      this.checkLive();
    } else if (m.subject === 'trade.l3match') {
      const t = m.data as WsMatch;
      // a print of a book that is not synced would fill against a stale book
      if (this.keepers.get(t.symbol)?.state !== 'live') return;
      this.emit({ type: 'trade', symbol: t.symbol, sequence: String(t.sequence), tradeId: String(t.tradeId), price: t.price, size: t.size, side: t.side, time: msOf(t.time, this.now()) });
    }
  }

  /** The keeper applied the increment ending at `seq`: deliver its changes not delivered yet. */
  private deliverIncrement(symbol: string, seq: bigint): void {
    const u = this.pending.get(symbol)?.get(seq);
    const last = this.delivered.get(symbol);
    if (!u || last === undefined) return;
    const after = (c: readonly [string, string, bigint | string]): boolean => BigInt(c[2]) > last;
    const asks = u.changes.asks.filter(after).map((c): [string, string, string] => [c[0], c[1], String(c[2])]);
    const bids = u.changes.bids.filter(after).map((c): [string, string, string] => [c[0], c[1], String(c[2])]);
    this.delivered.set(symbol, seq);
    this.emit({ type: 'l2', symbol, sequenceStart: String(u.sequenceStart > last ? u.sequenceStart : last + 1n), sequenceEnd: String(seq), changes: { asks, bids }, time: msOf(u.time, this.now()) });
  }
}

/** What a mirror sandbox's world is made of (see {@link fetchUpstreamWorld}); also what a recording carries. */
export interface MirrorWorldData {
  /** `/api/v2/symbols` rows of the mirrored symbols. */
  symbols: SymbolInfo[];
  /** `/api/v3/currencies` rows of their base and quote currencies. */
  currencies: Currency[];
  /** Per symbol, 1-minute candles `[start (s), open, close, high, low, volume, turnover]`, oldest first (may be empty). */
  candles: Record<string, CandleRowData[]>;
}

/** Options of {@link fetchUpstreamWorld}. */
export interface FetchWorldOptions {
  /** How far back the candles go, ms. Default 3 × 24 h (the sandbox's history window). */
  historyMs?: number;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
  /** REST timeout per request, ms. Default 10,000. */
  timeoutMs?: number;
}

/** 1-minute candle rows per request (KuCoin answers at most 1,500). */
const CANDLE_PAGE_ROWS = 1_500;

/**
 * Read the upstream's reference data for `symbols` and their candles (public REST only; the client's weight
 * budget keeps the requests within the public pool's quota: spec "Limits").
 * @throws Error naming the symbols the upstream does not list; ApiError / TransportError of the requests.
 */
export async function fetchUpstreamWorld(baseUrl: string, symbols: string[], opts: FetchWorldOptions = {}): Promise<MirrorWorldData> {
  const client = new SpotClient({ baseUrl, timeoutMs: opts.timeoutMs });
  try {
    const allSymbols = await client.getSymbols();
    const wanted = new Set(symbols);
    const rows = allSymbols.filter((s) => wanted.has(s.symbol));
    const missing = symbols.filter((s) => !rows.some((r) => r.symbol === s));
    if (missing.length > 0) throw new Error(`the upstream ${baseUrl} does not list ${missing.join(', ')}`);
    const codes = new Set(rows.flatMap((r) => [r.baseCurrency, r.quoteCurrency]));
    const currencies = (await client.getCurrencies()).filter((c) => codes.has(c.currency));
    const now = (opts.now ?? Date.now)();
    const endS = Math.floor(now / 60_000) * 60;
    const startS = endS - Math.floor((opts.historyMs ?? 3 * 86_400_000) / 1000);
    const candles: Record<string, CandleRowData[]> = {};
    for (const symbol of symbols) {
      const byStart = new Map<number, CandleRowData>();
      // newest first, CANDLE_PAGE_ROWS per page, from the end of the window backwards
      for (let to = endS; to > startS; to -= CANDLE_PAGE_ROWS * 60) {
        const from = Math.max(startS, to - CANDLE_PAGE_ROWS * 60);
        const page: Candle[] = await client.getCandles({ symbol, type: '1min', startAt: from, endAt: to });
        for (const c of page) {
          const t = Number(c[0]);
          if (t >= startS && t < endS) byStart.set(t, [t, c[1], c[2], c[3], c[4], c[5], c[6]]);
        }
      }
      candles[symbol] = [...byStart.values()].sort((a, b) => a[0] - b[0]);
    }
    return { symbols: rows, currencies, candles };
  } finally {
    client.close();
  }
}
