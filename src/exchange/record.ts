/**
 * The market recorder behind `spotdesk-sandbox record` (docs/recording.md): records an upstream's public
 * market (KuCoin, or a SpotDesk sandbox) into a recording file (server/mirror/recording.ts).
 *
 * Public endpoints only, no credentials: GET /api/v2/symbols and /api/v3/currencies for the header, POST
 * /api/v1/bullet-public for the WebSocket token, `/market/level2:{symbol}` kept exactly with SpotDesk's
 * {@link keepBook} / {@link L2BookKeeper} (KuCoin's "Calibration procedure": REST snapshot GET level2_100,
 * buffered increments, gap detection, resync), and `/market/match:{symbols}` for the trades.
 *
 * What is written, per symbol, follows the {@link MarketSource} contract, so a replay is a valid source:
 * `status resyncing` when the keeper (re)starts a sync (start, gap, reconnect), the REST `snapshot` the keeper
 * loaded, every `l2` increment the keeper applied, in sequence order (those contained in the snapshot or
 * stale are not written), and `status live` once every symbol is synced; `status unreachable` when the
 * stream connection drops. Trades are written as they arrive. Every `snapshotEveryMs` the books are resynced
 * from a fresh REST snapshot (written as a `snapshot` without status events): it bounds how long levels
 * deeper than the 100-level snapshot stay unknown, and gives a replay restart points.
 */
import { SpotClient } from '../api/client';
import { keepBook, level2Snapshot, type L2BookKeeper, type L2Snapshot } from '../api/l2Book';
import type { Currency, SymbolInfo } from '../api/schemas';
import { StreamClient } from '../api/stream';
import type { WsL2Update, WsMatch } from '../api/streamSchemas';
import { RECORDING_FORMAT, RECORDING_VERSION, RecordingWriter, type RecordedEvent, type RecordingHeader } from './server/mirror/recording';

/** Options of {@link startRecorder}. */
export interface RecorderOptions {
  /** Upstream base URL, e.g. "https://api.kucoin.com" or a sandbox's. */
  baseUrl: string;
  /** Symbols to record (e.g. ["BTC-USDT"]); each must exist upstream. */
  symbols: string[];
  /** Output file (created or truncated). */
  out: string;
  /** Flush a block at least this often, ms: what a killed recorder can lose at most. Default 1000. */
  flushMs?: number;
  /** Resync the books from a fresh REST snapshot this often, ms; 0 = never. Default 300,000 (5 min). */
  snapshotEveryMs?: number;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
  /** Notes and warnings (never secrets: there are none). Default: none. */
  log?: (line: string) => void;
}

/** Counters of a running recorder. */
export interface RecorderStats {
  events: number;
  l2: number;
  trades: number;
  snapshots: number;
  statuses: number;
  bytes: number;
  blocks: number;
}

/** A running recorder. */
export interface Recorder {
  readonly stats: RecorderStats;
  /** The keeper of each symbol (its `sequence` is the last recorded book sequence). */
  readonly keepers: ReadonlyMap<string, L2BookKeeper>;
  /** Stop: unsubscribe, flush, write the end trailer, close the file and the connections. Idempotent. */
  stop(reason?: string): Promise<void>;
}

/** A wire `trade.l2update` as the recording's `l2` event. */
function l2Event(u: WsL2Update, recv: number): RecordedEvent {
  const ch = (rows: WsL2Update['changes']['asks']): [string, string, string][] => rows.map((c) => [c[0], c[1], c[2].toString()]);
  return { type: 'l2', symbol: u.symbol, sequenceStart: u.sequenceStart.toString(), sequenceEnd: u.sequenceEnd.toString(), changes: { asks: ch(u.changes.asks), bids: ch(u.changes.bids) }, time: u.time, recv };
}

/** A wire `trade.l3match` as the recording's `trade` event (`time` ns → ms, rounded down). */
function tradeEvent(m: WsMatch, recv: number): RecordedEvent {
  return { type: 'trade', symbol: m.symbol, sequence: m.sequence.toString(), tradeId: m.tradeId, price: m.price, size: m.size, side: m.side, time: Number(BigInt(m.time) / 1_000_000n), recv };
}

