/**
 * The market topics added to the sandbox's feed, through two unmodified third-party clients, each
 * checked against the sandbox's own state (engine book, market tape):
 * - ccxt pro `kucoin` (stock options; only its URLs and, for ccxt itself, `loadHttpProxyAgent()`
 *   because the sandbox serves ws://, see ccxt.test.ts): watchOHLCV (/market/candles),
 *   watchBidsAsks (/spotMarket/level1), watchOrderBook with limit 50 (/spotMarket/level2Depth50),
 *   watchTickers without symbols (/market/ticker:all, which leaves out BTCP-BTC, whose trading is disabled);
 * - kucoin-universal-sdk's spot public WebSocket client: klines, orderbookLevel1, orderbookLevel50, allTickers,
 *   and level1's coalescing at the default 10 ms interval (changes within one tick give one push).
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import { ClientOptionBuilder, DefaultClient, TransportOptionBuilder, WebSocketClientOptionBuilder, logger } from 'kucoin-universal-sdk';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { startTestSandbox } from '../server/helpers';
import { parseTopic, symbolOfKey } from '../../../src/exchange/server/feed/topics';
import { connectPublic, subscribe, until } from './helpers';

type Pro = InstanceType<typeof ccxt.pro.kucoin>;
const SYM = 'ETH-USDT';
const UNIFIED = 'ETH/USDT';
/** The one pair of the world whose trading is disabled (GET /api/v2/symbols enableTrading false). */
const DISABLED = 'BTCP-BTC';

