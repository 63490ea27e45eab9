/**
 * The L2 book keeper (src/api/l2Book.ts) on hand-built increments: KuCoin's sync algorithm
 * (buffer, snapshot, replay, continuity), stale increments, forward gaps with resync, a snapshot
 * older than the stream, reordered buffers, exact decimals and bigint sequences. The sandbox-driven
 * property tests are in book.property.test.ts.
 */
import { strict as assert } from 'node:assert';
import { L2BookKeeper, type L2Increment, type L2Snapshot } from '../../../src/api/l2Book';
import { until } from './helpers';

/** An increment with the given changes; each change `[side, price, size, seq]`. */
function inc(changes: ['a' | 'b', string, string, number][]): L2Increment {
  const seqs = changes.map((c) => c[3]);
  return {
    sequenceStart: BigInt(Math.min(...seqs)),
    sequenceEnd: BigInt(Math.max(...seqs)),
    changes: {
      asks: changes.filter((c) => c[0] === 'a').map((c) => [c[1], c[2], BigInt(c[3])] as [string, string, bigint]),
      bids: changes.filter((c) => c[0] === 'b').map((c) => [c[1], c[2], BigInt(c[3])] as [string, string, bigint]),
    },
  };
}

/** A keeper whose snapshots are answered by hand (`answer(snap)`), with events recorded. */
function manual(): { k: L2BookKeeper; requests: number; answer(s: L2Snapshot): Promise<void>; fail(e: Error): Promise<void>; events: string[] } {
  const queue: Array<{ resolve: (s: L2Snapshot) => void; reject: (e: Error) => void }> = [];
  const events: string[] = [];
  const h = {
    k: new L2BookKeeper({ symbol: 'BTC-USDT', fetchSnapshot: () => new Promise<L2Snapshot>((resolve, reject) => queue.push({ resolve, reject })), retryDelayMs: () => 0 }),
    get requests() {
      return queue.length;
    },
    async answer(s: L2Snapshot) {
      const q = queue.shift();
      assert.ok(q, 'no snapshot request pending');
      q.resolve(s);
      await new Promise((r) => setImmediate(r));
    },
    async fail(e: Error) {
      queue.shift()?.reject(e);
      await new Promise((r) => setImmediate(r));
    },
    events,
  };
  h.k.on('resync', (e: { reason: string }) => events.push(`resync:${e.reason}`));
  h.k.on('gap', (e: { expected: bigint; got: bigint }) => events.push(`gap:${e.expected}>${e.got}`));
  h.k.on('synced', (e: { sequence: bigint }) => events.push(`synced:${e.sequence}`));
  h.k.on('error', () => events.push('error'));
  return h;
}

const SNAP: L2Snapshot = { sequence: '10', bids: [['100', '1'], ['99.5', '2']], asks: [['101', '1.5'], ['102', '3']] };

