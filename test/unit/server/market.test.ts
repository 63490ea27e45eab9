/**
 * Sandbox server, black-box over HTTP: public market data and the world (SpotClient + raw HTTP).
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import * as D from '../../../src/api/decimal';
import { marketUsdPrices } from '../../../src/exchange/server/market/fiatPrices';
import { buildWorld } from '../../../src/exchange/server/world';
import { credsOf, rawRequest, signed, startTestSandbox } from './helpers';

describe('sandbox server: market data', () => {
  let sb: RunningSandbox;
  let client: SpotClient;

  before(async () => {
    sb = await startTestSandbox();
    client = new SpotClient({ baseUrl: sb.baseUrl, credentials: credsOf(sb), now: () => sb.state.now() });
  });
  after(async () => {
    client.close();
    await sb.close();
  });

  it('level2_20 returns the seeded BTC-USDT book, starting with the level-2 capture levels', async () => {
    const book = await client.call('level2_20', { symbol: 'BTC-USDT' });
    assert.equal(book.bids.length, 20);
    assert.equal(book.asks.length, 20);
    assert.deepEqual(book.bids.slice(0, 2), [
      ['66976.4', '0.69109872'],
      ['66976.3', '0.14377'],
    ]);
    assert.deepEqual(book.asks.slice(0, 2), [
      ['66976.5', '0.05408199'],
      ['66976.8', '0.0005'],
    ]);
    assert.match(book.sequence, /^\d+$/);
    assert.equal(book.time, sb.state.now());
    for (let i = 1; i < book.bids.length; i++) assert.ok(Number(book.bids[i][0]) < Number(book.bids[i - 1][0]), 'bids high→low');
    for (let i = 1; i < book.asks.length; i++) assert.ok(Number(book.asks[i][0]) > Number(book.asks[i - 1][0]), 'asks low→high');
  });

  it('level2_100 returns up to 100 levels (the seed has 27 per side on BTC-USDT)', async () => {
    const book = await client.call('level2_100', { symbol: 'BTC-USDT' });
    assert.equal(book.bids.length, 27);
    assert.equal(book.asks.length, 27);
  });

  it('level2 of an unknown symbol → 900001 (HTTP 200), a malformed symbol → 400100 naming the field', async () => {
    const r = await rawRequest(sb.baseUrl, 'GET', '/api/v1/market/orderbook/level2_20?symbol=NOPE-USDT');
    assert.equal(r.status, 200);
    assert.equal(r.json.code, '900001');
    const r2 = await rawRequest(sb.baseUrl, 'GET', '/api/v1/market/orderbook/level2_20?symbol=../../etc');
    assert.equal(r2.status, 400);
    assert.equal(r2.json.code, '400100');
    assert.match(String(r2.json.msg), /^symbol: /);
    const r3 = await rawRequest(sb.baseUrl, 'GET', '/api/v1/market/orderbook/level2_20');
    assert.equal(r3.json.code, '400100');
    assert.match(String(r3.json.msg), /symbol/);
  });

  it('currencies: fixture BTC chains plus TRC20, USDT OMNI/ERC20/TRC20/KCC/BEP20/SOL/NEAR; currency/{c}?chain= filters chains', async () => {
    const list = await client.getCurrencies();
    const btc = list.find((c) => c.currency === 'BTC')!;
    assert.deepEqual(
      btc.chains.map((c) => c.chainId),
      ['btc', 'btcln', 'kcc', 'bech32', 'trx'],
    );
    const usdt = list.find((c) => c.currency === 'USDT')!;
    assert.deepEqual(
      usdt.chains.map((c) => c.chainName),
      ['OMNI', 'ERC20', 'TRC20', 'KCC', 'BEP20', 'SOL', 'NEAR'],
    );
    const one = await client.getCurrency('BTC', 'bech32');
    assert.equal(one.currency, 'BTC');
    assert.deepEqual(
      one.chains.map((c) => c.chainName),
      ['BTC-Segwit'],
    );
    const all = await client.getCurrency('USDT');
    assert.equal(all.chains.length, 7);
    const bad = await rawRequest(sb.baseUrl, 'GET', '/api/v3/currencies/NOPE');
    assert.equal(bad.json.code, '400100');
    const trav = await rawRequest(sb.baseUrl, 'GET', '/api/v3/currencies/..%2F..%2Fetc');
    assert.equal(trav.json.code, '400100');
    assert.equal(trav.status, 400);
  });

  it('symbols: all, by market, SC accepted as USDS, ETH/NEO/TRX merged into ALTS', async () => {
    const all = await client.getSymbols();
    assert.equal(all.length, 13);
    const btcusdt = all.find((s) => s.symbol === 'BTC-USDT')!;
    assert.equal(btcusdt.priceIncrement, '0.1');
    assert.equal(btcusdt.baseIncrement, '0.00000001');
    const usds = await client.getSymbols('USDS');
    const sc = await client.getSymbols('SC');
    assert.deepEqual(
      sc.map((s) => s.symbol),
      usds.map((s) => s.symbol),
    );
    assert.ok(usds.some((s) => s.symbol === 'BTC-USDT'));
    const alts = await client.getSymbols('ALTS');
    assert.deepEqual(alts.map((s) => s.symbol).sort(), ['BTCP-BTC', 'KCS-ETH', 'NEO-ETH', 'TRX-ETH']);
    const eth = await client.getSymbols('ETH');
    assert.deepEqual(eth.map((s) => s.symbol).sort(), ['BTCP-BTC', 'KCS-ETH', 'NEO-ETH', 'TRX-ETH']);
    assert.ok(all.every((s) => !['ETH', 'NEO', 'TRX', 'SC'].includes(s.market)));
  });

  it('markets, status, timestamp, base prices, regions', async () => {
    const markets = await client.getMarkets();
    assert.ok(markets.includes('USDS') && markets.includes('ALTS') && markets.includes('BTC'));
    assert.deepEqual(await client.getStatus(), { status: 'open', msg: '' });
    assert.equal(await client.getServerTime(), sb.state.now());
    const prices = await client.getPrices({ currencies: 'BTC,ETH,NOPE' });
    assert.deepEqual(prices, { BTC: '67133.4165000832051564', ETH: '2607.6655149998362673' });
    const eur = await client.getPrices({ base: 'EUR', currencies: 'USDT' });
    assert.deepEqual(eur, { USDT: '0.9195400000000000' });
    const badBase = await rawRequest(sb.baseUrl, 'GET', '/api/v1/prices?base=XYZ');
    assert.equal(badBase.json.code, '400100');
    const regions = await client.getRegions();
    assert.ok(regions.some((r) => r.code === 'TR'));
    const bullet = await client.getBulletPublic();
    // A signed feed token (payload.mac, base64url; see src/exchange/server/feed/tokens.ts and test/unit/stream).
    assert.match(bullet.token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    assert.equal(bullet.instanceServers[0].endpoint, sb.baseUrl.replace('http', 'ws') + '/ws');
  });

  it('allTickers: computed from trades — last, high/low, vol/volValue, changePrice/changeRate, best bid/ask', async () => {
    const t0 = await client.getAllTickers();
    const before = t0.ticker.find((t) => t.symbol === 'ETH-USDT')!;
    assert.equal(before.last, null);
    assert.equal(before.vol, '0');
    const ask0 = before.sell!;
    // Two taker buys on ETH-USDT: one at the best ask, one sweeping into the next level.
    const c = credsOf(sb);
    const r1 = await signed(sb, c, 'POST', '/api/v1/hf/orders', { symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: ask0, size: '0.01', timeInForce: 'IOC' });
    assert.equal(r1.json.code, '200000', r1.text);
    const book = await client.call('level2_20', { symbol: 'ETH-USDT' });
    const ask1 = book.asks[0][0];
    const r2 = await signed(sb, c, 'POST', '/api/v1/hf/orders', { symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: ask1, size: '0.02', timeInForce: 'IOC' });
    assert.equal(r2.json.code, '200000', r2.text);
    const tick = (await client.getAllTickers()).ticker.find((t) => t.symbol === 'ETH-USDT')!;
    const fills = await client.getFills({ symbol: 'ETH-USDT' });
    const prices = fills.items.map((f) => f.price);
    const first = fills.items[fills.items.length - 1].price;
    const last = fills.items[0].price;
    assert.equal(tick.last, last);
    assert.equal(tick.high, prices.reduce((a, b) => (Number(b) > Number(a) ? b : a)));
    assert.equal(tick.low, prices.reduce((a, b) => (Number(b) < Number(a) ? b : a)));
    assert.equal(tick.vol, '0.03');
    assert.equal(tick.changePrice, String(Math.round((Number(last) - Number(first)) * 100) / 100));
    assert.equal(tick.buy, book.bids[0][0]);
    assert.ok(tick.sell !== null);
  });
  it('fiat prices follow the market: a trade on KCS-USDT moves KCS to last × the USD price of USDT, in USD and EUR', async () => {
    const seeded = sb.state.world.usdPrices;
    const before = await client.getPrices({ currencies: 'KCS,LTC' });
    assert.equal(D.cmp(before.KCS, seeded.get('KCS')!), 0, 'no trade yet: the seeded price');
    const ask = (await client.call('level2_20', { symbol: 'KCS-USDT' })).asks[1][0];
    const r = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders', { symbol: 'KCS-USDT', side: 'buy', type: 'limit', price: ask, size: '2', timeInForce: 'IOC' });
    assert.equal(r.json.code, '200000', r.text);
    const last = (await client.getAllTickers()).ticker.find((t) => t.symbol === 'KCS-USDT')!.last!;
    assert.equal(last, sb.state.exchange.lastTrade('KCS-USDT')!.price);
    const usdt = seeded.get('USDT')!;
    const after = await client.getPrices({ currencies: 'KCS,LTC,USDT' });
    assert.equal(D.cmp(after.KCS, D.mul(last, usdt)), 0, `KCS ${after.KCS} = ${last} × ${usdt}`);
    assert.notEqual(D.cmp(after.KCS, seeded.get('KCS')!), 0, 'the price moved off the seed');
    assert.equal(D.cmp(after.LTC, seeded.get('LTC')!), 0, 'LTC has not traded: still the seed');
    assert.equal(D.cmp(after.USDT, usdt), 0);
    const eur = await client.getPrices({ base: 'EUR', currencies: 'KCS' });
    assert.equal(eur.KCS, D.fromUnitsFixed(D.toUnits(D.mul(D.mul(last, usdt), '0.92'), 16, 'down'), 16));
  });

  it('marketUsdPrices: USDT pairs first, then chains through priced quotes (NEO-ETH via ETH-USDT); unpriced chains keep the seed', () => {
    const world = buildWorld();
    const lasts: Record<string, string> = { 'ETH-USDT': '2000', 'NEO-ETH': '0.005', 'ETH-BTC': '0.05', 'TRX-ETH': '0' };
    const m = marketUsdPrices(world, (s) => lasts[s]);
    const usdt = world.usdPrices.get('USDT')!;
    assert.equal(m.get('ETH')!.price, D.mul('2000', usdt));
    assert.equal(m.get('ETH')!.via, 'ETH-USDT');
    assert.equal(m.get('NEO')!.price, D.mul('0.005', D.mul('2000', usdt)));
    assert.equal(m.get('NEO')!.via, 'NEO-ETH');
    assert.equal(m.has('BTC'), false, 'BTC-USDT has not traded; ETH-BTC prices ETH, not BTC');
    assert.equal(m.has('TRX'), false, 'a zero last price is ignored');
    assert.equal(m.get('USDT')!.price, usdt);
  });
});
