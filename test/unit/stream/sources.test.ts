/**
 * Every source of change publishes through the one path (core events buffered during
 * `SandboxState.exec`, flushed after the journal append): the market simulation, the admin API
 * (a deposit), REST (an inner transfer), and GTT orders expired by a read of the real clock. Each is
 * checked against the sandbox's own state.
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import { keepBook } from '../../../src/api/l2Book';
import { StreamClient } from '../../../src/api/stream';
import type { StreamData, WsBalance } from '../../../src/api/streamSchemas';
import { startSimulation } from '../../../src/exchange/server/sim';
import { admin, startTestSandbox } from '../server/helpers';
import { until } from './helpers';

describe('stream/sources: simulation, admin API, REST and read-time expiry all publish', function () {
  this.timeout(20_000);

  it('the market simulation: a keeper following BTC-USDT stays exact while the bots trade', async () => {
    const sb = await startTestSandbox({ rateLimits: false });
    const rest = new SpotClient({ baseUrl: sb.baseUrl });
    const stream = new StreamClient({ token: () => rest.getBulletPublic() });
    try {
      const { keeper, stop } = await keepBook(stream, 'BTC-USDT', () => rest.call('level2_100', { symbol: 'BTC-USDT' }));
      await until(() => keeper.state === 'live', 'keeper synced');
      const sim = startSimulation(sb.state, { seed: 3, intervalMs: 0, symbols: ['BTC-USDT'] });
      const seq0 = sb.state.exchange.sequence('BTC-USDT');
      for (let i = 0; i < 30; i++) sim.step();
      sim.stop();
      const seq = BigInt(sb.state.exchange.sequence('BTC-USDT'));
      assert.ok(seq > BigInt(seq0), 'the bots changed the book');
      await until(() => keeper.sequence === seq, 'the keeper at the engine sequence');
      const engine = sb.state.exchange.level2('BTC-USDT', 1000);
      assert.deepEqual(keeper.bids(), engine.bids);
      assert.deepEqual(keeper.asks(), engine.asks);
      assert.equal(keeper.stats.gaps, 0);
      await stop();
    } finally {
      stream.close();
      rest.close();
      await sb.close();
    }
  });

  it('admin deposit and REST transfer: account.balance with the records\' ids and the exact balances', async () => {
    const sb = await startTestSandbox({ rateLimits: false });
    const c = sb.credentials;
    const rest = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' }, now: () => sb.state.now() });
    const stream = new StreamClient({ token: () => rest.getBulletPrivate(), privateChannel: true });
    const got: WsBalance[] = [];
    stream.on('message', (m: StreamData) => {
      if (m.subject === 'account.balance') got.push(m.data);
    });
    try {
      await stream.subscribe('/account/balance');
      const dep = await admin(sb, 'POST', '/sandbox/v1/deposits', { uid: c.uid, currency: 'LTC', amount: '1.5' });
      const depositId = (dep.json.data as { depositId: string }).depositId;
      await until(() => got.some((b) => b.relationEvent === 'main.deposit'), 'deposit balance event');
      const d = got.find((b) => b.relationEvent === 'main.deposit')!;
      const main = (await rest.getAccounts({ currency: 'LTC', type: 'main' }))[0];
      assert.deepEqual([d.currency, d.relationEventId, d.total, d.available, d.availableChange], ['LTC', depositId, main.balance, main.available, '1.5']);
      const t = await rest.innerTransfer({ clientOid: 'tr-1', currency: 'LTC', from: 'main', to: 'trade', amount: '0.5' });
      await until(() => got.some((b) => b.relationEvent === 'trade.transfer'), 'transfer balance events');
      const out = got.find((b) => b.relationEvent === 'main.transfer')!;
      const into = got.find((b) => b.relationEvent === 'trade.transfer')!;
      assert.equal(out.relationEventId, t.orderId);
      assert.equal(into.relationEventId, t.orderId);
      assert.deepEqual([out.availableChange, into.availableChange], ['-0.5', '0.5']);
      const trade = (await rest.getAccounts({ currency: 'LTC', type: 'trade' }))[0];
      assert.equal(into.total, trade.balance);
    } finally {
      stream.close();
      rest.close();
      await sb.close();
    }
  });

  it('a GTT order expired by a read (real clock) is published right after that read', async () => {
    const sb = await startTestSandbox({ manualClock: false, rateLimits: false });
    const c = sb.credentials;
    const rest = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' } });
    const stream = new StreamClient({ token: () => rest.getBulletPublic() });
    try {
      const { keeper, stop } = await keepBook(stream, 'ETH-USDT', () => rest.call('level2_100', { symbol: 'ETH-USDT' }));
      await until(() => keeper.state === 'live', 'keeper synced');
      const price = '2000';
      await rest.placeOrder({ clientOid: 'gtt-1', symbol: 'ETH-USDT', side: 'buy', type: 'limit', price, size: '0.01', timeInForce: 'GTT', cancelAfter: 1 });
      // read after the answer: not before the order's creation time, so waiting past it + 1 s passes the expiry
      const placedAt = sb.state.now();
      await until(() => keeper.bids().some((l) => l[0] === price), 'the GTT order in the keeper');
      // The sandbox expires GTT orders lazily: once its clock passed the expiry, the next read does it.
      await until(() => sb.state.now() > placedAt + 1000, 'the sandbox clock past the expiry', 5000);
      const seq = BigInt(sb.state.exchange.sequence('ETH-USDT'));
      const book = await rest.call('level2_20', { symbol: 'ETH-USDT' }); // the read that expires it
      assert.ok(!book.bids.some((l) => l[0] === price));
      assert.equal(BigInt(book.sequence), seq + 1n, 'the expiry consumed one sequence');
      await until(() => keeper.sequence === seq + 1n, 'the expiry published');
      assert.ok(!keeper.bids().some((l) => l[0] === price));
      assert.deepEqual(keeper.bids(), sb.state.exchange.level2('ETH-USDT', 1000).bids);
      await stop();
    } finally {
      stream.close();
      rest.close();
      await sb.close();
    }
  });
});
