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

  it('an upstream outage is recorded as unreachable, then a resync from a fresh snapshot, then live', async () => {
    const stateDir = path.join(tmp.dir, 'up-state');
    let up2 = await startTestSandbox({ rateLimits: false, stateDir });
    const port = Number(new URL(up2.baseUrl).port);
    let c2 = await trader(up2);
    const file = path.join(tmp.dir, 'outage.sdrec');
    const rec = await startRecorder({ baseUrl: up2.baseUrl, symbols: [SYM], out: file, flushMs: 20, snapshotEveryMs: 0 });
    const keeper = rec.keepers.get(SYM)!;
    try {
      await waitFor(() => keeper.state === 'live', 'the first sync');
      await driveRound(up2, c2, 1);
      c2.close();
      await up2.close();
      await waitFor(() => rec.stats.statuses >= 3, 'the unreachable status');
      up2 = await startTestSandbox({ rateLimits: false, stateDir, port });
      c2 = await trader(up2);
      const snaps = rec.stats.snapshots;
      await waitFor(() => rec.stats.snapshots > snaps && keeper.state === 'live', 'the resync after the restart', 20_000);
      await driveRound(up2, c2, 2);
      const endSeq = BigInt(up2.state.exchange.level2(SYM, 1).sequence);
      await waitFor(() => keeper.sequence === endSeq, `sequence ${endSeq}`);
      await rec.stop('test');
      const r = readRecording(file);
      const statuses = r.events.filter((e) => e.type === 'status').map((e) => (e.type === 'status' ? e.state : ''));
      assert.deepEqual(statuses, ['resyncing', 'live', 'unreachable', 'resyncing', 'live']);
      const book = booksOf(r.events).get(SYM)!;
      const upBook = up2.state.exchange.level2(SYM, 100_000);
      assert.equal(book.sequence, BigInt(upBook.sequence));
      assert.deepEqual(canon(book.bidLevels()), canon(upBook.bids));
      assert.deepEqual(canon(book.askLevels()), canon(upBook.asks));
    } finally {
      await rec.stop('test');
      c2.close();
      await up2.close();
    }
  });

  it('refuses a symbol the upstream does not list, writing nothing', async () => {
    const file = path.join(tmp.dir, 'c.sdrec');
    await assert.rejects(startRecorder({ baseUrl: up.baseUrl, symbols: ['NOPE-USDT'], out: file }), /unknown symbol\(s\) at .*: NOPE-USDT/);
    assert.throws(() => readRecording(file), /ENOENT/);
  });
});
