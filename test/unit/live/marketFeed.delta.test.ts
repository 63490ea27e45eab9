/**
 * The market panel gets level-2 increments as increments: MarketFeed (src/features/market/marketFeed.ts)
 * posts the keeper's book once (`book-snapshot`) and then the changed levels (`book-delta`), merged
 * per coalescing tick; the webview's model (BookReceiver/LiveBook, src/features/market/model/liveBook.ts)
 * applies them. Driven end to end: a scripted StreamClient under a real StreamChannel, a real keeper
 * (keepBook) whose REST snapshot comes from a reference book (the "engine"), and the webview's real
 * model receiving exactly what was posted.
 *
 * - Property (fast-check): over random increment streams in random bursts — with increments lost
 *   before the keeper (it resyncs) and book messages lost before the webview (it asks `book-resync`)
 *   — whenever the webview holds a book it is the engine's book at the webview's sequence, it ends
 *   on the engine's current book, and a burst costs at most one book message.
 * - Gap → `book-resync` → `book-snapshot` → deltas again.
 * - Polling (no stream): `snapshot` messages of the top `depth` levels, no book-* message.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import type { StreamData } from '../../../src/api/streamSchemas';
import type { StreamChannel } from '../../../src/features/live/feed';
import { MarketFeed } from '../../../src/features/market/marketFeed';
import { BookReceiver } from '../../../src/features/market/model/liveBook';
import { ORDER_BOOK_PROTOCOL, type BookLevel, type ToWebview } from '../../../src/features/market/protocol';
import { fakeChannel, until, type FakeClient } from './fakeStream';

const SYM = 'BTC-USDT';


/** The reference book: canonical price → size (wire string), per side, and its sequence. */
class Engine {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  seq = 1000n;
  /** The book after every sequence reached (JSON of {@link view}). */
  readonly history = new Map<bigint, string>();

  constructor() {
    for (let i = 1; i <= 5; i++) {
      this.bids.set(String(100 - i), '1');
      this.asks.set(String(100 + i), '1');
    }
    this.history.set(this.seq, JSON.stringify(this.view()));
  }

  view(): { bids: BookLevel[]; asks: BookLevel[] } {
    const sorted = (m: Map<string, string>, dir: number): BookLevel[] => [...m].sort((a, b) => dir * D.cmp(a[0], b[0]));
    return { bids: sorted(this.bids, -1), asks: sorted(this.asks, 1) };
  }

  /** Apply one increment's changes ([side, price as sent, size as sent]); returns the wire message. */
  increment(changes: readonly (readonly ['bids' | 'asks', string, string])[]): StreamData {
    const start = this.seq + 1n;
    const wire = { asks: [] as [string, string, bigint][], bids: [] as [string, string, bigint][] };
    changes.forEach(([side, price, size], i) => {
      const s = start + BigInt(i);
      wire[side].push([price, size, s]);
      const key = D.normalize(price);
      if (D.cmp(size, '0') === 0) this[side].delete(key);
      else this[side].set(key, size);
    });
    this.seq = start + BigInt(Math.max(changes.length, 1) - 1);
    this.history.set(this.seq, JSON.stringify(this.view()));
    return {
      kind: 'message',
      topic: `/market/level2:${SYM}`,
      subject: 'trade.l2update',
      symbol: SYM,
      data: { symbol: SYM, sequenceStart: start, sequenceEnd: this.seq, time: 1_700_000_000_000 + Number(this.seq), changes: wire },
    } as unknown as StreamData;
  }
}

interface Rig {
  feed: MarketFeed;
  client: FakeClient;
  channel: StreamChannel;
  posted: ToWebview[];
  engine: Engine;
  close(): void;
}

