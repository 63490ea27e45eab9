/**
 * Sandbox server, black-box over HTTP with SpotClient: the KuCoin endpoints beyond the spec
 * that real clients call (probes, market data, order history, funding history, transfers), each answer
 * checked against the sandbox's own state, and bad input on each answering a 400100 that names the
 * field while nothing changes. One sandbox (manual clock, no simulation) for the whole file.
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import * as D from '../../../src/api/decimal';
import type { EndpointName, ParamsOf } from '../../../src/api/endpoints';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { admin, balanceOf, createUser, credsOf, rawRequest, signed, startTestSandbox } from './helpers';

async function rejects(p: Promise<unknown>, code: string, msg?: RegExp): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (msg) assert.match(e.msg, msg);
    return e;
  }
  assert.fail(`expected rejection with ${code}`);
}

/** Everything a request could change, for "nothing changed" checks. */
function snapshot(sb: RunningSandbox): string {
  const st = sb.state;
  return JSON.stringify({
    accounts: [...st.users.keys()].map((u) => st.exchange.accounts(u)),
    active: [...st.users.keys()].map((u) => st.world.symbols.map((s) => st.exchange.activeOrders(u, s.symbol).map((o) => o.id))),
    withdrawals: [...st.withdrawals.values()].map((w) => [w.withdrawalId, w.status]),
    deposits: st.deposits.length,
    addresses: st.depositAddresses.length,
    transfers: st.transfers.size,
    tape: st.tape.export(),
    ledger: st.ledger.export(),
  });
}

/**
 * Send `params` to endpoint `name` WITHOUT the client's own validation (so the sandbox judges them)
 * and assert a 400100 whose message names `field`, and that nothing changed.
 */
async function badInput<N extends EndpointName>(sb: RunningSandbox, client: SpotClient, name: N, params: Record<string, unknown>, field: string): Promise<void> {
  const before = snapshot(sb);
  const r = await client.send(client.prepare(name, params as ParamsOf<N>, { validate: false }));
  const body = JSON.parse(r.bodyText) as { code: string; msg: string };
  assert.equal(body.code, '400100', `${name}: ${r.bodyText}`);
  assert.ok(body.msg.startsWith(`${field}:`) || body.msg.includes(`; ${field}:`), `${name}: message should name ${field}: ${body.msg}`);
  assert.equal(snapshot(sb), before, `${name}: state changed`);
}

