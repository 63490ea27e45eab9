/**
 * ccxt pro's `kucoin` against the sandbox's feed, unmodified: watchOrderBook, watchTicker,
 * watchTrades, watchOrders (/spotMarket/tradeOrders; with `{trigger: true}`, /spotMarket/advancedOrders)
 * and watchBalance, each checked against the sandbox's own state.
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
import { createUser, startTestSandbox } from '../server/helpers';
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
  const subscribed = (channel: 'l2' | 'match' | 'orderV1' | 'balance' | 'advanced', key: string): Promise<void> => until(() => sb.feed.publishing.subscribers(channel, key) > 0, `ccxt's ${channel} subscription`);

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

  it('watchOrders({trigger: true}) (/spotMarket/advancedOrders): a stop order open, then triggered by a trade, as the sandbox has it', async () => {
    const uid = sb.credentials.uid;
    const tick = sb.state.world.symbolMap.get(SYM)!.priceIncrement;
    // ccxt keeps stop orders in its own cache (`triggerOrders`), apart from ordinary orders; the order that a
    // triggered stop places arrives on /spotMarket/tradeOrders under the same message hash, in the same read, so
    // a single watchOrders promise may resolve with either cache: the stop is read from ccxt's trigger cache
    const cached = (id: string) => (priv as unknown as { triggerOrders?: { hashmap: Record<string, Record<string, { status?: string; triggerPrice?: number; price?: number; amount?: number; side?: string; timestamp?: number; symbol?: string }>> } }).triggerOrders?.hashmap[UNIFIED]?.[id];
    // the subscription: its promise is not awaited (the cache is read), so a rejection at close is dropped here
    priv.watchOrders(UNIFIED, undefined, undefined, { trigger: true }).catch(() => undefined);
    await subscribed('advanced', uid);
    // a buy entry stop one tick above the best ask: the last trade is at or below the ask, so it waits
    const stopPrice = D.add(best().ask, tick);
    const last = sb.state.exchange.trades(SYM).at(-1)?.price;
    assert.ok(last === undefined || D.cmp(last, stopPrice) < 0, `last ${last} below the stop ${stopPrice}`);
    const limit = D.sub(best().bid, D.mul(tick, '50'));
    const placed = await rest.placeStopOrder({ clientOid: `cx${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: limit, size: '0.002', stop: 'entry', stopPrice });
    await until(() => cached(placed.orderId)?.status === 'open', 'the stop open in ccxt');
    const open = cached(placed.orderId)!;
    const engine = sb.state.exchange.advanced.stopOrder(uid, placed.orderId);
    assert.equal(engine.status, 'NEW');
    assert.deepEqual(
      [open.symbol, open.side, open.price, open.amount, open.triggerPrice, open.timestamp],
      [UNIFIED, 'buy', Number(engine.price), Number(engine.size), Number(engine.stopPrice), engine.createdAt],
    );
    // buy through every ask below the stop price and a little of the first level at or above it: a trade reaches it
    const asks = sb.state.exchange.level2(SYM, 1000).asks;
    const below = asks.filter(([p]) => D.cmp(p, stopPrice) < 0).reduce((a, [, z]) => D.add(a, z), '0');
    const at = asks.find(([p]) => D.cmp(p, stopPrice) >= 0) as [string, string];
    const taker = new SpotClient({ baseUrl: sb.baseUrl, credentials: await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '1000000' }] }), maxRetries: 0 });
    try {
      await taker.placeOrder({ symbol: SYM, side: 'buy', type: 'market', size: D.add(below, D.min('0.001', at[1])) });
    } finally {
      taker.close();
    }
    assert.ok(D.cmp(sb.state.exchange.trades(SYM).at(-1)!.price, stopPrice) >= 0, 'a trade at or above the stop price');
    assert.equal(sb.state.exchange.advanced.stopOrder(uid, placed.orderId).status, 'TRIGGERED');
    await until(() => cached(placed.orderId)?.status === 'triggered', 'the stop triggered in ccxt');
    assert.equal(cached(placed.orderId)?.triggerPrice, Number(engine.stopPrice));
    // the stop's limit buy entered the book far below the market, and rests there
    const entered = sb.state.exchange.activeOrders(uid, SYM).filter((o) => o.price === limit && o.size === '0.002');
    assert.equal(entered.length, 1);
    await rest.cancelOrder(SYM, entered[0].id);
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
