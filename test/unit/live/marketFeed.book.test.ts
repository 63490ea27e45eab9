/**
 * The market panel's book (src/features/market/marketFeed.ts) comes from ONE level-2 subscription:
 * the keeper's, through the channel's book source. The book's time is the time of the increment the
 * keeper applied (its `update` event), not read from a second subscription to the same topic; the
 * increment reaches the webview as a `book-delta`. A real
 * StreamChannel over a scripted StreamClient, a real keeper (keepBook) on a fake REST snapshot.
 */
import { strict as assert } from 'node:assert';
import type { StreamData } from '../../../src/api/streamSchemas';
import type { ToWebview } from '../../../src/features/market/protocol';
import { fakeChannel, oneLevelFeed, until } from './fakeStream';


describe('market feed book (src/features/market/marketFeed.ts)', () => {
  it('subscribes the level-2 topic once (the keeper\'s) and takes the book time from the applied increment', async () => {
    const clock = 1_000_000;
    const { channel: ch, clients } = fakeChannel(() => clock);
    const channelTopics: string[] = [];
    const subscribe = ch.subscribe.bind(ch);
    ch.subscribe = (topic, handler) => {
      channelTopics.push(topic);
      return subscribe(topic, handler);
    };
    const posted: ToWebview[] = [];
    const feed = oneLevelFeed(ch, () => clock, { visible: true, post: (m: ToWebview) => void posted.push(m) });
    const books = (): ToWebview[] => posted.filter((m) => m.type === 'snapshot' || m.type === 'book-snapshot' || m.type === 'book-delta');
    try {
      feed.start(true);
      const c = clients[0];
      c.state = 'open';
      c.emit('open', { connectId: 'x', pingInterval: 5000, pingTimeout: 2000 });
      await until('the book is live on the stream', () => feed.feed.state === 'live' && books().length === 1);
      const first = books()[0];
      assert.ok(first.type === 'book-snapshot', first.type);
      assert.equal(first.snapshot.sequence, '100');

      const increment = {
        kind: 'message',
        topic: '/market/level2:BTC-USDT',
        subject: 'trade.l2update',
        symbol: 'BTC-USDT',
        data: { symbol: 'BTC-USDT', sequenceStart: 101n, sequenceEnd: 101n, time: 1_700_000_123_456, changes: { asks: [], bids: [['99.5', '2', 101n]] } },
      } as unknown as StreamData;
      c.emit('message', increment);
      await until('the increment is posted', () => books().length === 2);
      const d = books()[1];
      assert.ok(d.type === 'book-delta', d.type);
      assert.deepEqual([d.delta.start, d.delta.end], ['101', '101']);
      assert.equal(d.delta.time, 1_700_000_123_456);
      assert.deepEqual(d.delta.bids, [['99.5', '2']]);
      assert.deepEqual(feed.lastPosted?.bids[0], ['99.5', '2'], 'the drawn top of the book');

      assert.equal(channelTopics.filter((t) => t === '/market/level2:BTC-USDT').length, 1, `channel subscriptions: ${channelTopics.join(', ')}`);
      assert.equal(c.subscribed.filter((t) => t === '/market/level2:BTC-USDT').length, 1);
    } finally {
      feed.dispose();
      ch.close();
    }
  });
});
