/**
 * tardis.dev CSV datasets ⇄ SpotDesk market events: {@link tardisToEvents} reads tardis's `incremental_book_L2`
 * and `trades` files (https://docs.tardis.dev/downloadable-csv-files; times in microseconds, UTC) into
 * recording events; {@link eventsToTardis} writes the reverse (it generates the test fixture from a recording,
 * leaving out changes a snapshot already contains, since tardis rows carry no sequence).
 *
 * Key rules of the mapping:
 * - a run of snapshot rows with one `local_timestamp` → one `snapshot` (with `status` events around it);
 *   consecutive non-snapshot rows with one `local_timestamp` → one `l2`; each trade row → one `trade` (rows
 *   with side `unknown` are dropped and counted);
 * - KuCoin's sequences are synthesized (one counter: contiguous `sequenceStart..sequenceEnd`), not KuCoin's;
 * - `time` = `timestamp` / 1000, `recv` = `local_timestamp` / 1000 (ms, rounded down); book and trade rows are
 *   merged by `local_timestamp`, trades first when equal (each file's own order is kept).
 * The columns, the full mapping and what tardis lacks: docs/recording.md "tardis.dev CSV".
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import { cmp } from '../../../api/decimal';
import { buildWorld } from '../world';
import { RECORDING_FORMAT, RECORDING_VERSION, RecordingWriter, type RecordedEvent, type RecordingHeader } from './recording';

/** Column header of tardis `incremental_book_L2` files. */
export const TARDIS_BOOK_COLUMNS = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
/** Column header of tardis `trades` files. */
export const TARDIS_TRADES_COLUMNS = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';

/** Rows of a CSV text as objects keyed by its header (tardis values hold no quotes or commas). @throws Error when a required column is missing. */
function rowsOf(csv: string, required: string[]): Record<string, string>[] {
  const lines = csv.split('\n');
  const head = (lines[0] ?? '').replace(/\r$/, '').split(',');
  for (const c of required) if (!head.includes(c)) throw new Error(`tardis CSV lacks the column ${c} (header: ${head.join(',')})`);
  const out: Record<string, string>[] = [];
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i].replace(/\r$/, '');
    if (l === '') continue;
    const v = l.split(',');
    const r: Record<string, string> = {};
    for (let j = 0; j < head.length; j++) r[head[j]] = v[j] ?? '';
    out.push(r);
  }
  return out;
}

/** µs digit string → ms (rounded down). @throws Error for a non-integer. */
function ms(us: string): number {
  if (!/^\d+$/.test(us)) throw new Error(`tardis timestamp must be integer microseconds, got ${us}`);
  return Math.floor(Number(us) / 1000);
}

/** Result counters of a conversion. */
export interface TardisStats {
  events: number;
  snapshots: number;
  l2: number;
  trades: number;
  /** Trade rows with side `unknown`, dropped. */
  unknownSide: number;
}

/**
 * Convert the CSV texts of one symbol into recorded events (see the module docstring for the mapping).
 * @throws Error when a column is missing, a timestamp is not integer µs, a side is unknown, or book rows precede the first snapshot.
 */
export function tardisToEvents(bookCsv: string, tradesCsv: string | undefined, symbol: string): { events: RecordedEvent[]; stats: TardisStats } {
  const book = rowsOf(bookCsv, ['timestamp', 'local_timestamp', 'is_snapshot', 'side', 'price', 'amount']).filter((r) => r.symbol === undefined || r.symbol === symbol);
  const trades = tradesCsv === undefined ? [] : rowsOf(tradesCsv, ['timestamp', 'local_timestamp', 'id', 'side', 'price', 'amount']).filter((r) => r.symbol === undefined || r.symbol === symbol);
  const stats: TardisStats = { events: 0, snapshots: 0, l2: 0, trades: 0, unknownSide: 0 };
  const events: RecordedEvent[] = [];
  let seq = 0n;
  let haveSnapshot = false;
  let bi = 0;
  let ti = 0;
  const emitTrade = (r: Record<string, string>): void => {
    if (r.side !== 'buy' && r.side !== 'sell') {
      if (r.side === 'unknown') {
        stats.unknownSide++;
        return;
      }
      throw new Error(`tardis trade side must be buy, sell or unknown, got ${r.side}`);
    }
    events.push({ type: 'trade', symbol, sequence: seq.toString(), tradeId: r.id, price: r.price, size: r.amount, side: r.side, time: ms(r.timestamp), recv: ms(r.local_timestamp) });
    stats.trades++;
  };
  const emitBookGroup = (): void => {
    const first = book[bi];
    const snap = first.is_snapshot === 'true';
    const lt = first.local_timestamp;
    let end = bi;
    while (end < book.length && book[end].local_timestamp === lt && (book[end].is_snapshot === 'true') === snap) end++;
    const group = book.slice(bi, end);
    bi = end;
    const time = ms(first.timestamp);
    const recv = ms(lt);
    for (const r of group) if (r.side !== 'bid' && r.side !== 'ask') throw new Error(`tardis book side must be bid or ask, got ${r.side}`);
    if (snap) {
      if (haveSnapshot) events.push({ type: 'status', state: 'resyncing', symbol, reason: `${symbol}: new snapshot in the tardis data`, since: time, recv });
      seq++;
      const levels = (side: string, dir: 1 | -1): [string, string][] =>
        group
          .filter((r) => r.side === side && !/^[0.]+$/.test(r.amount))
          .map((r): [string, string] => [r.price, r.amount])
          .sort((a, b) => dir * cmp(a[0], b[0]));
      events.push({ type: 'snapshot', symbol, sequence: seq.toString(), bids: levels('bid', -1), asks: levels('ask', 1), time, recv });
      events.push({ type: 'status', state: 'live', reason: 'every symbol synced', since: time, recv });
      stats.snapshots++;
      haveSnapshot = true;
      return;
    }
    if (!haveSnapshot) throw new Error('tardis book rows precede the first snapshot (is_snapshot=true) rows');
    const start = seq + 1n;
    const asks: [string, string, string][] = [];
    const bids: [string, string, string][] = [];
    for (const r of group) (r.side === 'ask' ? asks : bids).push([r.price, r.amount, (++seq).toString()]);
    events.push({ type: 'l2', symbol, sequenceStart: start.toString(), sequenceEnd: seq.toString(), changes: { asks, bids }, time, recv });
    stats.l2++;
  };
  while (bi < book.length || ti < trades.length) {
    if (bi >= book.length || (ti < trades.length && BigInt(trades[ti].local_timestamp) <= BigInt(book[bi].local_timestamp))) emitTrade(trades[ti++]);
    else emitBookGroup();
  }
  stats.events = events.length;
  return { events, stats };
}

