/**
 * The recorder (src/exchange/record.ts) against an in-process upstream sandbox whose market the test moves with
 * real orders: the recording's events rebuild exactly the upstream's book at the recorded end sequence and its
 * trades; a periodic REST resync is recorded as a snapshot that keeps the book exact.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { SpotClient } from '../../../src/api/client';
import { startRecorder, type Recorder } from '../../../src/exchange/record';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { readRecording, RECORDING_FORMAT } from '../../../src/exchange/server/mirror/recording';
import { startTestSandbox } from '../server/helpers';
import { booksOf, canon, driveRound, recordSession, tempDir, trader, waitFor } from './helpers';

const SYM = 'BTC-USDT';

describe('record: spotdesk-sandbox record against an upstream sandbox', function () {
  this.timeout(30_000);
  let up: RunningSandbox;
  let c: SpotClient;
  let tmp: ReturnType<typeof tempDir>;

  before(async () => {
    up = await startTestSandbox({ rateLimits: false });
    c = await trader(up);
    tmp = tempDir('spotdesk-record-');
  });
  after(async () => {
    c?.close();
    await up?.close();
    tmp?.cleanup();
  });

  const session = (file: string, rounds: number, snapshotEveryMs: number, during?: (rec: Recorder) => Promise<void>) => recordSession(up, c, file, rounds, { snapshotEveryMs, during });

  it('the events rebuild exactly the upstream book at the recorded end sequence, and its trades', async () => {
    const file = path.join(tmp.dir, 'a.sdrec');
    const { rec, tradesBefore } = await session(file, 8, 0);
    const r = readRecording(file);
    assert.deepEqual(r.warnings, []);
    assert.equal(r.header.format, RECORDING_FORMAT);
    assert.equal(r.header.source, up.baseUrl);
    assert.deepEqual(r.header.symbolNames, [SYM, 'ETH-USDT']);
    assert.deepEqual(r.header.symbols.map((s) => s.symbol), [SYM, 'ETH-USDT']);
    assert.deepEqual(r.header.currencies.map((x) => x.currency).sort(), ['BTC', 'ETH', 'USDT']);
    assert.equal(r.end?.events, r.events.length);
    assert.equal(r.events.length, rec.stats.events);

    // contract order: per symbol a snapshot first, then contiguous increments
    const last = new Map<string, bigint>();
    for (const e of r.events) {
      if (e.type === 'snapshot') last.set(e.symbol, BigInt(e.sequence));
      else if (e.type === 'l2') {
        const prev = last.get(e.symbol);
        assert.ok(prev !== undefined, `l2 of ${e.symbol} before its snapshot`);
        assert.ok(BigInt(e.sequenceStart) <= prev + 1n && BigInt(e.sequenceEnd) > prev, `l2 ${e.sequenceStart}..${e.sequenceEnd} after ${prev}`);
        last.set(e.symbol, BigInt(e.sequenceEnd));
      }
    }
    assert.ok(r.events.filter((e) => e.type === 'l2' && e.symbol === SYM).length >= 8 * 4, 'the rounds changed the book many times');

    const books = booksOf(r.events);
    const up2 = up.state.exchange.level2(SYM, 100_000);
    const book = books.get(SYM)!;
    assert.equal(book.sequence, BigInt(up2.sequence));
    assert.deepEqual(canon(book.bidLevels()), canon(up2.bids));
    assert.deepEqual(canon(book.askLevels()), canon(up2.asks));
    const eth = up.state.exchange.level2('ETH-USDT', 100_000);
    assert.deepEqual(canon(books.get('ETH-USDT')!.bidLevels()), canon(eth.bids));

    const upTrades = up.state.exchange.trades(SYM).slice(tradesBefore);
    const recTrades = r.events.filter((e) => e.type === 'trade');
    assert.ok(upTrades.length >= 16);
    assert.deepEqual(
      recTrades.map((t) => [t.symbol, t.tradeId, t.sequence, t.price, t.size, t.side]),
      upTrades.map((t) => [SYM, String(t.tradeId), t.sequence, t.price, t.size, t.side]),
    );
    // statuses: resyncing per symbol at start, then live
    const statuses = r.events.filter((e) => e.type === 'status').map((e) => (e.type === 'status' ? `${e.state}${e.symbol ? ` ${e.symbol}` : ''}` : ''));
    assert.deepEqual(statuses, [`resyncing ${SYM}`, 'resyncing ETH-USDT', 'live']);
  });

  it('periodic REST resyncs are recorded as snapshots and keep the rebuilt book exact', async () => {
    const file = path.join(tmp.dir, 'b.sdrec');
    const { rec } = await session(file, 4, 30, async (recorder) => {
      const n = recorder.stats.snapshots;
      await waitFor(() => recorder.stats.snapshots >= n + 4, 'two periodic resyncs of both symbols');
      await driveRound(up, c, 99);
    });
    const r = readRecording(file);
    assert.ok(rec.stats.snapshots >= 6);
    const snaps = r.events.filter((e) => e.type === 'snapshot' && e.symbol === SYM);
    assert.ok(snaps.length >= 3, `${snaps.length} snapshots of ${SYM}`);
    // no status events for the periodic resyncs: only the start's
    assert.equal(r.events.filter((e) => e.type === 'status').length, 3);
    const book = booksOf(r.events).get(SYM)!;
    const up2 = up.state.exchange.level2(SYM, 100_000);
    assert.equal(book.sequence, BigInt(up2.sequence));
    assert.deepEqual(canon(book.bidLevels()), canon(up2.bids));
    assert.deepEqual(canon(book.askLevels()), canon(up2.asks));
  });

  it('refuses a symbol the upstream does not list, writing nothing', async () => {
    const file = path.join(tmp.dir, 'c.sdrec');
    await assert.rejects(startRecorder({ baseUrl: up.baseUrl, symbols: ['NOPE-USDT'], out: file }), /unknown symbol\(s\) at .*: NOPE-USDT/);
    assert.throws(() => readRecording(file), /ENOENT/);
  });
});