/** A MarketFeed on a scripted stream whose REST snapshots come from `engine`; `sink` gets every post. */
function rig(engine: Engine, sink: (m: ToWebview) => void, depth: 20 | 100 = 20): Rig {
  const { channel, clients } = fakeChannel(() => 1_000_000);
  const posted: ToWebview[] = [];
  const feed = new MarketFeed(
    SYM,
    depth,
    {
      log: () => undefined,
      source: async () => ({
        getLevel2: async () => ({ sequence: engine.seq.toString(), time: 1, ...engine.view() }),
        getStatus: async () => ({ status: 'open' }),
      }),
      channel: () => channel,
      budget: () => undefined,
      intervalMs: () => 1000,
      now: () => 1_000_000,
      bookPostMs: 0,
    },
    {
      visible: true,
      post: (m: ToWebview) => {
        // What the webview would accept: every message passes the protocol's own check.
        assert.ok(ORDER_BOOK_PROTOCOL.parseToWebview(JSON.parse(JSON.stringify(m))), `an invalid message was posted: ${JSON.stringify(m).slice(0, 300)}`);
        posted.push(m);
        sink(m);
      },
    },
  );
  feed.start(true);
  const client = clients[0];
  client.state = 'open';
  client.emit('open', { connectId: 'x', pingInterval: 5000, pingTimeout: 2000 });
  return {
    feed,
    client,
    channel,
    posted,
    engine,
    close: () => {
      feed.dispose();
      channel.close();
    },
  };
}

const bookMessages = (posted: readonly ToWebview[]): ToWebview[] => posted.filter((m) => m.type === 'snapshot' || m.type === 'book-snapshot' || m.type === 'book-delta');

type Change = readonly ['bids' | 'asks', string, string];
/** A change on a 16-level grid around 100; prices sometimes written with trailing zeros, sizes sometimes "0.000". */
const changeArb: fc.Arbitrary<Change> = fc
  .record({ bid: fc.boolean(), tick: fc.integer({ min: 1, max: 16 }), padded: fc.boolean(), size: fc.constantFrom('0', '0.000', '1', '2.5', '3.10', '0.00000001', '12345678.9') })
  .map(({ bid, tick, padded, size }) => {
    const p = bid ? 100 - tick / 2 : 100 + tick / 2;
    const price = Number.isInteger(p) ? (padded ? `${p}.00` : `${p}`) : padded ? `${p}0` : `${p}`;
    return [bid ? 'bids' : 'asks', price, size] as const;
  });
