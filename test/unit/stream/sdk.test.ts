/**
 * The official kucoin-universal-sdk WebSocket client, unmodified (only its spot endpoint points at
 * the sandbox): spot public order-book increments (`orderbookIncrement`, /market/level2) rebuild the
 * engine's book on top of a REST snapshot; private `orderV2` (/spotMarket/tradeOrdersV2) and
 * `account` (/account/balance) report an order and its hold exactly as the sandbox has them.
 */
import { strict as assert } from 'node:assert';
import { ClientOptionBuilder, DefaultClient, TransportOptionBuilder, WebSocketClientOptionBuilder, logger } from 'kucoin-universal-sdk';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { startTestSandbox } from '../server/helpers';
import { until } from './helpers';

const SYM = 'ETH-USDT';

describe('stream/kucoin-universal-sdk WebSocket client against the sandbox (unmodified)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let rest: SpotClient;
  let client: DefaultClient;
  const sdkLog: string[] = [];

  before(async () => {
    sb = await startTestSandbox({ manualClock: false, rateLimits: false });
    // The SDK logs to the console at level info; keep its warnings and errors for the assertions instead.
    logger.setGlobalLogger({}, { level: 'warn', format: (level: string, message: string) => (sdkLog.push(`${level} ${message}`), '') });
    const c = sb.credentials;
    rest = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' } });
    const options = new ClientOptionBuilder()
      .setKey(c.apiKey)
      .setSecret(c.apiSecret)
      .setPassphrase(c.apiPassphrase)
      .setSpotEndpoint(sb.baseUrl)
      .setTransportOption(new TransportOptionBuilder().build())
      .setWebSocketClientOption(new WebSocketClientOptionBuilder().build())
      .build();
    client = new DefaultClient(options);
  });
  after(async () => {
    rest?.close();
    await sb?.close();
  });

  it('public orderbookIncrement: increments on top of the REST snapshot give the engine book', async () => {
    const ws = client.wsService().newSpotPublicWS();
    await ws.start();
    try {
      type Inc = { sequenceStart: number; sequenceEnd: number; changes: { asks: string[][]; bids: string[][] } };
      const incs: Inc[] = [];
      await ws.orderbookIncrement([SYM], (_topic, _subject, e) => incs.push(e as unknown as Inc));
      const snap = await rest.call('level2_100', { symbol: SYM });
      const tick = sb.state.world.symbolMap.get(SYM)!.priceIncrement;
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const r = await rest.placeOrder({ clientOid: `sdk${i}`, symbol: SYM, side: i % 2 ? 'buy' : 'sell', type: 'limit', price: D.sub(snap.bids[0][0], D.mul(tick, String(i))), size: '0.01', ...(i % 2 ? {} : { timeInForce: 'IOC' as const }) });
        ids.push(r.orderId);
      }
      await rest.cancelOrder(SYM, ids[0]);
      const seq = sb.state.exchange.sequence(SYM);
      await until(() => incs.length > 0 && incs[incs.length - 1].sequenceEnd >= seq, 'increments up to the engine sequence');
      // KuCoin's documented algorithm, with the SDK's events.
      const S = Number(snap.sequence);
      const bids = new Map(snap.bids.map(([p, s]) => [p, s]));
      const asks = new Map(snap.asks.map(([p, s]) => [p, s]));
      let last = S;
      for (const e of incs) {
        if (e.sequenceEnd <= last) continue;
        assert.ok(e.sequenceStart <= last + 1, `continuity: ${e.sequenceStart} after ${last}`);
        for (const [side, rows] of [[asks, e.changes.asks], [bids, e.changes.bids]] as const)
          for (const [p, s, q] of rows) {
            if (Number(q) <= last) continue;
            if (D.isZero(s)) side.delete(p);
            else side.set(p, s);
          }
        last = e.sequenceEnd;
      }
      const engine = sb.state.exchange.level2(SYM, 1000);
      const sorted = (m: Map<string, string>, desc: boolean) => [...m].sort((a, b) => (desc ? -1 : 1) * D.cmp(a[0], b[0]));
      assert.equal(last, seq);
      assert.deepEqual(sorted(bids, true), engine.bids);
      assert.deepEqual(sorted(asks, false), engine.asks);
    } finally {
      await ws.stop();
    }
  });

  it('private orderV2 and account: the order and the hold as the sandbox has them', async () => {
    const ws = client.wsService().newSpotPrivateWS();
    await ws.start();
    try {
      type Ord = { orderId: string; type: string; status: string; size?: string; price?: string; remainSize?: string; ts: number; orderTime: number };
      type Acc = { currency: string; available: string; hold: string; total: string; relationEvent: string; time: string };
      const orders: Ord[] = [];
      const accounts: Acc[] = [];
      await ws.orderV2((_t, _s, e) => orders.push(e as unknown as Ord)); // the SDK's enums are these strings on the wire
      await ws.account((_t, _s, e) => accounts.push(e as unknown as Acc));
      const book = sb.state.exchange.level2(SYM, 1);
      const r = await rest.placeOrder({ clientOid: 'sdk-priv', symbol: SYM, side: 'buy', type: 'limit', price: book.bids[0][0], size: '0.02' });
      await until(() => orders.some((o) => o.orderId === r.orderId && o.type === 'open') && accounts.some((a) => a.currency === 'USDT'), 'order and balance events');
      const mine = orders.filter((o) => o.orderId === r.orderId);
      assert.deepEqual(mine.map((o) => `${o.type}/${o.status}`), ['received/new', 'open/open']);
      const view = await rest.getOrder(SYM, r.orderId);
      const open = mine[1];
      assert.equal(open.size, view.size);
      assert.equal(open.price, view.price);
      assert.equal(open.remainSize, view.size);
      assert.equal(open.orderTime, view.createdAt);
      const usdt = accounts.filter((a) => a.currency === 'USDT').at(-1)!;
      const acc = (await rest.getAccounts({ currency: 'USDT', type: 'trade' }))[0];
      assert.equal(usdt.relationEvent, 'trade.hold');
      assert.deepEqual([usdt.available, usdt.hold, usdt.total], [acc.available, acc.holds, acc.balance]);
      await rest.cancelOrder(SYM, r.orderId);
      await until(() => orders.some((o) => o.orderId === r.orderId && o.type === 'canceled'), 'canceled event');
      assert.equal(orders.find((o) => o.orderId === r.orderId && o.type === 'canceled')?.status, 'done');
    } finally {
      await ws.stop();
    }
    assert.deepEqual(sdkLog.filter((l) => l.startsWith('error')), []);
  });
});
