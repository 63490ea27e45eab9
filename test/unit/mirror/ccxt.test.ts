/**
 * ccxt 4.5 (class `kucoin`, stock options; only its URLs and credentials changed) against a mirror sandbox:
 * fetchOrderBook shows the upstream's book, createOrder (market and limit) fills against / rests beside the
 * upstream's levels, fetchBalance reports the sandbox's own balances. Results are checked against the sandbox's
 * state and the upstream's book.
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server';
import { ccxtApiUrls } from '../../../src/shared/botSnippets';
import { bookOf, startMirror, startUpstream, waitFor } from './helpers';

type Kucoin = InstanceType<typeof ccxt.kucoin>;
const SYMBOL = 'BTC-USDT';

describe('ccxt kucoin against a mirror sandbox', function () {
  this.timeout(30_000);
  let up: RunningSandbox;
  let mirror: RunningSandbox;
  let ex: Kucoin;

  before(async () => {
    up = await startUpstream();
    ({ sb: mirror } = await startMirror(up.baseUrl, [SYMBOL]));
    const c = mirror.credentials;
    ex = new ccxt.kucoin({ apiKey: c.apiKey, secret: c.apiSecret, password: c.apiPassphrase });
    ex.urls.api = ccxtApiUrls(ex.urls.api as Record<string, unknown>, mirror.baseUrl) as never;
    await ex.loadMarkets();
  });
  after(async () => {
    await mirror?.close();
    await up?.close();
  });

  it('fetchOrderBook is the upstream book', async () => {
    const ob = await ex.fetchOrderBook('BTC/USDT', 20);
    const want = up.state.exchange.level2(SYMBOL, 20);
    assert.deepEqual(
      ob.asks.map(([p, s]) => [p, s]),
      want.asks.map(([p, s]) => [Number(p), Number(s)]),
    );
    assert.deepEqual(
      ob.bids.map(([p, s]) => [p, s]),
      want.bids.map(([p, s]) => [Number(p), Number(s)]),
    );
  });

  it('createOrder market buys at the upstream best ask; limit rests beside the upstream level; fetchBalance is the sandbox balance', async () => {
    const [ask, askSize] = up.state.exchange.level2(SYMBOL, 1).asks[0];
    const amount = Number(D.min(askSize, '0.0002'));
    const mkt = await ex.createOrder('BTC/USDT', 'market', 'buy', amount);
    const uid = mirror.credentials.uid;
    const fills = mirror.state.exchange.fills(uid, { symbol: SYMBOL, orderId: mkt.id as string }).items;
    assert.ok(fills.length > 0);
    assert.ok(fills.every((f) => f.price === ask), JSON.stringify(fills.map((f) => f.price)));
    assert.equal(D.cmp(fills.reduce((s, f) => D.add(s, f.size), '0'), String(amount)), 0);
    const [bid] = up.state.exchange.level2(SYMBOL, 1).bids[0];
    const lim = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, Number(bid));
    assert.ok(mirror.state.exchange.isActiveOrder(uid, lim.id as string));
    // the mirror's level is the upstream's plus the user's order
    const upAt = up.state.exchange.level2(SYMBOL, 1).bids[0][1];
    assert.equal(D.cmp(mirror.state.exchange.level2(SYMBOL, 1).bids[0][1], D.add(upAt, '0.001')), 0);
    const bal = await ex.fetchBalance();
    const acc = mirror.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0];
    assert.equal(bal.BTC.total, Number(acc.balance));
    assert.equal(bal.USDT.used, Number(mirror.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0].holds));
    await ex.cancelOrder(lim.id as string, 'BTC/USDT');
    await waitFor(() => JSON.stringify(bookOf(mirror, SYMBOL, 20).bids) === JSON.stringify(bookOf(up, SYMBOL, 20).bids), 'the bid side back to the upstream');
    mirror.state.exchange.checkInvariants();
  });
});