/**
 * Write the events of `symbol` as tardis CSV texts (`exchange` column `kucoin`). Snapshot and l2 events become
 * book rows, trades trade rows; status events have no tardis form. Changes with a sequence ≤ the book's are
 * skipped (a snapshot already contains them).
 */
export function eventsToTardis(events: Iterable<RecordedEvent>, symbol: string, exchange = 'kucoin'): { book: string; trades: string } {
  const book: string[] = [TARDIS_BOOK_COLUMNS];
  const trades: string[] = [TARDIS_TRADES_COLUMNS];
  const us = (msTime: number): string => `${msTime}000`;
  let last = -1n;
  for (const e of events) {
    if (e.type === 'status' || e.symbol !== symbol) continue;
    if (e.type === 'snapshot') {
      for (const [p, s] of e.bids) book.push(`${exchange},${symbol},${us(e.time)},${us(e.recv)},true,bid,${p},${s}`);
      for (const [p, s] of e.asks) book.push(`${exchange},${symbol},${us(e.time)},${us(e.recv)},true,ask,${p},${s}`);
      last = BigInt(e.sequence);
    } else if (e.type === 'l2') {
      const changes = [...e.changes.asks.map((c) => ['ask', ...c] as const), ...e.changes.bids.map((c) => ['bid', ...c] as const)]
        .filter((c) => BigInt(c[3]) > last)
        .sort((a, b) => (BigInt(a[3]) < BigInt(b[3]) ? -1 : BigInt(a[3]) > BigInt(b[3]) ? 1 : 0));
      for (const [side, p, s] of changes) book.push(`${exchange},${symbol},${us(e.time)},${us(e.recv)},false,${side},${p},${s}`);
      if (BigInt(e.sequenceEnd) > last) last = BigInt(e.sequenceEnd);
    } else {
      trades.push(`${exchange},${symbol},${us(e.time)},${us(e.recv)},${e.tradeId},${e.side},${e.price},${e.size}`);
    }
  }
  return { book: `${book.join('\n')}\n`, trades: `${trades.join('\n')}\n` };
}

/** Read a CSV file, gunzipping `.gz` ones. */
function readCsv(file: string): string {
  const buf = fs.readFileSync(file);
  return (file.endsWith('.gz') ? zlib.gunzipSync(buf) : buf).toString('utf8');
}

/**
 * `spotdesk-sandbox convert-tardis`: convert tardis CSV files of one symbol into a recording at `out`. The
 * header's symbol and currency rows come from the bundled world (server/seed), since tardis has none.
 * Reads the files whole (in memory).
 * @throws Error when the symbol is not in the bundled world, or as {@link tardisToEvents}; fs errors.
 */
export function convertTardis(opts: { book: string; trades?: string; symbol: string; out: string }): TardisStats & { bytes: number } {
  const world = buildWorld();
  const row = world.symbolMap.get(opts.symbol);
  if (!row) throw new Error(`${opts.symbol} is not a symbol of the bundled world: its trading rules are unknown`);
  const { events, stats } = tardisToEvents(readCsv(opts.book), opts.trades === undefined ? undefined : readCsv(opts.trades), opts.symbol);
  const codes = new Set([row.baseCurrency, row.quoteCurrency, row.feeCurrency]);
  const header: RecordingHeader = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    source: `tardis:${opts.symbol}`,
    start: events.length > 0 ? events[0].recv : 0,
    symbolNames: [opts.symbol],
    symbols: [row],
    currencies: world.currencies.filter((c) => codes.has(c.currency)),
    notes: { converter: 'spotdesk-sandbox convert-tardis', sequences: 'synthesized', unknownSideTrades: stats.unknownSide },
  };
  const w = new RecordingWriter(opts.out, header);
  for (const e of events) w.append(e);
  w.close('converted', header.start);
  return { ...stats, bytes: w.bytes };
}
