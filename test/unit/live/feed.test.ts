/**
 * SpotDesk's live feed channel (src/features/live/feed.ts) on a scripted stand-in of
 * StreamClient: reference-counted topics (one subscribe per topic, the connection closed with the last
 * consumer), dispatch by topic (a failing consumer does not stop the others), and the state a person
 * reads — connecting → live → reconnecting (with the backoff's next attempt) → polling (with the reason)
 * → live again, `synced` after each (re)connection so the views resync from REST.
 */
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import type { StreamClient } from '../../../src/api/stream';
import type { StreamData } from '../../../src/api/streamSchemas';
import { LiveFeed, StreamChannel, type FeedStatus } from '../../../src/features/live/feed';

/** A scripted StreamClient: the test emits its events and settles its subscription acks. */
class FakeClient extends EventEmitter {
  state = 'idle';
  readonly subscribed: string[] = [];
  readonly unsubscribed: string[] = [];
  readonly acks = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  closed = false;
  start(): Promise<void> {
    this.state = 'connecting';
    return Promise.resolve();
  }
  subscribe(topic: string): Promise<void> {
    this.subscribed.push(topic);
    return new Promise((resolve, reject) => this.acks.set(topic, { resolve, reject }));
  }
  unsubscribe(topic: string): Promise<void> {
    this.unsubscribed.push(topic);
    return Promise.resolve();
  }
  close(): void {
    this.closed = true;
    this.state = 'closed';
  }
  open(): void {
    this.state = 'open';
    this.emit('open');
    for (const a of this.acks.values()) a.resolve();
  }
}

const msg = (topic: string, price: string) => ({ topic, type: 'message', subject: 'trade.ticker', data: { price } }) as unknown as StreamData;

async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 1));
  }
}

function channel(opts: { fallbackAfterMs?: number; now?: () => number } = {}) {
  const clients: FakeClient[] = [];
  const logs: string[] = [];
  const ch = new StreamChannel({
    name: 'private',
    token: () => Promise.reject(new Error('not used by the stand-in')),
    create: () => {
      const c = new FakeClient();
      clients.push(c);
      return c as unknown as StreamClient;
    },
    fallbackAfterMs: opts.fallbackAfterMs ?? 60_000,
    now: opts.now,
    log: (level, line) => logs.push(`${level} ${line}`),
  });
  const states: FeedStatus[] = [];
  ch.onStatus((s) => states.push(s));
  let synced = 0;
  ch.onSynced(() => synced++);
  return { ch, clients, logs, states, synced: () => synced };
}

