/**
 * ccxt pro's `kucoin` against the sandbox's feed, unmodified: watchOrderBook, watchTicker,
 * watchTrades, watchOrders and watchBalance, each checked against the sandbox's own state.
 *
 * Stock options: only ccxt's URLs (`ccxtApiUrls`, as SpotDesk hands them to bot developers) and the
 * credentials are set. One ccxt call is added, for ccxt itself, not the sandbox:
 * `await exchange.loadHttpProxyAgent()` — ccxt refuses plain `ws://` URLs in Node until its HTTP
 * agent is loaded (ccxt's own message: "to use proxy with non-ssl ws:// urls, at first run
 * `await exchange.loadHttpProxyAgent()` method"); the sandbox serves ws://, not wss://.
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { startTestSandbox } from '../server/helpers';
import { until } from './helpers';

type Pro = InstanceType<typeof ccxt.pro.kucoin>;
const SYM = 'ETH-USDT';
const UNIFIED = 'ETH/USDT';

/** Resolve `p`, or fail after `ms` (a state that never came; not a sleep). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms).unref())]);
}

describe('stream/ccxt pro kucoin against the sandbox (unmodified)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let rest: SpotClient;
  let pub: Pro;
  let priv: Pro;
  let n = 0;

  function pointAtSandbox(ex: Pro): void {
    ex.urls.api = ccxtApiUrls(ex.urls.api as Record<string, unknown>, sb.baseUrl) as typeof ex.urls.api;
  }

  before(async () => {
    sb = await startTestSandbox({ manualClock: false, rateLimits: false });
    const c = sb.credentials;
    rest = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' } });
    pub = new ccxt.pro.kucoin();
    priv = new ccxt.pro.kucoin({ apiKey: c.apiKey, secret: c.apiSecret, password: c.apiPassphrase });
    pointAtSandbox(pub);
    pointAtSandbox(priv);
    await pub.loadHttpProxyAgent();
    await priv.loadHttpProxyAgent();
    await pub.loadMarkets();
    await priv.loadMarkets();
  });
  after(async () => {
    await pub?.close();
    await priv?.close();
    rest?.close();
    await sb?.close();
  });

  /** Wait until the feed has a subscriber on `channel`/`key` (ccxt sent its subscribe). */
  const subscribed = (channel: 'l2' | 'match' | 'orderV1' | 'balance', key: string): Promise<void> => until(() => sb.feed.publishing.subscribers(channel, key) > 0, `ccxt's ${channel} subscription`);

  const best = (): { bid: string; ask: string } => {
    const b = sb.state.exchange.level2(SYM, 1);
    return { bid: b.bids[0][0], ask: b.asks[0][0] };
  };
  /** A resting buy one tick above the best bid (inside the spread): a level change. */
  async function restingBuy(size = '0.01'): Promise<string> {
    const tick = sb.state.world.symbolMap.get(SYM)!.priceIncrement;
    const r = await rest.placeOrder({ clientOid: `cx${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: D.add(best().bid, tick), size });
    return r.orderId;
  }

  it('watchOrderBook: ccxt syncs (snapshot + increments) and ends equal to the engine book', async () => {
    let resolved = false;
    const first = pub.watchOrderBook(UNIFIED).then((ob) => ((resolved = true), ob));
    await subscribed('l2', SYM);
    // ccxt takes its REST snapshot after 5 buffered increments: make changes until it resolves.
    const ids: string[] = [];
    for (let i = 0; i < 40 && !resolved; i++) {
      const sent = sb.feed.stats.deliveries;
      ids.push(await restingBuy());
      await until(() => sb.feed.stats.deliveries > sent, 'the increment written to ccxt');
    }
    await within(first, 10_000, 'watchOrderBook');
    for (const id of ids.splice(0, 3)) await rest.cancelOrder(SYM, id);
    const seq = sb.state.exchange.sequence(SYM);
    let ob = await within(pub.watchOrderBook(UNIFIED), 5000, 'update');
    while (Number(ob.nonce) < seq) ob = await within(pub.watchOrderBook(UNIFIED), 5000, `update up to ${seq}`);
    const engine = sb.state.exchange.level2(SYM, 1000);
    assert.equal(ob.nonce, seq);
    // ccxt's sides are its own Array subclasses of [price, amount] numbers
    assert.deepEqual(Array.from(ob.bids, ([p, a]) => [p, a]), engine.bids.map(([p, s]) => [Number(p), Number(s)]));
    assert.deepEqual(Array.from(ob.asks, ([p, a]) => [p, a]), engine.asks.map(([p, s]) => [Number(p), Number(s)]));
    for (const id of ids) await rest.cancelOrder(SYM, id);
  });

  it('watchTicker (/market/snapshot): best bid and ask and the last trade of the engine', async () => {
    const b = best();
    await rest.placeOrder({ clientOid: `cx${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: b.ask, size: '0.001', timeInForce: 'IOC' });
    const last = sb.state.exchange.trades(SYM).at(-1)!;
    const t = await within(pub.watchTicker(UNIFIED), 5000, 'watchTicker');
    const now = best();
    assert.equal(t.bid, Number(now.bid));
    assert.equal(t.ask, Number(now.ask));
    assert.equal(t.last, Number(last.price));
    assert.equal(t.symbol, UNIFIED);
  });

  it('watchTrades: a taker buy shows up with the engine trade id, price, amount and side', async () => {
    const watching = pub.watchTrades(UNIFIED);
    await subscribed('match', SYM);
    const ask = best().ask;
    await rest.placeOrder({ clientOid: `cx${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: ask, size: '0.002', timeInForce: 'IOC' });
    const engineTrade = sb.state.exchange.trades(SYM).at(-1)!;
    const trades = await within(watching, 5000, 'watchTrades');
    const t = trades.at(-1)!;
    assert.equal(t.id, String(engineTrade.tradeId));
    assert.equal(t.price, Number(engineTrade.price));
    assert.equal(t.amount, Number(engineTrade.size));
    assert.equal(t.side, 'buy');
  });

  it('watchOrders (/spotMarket/tradeOrders): open then canceled, as the sandbox has the order', async () => {
    let orders = priv.watchOrders(UNIFIED);
    await subscribed('orderV1', sb.credentials.uid);
    const id = await restingBuy('0.003');
    let list = await within(orders, 5000, 'watchOrders open');
    let o = list.find((x) => x.id === id);
    while (!o) {
      list = await within(priv.watchOrders(UNIFIED), 5000, 'watchOrders open');
      o = list.find((x) => x.id === id);
    }
    const view = await rest.getOrder(SYM, id);
    assert.equal(o.status, 'open');
    assert.equal(o.amount, Number(view.size));
    assert.equal(o.price, Number(view.price));
    assert.equal(o.side, 'buy');
    orders = priv.watchOrders(UNIFIED);
    await rest.cancelOrder(SYM, id);
    for (;;) {
      list = await within(orders, 5000, 'watchOrders canceled');
      o = list.find((x) => x.id === id);
      if (o?.status === 'canceled') break;
      orders = priv.watchOrders(UNIFIED);
    }
    assert.equal((await rest.getOrder(SYM, id)).active, false);
  });

  it('watchBalance: the trade account after an order hold equals the sandbox accounts', async () => {
    // ccxt loads a REST balance snapshot, then resolves on the next balance message.
    const watching = priv.watchBalance();
    await subscribed('balance', sb.credentials.uid);
    const id = await restingBuy('0.004');
    const acc = (await rest.getAccounts({ currency: 'USDT', type: 'trade' }))[0];
    let bal = await within(watching, 5000, 'balance update');
    while (bal.USDT?.used !== Number(acc.holds)) bal = await within(priv.watchBalance(), 5000, 'balance update');
    assert.equal(bal.USDT.free, Number(acc.available));
    assert.equal(bal.USDT.used, Number(acc.holds));
    assert.equal(bal.USDT.total, Number(acc.balance));
    await rest.cancelOrder(SYM, id);
  });
});
