/**
 * tardis.dev CSV (src/exchange/server/mirror/tardis.ts): the fixture is generated from a recording of an upstream
 * sandbox (recording → `incremental_book_L2` and `trades` CSV, gzipped like tardis's downloads), then converted
 * back (`convert-tardis`) and replayed: the same final book and the same trades as the upstream's.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { readRecording } from '../../../src/exchange/server/mirror/recording';
import { ReplaySource } from '../../../src/exchange/server/mirror/replay';
import type { MarketEvent } from '../../../src/exchange/server/mirror/source';
import { convertTardis, eventsToTardis, TARDIS_BOOK_COLUMNS, TARDIS_TRADES_COLUMNS, tardisToEvents } from '../../../src/exchange/server/mirror/tardis';
import { admin, startTestSandbox } from '../server/helpers';
import { booksOf, canon, driveRound, recordSession, tempDir, trader, waitFor } from './helpers';

const SYM = 'BTC-USDT';

describe('tardis: recording → tardis CSV → events', function () {
  this.timeout(30_000);
  let up: RunningSandbox;
  let c: SpotClient;
  let tmp: ReturnType<typeof tempDir>;
  let csv: { book: string; trades: string };
  let tradesBefore: number;

  before(async () => {
    up = await startTestSandbox({ rateLimits: false });
    c = await trader(up);
    tmp = tempDir('spotdesk-tardis-');
    const file = path.join(tmp.dir, 'session.sdrec');
    // a periodic resync mid-session: the CSV then holds a second snapshot run
    ({ tradesBefore } = await recordSession(up, c, file, 6, {
      symbols: [SYM],
      snapshotEveryMs: 40,
      afterRound: async () => {
        await admin(up, 'POST', '/sandbox/v1/clock', { advanceMs: 100 });
      },
      during: async (rec) => {
        await waitFor(() => rec.stats.snapshots >= 2, 'a periodic resync');
        await driveRound(up, c, 7);
      },
    }));
    csv = eventsToTardis(readRecording(file).events, SYM);
  });
  after(async () => {
    c?.close();
    await up?.close();
    tmp?.cleanup();
  });

  it('the generated CSV has tardis columns, µs times and snapshot runs', () => {
    const book = csv.book.trim().split('\n');
    const trades = csv.trades.trim().split('\n');
    assert.equal(book[0], TARDIS_BOOK_COLUMNS);
    assert.equal(trades[0], TARDIS_TRADES_COLUMNS);
    assert.match(book[1], /^kucoin,BTC-USDT,\d{16},\d{16},true,(bid|ask),[\d.]+,[\d.]+$/);
    assert.ok(book.some((l) => /,false,(bid|ask),/.test(l)));
    assert.ok(trades.length > 12);
    assert.match(trades[1], /^kucoin,BTC-USDT,\d{16},\d{16},\d+,(buy|sell),[\d.]+,[\d.]+$/);
  });

  it('convert-tardis of the gzipped CSV replays to the upstream final book and trades', async () => {
    const bookGz = path.join(tmp.dir, 'kucoin_incremental_book_L2_2026-11-27_BTC-USDT.csv.gz');
    const tradesGz = path.join(tmp.dir, 'kucoin_trades_2026-11-27_BTC-USDT.csv.gz');
    fs.writeFileSync(bookGz, zlib.gzipSync(csv.book));
    fs.writeFileSync(tradesGz, zlib.gzipSync(csv.trades));
    const out = path.join(tmp.dir, 'converted.sdrec');
    const stats = convertTardis({ book: bookGz, trades: tradesGz, symbol: SYM, out });
    assert.ok(stats.snapshots >= 2, `${stats.snapshots} snapshots`);
    const h = readRecording(out).header;
    assert.equal(h.symbols[0].symbol, SYM);
    assert.equal(h.source, 'tardis:BTC-USDT');

    const events: MarketEvent[] = [];
    const src = new ReplaySource(out, { speed: 0 });
    await src.start((e) => events.push(e));
    await src.finished;
    await src.close();
    const book = booksOf(events).get(SYM)!;
    const upBook = up.state.exchange.level2(SYM, 100_000);
    assert.deepEqual(canon(book.bidLevels()), canon(upBook.bids));
    assert.deepEqual(canon(book.askLevels()), canon(upBook.asks));
    assert.deepEqual(
      events.filter((e) => e.type === 'trade').map((t) => (t.type === 'trade' ? [t.tradeId, t.price, t.size, t.side] : [])),
      up.state.exchange.trades(SYM).slice(tradesBefore).map((t) => [String(t.tradeId), t.price, t.size, t.side]),
    );
    // synthesized sequences: contiguous increments after each snapshot
    let last = 0n;
    for (const e of events) {
      if (e.type === 'snapshot') last = BigInt(e.sequence);
      if (e.type === 'l2') {
        assert.equal(BigInt(e.sequenceStart), last + 1n);
        last = BigInt(e.sequenceEnd);
      }
    }
  });

  it('columns are read by name (any order); unknown-side trades are dropped and counted; bad rows are refused', () => {
    const permute = (text: string, order: number[]): string =>
      text
        .trim()
        .split('\n')
        .map((l) => order.map((i) => l.split(',')[i]).join(','))
        .join('\n');
    const order = [7, 6, 5, 4, 3, 2, 1, 0];
    const a = tardisToEvents(csv.book, csv.trades, SYM).events;
    const b = tardisToEvents(permute(csv.book, order), permute(csv.trades, order), SYM).events;
    assert.deepEqual(b, a);
    const trades = csv.trades.trim().split('\n');
    const withUnknown = [trades[0], trades[1].replace(/,(buy|sell),/, ',unknown,'), ...trades.slice(2)].join('\n');
    const r = tardisToEvents(csv.book, withUnknown, SYM);
    assert.equal(r.stats.unknownSide, 1);
    assert.equal(r.stats.trades, trades.length - 2);
    const rows = csv.book.trim().split('\n');
    assert.throws(() => tardisToEvents([rows[0], ...rows.slice(1).filter((l) => l.includes(',false,'))].join('\n'), undefined, SYM), /precede the first snapshot/);
    assert.throws(() => tardisToEvents('exchange,symbol,timestamp\n', undefined, SYM), /lacks the column local_timestamp/);
    assert.throws(() => convertTardis({ book: 'x', symbol: 'NOPE-USDT', out: path.join(tmp.dir, 'n.sdrec') }), /not a symbol of the bundled world/);
  });
});