type Fault = 'none' | 'lose-increment' | 'lose-book-message';
const burstArb = fc.record({
  increments: fc.array(fc.array(changeArb, { minLength: 0, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
  fault: fc.constantFrom<Fault>('none', 'none', 'none', 'none', 'lose-increment', 'lose-book-message'),
});

describe('market feed: level-2 increments reach the webview as increments', function () {
  this.timeout(60_000);

  it('property: the webview\'s book is the engine\'s at its sequence after every message, and ends on the current one', async () => {
    let totalDeltas = 0;
    let totalResyncs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(burstArb, { minLength: 1, maxLength: 25 }), async (bursts) => {
        const engine = new Engine();
        const webview = new BookReceiver(SYM, 20);
        const wrong: string[] = [];
        let loseNext = false;
        /** The rig, once made (the webview's resync request reaches its feed). */
        const box: { rig?: Rig } = {};
        const receive = (m: ToWebview): void => {
          if (m.type !== 'book-snapshot' && m.type !== 'book-delta') return;
          if (loseNext) {
            loseNext = false;
            return;
          }
          const out = m.type === 'book-snapshot' ? webview.bookSnapshot(m.snapshot, 0) : webview.delta(m.delta, 0);
          // The webview's request goes back as a message (a later turn), as postMessage does.
          if (out.resync) setImmediate(() => box.rig?.feed.resendBook());
          const seq = webview.live.sequence;
          if (seq === undefined || webview.awaitingBook) return;
          const held = webview.live.top(Infinity);
          const got = JSON.stringify({ bids: held.bids, asks: held.asks });
          if (engine.history.get(seq) !== got) wrong.push(`after ${m.type} at ${seq}: webview ${got}, engine ${engine.history.get(seq)}`);
          const drawn = webview.store.snapshot;
          if (JSON.stringify([drawn?.bids, drawn?.asks]) !== JSON.stringify([held.bids.slice(0, 20), held.asks.slice(0, 20)])) wrong.push(`the drawn book is not the top 20 of the held one at ${seq}`);
        };
        const r = rig(engine, receive);
        box.rig = r;
        try {
          // An increment without changes moves the sequence but posts nothing: the next delta covers it.
          const caughtUp = (): boolean => {
            const k = r.feed.bookKeeper;
            const at = webview.live.sequence;
            return k?.state === 'live' && k.sequence === engine.seq && at !== undefined && !webview.awaitingBook && engine.history.get(at) === engine.history.get(engine.seq);
          };
          await until('the first book in the webview', caughtUp);
          for (const b of bursts) {
            const before = bookMessages(r.posted).length;
            const lose = b.fault === 'lose-increment' ? Math.floor(b.increments.length / 2) : -1;
            loseNext = b.fault === 'lose-book-message';
            b.increments.forEach((changes, i) => {
              const msg = engine.increment(changes);
              if (i !== lose) r.client.emit('message', msg);
            });
            // A loss shows at the next increment: the keeper's gap, or the webview's (once the lost book message went out).
            if (lose >= 0) r.client.emit('message', engine.increment([['bids', '1', '1']]));
            if (loseNext) {
              r.client.emit('message', engine.increment([['asks', '200', String(engine.seq)]])); // a change for the lost message to carry
              await until('a book message lost', () => !loseNext);
              r.client.emit('message', engine.increment([['bids', '1', '1']]));
            }
            await until(`burst caught up (engine ${engine.seq}, keeper ${r.feed.bookKeeper?.sequence}, webview ${webview.live.sequence})`, caughtUp);
            if (b.fault === 'none') assert.ok(bookMessages(r.posted).length - before <= 1, `one burst, ${bookMessages(r.posted).length - before} book messages`);
          }
          assert.deepEqual(wrong, []);
          const held = webview.live.top(Infinity);
          assert.equal(JSON.stringify({ bids: held.bids, asks: held.asks }), JSON.stringify(engine.view()));
          assert.ok(!r.posted.some((m) => m.type === 'snapshot'), 'no top-N snapshot on the stream path');
          totalDeltas += r.feed.deltasPosted;
          totalResyncs += webview.stats.resyncRequests;
        } finally {
          r.close();
        }
      }),
      { numRuns: Number(process.env.DELTA_RUNS ?? 100), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    assert.ok(totalDeltas > 0 && totalResyncs > 0, `the runs exercised deltas (${totalDeltas}) and webview resyncs (${totalResyncs})`);
  });

  it('a gap in the deltas: the webview asks book-resync once, drops deltas until the book-snapshot, then applies deltas again', async () => {
    const engine = new Engine();
    const posted: ToWebview[] = [];
    const r = rig(engine, (m) => posted.push(m));
    try {
      await until('the first book-snapshot', () => posted.some((m) => m.type === 'book-snapshot'));
      const webview = new BookReceiver(SYM, 20);
      const first = posted.find((m) => m.type === 'book-snapshot');
      assert.ok(first?.type === 'book-snapshot');
      assert.equal(webview.bookSnapshot(first.snapshot, 0).shown?.sequence, '1000');

      const deltaAfter = async (changes: Change[]): Promise<Extract<ToWebview, { type: 'book-delta' }>> => {
        const n = posted.length;
        r.client.emit('message', engine.increment(changes));
        await until('a book-delta', () => posted.slice(n).some((m) => m.type === 'book-delta'));
        const d = posted.slice(n).find((m) => m.type === 'book-delta');
        assert.ok(d?.type === 'book-delta');
        return d;
      };
      const d1 = await deltaAfter([['bids', '99.5', '7']]);
      assert.deepEqual(d1.delta.bids, [['99.5', '7']]);
      assert.equal(webview.delta(d1.delta, 0).shown?.bids[0][0], '99.5');
      const lost = await deltaAfter([['asks', '100.5', '3']]);
      const d3 = await deltaAfter([['asks', '101', '0']]);
      assert.equal(d3.delta.start, (BigInt(lost.delta.end) + 1n).toString(), 'deltas are contiguous');
      // d2 never reached the webview: d3 starts past its sequence + 1.
      const gap = webview.delta(d3.delta, 0);
      assert.deepEqual([gap.resync, gap.shown], [true, undefined]);
      assert.equal(webview.awaitingBook, true);
      const d4 = await deltaAfter([['asks', '102', '9']]);
      assert.deepEqual(webview.delta(d4.delta, 0), { shown: undefined, alive: false, resync: false }, 'dropped while awaiting the book');
      assert.equal(webview.stats.droppedDeltas, 1);
      assert.equal(webview.stats.resyncRequests, 1);

      const n = posted.length;
      r.feed.resendBook(); // what the panel does on `book-resync`
      const again = posted.slice(n).find((m) => m.type === 'book-snapshot');
      assert.ok(again?.type === 'book-snapshot', 'the book-snapshot is posted at once');
      assert.equal(again.snapshot.sequence, engine.seq.toString());
      const shown = webview.bookSnapshot(again.snapshot, 0).shown;
      assert.deepEqual(shown?.asks.slice(0, 2), [['100.5', '3'], ['102', '9']], '101 removed, 100.5 and 102 from the lost deltas are in the new book');
      const d5 = await deltaAfter([['bids', '99.5', '0']]);
      assert.equal(webview.delta(d5.delta, 0).shown?.bids[0][0], '99');
      assert.equal(JSON.stringify({ bids: webview.live.top(Infinity).bids, asks: webview.live.top(Infinity).asks }), JSON.stringify(engine.view()));
    } finally {
      r.close();
    }
  });

  it('polling (no stream for the profile): top-depth snapshots as before, no book-snapshot or book-delta', async () => {
    const engine = new Engine();
    for (let i = 6; i <= 40; i++) engine.bids.set(String(100 - i), '2');
    let seq = 5000;
    const posted: ToWebview[] = [];
    const feed = new MarketFeed(
      SYM,
      20,
      {
        log: () => undefined,
        source: async () => ({
          getLevel2: async (_s: string, depth: number) => {
            const v = engine.view();
            return { sequence: String(++seq), time: 1, bids: v.bids.slice(0, depth), asks: v.asks.slice(0, depth) };
          },
          getStatus: async () => ({ status: 'open' }),
        }),
        channel: () => undefined,
        budget: () => undefined,
        intervalMs: () => 5,
        now: () => Date.now(),
      },
      { visible: true, post: (m: ToWebview) => void posted.push(m) },
    );
    try {
      feed.start(true);
      await until('three polled snapshots', () => posted.filter((m) => m.type === 'snapshot').length >= 3);
      assert.equal(feed.feed.mode, 'polling');
      assert.ok(!posted.some((m) => m.type === 'book-snapshot' || m.type === 'book-delta'));
      const webview = new BookReceiver(SYM, 20);
      for (const m of posted) {
        if (m.type !== 'snapshot') continue;
        assert.ok(ORDER_BOOK_PROTOCOL.parseToWebview(m));
        assert.equal(m.snapshot.bids.length, 20, 'level2_20');
        const out = webview.snapshot(m.snapshot, 0);
        assert.equal(out.shown, m.snapshot, 'drawn as it came');
      }
      assert.equal(webview.stats.accepted, posted.filter((m) => m.type === 'snapshot').length);
      // A delta after a polled book has nothing to continue: the webview asks for the streamed book.
      assert.equal(webview.delta({ symbol: SYM, start: String(seq + 1), end: String(seq + 1), time: 1, receivedAt: 1, bids: [], asks: [] }, 0).resync, true);
    } finally {
      feed.dispose();
    }
  });
});