describe('stream/L2BookKeeper', () => {
  it('buffers while syncing, drops increments the snapshot contains, replays the rest (per change sequence)', async () => {
    const h = manual();
    h.k.start();
    assert.equal(h.k.state, 'syncing');
    h.k.apply(inc([['b', '100', '0', 9]])); // older than the snapshot
    h.k.apply(inc([['a', '101', '1.4', 10], ['a', '103', '1', 11]])); // straddles it: only seq 11 applies
    h.k.apply(inc([['b', '99.5', '2.5', 12]]));
    await h.answer(SNAP);
    assert.equal(h.k.state, 'live');
    assert.equal(h.k.sequence, 12n);
    assert.deepEqual(h.k.asks(), [['101', '1.5'], ['102', '3'], ['103', '1']]);
    assert.deepEqual(h.k.bids(), [['100', '1'], ['99.5', '2.5']]);
    assert.deepEqual(h.events, ['resync:start', 'synced:10']);
    assert.equal(h.k.stats.applied, 2);
  });

  it('live: applies contiguous increments, removes size-0 levels, ignores stale and duplicate ones', async () => {
    const h = manual();
    h.k.start();
    await h.answer(SNAP);
    const updates: bigint[] = [];
    h.k.on('update', (e: { sequence: bigint }) => updates.push(e.sequence));
    h.k.apply(inc([['a', '101', '0', 11]]));
    h.k.apply(inc([['a', '101', '0', 11]])); // duplicate
    h.k.apply(inc([['b', '100.00', '0.000', 12], ['b', '98', '0.12345678901234567890', 13]]));
    assert.deepEqual(h.k.asks(), [['102', '3']]);
    assert.deepEqual(h.k.bids(), [['99.5', '2'], ['98', '0.12345678901234567890']], 'canonical price keys, sizes exact as sent');
    assert.deepEqual(updates, [11n, 13n]);
    assert.equal(h.k.stats.stale, 1);
    assert.equal(h.k.stats.gaps, 0);
    assert.deepEqual(h.k.bids(1), [['99.5', '2']]);
  });

  it('a forward gap is detected, reported and answered with a resync that converges', async () => {
    const h = manual();
    h.k.start();
    await h.answer(SNAP);
    h.k.apply(inc([['a', '101', '2', 11]]));
    h.k.apply(inc([['a', '104', '1', 13]])); // 12 was lost
    assert.equal(h.k.state, 'syncing');
    assert.equal(h.k.stats.gaps, 1);
    assert.deepEqual(h.events.slice(-2), ['gap:12>13', 'resync:gap']);
    h.k.apply(inc([['b', '97', '5', 14]]));
    // The new snapshot reflects 12 and 13; the buffered 13 is contained, 14 is replayed.
    await h.answer({ sequence: '13', bids: [['100', '1'], ['99.5', '2']], asks: [['101', '2'], ['102', '0.5'], ['104', '1']] });
    assert.equal(h.k.state, 'live');
    assert.equal(h.k.sequence, 14n);
    assert.deepEqual(h.k.bids(), [['100', '1'], ['99.5', '2'], ['97', '5']]);
    assert.deepEqual(h.k.asks(), [['101', '2'], ['102', '0.5'], ['104', '1']]);
    assert.equal(h.k.stats.resyncs, 2);
  });

  it('a snapshot older than the first buffered increment is refused and fetched again', async () => {
    const h = manual();
    h.k.start();
    h.k.apply(inc([['a', '101', '7', 15]]));
    await h.answer(SNAP); // sequence 10 < 15 − 1: increments 11…14 are missing between them
    assert.equal(h.k.state, 'syncing');
    assert.equal(h.k.stats.snapshotRetries, 1);
    await until(() => h.requests === 1, 'a second snapshot request');
    await h.answer({ ...SNAP, sequence: '14' });
    assert.equal(h.k.state, 'live');
    assert.equal(h.k.sequence, 15n);
    assert.deepEqual(h.k.asks()[0], ['101', '7']);
  });

  it('reordered increments in the buffer are replayed in sequence order; a failed snapshot is retried', async () => {
    const h = manual();
    h.k.start();
    h.k.apply(inc([['a', '105', '1', 13]]));
    h.k.apply(inc([['a', '106', '1', 11]]));
    h.k.apply(inc([['a', '107', '1', 12]]));
    await h.fail(new Error('HTTP 500'));
    assert.ok(h.events.includes('error'));
    await until(() => h.requests === 1, 'the retried snapshot request');
    await h.answer(SNAP);
    assert.equal(h.k.state, 'live');
    assert.equal(h.k.sequence, 13n);
    assert.deepEqual(h.k.asks().map((l) => l[0]), ['101', '102', '105', '106', '107']);
    assert.equal(h.k.stats.gaps, 0);
  });

  it('sequences beyond 2^53 stay exact (bigint)', async () => {
    const h = manual();
    h.k.start();
    const big = 2n ** 60n;
    await h.answer({ sequence: big, bids: [], asks: [] });
    h.k.apply({ sequenceStart: big + 1n, sequenceEnd: big + 1n, changes: { asks: [['1', '1', big + 1n]], bids: [] } });
    assert.equal(h.k.sequence, big + 1n);
    h.k.apply({ sequenceStart: big + 3n, sequenceEnd: big + 3n, changes: { asks: [], bids: [] } });
    assert.equal(h.k.stats.gaps, 1);
  });

  it('buffer overflow while syncing restarts the sync; close() stops everything', async () => {
    const k = new L2BookKeeper({ symbol: 'X-Y', fetchSnapshot: () => new Promise<L2Snapshot>(() => undefined), maxBuffered: 3 });
    k.start();
    for (let i = 1; i <= 4; i++) k.apply(inc([['a', String(i), '1', i]]));
    assert.equal(k.stats.resyncs, 2);
    k.close();
    k.apply(inc([['a', '9', '1', 9]]));
    assert.equal(k.state, 'closed');
    assert.equal(k.stats.messages, 4);
  });
});
