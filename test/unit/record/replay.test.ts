/**
 * ReplaySource (src/exchange/server/mirror/replay.ts) on a recording of an upstream sandbox: deterministic (two
 * replays, at any speed or on a manual clock, give byte-identical event sequences), `advanceTo(t)` delivers exactly
 * the events up to t, the replayed events rebuild the upstream's book and trades, pacing follows the recorded
 * times × speed, and a recording without a symbol's snapshot is refused.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { readRecording, RecordingWriter, RECORDING_FORMAT, RECORDING_VERSION, type RecordingHeader } from '../../../src/exchange/server/mirror/recording';
import { ReplaySource } from '../../../src/exchange/server/mirror/replay';
import type { MarketEvent } from '../../../src/exchange/server/mirror/source';
import { admin, startTestSandbox } from '../server/helpers';
import { booksOf, canon, recordSession, tempDir, trader } from './helpers';

const SYM = 'BTC-USDT';

/** Replay `file` as fast as possible; the serialized events in delivery order. */
async function replayAll(file: string, speed = Infinity): Promise<string[]> {
  const out: string[] = [];
  const src = new ReplaySource(file, { speed });
  await src.start((e) => out.push(JSON.stringify(e)));
  await src.finished;
  await src.close();
  return out;
}

describe('replay: ReplaySource', function () {
  this.timeout(30_000);
  let up: RunningSandbox;
  let c: SpotClient;
  let tmp: ReturnType<typeof tempDir>;
  let file: string;
  let tradesBefore: number;

  before(async () => {
    up = await startTestSandbox({ rateLimits: false });
    c = await trader(up);
    tmp = tempDir('spotdesk-replay-');
    file = path.join(tmp.dir, 'session.sdrec');
    // manual clock upstream: move it between rounds so that event times spread over several milliseconds
    ({ tradesBefore } = await recordSession(up, c, file, 6, {
      afterRound: async () => {
        await admin(up, 'POST', '/sandbox/v1/clock', { advanceMs: 250 });
      },
    }));
  });
  after(async () => {
    c?.close();
    await up?.close();
    tmp?.cleanup();
  });

  it('two replays give byte-identical event sequences; the events rebuild the upstream book and trades', async () => {
    const a = await replayAll(file);
    const b = await replayAll(file);
    assert.ok(a.length > 30);
    assert.deepEqual(a, b);
    assert.equal(a.length, readRecording(file).events.length);
    const events = a.map((s) => JSON.parse(s) as MarketEvent);
    assert.ok(events.every((e) => !('recv' in e)), 'the receive time is not delivered');
    const book = booksOf(events).get(SYM)!;
    const upBook = up.state.exchange.level2(SYM, 100_000);
    assert.equal(book.sequence, BigInt(upBook.sequence));
    assert.deepEqual(canon(book.bidLevels()), canon(upBook.bids));
    assert.deepEqual(canon(book.askLevels()), canon(upBook.asks));
    const trades = events.filter((e) => e.type === 'trade');
    assert.deepEqual(
      trades.map((t) => (t.type === 'trade' ? [t.tradeId, t.price, t.size, t.side] : [])),
      up.state.exchange.trades(SYM).slice(tradesBefore).map((t) => [String(t.tradeId), t.price, t.size, t.side]),
    );
    // replay times never go backwards
    const times = events.map((e) => (e.type === 'status' ? undefined : e.time)).filter((t): t is number => t !== undefined);
    for (let i = 1; i < times.length; i++) assert.ok(times[i] >= times[i - 1]);
  });

  it('a timed replay (speed 1000) delivers the same sequence as one as fast as possible', async () => {
    assert.deepEqual(await replayAll(file, 1000), await replayAll(file, 0));
  });

  it('manual clock: start delivers up to every first snapshot; advanceTo(t) delivers exactly the events up to t', async () => {
    const all = (await replayAll(file)).map((s) => JSON.parse(s) as MarketEvent);
    const got: MarketEvent[] = [];
    const src = new ReplaySource(file, { manualClock: true });
    await src.start((e) => got.push(e));
    const firstSnaps = new Set<string>();
    let initial = 0;
    while (firstSnaps.size < 2) {
      const e = all[initial++];
      if (e.type === 'snapshot') firstSnaps.add(e.symbol);
    }
    assert.equal(got.length, initial, 'start delivered exactly the events up to the first snapshot of each symbol');
    const timeOf = (e: MarketEvent): number => (e.type === 'status' ? e.since : e.time);
    src.advanceTo(timeOf(all[initial - 1]) - 1);
    assert.equal(got.length, initial, 'advanceTo to an earlier time delivers nothing');
    // step through every distinct time: after advanceTo(t) exactly the events with replay time ≤ t are delivered
    const ts = [...new Set(all.slice(initial).map(timeOf))].sort((x, y) => x - y);
    assert.ok(ts.length >= 5, `the session spans several times (${ts.length})`);
    for (const t of ts) {
      src.advanceTo(t);
      const expected = all.filter((e, i) => i < initial || timeOf(e) <= t).length;
      assert.equal(got.length, expected, `advanceTo(${t})`);
      assert.ok(src.nextTime === undefined || src.nextTime > t);
    }
    assert.deepEqual(got.map((e) => JSON.stringify(e)), all.map((e) => JSON.stringify(e)));
    await src.finished;
    await src.close();
  });

  it('paces events at speed × the recorded pace', async () => {
    const f = path.join(tmp.dir, 'paced.sdrec');
    const header: RecordingHeader = { format: RECORDING_FORMAT, version: RECORDING_VERSION, source: 'test', start: 0, symbolNames: [SYM], symbols: [], currencies: [] };
    const w = new RecordingWriter(f, header);
    w.append({ type: 'snapshot', symbol: SYM, sequence: '1', bids: [['100', '1']], asks: [['101', '1']], time: 10_000, recv: 10_000 });
    for (let i = 1; i <= 4; i++) w.append({ type: 'trade', symbol: SYM, sequence: '1', tradeId: String(i), price: '100', size: '1', side: 'sell', time: 10_000 + i * 1000, recv: 10_000 + i * 1000 });
    w.close('done', 20_000);
    const at: number[] = [];
    const src = new ReplaySource(f, { speed: 20 });
    const t0 = performance.now();
    await src.start(() => at.push(performance.now() - t0));
    await src.finished;
    await src.close();
    assert.equal(at.length, 5);
    // 1 s of recorded time = 50 ms at speed 20
    for (let i = 1; i <= 4; i++) assert.ok(at[i] >= i * 50 - 2, `event ${i} at ${at[i].toFixed(1)} ms, due at ${i * 50} ms`);
    assert.ok(at[4] < 4 * 50 + 5000, 'not stalled');
  });

  it('refuses a recording without a snapshot of a recorded symbol, and a bad speed', async () => {
    const f = path.join(tmp.dir, 'nosnap.sdrec');
    const header: RecordingHeader = { format: RECORDING_FORMAT, version: RECORDING_VERSION, source: 'test', start: 0, symbolNames: [SYM, 'ETH-USDT'], symbols: [], currencies: [] };
    const w = new RecordingWriter(f, header);
    w.append({ type: 'snapshot', symbol: SYM, sequence: '1', bids: [], asks: [], time: 1, recv: 1 });
    w.close('done', 2);
    const src = new ReplaySource(f);
    await assert.rejects(src.start(() => undefined), /has no snapshot of ETH-USDT/);
    await src.close();
    assert.throws(() => new ReplaySource(f, { speed: -1 }), /speed must be ≥ 0/);
  });
});
