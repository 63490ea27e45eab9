/**
 * The market panel's data (src/features/market/marketFeed.ts) relays the stream's heartbeat to
 * the webview: on a live book, the connection's welcome, pongs and data messages of any topic become
 * `heartbeat` messages (at most one per HEARTBEAT_POST_MS, with the token's pingInterval +
 * pingTimeout as the timeout), while a quiet book posts no snapshot at all. Nothing is relayed while
 * the book is not live or the panel is hidden. A real StreamChannel over a scripted StreamClient, a
 * real book keeper (keepBook) on a fake REST snapshot.
 */
import { strict as assert } from 'node:assert';
import type { StreamData } from '../../../src/api/streamSchemas';
import { HEARTBEAT_POST_MS } from '../../../src/features/market/marketFeed';
import type { ToWebview } from '../../../src/features/market/protocol';
import { fakeChannel, oneLevelFeed, until } from './fakeStream';


function setup() {
  let clock = 1_000_000;
  const { channel: ch, clients } = fakeChannel(() => clock);
  const posted: ToWebview[] = [];
  const sink = { visible: true, post: (m: ToWebview) => void posted.push(m) };
  const feed = oneLevelFeed(ch, () => clock, sink);
  return { ch, clients, posted, sink, feed, tick: (ms: number) => (clock += ms), now: () => clock };
}

const of = (posted: ToWebview[], type: ToWebview['type']) => posted.filter((m) => m.type === type);
const snapshotMsg = { topic: '/market/snapshot:BTC-USDT', type: 'message', subject: 'trade.snapshot', data: { sequence: '1', data: {} } } as unknown as StreamData;

describe('market feed heartbeat (src/features/market/marketFeed.ts)', () => {
  it('a quiet live book: no snapshot posted, but the stream\'s pongs and data messages are relayed as heartbeats, at most one a second', async () => {
    const t = setup();
    t.feed.start(true);
    const c = t.clients[0];
    c.state = 'open';
    c.emit('open', { connectId: 'x', pingInterval: 5000, pingTimeout: 2000 });
    await until('the book is live on the stream', () => t.feed.feed.state === 'live' && of(t.posted, 'book-snapshot').length === 1);
    const snapshots = of(t.posted, 'book-snapshot').length;
    const beats0 = of(t.posted, 'heartbeat').length;

    // 10 s of a quiet market: no book update at all, the 2 s statistics and a pong every 5 s.
    for (let i = 0; i < 10; i++) {
      t.tick(1000);
      if (i % 2 === 1) c.emit('message', snapshotMsg);
      if (i % 5 === 4) c.emit('pong');
    }
    await new Promise((r) => setImmediate(r));
    const beats = of(t.posted, 'heartbeat').slice(beats0);
    assert.equal(of(t.posted, 'book-snapshot').length, snapshots, 'the unchanged book is not posted again');
    assert.ok(beats.length >= 5, `heartbeats relayed: ${beats.length}`);
    for (const b of beats) assert.deepEqual(b, { type: 'heartbeat', staleAfterMs: 7000 }, 'the token\'s pingInterval + pingTimeout');
    assert.equal(t.feed.heartbeatsPosted, of(t.posted, 'heartbeat').length);

    // A burst of data messages within one second: one heartbeat.
    t.tick(HEARTBEAT_POST_MS);
    const before = of(t.posted, 'heartbeat').length;
    for (let i = 0; i < 50; i++) c.emit('message', snapshotMsg);
    c.emit('pong');
    assert.equal(of(t.posted, 'heartbeat').length, before + 1);
    t.feed.dispose();
  });

  it('relays nothing while the panel is hidden or the book is not live on the stream', async () => {
    const t = setup();
    t.feed.start(true);
    const c = t.clients[0];
    // Before the welcome the book is not live: a pong says nothing about it.
    c.emit('pong');
    assert.equal(of(t.posted, 'heartbeat').length, 0);
    c.state = 'open';
    c.emit('open', { connectId: 'x' });
    await until('live', () => t.feed.feed.state === 'live');
    t.tick(2000);
    c.emit('pong');
    assert.deepEqual(of(t.posted, 'heartbeat').at(-1), { type: 'heartbeat', staleAfterMs: 28_000 }, 'KuCoin\'s 18 s + 10 s when the token names none');
    const n = of(t.posted, 'heartbeat').length;
    t.sink.visible = false;
    t.tick(2000);
    c.emit('pong');
    assert.equal(of(t.posted, 'heartbeat').length, n, 'hidden: nothing posted');
    t.sink.visible = true;
    c.emit('close', { code: 1006, reason: '' });
    assert.equal(t.feed.feed.state, 'reconnecting');
    t.tick(2000);
    c.emit('pong');
    assert.equal(of(t.posted, 'heartbeat').length, n, 'reconnecting: nothing posted');
    t.feed.dispose();
  });
});
