/**
 * Stop and OCO orders through the official kucoin-universal-sdk, unmodified (only its spot endpoint points at
 * the sandbox): every stop-order and OCO endpoint of its spot OrderAPI (addStopOrder, getStopOrdersList,
 * getStopOrderByOrderId, getStopOrderByClientOid, cancelStopOrderByOrderId, cancelStopOrderByClientOid,
 * batchCancelStopOrder, addOcoOrder, getOcoOrderByOrderId, getOcoOrderByClientOid, getOcoOrderDetailByOrderId,
 * getOcoOrderList, cancelOcoOrderByOrderId, cancelOcoOrderByClientOid, batchCancelOcoOrders) and its private
 * WebSocket `stopOrder` subscription (/spotMarket/advancedOrders). Each answer is compared with the sandbox's
 * own state (the engine's stop book, orders, balances); trades that fire the stops are made by a second user
 * against the seeded book. Then the sandbox is restarted from its state dir (snapshot + journal replay) and the
 * stops are still there and still fire.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DefaultClient, Spot, logger } from 'kucoin-universal-sdk';
import { sdkClient } from './sdkClient';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { until } from '../stream/helpers';
import { balanceOf, createUser } from './helpers';

const SYM = 'BTC-USDT';
const O = Spot.Order;

describe('stop and OCO orders through kucoin-universal-sdk (REST and WebSocket, unmodified)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-stops-'));
  let sb: RunningSandbox;
  let uid: string;
  let creds: { apiKey: string; apiSecret: string; apiPassphrase: string };
  let client: DefaultClient;
  let helper: SpotClient;
  const sdkLog: string[] = [];
  const orders = () => client.restService().getSpotService().getOrderApi();
  const book = () => sb.state.exchange.level2(SYM, 1);
  /** A trade at the best bid (a small market sell by the helper): the last price becomes that bid. */
  const sellToBestBid = async () => {
    const bid = book().bids[0][0];
    await helper.placeOrder({ symbol: SYM, side: 'sell', type: 'market', size: '0.0001' });
    assert.equal(sb.state.exchange.trades(SYM).at(-1)?.price, bid);
    return bid;
  };
  const buyBestAsk = async () => {
    const ask = book().asks[0][0];
    await helper.placeOrder({ symbol: SYM, side: 'buy', type: 'market', size: '0.0001' });
    assert.equal(sb.state.exchange.trades(SYM).at(-1)?.price, ask);
    return ask;
  };

  before(async () => {
    logger.setGlobalLogger({}, { level: 'warn', format: (level: string, message: string) => (sdkLog.push(`${level} ${message}`), '') });
    sb = await startSandbox({ port: 0, sim: false, seed: 3, stateDir: dir, log: () => undefined });
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '20000' }, { currency: 'BTC', type: 'trade', amount: '1' }] });
    uid = u.uid;
    creds = u;
    client = sdkClient(sb.baseUrl, u);
    const h = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '50000' }, { currency: 'BTC', type: 'trade', amount: '1' }] });
    helper = new SpotClient({ baseUrl: sb.baseUrl, credentials: h, maxRetries: 0 });
    await buyBestAsk();
  });
  after(async () => {
    helper?.close();
    await sb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('addStopOrder (loss, limit): nothing held; getStopOrdersList / ByOrderId / ByClientOid show it; a trade at its price fires it', async () => {
    const ws = client.wsService().newSpotPrivateWS();
    await ws.start();
    const events: { orderId: string; type: string; stop: string; stopPrice: string; orderPrice?: string; orderType: string; triggerSuccess?: boolean }[] = [];
    await ws.stopOrder((_t, _s, e) => events.push(e as unknown as (typeof events)[number]));
    try {
      const bid = book().bids[0][0];
      const before = balanceOf(sb, uid, 'BTC', 'trade');
      const placed = await orders().addStopOrder(
        O.AddStopOrderReq.create({ clientOid: 'sdk-stop-1', symbol: SYM, side: O.AddStopOrderReq.SideEnum.SELL, type: O.AddStopOrderReq.TypeEnum.LIMIT, price: D.sub(bid, '100'), size: '0.01', stopPrice: bid }),
      );
      assert.match(placed.orderId, /^vs[0-9a-v]{22}$/);
      assert.deepEqual(balanceOf(sb, uid, 'BTC', 'trade'), before, 'no hold while it waits');
      const engine = sb.state.exchange.advanced.stopOrder(uid, placed.orderId);
      const list = await orders().getStopOrdersList(O.GetStopOrdersListReq.create({ symbol: SYM }));
      assert.equal(list.totalNum, 1);
      assert.equal(list.items[0].id, placed.orderId);
      assert.equal(list.items[0].stop, 'loss');
      assert.equal(list.items[0].stopPrice, engine.stopPrice);
      assert.equal(list.items[0].status, 'NEW');
      const byId = await orders().getStopOrderByOrderId(O.GetStopOrderByOrderIdReq.create({ orderId: placed.orderId }));
      assert.deepEqual([byId.id, byId.symbol, byId.side, byId.type, byId.price, byId.size, byId.stopPrice, byId.clientOid, byId.createdAt], [engine.id, SYM, 'sell', 'limit', engine.price, '0.01', engine.stopPrice, 'sdk-stop-1', engine.createdAt]);
      const byCoid = await orders().getStopOrderByClientOid(O.GetStopOrderByClientOidReq.create({ clientOid: 'sdk-stop-1', symbol: SYM }));
      assert.deepEqual(byCoid.data.map((s) => s.id), [placed.orderId]);
      await until(() => events.some((e) => e.orderId === placed.orderId && e.type === 'open'), 'open event');
      // a trade at the stop price fires it: a sell limit order of 0.01 enters the book (it crosses the bids below)
      await sellToBestBid();
      const fired = sb.state.exchange.advanced.stopOrder(uid, placed.orderId);
      assert.equal(fired.status, 'TRIGGERED');
      const got = await orders().getStopOrderByOrderId(O.GetStopOrderByOrderIdReq.create({ orderId: placed.orderId }));
      assert.equal(got.status, 'TRIGGERED');
      assert.equal(got.stopTriggerTime, fired.stopTriggerTime);
      await until(() => events.some((e) => e.orderId === placed.orderId && e.type === 'triggered'), 'triggered event');
      const trig = events.find((e) => e.orderId === placed.orderId && e.type === 'triggered');
      assert.deepEqual([trig?.orderType, trig?.stop, trig?.stopPrice, trig?.triggerSuccess], ['stop', 'loss', engine.stopPrice, true]);
      // its order traded into the bids and rests or is done: 0.01 BTC held or sold
      const after = balanceOf(sb, uid, 'BTC', 'trade');
      assert.equal(D.cmp(D.sub(before.available, after.available), '0.01'), 0);
      const list2 = await orders().getStopOrdersList(O.GetStopOrdersListReq.create({ symbol: SYM }));
      assert.equal(list2.totalNum, 0);
    } finally {
      await ws.stop();
    }
  });

  it('cancelStopOrderByOrderId, cancelStopOrderByClientOid, batchCancelStopOrder: the cancel event and the engine agree', async () => {
    const ws = client.wsService().newSpotPrivateWS();
    await ws.start();
    const events: { orderId: string; type: string }[] = [];
    await ws.stopOrder((_t, _s, e) => events.push(e as unknown as (typeof events)[number]));
    try {
      const low = D.sub(book().bids[0][0], '5000');
      const mk = (clientOid: string) =>
        orders().addStopOrder(O.AddStopOrderReq.create({ clientOid, symbol: SYM, side: O.AddStopOrderReq.SideEnum.BUY, type: O.AddStopOrderReq.TypeEnum.LIMIT, price: low, size: '0.001', stopPrice: low }));
      const a = await mk('c-a');
      const b = await mk('c-b');
      const c = await mk('c-c');
      const d = await mk('c-d');
      assert.equal(sb.state.exchange.advanced.waitingCount(SYM), 4);
      const r1 = await orders().cancelStopOrderByOrderId(O.CancelStopOrderByOrderIdReq.create({ orderId: a.orderId }));
      assert.deepEqual(r1.cancelledOrderIds, [a.orderId]);
      const r2 = await orders().cancelStopOrderByClientOid(O.CancelStopOrderByClientOidReq.create({ clientOid: 'c-b', symbol: SYM }));
      assert.deepEqual([r2.cancelledOrderId, r2.clientOid], [b.orderId, 'c-b']);
      const r3 = await orders().batchCancelStopOrder(O.BatchCancelStopOrderReq.create({ orderIds: c.orderId }));
      assert.deepEqual(r3.cancelledOrderIds, [c.orderId]);
      const r4 = await orders().batchCancelStopOrder(O.BatchCancelStopOrderReq.create({ symbol: SYM }));
      assert.deepEqual(r4.cancelledOrderIds, [d.orderId]);
      assert.equal(sb.state.exchange.advanced.waitingCount(SYM), 0);
      await until(() => events.filter((e) => e.type === 'cancel').length === 4, 'four cancel events');
      assert.deepEqual(events.filter((e) => e.type === 'cancel').map((e) => e.orderId), [a, b, c, d].map((x) => x.orderId));
      // a second cancel: KuCoin's envelope with 400100
      await assert.rejects(orders().cancelStopOrderByOrderId(O.CancelStopOrderByOrderIdReq.create({ orderId: a.orderId })), /order not exists/);
    } finally {
      await ws.stop();
    }
  });

  it('addOcoOrder, getOcoOrderByOrderId / ByClientOid / DetailByOrderId, getOcoOrderList; a trade fires one leg and cancels the other', async () => {
    const bid = await sellToBestBid();
    const ask = book().asks[0][0];
    // sell OCO: take profit at the best ask (fires on a buy there), stop loss far below
    const placed = await orders().addOcoOrder(
      O.AddOcoOrderReq.create({ clientOid: 'sdk-oco-1', symbol: SYM, side: O.AddOcoOrderReq.SideEnum.SELL, price: ask, size: '0.002', stopPrice: D.sub(bid, '3000'), limitPrice: D.sub(bid, '3100'), remark: 'oco' }),
    );
    assert.match(placed.orderId, /^[0-9a-f]{24}$/);
    const engine = sb.state.exchange.advanced.ocoOrderDetail(uid, placed.orderId);
    const byId = await orders().getOcoOrderByOrderId(O.GetOcoOrderByOrderIdReq.create({ orderId: placed.orderId }));
    assert.deepEqual([byId.orderId, byId.symbol, byId.clientOid, byId.orderTime, byId.status], [placed.orderId, SYM, 'sdk-oco-1', engine.orderTime, 'NEW']);
    const byCoid = await orders().getOcoOrderByClientOid(O.GetOcoOrderByClientOidReq.create({ clientOid: 'sdk-oco-1' }));
    assert.equal(byCoid.orderId, placed.orderId);
    const detail = await orders().getOcoOrderDetailByOrderId(O.GetOcoOrderDetailByOrderIdReq.create({ orderId: placed.orderId }));
    assert.deepEqual(detail.orders.map((l) => [l.id, l.price, l.stopPrice, l.size, l.status]), engine.orders.map((l) => [l.id, l.price, l.stopPrice, l.size, 'NEW']));
    const list = await orders().getOcoOrderList(O.GetOcoOrderListReq.create({ symbol: SYM, pageSize: 10, currentPage: 1 }));
    assert.deepEqual(list.items.map((o) => o.orderId), [placed.orderId]);
    const btc = balanceOf(sb, uid, 'BTC', 'trade');
    await buyBestAsk();
    const after = await orders().getOcoOrderDetailByOrderId(O.GetOcoOrderDetailByOrderIdReq.create({ orderId: placed.orderId }));
    assert.equal(after.status, 'TRIGGERED');
    assert.deepEqual(after.orders.map((l) => l.status), ['TRIGGERED', 'CANCELLED']);
    // the limit leg's order: a sell of 0.002 at the ask, with the OCO's clientOid
    const mine = sb.state.exchange.activeOrders(uid, SYM).find((o) => o.clientOid === 'sdk-oco-1');
    assert.ok(mine, 'the limit leg rests in the book');
    assert.deepEqual([mine.side, mine.price, mine.size], ['sell', ask, '0.002']);
    assert.equal(D.cmp(D.sub(btc.available, balanceOf(sb, uid, 'BTC', 'trade').available), '0.002'), 0);
  });

  it('cancelOcoOrderByOrderId, cancelOcoOrderByClientOid, batchCancelOcoOrders', async () => {
    const bid = book().bids[0][0];
    const mk = (clientOid: string) =>
      orders().addOcoOrder(O.AddOcoOrderReq.create({ clientOid, symbol: SYM, side: O.AddOcoOrderReq.SideEnum.SELL, price: D.add(bid, '9000'), size: '0.001', stopPrice: D.sub(bid, '9000'), limitPrice: D.sub(bid, '9100') }));
    const a = await mk('o-a');
    const b = await mk('o-b');
    const c = await mk('o-c');
    const legs = (id: string) => sb.state.exchange.advanced.ocoOrderDetail(uid, id).orders.map((l) => l.id);
    const r1 = await orders().cancelOcoOrderByOrderId(O.CancelOcoOrderByOrderIdReq.create({ orderId: a.orderId }));
    assert.deepEqual(r1.cancelledOrderIds, legs(a.orderId));
    const r2 = await orders().cancelOcoOrderByClientOid(O.CancelOcoOrderByClientOidReq.create({ clientOid: 'o-b' }));
    assert.deepEqual(r2.cancelledOrderIds, legs(b.orderId));
    const r3 = await orders().batchCancelOcoOrders(O.BatchCancelOcoOrdersReq.create({ orderIds: c.orderId, symbol: SYM }));
    assert.deepEqual(r3.cancelledOrderIds, legs(c.orderId));
    for (const x of [a, b, c]) assert.equal(sb.state.exchange.advanced.ocoOrder(uid, x.orderId).status, 'CANCELLED');
    assert.equal(sb.state.exchange.advanced.waitingCount(), 0);
  });

  it('a restart from the state dir (snapshot + journal replay) keeps waiting stops, which then fire', async () => {
    const bid = book().bids[0][0];
    const placed = await orders().addStopOrder(
      O.AddStopOrderReq.create({ clientOid: 'survivor', symbol: SYM, side: O.AddStopOrderReq.SideEnum.SELL, type: O.AddStopOrderReq.TypeEnum.MARKET, size: '0.001', stopPrice: bid }),
    );
    const oco = await orders().addOcoOrder(O.AddOcoOrderReq.create({ clientOid: 'survivor-oco', symbol: SYM, side: O.AddOcoOrderReq.SideEnum.BUY, price: D.sub(bid, '8000'), size: '0.001', stopPrice: D.add(bid, '8000'), limitPrice: D.add(bid, '8100') }));
    const before = { stop: sb.state.exchange.advanced.stopOrder(uid, placed.orderId), oco: sb.state.exchange.advanced.ocoOrderDetail(uid, oco.orderId), list: sb.state.exchange.advanced.stopOrders(uid, {}) };
    helper.close();
    await sb.close();
    sb = await startSandbox({ port: 0, sim: false, seed: 3, stateDir: dir, log: () => undefined });
    client = sdkClient(sb.baseUrl, creds);
    helper = new SpotClient({ baseUrl: sb.baseUrl, credentials: (await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '5000' }, { currency: 'BTC', type: 'trade', amount: '1' }] })), maxRetries: 0 });
    assert.deepEqual(sb.state.exchange.advanced.stopOrder(uid, placed.orderId), before.stop);
    assert.deepEqual(sb.state.exchange.advanced.ocoOrderDetail(uid, oco.orderId), before.oco);
    assert.deepEqual(sb.state.exchange.advanced.stopOrders(uid, {}), before.list);
    const got = await orders().getStopOrderByOrderId(O.GetStopOrderByOrderIdReq.create({ orderId: placed.orderId }));
    assert.equal(got.status, 'NEW');
    const btc = balanceOf(sb, uid, 'BTC', 'trade').balance;
    await sellToBestBid();
    assert.equal(sb.state.exchange.advanced.stopOrder(uid, placed.orderId).status, 'TRIGGERED');
    assert.equal(D.cmp(D.sub(btc, balanceOf(sb, uid, 'BTC', 'trade').balance), '0.001'), 0, 'the market sell of 0.001 BTC went through');
    sb.state.exchange.checkInvariants();
    assert.deepEqual(sdkLog.filter((l) => l.startsWith('error')), []);
  });
});
