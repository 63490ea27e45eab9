/**
 * StreamClient (src/api/stream.ts) against the sandbox's feed with a fake core event source:
 * token → welcome, acks and refusals, typed messages as events and through the async iterator,
 * pings, and a reconnect with a fresh token and resubscription after the server went away.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import { StreamClient, StreamRequestError } from '../../../src/api/stream';
import type { StreamData } from '../../../src/api/streamSchemas';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { startTestSandbox } from '../server/helpers';
import { FakeEvents, until } from './helpers';

describe('stream/StreamClient', () => {
  let sb: RunningSandbox;
  let fake: FakeEvents;
  before(async () => {
    fake = new FakeEvents();
    sb = await startTestSandbox({ feed: { events: fake, pingIntervalMs: 40, pingTimeoutMs: 1000 } });
  });
  after(async () => {
    await sb.close();
  });

  it('connects with a bullet-public token, subscribes, delivers typed messages (event and async iterator) and pings', async () => {
    const rest = new SpotClient({ baseUrl: sb.baseUrl });
    const stream = new StreamClient({ token: () => rest.getBulletPublic() });
    try {
      await stream.start();
      assert.equal(stream.state, 'open');
      await stream.subscribe('/market/level2:BTC-USDT');
      const refused = await stream.subscribe('/market/level2:NOPE-USDT').then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(refused instanceof StreamRequestError);
      assert.equal(refused.code, 404);
      assert.deepEqual(stream.subscriptions, ['/market/level2:BTC-USDT'], 'a refused topic is not kept');
      const seen: StreamData[] = [];
      stream.on('message', (m: StreamData) => seen.push(m));
      const it = stream.messages();
      const e = fake.level('BTC-USDT', 'sell', '70000.5', '0.25')!;
      const first = await it.next();
      assert.equal(first.done, false);
      const m = first.value as StreamData;
      assert.equal(m.subject, 'trade.l2update');
      assert.equal(m.symbol, 'BTC-USDT');
      if (m.subject === 'trade.l2update') {
        assert.equal(m.data.sequenceStart, BigInt(e.sequence));
        assert.deepEqual(m.data.changes.asks, [['70000.5', '0.25', BigInt(e.sequence)]]);
      }
      assert.equal(seen.length, 1);
      await until(() => stream.stats.pongs >= 2, 'two pongs');
      stream.close();
      assert.deepEqual(await it.next(), { value: undefined, done: true });
    } finally {
      stream.close();
      rest.close();
    }
  });

  it('private token: private topics of the key\'s user', async () => {
    const c = sb.credentials;
    const rest = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' } });
    const stream = new StreamClient({ token: () => rest.getBulletPrivate(), privateChannel: true });
    try {
      await stream.subscribe('/account/balance'); // subscribe before start: connects, then subscribes
      assert.ok(fake.users.has(c.uid));
      const got = new Promise<StreamData>((resolve) => stream.once('message', resolve));
      fake.balance({ uid: c.uid, accountId: 'a1', currency: 'BTC', accountType: 'trade', total: '2.5', available: '2', hold: '0.5', availableChange: '-0.5', holdChange: '0.5', relationEvent: 'trade.hold', relationEventId: 'r1', time: 1730269283892 });
      const m = await got;
      assert.equal(m.subject, 'account.balance');
      if (m.subject === 'account.balance') assert.deepEqual([m.data.total, m.data.hold, m.data.time], ['2.5', '0.5', 1730269283892]);
    } finally {
      stream.close();
      rest.close();
    }
  });

  it('reconnects after the sandbox restarts: a fresh token, every topic resubscribed, then `reconnected`', async function () {
    this.timeout(15000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-stream-'));
    const fake2 = new FakeEvents();
    let sb2 = await startTestSandbox({ stateDir: dir, feed: { events: fake2 } });
    const port = Number(new URL(sb2.baseUrl).port);
    const rest = new SpotClient({ baseUrl: sb2.baseUrl, maxRetries: 0 });
    let tokens = 0;
    const stream = new StreamClient({
      token: () => {
        tokens++;
        return rest.getBulletPublic();
      },
      minReconnectDelayMs: 20,
      maxReconnectDelayMs: 200,
    });
    try {
      await stream.subscribe('/market/level2:ETH-USDT');
      await stream.subscribe('/market/match:ETH-USDT');
      assert.equal(tokens, 1);
      const reconnected = new Promise<void>((resolve) => stream.once('reconnected', resolve));
      await sb2.close();
      const fake3 = new FakeEvents();
      sb2 = await startTestSandbox({ stateDir: dir, port, feed: { events: fake3 } });
      await reconnected;
      assert.ok(tokens >= 2, 'a fresh token for the new server');
      assert.equal(sb2.feed.publishing.subscribers('l2', 'ETH-USDT'), 1);
      assert.equal(sb2.feed.publishing.subscribers('match', 'ETH-USDT'), 1);
      const got = new Promise<StreamData>((resolve) => stream.once('message', resolve));
      fake3.level('ETH-USDT', 'buy', '2600', '1');
      assert.equal((await got).symbol, 'ETH-USDT');
      assert.ok(stream.stats.connections >= 2);
    } finally {
      stream.close();
      rest.close();
      await sb2.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