/**
 * Start recording (see the module docstring). Resolves once the header is written and the subscriptions are
 * active (the first snapshots may still be on their way).
 * @throws (async) Error when a symbol does not exist upstream, the upstream cannot be reached, or the file cannot be created.
 */
export async function startRecorder(opts: RecorderOptions): Promise<Recorder> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const client = new SpotClient({ baseUrl: opts.baseUrl });
  let symbolRows: SymbolInfo[];
  let currencyRows: Currency[];
  try {
    [symbolRows, currencyRows] = await Promise.all([client.getSymbols(), client.getCurrencies()]);
  } catch (e) {
    client.close();
    throw e;
  }
  const rows = opts.symbols.map((s) => symbolRows.find((r) => r.symbol === s));
  const unknown = opts.symbols.filter((_, i) => rows[i] === undefined);
  if (unknown.length > 0) {
    client.close();
    throw new Error(`unknown symbol(s) at ${opts.baseUrl}: ${unknown.join(', ')}`);
  }
  const symbols = rows as SymbolInfo[];
  const codes = new Set(symbols.flatMap((s) => [s.baseCurrency, s.quoteCurrency, s.feeCurrency]));
  const header: RecordingHeader = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    source: opts.baseUrl,
    start: now(),
    symbolNames: [...opts.symbols],
    symbols,
    currencies: currencyRows.filter((c) => codes.has(c.currency)),
    notes: { recorder: 'spotdesk-sandbox record', snapshotDepth: 100, snapshotEveryMs: opts.snapshotEveryMs ?? 300_000 },
  };
  let writer: RecordingWriter;
  try {
    writer = new RecordingWriter(opts.out, header);
  } catch (e) {
    client.close();
    throw e;
  }
  const stats: RecorderStats = { events: 0, l2: 0, trades: 0, snapshots: 0, statuses: 0, bytes: writer.bytes, blocks: writer.blocks };
  const write = (e: RecordedEvent): void => {
    writer.append(e);
    stats.events++;
    if (e.type === 'l2') stats.l2++;
    else if (e.type === 'trade') stats.trades++;
    else if (e.type === 'snapshot') stats.snapshots++;
    else stats.statuses++;
  };
  const flush = (): void => {
    writer.flush();
    stats.bytes = writer.bytes;
    stats.blocks = writer.blocks;
  };

  const stream = new StreamClient({ token: () => client.getBulletPublic() });
  const keepers = new Map<string, L2BookKeeper>();
  const stops: (() => Promise<void>)[] = [];
  /** Increments received but not yet applied by the keeper, by symbol and sequenceEnd. */
  const received = new Map<string, Map<string, WsL2Update>>();
  /** REST snapshots fetched, by symbol and sequence (the keeper tells which one it loaded). */
  const fetched = new Map<string, Map<string, { snap: L2Snapshot & { time?: number }; recv: number }>>();
  /** Symbols whose current resync is the periodic one (no status events). */
  const quietResync = new Set<string>();
  /** Symbols whose book is not synced (all of them until their first snapshot: `live` waits for every one). */
  const syncing = new Set<string>(opts.symbols);
  let streamDown = false;
  let stopped = false;

  const setLive = (): void => {
    if (syncing.size === 0 && !streamDown) write({ type: 'status', state: 'live', reason: 'every symbol synced', since: now(), recv: now() });
  };

  stream.on('close', () => {
    if (stopped || streamDown) return;
    streamDown = true;
    write({ type: 'status', state: 'unreachable', reason: `stream connection to ${opts.baseUrl} lost`, since: now(), recv: now() });
  });
  stream.on('reconnected', () => {
    streamDown = false;
  });
  stream.on('message', (m) => {
    if (m.kind !== 'message' || m.subject !== 'trade.l3match') return;
    write(tradeEvent(m.data, now()));
  });

  const matchTopic = `/market/match:${opts.symbols.join(',')}`;
  try {
    await stream.start();
    for (const symbol of opts.symbols) {
      const pending = new Map<string, WsL2Update>();
      const snaps = new Map<string, { snap: L2Snapshot & { time?: number }; recv: number }>();
      received.set(symbol, pending);
      fetched.set(symbol, snaps);
      // registered before keepBook's own listener: the increment is known when the keeper applies it
      stream.on('message', (m) => {
        if (m.kind !== 'message' || m.subject !== 'trade.l2update' || m.symbol !== symbol) return;
        pending.set(m.data.sequenceEnd.toString(), m.data);
        // bounded like the keeper's own buffer (it drops the oldest beyond 10,000 while syncing)
        if (pending.size > 20_000) pending.delete(pending.keys().next().value as string);
      });
      const rest = level2Snapshot(client, symbol, 100);
      const fetchSnapshot = async (): Promise<L2Snapshot> => {
        const snap = (await rest()) as L2Snapshot & { time?: number };
        snaps.set(String(snap.sequence), { snap, recv: now() });
        return snap;
      };
      const kept = await keepBook(stream, symbol, fetchSnapshot);
      const keeper = kept.keeper;
      keepers.set(symbol, keeper);
      stops.push(kept.stop);
      // registered after keepBook's listener: what a live keeper did not apply was stale
      stream.on('message', (m) => {
        if (m.kind === 'message' && m.subject === 'trade.l2update' && m.symbol === symbol && keeper.state === 'live') pending.clear();
      });
      keeper.on('error', (e: Error) => log(`${symbol}: snapshot request failed (${e.message}); retrying`));
      keeper.on('resync', (r: { reason: string }) => {
        syncing.add(symbol);
        if (quietResync.has(symbol)) return;
        write({ type: 'status', state: 'resyncing', symbol, reason: `${symbol}: book sync (${r.reason})`, since: now(), recv: now() });
      });
      keeper.on('synced', (s: { sequence: bigint }) => {
        const key = s.sequence.toString();
        const got = snaps.get(key);
        snaps.clear();
        for (const k of [...pending.keys()]) if (BigInt(k) <= s.sequence) pending.delete(k);
        if (got) {
          const { snap, recv } = got;
          write({ type: 'snapshot', symbol, sequence: key, bids: snap.bids.map((l) => [l[0], l[1]]), asks: snap.asks.map((l) => [l[0], l[1]]), time: snap.time ?? recv, recv });
        } else log(`${symbol}: the keeper loaded a snapshot the recorder did not see (sequence ${key})`);
        syncing.delete(symbol);
        if (quietResync.delete(symbol)) return;
        setLive();
      });
      keeper.on('update', (u: { sequence: bigint }) => {
        const key = u.sequence.toString();
        const inc = pending.get(key);
        if (inc === undefined) return;
        pending.delete(key);
        write(l2Event(inc, now()));
      });
      // keepBook started the keeper before we listened: its first resync event is already gone (its snapshot
      // cannot have arrived yet: the request needs I/O)
      write({ type: 'status', state: 'resyncing', symbol, reason: `${symbol}: book sync (start)`, since: now(), recv: now() });
    }
    await stream.subscribe(matchTopic);
  } catch (e) {
    for (const s of stops) await s().catch(() => undefined);
    stream.close();
    client.close();
    writer.close(`failed: ${(e as Error).message}`, now());
    throw e;
  }

  const flushTimer = setInterval(flush, opts.flushMs ?? 1000);
  const every = opts.snapshotEveryMs ?? 300_000;
  const resyncTimer =
    every > 0
      ? setInterval(() => {
          for (const [symbol, keeper] of keepers) {
            if (keeper.state !== 'live') continue;
            quietResync.add(symbol);
            keeper.resync();
          }
        }, every)
      : undefined;

  return {
    stats,
    keepers,
    async stop(reason = 'stopped') {
      if (stopped) return;
      stopped = true;
      clearInterval(flushTimer);
      if (resyncTimer) clearInterval(resyncTimer);
      await stream.unsubscribe(matchTopic).catch(() => undefined);
      for (const s of stops) await s().catch(() => undefined);
      stream.close();
      client.close();
      writer.close(reason, now());
      stats.bytes = writer.bytes;
      stats.blocks = writer.blocks;
    },
  };
}