describe('live feed channel (src/features/live/feed.ts)', () => {
  it('reference-counts topics: one subscription per topic, the connection closed with its last consumer', async () => {
    const { ch, clients, states } = channel();
    assert.equal(ch.status.state, 'idle');
    const a = ch.subscribe('/market/ticker:BTC-USDT');
    const b = ch.subscribe('/market/ticker:BTC-USDT');
    const c = ch.subscribe('/market/ticker:ETH-USDT');
    assert.equal(clients.length, 1, 'one connection');
    assert.deepEqual(clients[0].subscribed, ['/market/ticker:BTC-USDT', '/market/ticker:ETH-USDT']);
    assert.equal(ch.status.state, 'connecting');
    a.dispose();
    a.dispose(); // twice: counted once
    assert.deepEqual(clients[0].unsubscribed, []);
    b.dispose();
    await until(() => clients[0].unsubscribed.length === 1);
    assert.deepEqual(clients[0].unsubscribed, ['/market/ticker:BTC-USDT']);
    assert.deepEqual(ch.topics, ['/market/ticker:ETH-USDT']);
    c.dispose();
    assert.equal(clients[0].closed, true, 'nobody needs it: closed');
    assert.equal(ch.status.state, 'idle');
    assert.deepEqual(states.map((s) => s.state), ['connecting', 'idle']);
  });

  it('dispatches messages by topic; a failing consumer neither stops the others nor the client', () => {
    const { ch, clients, logs } = channel();
    const got: string[] = [];
    ch.subscribe('/market/ticker:BTC-USDT', () => {
      throw new Error('consumer bug');
    });
    ch.subscribe('/market/ticker:BTC-USDT', (m) => got.push(`btc ${(m.data as { price: string }).price}`));
    ch.subscribe('/market/ticker:ETH-USDT', (m) => got.push(`eth ${(m.data as { price: string }).price}`));
    clients[0].open();
    clients[0].emit('message', msg('/market/ticker:BTC-USDT', '1'));
    clients[0].emit('message', msg('/market/ticker:ETH-USDT', '2'));
    clients[0].emit('message', msg('/market/ticker:XRP-USDT', '3'));
    assert.deepEqual(got, ['btc 1', 'eth 2']);
    assert.equal(ch.stats.messages, 3);
    assert.ok(logs.some((l) => /^warn private stream: a consumer of \/market\/ticker:BTC-USDT failed: .*consumer bug/.test(l)), logs.join('\n'));
  });

  it('live → reconnecting (next attempt from the backoff) → polling with the reason → live again, synced after each connection', async () => {
    let now = 1_000_000;
    const { ch, clients, states, synced } = channel({ now: () => now });
    ch.subscribe('/spotMarket/tradeOrdersV2');
    const c = clients[0];
    c.open();
    assert.equal(ch.status.state, 'live');
    assert.equal(ch.live, true);
    await until(() => synced() === 1); // after the subscription's ack
    c.emit('close', { code: 1006, reason: '' });
    assert.deepEqual([ch.status.state, ch.status.reason], ['reconnecting', 'the connection closed (code 1006)']);
    now += 10;
    c.emit('reconnecting', { attempt: 1, delayMs: 180 });
    assert.deepEqual([ch.status.state, ch.status.attempt, ch.status.nextAttemptAt], ['reconnecting', 1, now + 180]);
    c.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:8100'));
    assert.equal(ch.status.state, 'polling');
    assert.equal(ch.fallback, true);
    assert.match(ch.status.reason ?? '', /^private stream: .*ECONNREFUSED/);
    c.emit('reconnecting', { attempt: 2, delayMs: 400 });
    assert.deepEqual([ch.status.state, ch.status.attempt], ['polling', 2], 'still polling while it retries');
    c.emit('reconnected');
    assert.deepEqual([ch.status.state, ch.status.reason, ch.status.attempt, ch.status.nextAttemptAt], ['live', null, 0, null]);
    assert.equal(synced(), 2, 'synced again: the views reload once');
    assert.deepEqual(states.map((s) => s.state).filter((s, i, a) => s !== a[i - 1]), ['connecting', 'live', 'reconnecting', 'polling', 'live']);
    assert.equal(ch.stats.reconnectAttempts, 2);
    assert.equal(ch.stats.fallbacks, 1);
    ch.close();
  });

  it('falls back to polling when nothing connects in time, and says so', async () => {
    const { ch } = channel({ fallbackAfterMs: 20 });
    ch.subscribe('/account/balance');
    await until(() => ch.status.state === 'polling');
    assert.match(ch.status.reason ?? '', /^no connection within \d+ s$/);
    ch.close();
  });

  it('LiveFeed: one public and one private channel; reset closes both and bumps the epoch', () => {
    const made: FakeClient[] = [];
    const feed = new LiveFeed({
      publicToken: () => Promise.reject(new Error('x')),
      privateToken: () => Promise.reject(new Error('x')),
      create: () => {
        const c = new FakeClient();
        made.push(c);
        return c as unknown as StreamClient;
      },
    });
    let resets = 0;
    feed.onReset(() => resets++);
    assert.equal(feed.public, feed.public);
    feed.public.subscribe('/market/ticker:BTC-USDT');
    feed.private.subscribe('/account/balance');
    assert.deepEqual([feed.status.public.state, feed.status.private.state], ['connecting', 'connecting']);
    feed.reset();
    assert.deepEqual([made.every((c) => c.closed), feed.epoch, resets], [true, 1, 1]);
    assert.deepEqual([feed.status.public.state, feed.status.private.state], ['idle', 'idle']);
    feed.dispose();
  });
});