/** Resolve `p`, or fail after `ms` (a state that never came; not a sleep). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms).unref())]);
}

/** Shared per-file fixture: a real-clock sandbox and a REST client of its default user. */
function sandboxFixture() {
  const f = {} as { sb: RunningSandbox; rest: SpotClient; n: number };
  before(async () => {
    f.sb = await startTestSandbox({ manualClock: false, rateLimits: false });
    const c = f.sb.credentials;
    f.rest = new SpotClient({ baseUrl: f.sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' } });
    f.n = 0;
  });
  after(async () => {
    f.rest?.close();
    await f.sb?.close();
  });
  return f;
}

/** Best bid and ask of the engine. */
function best(sb: RunningSandbox): { bid: string; ask: string; bidSize: string; askSize: string } {
  const b = sb.state.exchange.level2(SYM, 1);
  return { bid: b.bids[0][0], bidSize: b.bids[0][1], ask: b.asks[0][0], askSize: b.asks[0][1] };
}

/** The tape's current 1min candle of SYM as `[start s, open, close, high, low, volume, turnover]`. */
function tapeCandle(sb: RunningSandbox): string[] {
  const c = sb.state.tape.candles(SYM, '1min')[0];
  assert.ok(c, 'a 1min candle on the tape');
  return [...c];
}

describe('stream: new market topics through ccxt pro kucoin (unmodified)', function () {
  this.timeout(30_000);
  const f = sandboxFixture();
  let pub: Pro;

  before(async () => {
    pub = new ccxt.pro.kucoin();
    pub.urls.api = ccxtApiUrls(pub.urls.api as Record<string, unknown>, f.sb.baseUrl) as typeof pub.urls.api;
    await pub.loadHttpProxyAgent();
    await pub.loadMarkets();
  });
  after(async () => {
    await pub?.close();
  });

  it('watchOHLCV (/market/candles:ETH-USDT_1min): the candle ccxt holds is the tape\'s current candle', async () => {
    const first = pub.watchOHLCV(UNIFIED, '1m');
    await until(() => f.sb.feed.publishing.subscribers('candles', `${SYM}_1min`) > 0, 'ccxt\'s candles subscription');
    const b = best(f.sb);
    await f.rest.placeOrder({ clientOid: `ox${++f.n}`, symbol: SYM, side: 'buy', type: 'limit', price: b.ask, size: '0.003', timeInForce: 'IOC' });
    let rows = await within(first, 5000, 'watchOHLCV');
    await f.rest.placeOrder({ clientOid: `ox${++f.n}`, symbol: SYM, side: 'sell', type: 'limit', price: best(f.sb).bid, size: '0.002', timeInForce: 'IOC' });
    const want = () => {
      const [t, o, c, h, l, v] = tapeCandle(f.sb);
      return [Number(t) * 1000, Number(o), Number(h), Number(l), Number(c), Number(v)];
    };
    while (JSON.stringify(rows.at(-1)) !== JSON.stringify(want())) rows = await within(pub.watchOHLCV(UNIFIED, '1m'), 5000, `candle ${JSON.stringify(want())}`);
    assert.deepEqual(rows.at(-1), want());
  });

  it('watchBidsAsks (/spotMarket/level1): the engine\'s best bid and ask, after a bid inside the spread', async () => {
    const first = pub.watchBidsAsks([UNIFIED]);
    await until(() => f.sb.feed.publishing.subscribers('level1', SYM) > 0, 'ccxt\'s level1 subscription');
    const initial = (await within(first, 5000, 'watchBidsAsks'))[UNIFIED];
    const b0 = best(f.sb);
    assert.deepEqual([initial.bid, initial.bidVolume, initial.ask, initial.askVolume], [b0.bid, b0.bidSize, b0.ask, b0.askSize].map(Number));
    const tick = f.sb.state.world.symbolMap.get(SYM)!.priceIncrement;
    const price = D.add(b0.bid, tick);
    const r = await f.rest.placeOrder({ clientOid: `ox${++f.n}`, symbol: SYM, side: 'buy', type: 'limit', price, size: '0.0123' });
    let t = initial;
    while (t.bid !== Number(price)) t = (await within(pub.watchBidsAsks([UNIFIED]), 5000, `bid ${price}`))[UNIFIED];
    const b1 = best(f.sb);
    assert.deepEqual([b1.bid, b1.bidSize], [price, '0.0123']);
    assert.deepEqual([t.bid, t.bidVolume, t.ask, t.askVolume], [b1.bid, b1.bidSize, b1.ask, b1.askSize].map(Number));
    await f.rest.cancelOrder(SYM, r.orderId);
  });

  it('watchOrderBook(limit 50) subscribes /spotMarket/level2Depth50 and holds the engine\'s top 50', async () => {
    let ob = await within(pub.watchOrderBook(UNIFIED, 50), 5000, 'watchOrderBook 50');
    assert.equal(f.sb.feed.publishing.subscribers('depth50', SYM), 1);
    assert.equal(f.sb.feed.publishing.subscribers('l2', SYM), 0);
    const tick = f.sb.state.world.symbolMap.get(SYM)!.priceIncrement;
    const price = D.sub(best(f.sb).ask, tick);
    const r = await f.rest.placeOrder({ clientOid: `ox${++f.n}`, symbol: SYM, side: 'sell', type: 'limit', price, size: '0.02' });
    while (ob.asks[0]?.[0] !== Number(price)) ob = await within(pub.watchOrderBook(UNIFIED, 50), 5000, `ask ${price}`);
    const engine = f.sb.state.exchange.level2(SYM, 50);
    assert.deepEqual(Array.from(ob.bids, ([p, a]) => [p, a]), engine.bids.map(([p, s]) => [Number(p), Number(s)]));
    assert.deepEqual(Array.from(ob.asks, ([p, a]) => [p, a]), engine.asks.map(([p, s]) => [Number(p), Number(s)]));
    await f.rest.cancelOrder(SYM, r.orderId);
  });

  it('watchTickers() (/market/ticker:all): every tradable pair with the engine\'s best bid/ask, never BTCP-BTC', async () => {
    const tradable = f.sb.state.world.symbols.filter((s) => s.enableTrading).map((s) => `${s.baseCurrency}/${s.quoteCurrency}`);
    await within(pub.watchTickers(), 5000, 'ticker:all');
    assert.equal(f.sb.feed.publishing.subscribers('ticker', 'all'), 1);
    // the subscription's first burst has every tradable pair; ccxt keeps each in its ticker cache
    await until(() => tradable.every((s) => pub.tickers[s] !== undefined), 'every tradable pair in ccxt\'s tickers');
    // one more change after the first burst: every frame of the burst was read before its update
    const b = best(f.sb);
    await f.rest.placeOrder({ clientOid: `ox${++f.n}`, symbol: SYM, side: 'buy', type: 'limit', price: b.ask, size: '0.001', timeInForce: 'IOC' });
    let eth = pub.tickers[UNIFIED];
    const wantBid = () => Number(best(f.sb).bid);
    while (!eth || eth.bid !== wantBid() || eth.ask !== Number(best(f.sb).ask)) eth = (await within(pub.watchTickers(), 5000, 'ETH ticker update'))[UNIFIED] ?? eth;
    assert.equal(pub.tickers['BTCP/BTC'], undefined, 'ticker:all pushed the disabled pair');
    assert.deepEqual(Object.keys(pub.tickers).sort(), [...tradable].sort());
    assert.equal(f.sb.state.world.symbolMap.get(DISABLED)?.enableTrading, false);
  });
});

describe('stream: new market topics through kucoin-universal-sdk\'s spot public WebSocket client (unmodified)', function () {
  this.timeout(30_000);
  const f = sandboxFixture();
  let client: DefaultClient;
  const sdkLog: string[] = [];

  before(() => {
    logger.setGlobalLogger({}, { level: 'warn', format: (level: string, message: string) => (sdkLog.push(`${level} ${message}`), '') });
    const c = f.sb.credentials;
    const options = new ClientOptionBuilder()
      .setKey(c.apiKey)
      .setSecret(c.apiSecret)
      .setPassphrase(c.apiPassphrase)
      .setSpotEndpoint(f.sb.baseUrl)
      .setTransportOption(new TransportOptionBuilder().build())
      .setWebSocketClientOption(new WebSocketClientOptionBuilder().build())
      .build();
    client = new DefaultClient(options);
  });
  after(() => {
    assert.deepEqual(sdkLog.filter((l) => l.startsWith('error')), []);
  });

  it('klines, orderbookLevel1, orderbookLevel50, allTickers: each event as the sandbox has it', async () => {
    const ws = client.wsService().newSpotPublicWS();
    await ws.start();
    try {
      type Kline = { symbol: string; candles: string[]; time: number };
      type L1 = { asks: string[]; bids: string[]; timestamp: number };
      type Depth = { asks: string[][]; bids: string[][]; timestamp: number };
      type Tick = { bestBid: string; bestBidSize: string; bestAsk: string; bestAskSize: string; price: string | null; sequence: string };
      const klines: Kline[] = [];
      const l1: L1[] = [];
      const d50: Depth[] = [];
      const tickers: [string, Tick][] = [];
      await ws.klines(SYM, '1min', (_t, _s, e) => klines.push(e as unknown as Kline));
      await ws.orderbookLevel1([SYM], (_t, _s, e) => l1.push(e as unknown as L1));
      await ws.orderbookLevel50([SYM], (_t, _s, e) => d50.push(e as unknown as Depth));
      await ws.allTickers((_t, subject, e) => tickers.push([subject, e as unknown as Tick]));
      const tradable = f.sb.state.world.symbols.filter((s) => s.enableTrading).map((s) => s.symbol);
      await until(() => l1.length > 0 && d50.length > 0 && tradable.every((s) => tickers.some(([k]) => k === s)), 'the initial level1, depth50 and ticker:all pushes');

      // a taker trade (candle) and a new best bid (level1, depth50, ticker)
      const b = best(f.sb);
      await f.rest.placeOrder({ clientOid: `sx${++f.n}`, symbol: SYM, side: 'buy', type: 'limit', price: b.ask, size: '0.004', timeInForce: 'IOC' });
      const tick = f.sb.state.world.symbolMap.get(SYM)!.priceIncrement;
      const price = D.add(best(f.sb).bid, tick);
      const r = await f.rest.placeOrder({ clientOid: `sx${++f.n}`, symbol: SYM, side: 'buy', type: 'limit', price, size: '0.0077' });
      await until(() => klines.length > 0 && JSON.stringify(klines.at(-1)?.candles) === JSON.stringify(tapeCandle(f.sb)), 'the kline of the trade');
      await until(() => l1.at(-1)?.bids[0] === price && d50.at(-1)?.bids[0]?.[0] === price, 'level1 and depth50 with the new bid');
      await until(() => tickers.some(([s, t]) => s === SYM && t.bestBid === price), 'ticker:all with the new bid');

      const k = klines.at(-1)!;
      assert.equal(k.symbol, SYM);
      assert.deepEqual(k.candles, tapeCandle(f.sb));
      const b1 = best(f.sb);
      assert.deepEqual([l1.at(-1)!.bids, l1.at(-1)!.asks], [[b1.bid, b1.bidSize], [b1.ask, b1.askSize]]);
      const engine = f.sb.state.exchange.level2(SYM, 50);
      assert.deepEqual([d50.at(-1)!.bids, d50.at(-1)!.asks], [engine.bids, engine.asks]);
      const t = tickers.filter(([s]) => s === SYM).at(-1)![1];
      const last = f.sb.state.exchange.trades(SYM).at(-1)!;
      assert.deepEqual([t.bestBid, t.bestBidSize, t.bestAsk, t.bestAskSize, t.price], [b1.bid, b1.bidSize, b1.ask, b1.askSize, last.price]);
      assert.ok(!tickers.some(([s]) => s === DISABLED), 'ticker:all pushed the disabled pair');
      await f.rest.cancelOrder(SYM, r.orderId);
    } finally {
      await ws.stop();
    }
  });

  it('orderbookLevel1 with the default interval (10 ms): five book changes made in one turn of the event loop give ONE push, of the last best bid', async () => {
    const ws = client.wsService().newSpotPublicWS();
    await ws.start();
    try {
      type L1 = { bids: string[]; asks: string[]; timestamp: number };
      const l1: L1[] = [];
      await ws.orderbookLevel1([SYM], (_t, _s, e) => l1.push(e as unknown as L1));
      await until(() => l1.length === 1, 'the initial level1');
      // five better bids applied synchronously through the sandbox's command path (no await between them): no
      // level1 tick can run in between, so KuCoin's "at most every 10 ms, on change" leaves one push
      const uid = f.sb.credentials.uid;
      const tick = f.sb.state.world.symbolMap.get(SYM)!.priceIncrement;
      const prices: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const price = D.add(best(f.sb).bid, tick);
        f.sb.state.exec({ op: 'order.place', t: f.sb.state.now(), args: { uid, req: { clientOid: `co${i}`, symbol: SYM, side: 'buy', type: 'limit', price, size: '0.001' } } });
        prices.push(price);
      }
      assert.deepEqual(best(f.sb).bid, prices[4]);
      await until(() => l1.at(-1)?.bids[0] === prices[4], 'the level1 of the last bid');
      const b = best(f.sb);
      assert.deepEqual(l1.slice(1).map((e) => [e.bids, e.asks]), [[[b.bid, b.bidSize], [b.ask, b.askSize]]], 'one push for the five changes');
      for (const o of f.sb.state.exchange.activeOrders(uid, SYM)) await f.rest.cancelOrder(SYM, o.id);
    } finally {
      await ws.stop();
    }
  });
});

describe('stream: topic parsing and the level1 throttle (raw protocol)', function () {
  this.timeout(30_000);

  it('candles topics: {symbol}_{type} with KuCoin\'s intervals; a bad type is 400, an unknown pair 404; several in one request', () => {
    const isSymbol = (s: string) => s === 'ETH-USDT' || s === 'BTC-USDT';
    assert.deepEqual(parseTopic('/market/candles:ETH-USDT_1hour,BTC-USDT_1week', isSymbol, undefined), {
      keys: [
        { channel: 'candles', key: 'ETH-USDT_1hour' },
        { channel: 'candles', key: 'BTC-USDT_1week' },
      ],
    });
    assert.equal(symbolOfKey({ channel: 'candles', key: 'ETH-USDT_1hour' }), 'ETH-USDT');
    assert.deepEqual(parseTopic('/market/candles:ETH-USDT_2min', isSymbol, undefined), { code: 400, data: 'topic /market/candles:ETH-USDT_2min is invalid' });
    assert.deepEqual(parseTopic('/market/candles:ETH-USDT', isSymbol, undefined), { code: 400, data: 'topic /market/candles:ETH-USDT is invalid' });
    assert.deepEqual(parseTopic('/market/candles:DOGE-USDT_1min', isSymbol, undefined), { code: 404, data: 'topic /market/candles:DOGE-USDT_1min is not found' });
    // underscores belong to candles only
    assert.deepEqual(parseTopic('/spotMarket/level1:ETH-USDT_1min', isSymbol, undefined), { code: 400, data: 'topic /spotMarket/level1:ETH-USDT_1min is invalid' });
    assert.deepEqual(parseTopic('/spotMarket/level1:ETH-USDT,BTC-USDT', isSymbol, undefined), {
      keys: [
        { channel: 'level1', key: 'ETH-USDT' },
        { channel: 'level1', key: 'BTC-USDT' },
      ],
    });
  });

  it('level1 is pushed on change and at most once per interval (200 ms here; 10 ms by default): changes within an interval coalesce', async () => {
    const sb = await startTestSandbox({ manualClock: false, rateLimits: false, feed: { level1IntervalMs: 200 } });
    const c = sb.credentials;
    const rest = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' } });
    const probe = await connectPublic(sb);
    try {
      await subscribe(probe, `/spotMarket/level1:${SYM}`);
      const l1 = () => probe.frames.filter((x) => x.json.subject === 'level1');
      await until(() => l1().length === 1, 'the initial level1');
      const tick = sb.state.world.symbolMap.get(SYM)!.priceIncrement;
      const changes: string[] = [];
      const t0 = Date.now();
      // five better bids, as fast as REST goes: well within one 200 ms interval
      for (let i = 1; i <= 5; i++) {
        const price = D.add(best(sb).bid, tick);
        await rest.placeOrder({ clientOid: `thr${i}`, symbol: SYM, side: 'buy', type: 'limit', price, size: '0.001' });
        changes.push(price);
      }
      const elapsed = Date.now() - t0;
      await until(() => (l1().at(-1)?.json.data as { bids: string[] } | undefined)?.bids[0] === changes.at(-1), 'the last bid pushed');
      const pushes = l1().slice(1);
      const stamps = pushes.map((x) => (x.json.data as { timestamp: number }).timestamp);
      for (let i = 1; i < stamps.length; i++) assert.ok(stamps[i] - stamps[i - 1] >= 199, `pushes ${stamps[i] - stamps[i - 1]} ms apart`);
      assert.ok(pushes.length <= Math.ceil(elapsed / 200) + 1, `${pushes.length} pushes for 5 changes in ${elapsed} ms`);
      // nothing changed since: no further push, the last one is the engine's best bid
      const b = best(sb);
      assert.deepEqual((pushes.at(-1)!.json.data as { bids: string[] }).bids, [b.bid, b.bidSize]);
      assert.equal(sb.feed.publishing.subscribers('level1', SYM), 1);
    } finally {
      probe.ws.close();
      rest.close();
      await sb.close();
    }
  });
});