describe('sandbox server: endpoints beyond the spec', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let client: SpotClient;
  let pub: SpotClient;
  let uid: string;

  const advance = (ms: number) => admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: ms });

  before(async () => {
    sb = await startTestSandbox();
    // start at a whole hour so candle buckets are predictable
    const now = sb.state.now();
    await advance(3_600_000 - (now % 3_600_000));
    const u = await createUser(sb, {
      balances: [
        { currency: 'USDT', type: 'trade', amount: '100000' },
        { currency: 'BTC', type: 'trade', amount: '5' },
        { currency: 'USDT', type: 'main', amount: '5000' },
        { currency: 'ETH', type: 'trade', amount: '10' },
      ],
      takerFeeRate: '0.002',
      makerFeeRate: '0.0015',
    });
    uid = u.uid;
    client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, now: () => sb.state.now(), maxRetries: 0 });
    pub = new SpotClient({ baseUrl: sb.baseUrl, now: () => sb.state.now(), maxRetries: 0 });
  });
  after(async () => {
    client.close();
    pub.close();
    await sb.close();
  });

  describe('probes real clients send first', () => {
    it('account mode CLASSIC, HF account opened, no margin, isolated or futures symbols', async () => {
      assert.deepEqual(await client.getAccountMode(), { selfAccountMode: 'CLASSIC', unifiedSubAccount: [], classicSubAccount: [] });
      assert.equal(await client.isHfAccount(), true);
      const m = await pub.getMarginSymbols();
      assert.deepEqual(m.items, []);
      assert.equal(m.timestamp, sb.state.now());
      assert.deepEqual(await pub.getIsolatedSymbols(), []);
      assert.deepEqual(await pub.getFuturesContracts(), []);
    });
    it('private probes need a key; public ones do not', async () => {
      const r = await rawRequest(sb.baseUrl, 'GET', '/api/ua/v1/account/mode');
      assert.equal(r.status, 401);
      assert.equal(r.json.code, '400001');
      assert.equal((await rawRequest(sb.baseUrl, 'GET', '/api/v1/isolated/symbols')).json.code, '200000');
    });
    it('accounts?type=trade_hf lists the trade accounts labelled trade_hf; inner transfer takes trade_hf', async () => {
      const r = await signed(sb, credsOf(sb), 'GET', '/api/v1/accounts?type=trade_hf&currency=USDT');
      assert.deepEqual(r.json.data, sb.state.exchange.accounts(sb.credentials.uid, { currency: 'USDT', type: 'trade' }).map((a) => ({ ...a, type: 'trade_hf' })));
      // the client reads trade_hf as the trade account
      const viaClient = await client.call('accounts', { type: 'trade_hf', currency: 'BTC' });
      assert.deepEqual(viaClient.map((a) => a.type), ['trade']);
      const before = balanceOf(sb, uid, 'USDT', 'main');
      await client.innerTransfer({ clientOid: 'hf-1', currency: 'USDT', from: 'trade_hf', to: 'main', amount: '1' });
      assert.equal(balanceOf(sb, uid, 'USDT', 'main').balance, D.add(before.balance, '1'));
      await badInput(sb, client, 'innerTransfer', { clientOid: 'hf-2', currency: 'USDT', from: 'trade', to: 'trade_hf', amount: '1' }, 'to');
    });
  });

  describe('market data', () => {
    let taker: SpotClient;
    before(async () => {
      const t = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '100000' }, { currency: 'BTC', type: 'trade', amount: '2' }, { currency: 'ETH', type: 'trade', amount: '2' }] });
      taker = new SpotClient({ baseUrl: sb.baseUrl, credentials: t, now: () => sb.state.now(), maxRetries: 0 });
      // trades in three different minutes and two hours, buys and sells against the seeded book
      await taker.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.01' });
      await advance(30_000);
      await taker.placeOrder({ symbol: 'BTC-USDT', side: 'sell', type: 'market', size: '0.02' });
      await advance(45_000);
      await taker.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.06' }); // walks two ask levels
      await advance(3_600_000);
      await taker.placeOrder({ symbol: 'BTC-USDT', side: 'sell', type: 'market', size: '0.003' });
    });
    after(() => taker.close());

    /** Brute-force candles of the engine's own trade tape. */
    function expectedCandles(type: number, week = false): string[][] {
      const rows = new Map<number, string[]>();
      for (const t of sb.state.exchange.trades('BTC-USDT')) {
        const s = Math.floor(t.time / 1000);
        const start = week ? Math.floor((s - 4 * 86400) / type) * type + 4 * 86400 : Math.floor(s / type) * type;
        const r = rows.get(start);
        if (!r) rows.set(start, [String(start), t.price, t.price, t.price, t.price, t.size, D.mul(t.price, t.size)]);
        else {
          r[2] = t.price;
          if (D.cmp(t.price, r[3]) > 0) r[3] = t.price;
          if (D.cmp(t.price, r[4]) < 0) r[4] = t.price;
          r[5] = D.add(r[5], t.size);
          r[6] = D.add(r[6], D.mul(t.price, t.size));
        }
      }
      return [...rows.values()].reverse();
    }

    it('candles of every interval equal the aggregation of the trade tape, newest first', async () => {
      const trades = sb.state.exchange.trades('BTC-USDT');
      assert.ok(trades.length >= 5, `${trades.length} trades`);
      const cases = [
        ['1min', 60],
        ['3min', 180],
        ['5min', 300],
        ['15min', 900],
        ['1hour', 3600],
        ['4hour', 14400],
        ['1day', 86400],
      ] as const;
      for (const [type, len] of cases) assert.deepEqual(await pub.getCandles({ symbol: 'BTC-USDT', type }), expectedCandles(len), type);
      assert.deepEqual(await pub.getCandles({ symbol: 'BTC-USDT', type: '1week' }), expectedCandles(604800, true));
      const m1 = await pub.getCandles({ symbol: 'BTC-USDT', type: '1min' });
      assert.equal(m1.length, 3); // minutes 0 (two trades), 1 and 61
      // startAt/endAt in seconds select rows by their start
      const mid = Number(m1[1][0]);
      assert.deepEqual(await pub.getCandles({ symbol: 'BTC-USDT', type: '1min', startAt: mid, endAt: mid }), [m1[1]]);
      assert.deepEqual(await pub.getCandles({ symbol: 'BTC-USDT', type: '1min', endAt: mid }), m1.slice(1));
      assert.deepEqual(await pub.getCandles({ symbol: 'BTC-USDT', type: '1min', startAt: mid + 1 }), m1.slice(0, 1));
      assert.deepEqual(await pub.getCandles({ symbol: 'ETH-USDT', type: '1hour' }), []);
    });
    it('candles: bad type, inverted range, unknown symbol', async () => {
      await badInput(sb, pub, 'candles', { symbol: 'BTC-USDT', type: '1month' }, 'type');
      await badInput(sb, pub, 'candles', { symbol: 'BTC-USDT', type: '1min', startAt: 10, endAt: 5 }, 'endAt');
      await badInput(sb, pub, 'candles', { symbol: 'BTC-USDT', type: '1min', startAt: -1 }, 'startAt');
      await rejects(pub.getCandles({ symbol: 'NOPE-USDT', type: '1min' }), '900001');
    });
    it('histories: the trades of the tape (at most 100), oldest first, time in ns', async () => {
      const tape = sb.state.exchange.trades('BTC-USDT');
      const h = await pub.getTradeHistory('BTC-USDT');
      assert.deepEqual(
        h.map((t) => [t.sequence, t.price, t.size, t.side, t.time]),
        tape.slice(-100).map((t) => [t.sequence, t.price, t.size, t.side, `${t.time}000000`]),
      );
    });
    it('histories keep only the last 100 trades', async () => {
      for (let i = 0; i < 105; i++) await taker.placeOrder({ symbol: 'ETH-USDT', side: i % 2 ? 'buy' : 'sell', type: 'market', size: '0.001' });
      const tape = sb.state.exchange.trades('ETH-USDT');
      assert.ok(tape.length >= 105);
      const h = await pub.getTradeHistory('ETH-USDT');
      assert.equal(h.length, 100);
      assert.deepEqual(h.map((t) => t.sequence), tape.slice(-100).map((t) => t.sequence));
    });
    it('24 h stats equal the symbol of all tickers; level 1 is the best bid/ask and the last trade', async () => {
      const all = await pub.getAllTickers();
      const t = all.ticker.find((x) => x.symbol === 'BTC-USDT');
      assert.ok(t);
      const st = await pub.getStats('BTC-USDT');
      assert.equal(st.time, sb.state.now());
      for (const k of ['buy', 'sell', 'high', 'low', 'vol', 'volValue', 'last', 'changePrice', 'changeRate', 'averagePrice', 'takerFeeRate'] as const) assert.equal(st[k], t[k], k);
      const tape = sb.state.exchange.trades('BTC-USDT');
      assert.equal(st.last, tape[tape.length - 1].price);
      const l1 = await pub.getLevel1('BTC-USDT');
      const book = await pub.getLevel2('BTC-USDT');
      assert.deepEqual([l1.bestBid, l1.bestBidSize, l1.bestAsk, l1.bestAskSize], [...book.bids[0], ...book.asks[0]]);
      assert.equal(l1.sequence, book.sequence);
      assert.deepEqual([l1.price, l1.size], [tape[tape.length - 1].price, tape[tape.length - 1].size]);
      await rejects(pub.getStats('NOPE-USDT'), '900001');
      await badInput(sb, pub, 'level1', { symbol: 'BTCUSDT' }, 'symbol');
    });
    it('full level 2 (signed): every visible level; level2_100 is its first 100', async () => {
      for (let i = 0; i < 110; i++) await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: String(30000 + i), size: '0.0001', clientOid: `deep-${i}` });
      const full = await client.getFullOrderBook('BTC-USDT');
      const top = await pub.getLevel2('BTC-USDT', 100);
      assert.ok(full.bids.length > 130, `${full.bids.length} bid levels`);
      assert.deepEqual(full.bids.slice(0, 100), top.bids);
      assert.deepEqual(full, sb.state.exchange.level2('BTC-USDT', 1e9));
      const r = await rawRequest(sb.baseUrl, 'GET', '/api/v3/market/orderbook/level2?symbol=BTC-USDT');
      assert.equal(r.json.code, '400001');
      await client.cancelAllOrders('BTC-USDT');
    });
  });

  describe('orders', () => {
    it('done orders: newest first, side/type filters, limit and lastId paging', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const side = i % 2 ? 'sell' : 'buy';
        const o = await client.placeOrder({ symbol: 'ETH-USDT', side, type: 'limit', price: side === 'buy' ? '100' : '90000', size: '0.01', clientOid: `d-${i}` });
        await client.cancelOrder('ETH-USDT', o.orderId);
        ids.push(o.orderId);
        await advance(1000);
      }
      const mk = await client.placeOrder({ symbol: 'ETH-USDT', side: 'buy', type: 'market', funds: '10' });
      const all = await client.getDoneOrders({ symbol: 'ETH-USDT', limit: 100 });
      assert.deepEqual(all.items.slice(0, 8).map((o) => o.id), [mk.orderId, ...ids.slice().reverse()]);
      assert.ok(all.items.every((o) => o.active === false));
      // the engine's views, with the `tax` KuCoin sends ("0": the sandbox charges none)
      assert.deepEqual(all.items, sb.state.exchange.doneOrders(uid, 'ETH-USDT', { limit: 100 }).map((o) => ({ ...o, tax: '0' })));
      const sells = await client.getDoneOrders({ symbol: 'ETH-USDT', side: 'sell', type: 'limit' });
      assert.deepEqual(sells.items.map((o) => o.id), [ids[5], ids[3], ids[1]]);
      const markets = await client.getDoneOrders({ symbol: 'ETH-USDT', type: 'market' });
      assert.deepEqual(markets.items.map((o) => o.id), [mk.orderId]);
      // pages of 3 by lastId cover the list exactly once
      const paged = [];
      for await (const o of client.iterateDoneOrders({ symbol: 'ETH-USDT', limit: 3 })) paged.push(o.id);
      assert.deepEqual(paged, all.items.map((o) => o.id));
      const p1 = await client.getDoneOrders({ symbol: 'ETH-USDT', limit: 3 });
      const p2 = await client.getDoneOrders({ symbol: 'ETH-USDT', limit: 3, lastId: p1.lastId ?? undefined });
      assert.deepEqual(p2.items.map((o) => o.id), all.items.slice(3, 6).map((o) => o.id));
      await badInput(sb, client, 'doneOrders', { symbol: 'ETH-USDT', limit: 101 }, 'limit');
      await badInput(sb, client, 'doneOrders', { symbol: 'ETH-USDT', side: 'hold' }, 'side');
      await badInput(sb, client, 'doneOrders', { symbol: 'ETH-USDT', startAt: 10, endAt: 5 }, 'endAt');
      // a lastId that is no done order of the list: an empty page, as KuCoin answers it
      assert.deepEqual(await client.getDoneOrders({ symbol: 'ETH-USDT', lastId: '999999999' }), { lastId: '0', items: [] });
      assert.deepEqual(await client.getDoneOrders({ symbol: 'ETH-USDT', lastId: '99999999999999999999' }), { lastId: '0', items: [] });
      await rejects(client.getDoneOrders({ symbol: 'NOPE-USDT' }), '900001');
      // 120 orders done in one command (the same millisecond): pages of 100 by lastId keep every one once
      for (let i = 0; i < 120; i++) await client.placeOrder({ symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: '100', size: '0.01', clientOid: `tie-${i}` });
      await client.cancelAllOrders('ETH-USDT');
      const everything = [];
      for await (const o of client.iterateDoneOrders({ symbol: 'ETH-USDT' })) everything.push(o.id);
      assert.equal(everything.length, 128);
      assert.equal(new Set(everything).size, 128);
      assert.deepEqual(everything, sb.state.exchange.doneOrders(uid, 'ETH-USDT', { limit: 100 }).map((o) => o.id).concat(sb.state.exchange.doneOrders(uid, 'ETH-USDT', { limit: 100, lastId: parseInt(everything[99].slice(-16), 16) }).map((o) => o.id)));
    });
    it('order by clientOid: read, cancel (hold released), then done; unknown and malformed clientOids', async () => {
      const o = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '20000', size: '0.01', clientOid: 'by-coid' });
      const held = balanceOf(sb, uid, 'USDT', 'trade');
      const got = await client.getOrderByClientOid('BTC-USDT', 'by-coid');
      assert.deepEqual(got, { ...sb.state.exchange.getOrder(uid, 'BTC-USDT', o.orderId), tax: '0' });
      assert.equal(got.active, true);
      assert.deepEqual(await client.getActiveOrderSymbols(), ['BTC-USDT']);
      assert.deepEqual(await client.cancelOrderByClientOid('BTC-USDT', 'by-coid'), { clientOid: 'by-coid' });
      const after = balanceOf(sb, uid, 'USDT', 'trade');
      assert.equal(after.holds, D.sub(held.holds, D.add('200', D.mul('200', '0.002'))));
      assert.equal((await client.getOrderByClientOid('BTC-USDT', 'by-coid')).active, false);
      assert.deepEqual(await client.getActiveOrderSymbols(), []);
      await rejects(client.cancelOrderByClientOid('BTC-USDT', 'by-coid'), '400100', /order not exists/);
      await rejects(client.getOrderByClientOid('BTC-USDT', 'never-used'), '400100', /order not exists/);
      await badInput(sb, client, 'cancelOrderByClientOid', { clientOid: 'a.b', symbol: 'BTC-USDT' }, 'clientOid');
      await badInput(sb, client, 'orderByClientOid', { clientOid: 'x', symbol: 'BTC_USDT' }, 'symbol');
    });
    it('a path under a known prefix that names no endpoint answers 404000, not a business error', async () => {
      for (const [m, p] of [
        ['GET', '/api/v1/hf/orders/cancelAll?symbol=BTC-USDT'],
        ['GET', '/api/v1/hf/orders/sync?symbol=BTC-USDT'],
        ['DELETE', '/api/v1/hf/orders/multi?symbol=BTC-USDT'],
        ['DELETE', '/api/v1/hf/orders/done?symbol=BTC-USDT'],
        ['DELETE', '/api/v1/hf/orders/cancel?symbol=BTC-USDT'],
        ['GET', '/api/v1/hf/orders/alter?symbol=BTC-USDT'],
        ['GET', '/api/v1/hf/orders/client-order?symbol=BTC-USDT'],
      ] as const) {
        const r = await signed(sb, credsOf(sb), m, p);
        assert.equal(r.status, 404, `${m} ${p}: ${r.text}`);
        assert.equal(r.json.code, '404000', `${m} ${p}`);
      }
      // an order id still reaches the order endpoint
      const r = await signed(sb, credsOf(sb), 'GET', '/api/v1/hf/orders/ffffffffffffffffffffffff?symbol=BTC-USDT');
      assert.deepEqual([r.status, r.json.code, r.json.msg], [200, '400100', 'order not exists']);
    });
    it("trade fees: the user's rates for up to 10 pairs", async () => {
      assert.deepEqual(await client.getTradeFees(['BTC-USDT', 'ETH-USDT']), [
        { symbol: 'BTC-USDT', takerFeeRate: '0.002', makerFeeRate: '0.0015' },
        { symbol: 'ETH-USDT', takerFeeRate: '0.002', makerFeeRate: '0.0015' },
      ]);
      const eleven = sb.state.world.symbols.slice(0, 11).map((s) => s.symbol);
      await badInput(sb, client, 'tradeFees', { symbols: eleven.join(',') }, 'symbols');
      await badInput(sb, client, 'tradeFees', { symbols: 'BTC-USDT,NOPE-USDT' }, 'symbols');
      await badInput(sb, client, 'tradeFees', { symbols: 'BTC-USDT,,ETH-USDT' }, 'symbols');
    });
  });

  describe('funding', () => {
    it('V1 deposit address: null before one exists, then the created one', async () => {
      assert.equal(await client.getDepositAddress('USDT', 'trx'), null);
      const created = await client.createDepositAddress({ currency: 'USDT', chain: 'trx' });
      assert.deepEqual(await client.getDepositAddress('USDT', 'trx'), created);
      assert.equal(await client.getDepositAddress('USDT'), null); // the default chain (ERC20) has none
      await badInput(sb, client, 'depositAddressV1', { currency: 'NOPE' }, 'currency');
    });
    it('deposits: newest first, currency/status/time filters, paging', async () => {
      const t0 = sb.state.now();
      const made = [];
      for (const [cur, amount] of [['USDT', '10'], ['BTC', '0.5'], ['USDT', '20.25'], ['USDT', '7']] as const) {
        made.push((await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: cur, chain: cur === 'USDT' ? 'trx' : undefined, amount })).json.data as { depositId: string; createdAt: number });
        await advance(1000);
      }
      const all = await client.getDeposits();
      assert.deepEqual(all.items.map((d) => [d.currency, d.amount, d.status, d.createdAt]), [
        ['USDT', '7', 'SUCCESS', made[3].createdAt],
        ['USDT', '20.25', 'SUCCESS', made[2].createdAt],
        ['BTC', '0.5', 'SUCCESS', made[1].createdAt],
        ['USDT', '10', 'SUCCESS', made[0].createdAt],
      ]);
      const trxAddr = sb.state.depositAddressesOf(uid, 'USDT', 'trx')[0].address;
      assert.deepEqual([all.items[0].chain, all.items[0].address], ['trx', trxAddr]);
      assert.equal((await client.getDeposits({ currency: 'BTC' })).items.length, 1);
      assert.equal((await client.getDeposits({ status: 'FAILURE' })).totalNum, 0);
      assert.deepEqual((await client.getDeposits({ startAt: t0 + 1000, endAt: t0 + 2000 })).items.map((d) => d.amount), ['20.25', '0.5']);
      const p2 = await client.getDeposits({ currentPage: 2, pageSize: 10 });
      assert.deepEqual([p2.totalNum, p2.totalPage, p2.items.length], [4, 1, 0]);
      const seen = [];
      for await (const d of client.iterateDeposits({ pageSize: 10 })) seen.push(d.amount);
      assert.deepEqual(seen, ['7', '20.25', '0.5', '10']);
      await badInput(sb, client, 'deposits', { pageSize: 5 }, 'pageSize');
      await badInput(sb, client, 'deposits', { status: 'DONE' }, 'status');
      await badInput(sb, client, 'deposits', { currency: 'NOPE' }, 'currency');
    });
    it('withdrawals: history with status; a processing one can be cancelled (hold released), nothing else can', async () => {
      const main0 = balanceOf(sb, uid, 'USDT', 'main');
      const w1 = await client.withdrawV1({ currency: 'USDT', address: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', amount: '20', chain: 'trx' });
      const w2 = await client.withdrawV1({ currency: 'USDT', address: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', amount: '30', chain: 'trx' });
      const rec1 = sb.state.withdrawals.get(w1.withdrawalId);
      assert.ok(rec1);
      const list = await client.getWithdrawals({ currency: 'USDT' });
      assert.deepEqual(list.items.map((w) => [w.id, w.status, w.amount, w.fee, w.chain]), [
        [w2.withdrawalId, 'PROCESSING', '30', sb.state.withdrawals.get(w2.withdrawalId)?.fee, 'trx'],
        [w1.withdrawalId, 'PROCESSING', '20', rec1.fee, 'trx'],
      ]);
      const held = balanceOf(sb, uid, 'USDT', 'main');
      assert.equal(held.holds, D.add(main0.holds, D.add(rec1.totalDebit, sb.state.withdrawals.get(w2.withdrawalId)?.totalDebit ?? '')));
      await client.cancelWithdrawal(w1.withdrawalId);
      const afterCancel = balanceOf(sb, uid, 'USDT', 'main');
      assert.equal(afterCancel.holds, D.sub(held.holds, rec1.totalDebit));
      assert.equal(afterCancel.balance, held.balance);
      assert.equal((await client.getWithdrawals({ status: 'FAILURE' })).items[0].id, w1.withdrawalId);
      // a second cancel, another user's withdrawal, an unknown id: 400100 naming withdrawalId, nothing changed
      await badInput(sb, client, 'cancelWithdrawal', { withdrawalId: w1.withdrawalId }, 'withdrawalId');
      const other = new SpotClient({ baseUrl: sb.baseUrl, credentials: credsOf(sb), now: () => sb.state.now(), maxRetries: 0 });
      await badInput(sb, other, 'cancelWithdrawal', { withdrawalId: w2.withdrawalId }, 'withdrawalId');
      other.close();
      await badInput(sb, client, 'cancelWithdrawal', { withdrawalId: 'ffffffffffffffffffffffff' }, 'withdrawalId');
      // settled: SUCCESS, no longer cancellable
      await advance(5_000);
      const settled = await client.getWithdrawals({ status: 'SUCCESS' });
      assert.deepEqual(settled.items.map((w) => w.id), [w2.withdrawalId]);
      assert.match(settled.items[0].walletTxId ?? '', /^sbx-/);
      await badInput(sb, client, 'cancelWithdrawal', { withdrawalId: w2.withdrawalId }, 'withdrawalId');
      await badInput(sb, client, 'withdrawals', { status: 'CANCELLED' }, 'status');
      // the Transfer permission is required to cancel
      const ro = await createUser(sb, { permissions: ['General'] });
      const roClient = new SpotClient({ baseUrl: sb.baseUrl, credentials: ro, now: () => sb.state.now(), maxRetries: 0 });
      await rejects(roClient.cancelWithdrawal(w2.withdrawalId), '400007');
      roClient.close();
    });
    it('universal transfer: INTERNAL main ↔ trade, idempotent by clientOid; other kinds and accounts refused', async () => {
      const m0 = balanceOf(sb, uid, 'USDT', 'main');
      const t0 = balanceOf(sb, uid, 'USDT', 'trade');
      const req = { clientOid: 'flex-1', currency: 'USDT', amount: '12.5', type: 'INTERNAL', fromAccountType: 'MAIN', toAccountType: 'TRADE' } as const;
      const r = await client.universalTransfer(req);
      assert.match(r.orderId, /^[0-9a-f]{24}$/);
      assert.deepEqual(await client.universalTransfer(req), r); // same clientOid: same transfer, not a second one
      assert.equal(balanceOf(sb, uid, 'USDT', 'main').balance, D.sub(m0.balance, '12.5'));
      assert.equal(balanceOf(sb, uid, 'USDT', 'trade').balance, D.add(t0.balance, '12.5'));
      await client.universalTransfer({ ...req, clientOid: 'flex-2', fromAccountType: 'TRADE', toAccountType: 'MAIN', amount: '2.5' });
      assert.equal(balanceOf(sb, uid, 'USDT', 'main').balance, D.sub(m0.balance, '10'));
      await badInput(sb, client, 'universalTransfer', { ...req, clientOid: 'flex-3', type: 'PARENT_TO_SUB', toUserId: '1' }, 'type');
      await badInput(sb, client, 'universalTransfer', { ...req, clientOid: 'flex-4', fromAccountType: 'MARGIN' }, 'fromAccountType');
      await badInput(sb, client, 'universalTransfer', { ...req, clientOid: 'flex-5', toAccountType: 'MAIN' }, 'toAccountType');
      await badInput(sb, client, 'universalTransfer', { ...req, clientOid: 'flex-6', amount: '-1' }, 'amount');
      await badInput(sb, client, 'universalTransfer', { ...req, clientOid: 'flex 7' }, 'clientOid');
      await rejects(client.universalTransfer({ ...req, clientOid: 'flex-8', amount: '99999999' }), '200004');
    });
    it('transferable: the account as GET /api/v1/accounts shows it', async () => {
      for (const [type, acct] of [['MAIN', 'main'], ['TRADE', 'trade'], ['trade_hf', 'trade']] as const) {
        const a = sb.state.exchange.accounts(uid, { currency: 'USDT', type: acct })[0];
        assert.deepEqual(await client.call('transferable', { currency: 'USDT', type }), { currency: 'USDT', balance: a.balance, available: a.available, holds: a.holds, transferable: a.available });
      }
      await badInput(sb, client, 'transferable', { currency: 'USDT', type: 'ISOLATED' }, 'type');
      await badInput(sb, client, 'transferable', { currency: 'NOPE', type: 'MAIN' }, 'currency');
    });
  });
});
