/**
 * Reconnect across a sandbox restart with a live book: a StreamClient + keepBook follow ETH-USDT;
 * the sandbox (state dir, same port) is stopped and started again while orders keep changing the
 * book; the client fetches a new token, resubscribes, the keeper resyncs, and it ends with the
 * engine's exact book.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { keepBook } from '../../../src/api/l2Book';
import { StreamClient } from '../../../src/api/stream';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { startTestSandbox } from '../server/helpers';
import { until } from './helpers';

const SYM = 'ETH-USDT';

describe('stream/reconnect: a sandbox restart under a live book', function () {
  this.timeout(20_000);

  it('new token, resubscribed, resynced, exact book', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-reconnect-'));
    let sb: RunningSandbox = await startTestSandbox({ stateDir: dir, rateLimits: false });
    const port = Number(new URL(sb.baseUrl).port);
    const c = sb.credentials;
    // A new REST client per server (keep-alive sockets of the old one died with it); the closures below read `rest` late.
    const restFor = (): SpotClient => new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' }, maxRetries: 0 });
    let rest = restFor();
    let tokens = 0;
    const stream = new StreamClient({ token: () => (tokens++, rest.getBulletPublic()), minReconnectDelayMs: 20, maxReconnectDelayMs: 200 });
    const { keeper, stop } = await keepBook(stream, SYM, () => rest.call('level2_100', { symbol: SYM }), { retryDelayMs: () => 20 });
    keeper.on('error', () => undefined); // snapshots fail while the sandbox is down: retried
    const tick = sb.state.world.symbolMap.get(SYM)!.priceIncrement;
    let n = 0;
    const place = async (k: number): Promise<void> => {
      const bid = sb.state.exchange.level2(SYM, 1).bids[0][0];
      await rest.placeOrder({ clientOid: `rc${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: D.sub(bid, D.mul(tick, String(k))), size: '0.01' });
    };
    const exact = async (): Promise<void> => {
      await until(() => keeper.state === 'live' && keeper.sequence === BigInt(sb.state.exchange.sequence(SYM)), 'the keeper at the engine sequence', 10_000);
      const engine = sb.state.exchange.level2(SYM, 1000);
      assert.deepEqual(keeper.bids(), engine.bids);
      assert.deepEqual(keeper.asks(), engine.asks);
    };
    try {
      for (let k = 1; k <= 3; k++) await place(k);
      await exact();
      const resyncs = keeper.stats.resyncs;
      const reconnected = new Promise<void>((resolve) => stream.once('reconnected', resolve));
      await sb.close();
      sb = await startTestSandbox({ stateDir: dir, port, rateLimits: false });
      rest.close();
      rest = restFor();
      for (let k = 4; k <= 6; k++) await place(k); // the book moves while the client reconnects
      await reconnected;
      await place(7);
      await exact();
      assert.ok(tokens >= 2, 'a fresh token after the restart');
      assert.ok(keeper.stats.resyncs > resyncs, 'the keeper resynced');
      assert.equal(sb.feed.publishing.subscribers('l2', SYM), 1, 'resubscribed on the new server');
    } finally {
      await stop();
      stream.close();
      rest.close();
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
