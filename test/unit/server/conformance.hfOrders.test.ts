/**
 * The HF order variants and the classic (low-frequency) order API through KuCoin's official
 * kucoin-universal-sdk (v1.3.0), unmodified: only its spot endpoint points at the sandbox. Every SDK
 * order-service method of those families is called — add order sync, batch add (and sync), cancel by id /
 * clientOid sync, partial cancel, cancel all (every symbol), modify, open orders by page, symbols with open
 * orders, set / get DCP, closed orders after an unknown lastId, and the "… Old" (classic) methods — and each
 * result is checked against the sandbox's own state (engine orders, holds, fills, book), not only "200000".
 * The private WebSocket topic of the classic API, `/spotMarket/tradeOrders` (the SDK's `orderV1`), reports a
 * classic order's life. Where the SDK has no method, the test says so and uses SpotDesk's own client.
 */
import { strict as assert } from 'node:assert';
import { DefaultClient, Spot, logger } from 'kucoin-universal-sdk';
import { sdkClient } from './sdkClient';
import * as D from '../../../src/api/decimal';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { until } from '../stream/helpers';
import { balanceOf, createUser } from './helpers';

const O = Spot.Order;
const SYM = 'BTC-USDT';

/**
 * The SDK's error: `code` of a business error as KuCoin sent it ("server code: 400100"), or `HTTP n` of a
 * gateway error (the SDK reports only the status of a 4xx answer).
 */
async function sdkCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const text = String((e as Error).message ?? e);
    const code = /server code: (\d+)/.exec(text) ?? /code: \{(\d+)\}/.exec(text);
    if (code) return code[1];
    // axios says "status code N"; advancedOrders.sdk.test.ts's interceptor rewrites it to "HTTP N {…}", and the SDK
    // shares one default interceptor list between all its clients, so that rewrite reaches this file's clients too
    const status = /status code (\d{3})/.exec(text) ?? /^HTTP (\d{3})\b/.exec(text);
    return status ? `HTTP ${status[1]}` : `unparsed: ${text}`;
  }
  return 'no error';
}

describe('conformance with kucoin-universal-sdk: HF order variants and the classic order API', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let uid: string;
  let client: DefaultClient;
  let orders: ReturnType<ReturnType<ReturnType<DefaultClient['restService']>['getSpotService']>['getOrderApi']>;
  const sdkLog: string[] = [];

  before(async () => {
    sb = await startSandbox({ port: 0, sim: false, seed: 31, settleIntervalMs: 25 });
    logger.setGlobalLogger({}, { level: 'warn', format: (level: string, message: string) => (sdkLog.push(`${level} ${message}`), '') });
    const u = await createUser(sb, {
      keyVersion: '3',
      takerFeeRate: '0.002',
      makerFeeRate: '0.001',
      balances: [
        { currency: 'USDT', type: 'trade', amount: '50000' },
        { currency: 'BTC', type: 'trade', amount: '2' },
        { currency: 'ETH', type: 'trade', amount: '10' },
      ],
    });
    uid = u.uid;
    client = sdkClient(sb.baseUrl, u, { retries: 1, explain: false });
    orders = client.restService().getSpotService().getOrderApi();
  });
  after(async () => {
    await sb?.close();
  });

  const bestBid = (symbol: string): string => sb.state.exchange.level2(symbol, 1).bids[0][0];
  const bestAsk = (symbol: string): string => sb.state.exchange.level2(symbol, 1).asks[0][0];
  const usdt = () => balanceOf(sb, uid, 'USDT', 'trade');
  /** Hold of a buy of `size` at `price` at the 0.002 taker rate: price × size + the fee rounded up at USDT's precision. */
  const buyHold = (price: string, size: string): string => {
    const cost = D.mul(price, size);
    return D.add(cost, D.roundUp(D.mul(cost, '0.002'), D.precisionIncrement(sb.state.world.currencyMap.get('USDT')?.precision ?? 8)));
  };

  it('addOrderSync: the order after matching, as the engine has it', async () => {
    // a buy at the best ask fills at once (taker), a buy far below rests
    const taker = await orders.addOrderSync(O.AddOrderSyncReq.builder().setClientOid('sync-1').setSymbol(SYM).setSide(O.AddOrderSyncReq.SideEnum.BUY).setType(O.AddOrderSyncReq.TypeEnum.LIMIT).setPrice(bestAsk(SYM)).setSize('0.001').build());
    const e = sb.state.exchange.getOrder(uid, SYM, taker.orderId);
    assert.deepEqual(
      [taker.clientOid, taker.originSize, taker.dealSize, taker.remainSize, taker.canceledSize, String(taker.status), taker.orderTime, taker.matchTime],
      ['sync-1', e.size, e.dealSize, e.remainSize, e.cancelledSize, e.active ? 'open' : 'done', e.createdAt, e.lastUpdatedAt],
    );
    assert.equal(D.cmp(e.dealSize, '0.001'), 0, 'filled against the book');
    const rest = await orders.addOrderSync(O.AddOrderSyncReq.builder().setSymbol(SYM).setSide(O.AddOrderSyncReq.SideEnum.BUY).setType(O.AddOrderSyncReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.002').build());
    assert.deepEqual([String(rest.status), rest.remainSize, rest.dealSize], ['open', '0.002', '0']);
    assert.equal(sb.state.exchange.getOrder(uid, SYM, rest.orderId).inOrderBook, true);
    await orders.cancelOrderByOrderId(O.CancelOrderByOrderIdReq.builder().setSymbol(SYM).setOrderId(rest.orderId).build());
  });

  it('batchAddOrders and batchAddOrdersSync: each order placed on its own pair, a refused one fails alone', async () => {
    const item = (coid: string, symbol: string, side: 'buy' | 'sell', price: string, size: string) =>
      O.BatchAddOrdersOrderList.builder().setClientOid(coid).setSymbol(symbol).setType(O.BatchAddOrdersOrderList.TypeEnum.LIMIT).setSide(side === 'buy' ? O.BatchAddOrdersOrderList.SideEnum.BUY : O.BatchAddOrdersOrderList.SideEnum.SELL).setPrice(price).setSize(size).build();
    const r = await orders.batchAddOrders(O.BatchAddOrdersReq.builder().setOrderList([item('b-1', SYM, 'buy', '20000', '0.001'), item('b-2', 'ETH-USDT', 'sell', '99999', '0.01'), item('b-3', SYM, 'buy', '20000', '999')]).build());
    assert.deepEqual(r.data.map((x) => [x.success, x.clientOid ?? null]), [[true, 'b-1'], [true, 'b-2'], [false, null]]);
    assert.equal(r.data[2].failMsg, 'Balance insufficient!');
    assert.deepEqual([sb.state.exchange.getOrder(uid, SYM, r.data[0].orderId as string).clientOid, sb.state.exchange.getOrder(uid, 'ETH-USDT', r.data[1].orderId as string).side], ['b-1', 'sell']);
    assert.equal(sb.state.exchange.activeOrders(uid, SYM).length, 1);

    const s = await orders.batchAddOrdersSync(O.BatchAddOrdersSyncReq.builder().setOrderList([
      O.BatchAddOrdersSyncOrderList.builder().setClientOid('bs-1').setSymbol(SYM).setType(O.BatchAddOrdersSyncOrderList.TypeEnum.LIMIT).setSide(O.BatchAddOrdersSyncOrderList.SideEnum.BUY).setPrice(bestAsk(SYM)).setSize('0.001').build(),
      O.BatchAddOrdersSyncOrderList.builder().setClientOid('bs-2').setSymbol('NOPE-USDT').setType(O.BatchAddOrdersSyncOrderList.TypeEnum.LIMIT).setSide(O.BatchAddOrdersSyncOrderList.SideEnum.BUY).setPrice('1').setSize('1').build(),
    ]).build());
    const filled = sb.state.exchange.getOrder(uid, SYM, s.data[0].orderId as string);
    assert.deepEqual([s.data[0].success, String(s.data[0].status), s.data[0].dealSize, s.data[0].remainSize], [true, 'done', filled.dealSize, filled.remainSize]);
    assert.deepEqual([s.data[1].success, s.data[1].failMsg], [false, 'symbol not exists!']);
  });

  it('cancelOrderByOrderIdSync / cancelOrderByClientOidSync: the final sizes; the hold is released', async () => {
    const before = usdt();
    const a = await orders.addOrder(O.AddOrderReq.builder().setClientOid('cs-1').setSymbol(SYM).setSide(O.AddOrderReq.SideEnum.BUY).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.003').build());
    const b = await orders.addOrder(O.AddOrderReq.builder().setClientOid('cs-2').setSymbol(SYM).setSide(O.AddOrderReq.SideEnum.BUY).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.004').build());
    const c1 = await orders.cancelOrderByOrderIdSync(O.CancelOrderByOrderIdSyncReq.builder().setSymbol(SYM).setOrderId(a.orderId).build());
    assert.deepEqual([c1.orderId, c1.originSize, c1.dealSize, c1.remainSize, c1.canceledSize, String(c1.status)], [a.orderId, '0.003', '0', '0', '0.003', 'done']);
    const c2 = await orders.cancelOrderByClientOidSync(O.CancelOrderByClientOidSyncReq.builder().setSymbol(SYM).setClientOid('cs-2').build());
    assert.deepEqual([c2.clientOid, c2.canceledSize, String(c2.status)], ['cs-2', '0.004', 'done']);
    assert.equal(sb.state.exchange.getOrder(uid, SYM, b.orderId).active, false);
    assert.equal(usdt().holds, before.holds);
    assert.equal(await sdkCode(orders.cancelOrderByOrderIdSync(O.CancelOrderByOrderIdSyncReq.builder().setSymbol(SYM).setOrderId(a.orderId).build())), '400100');
  });

  it('cancelPartialOrder: the order keeps its queue place with less size; the hold follows', async () => {
    // inside the ETH-USDT spread: these two orders are the best bid, the first one ahead of the second
    const E = 'ETH-USDT';
    const price = D.add(bestBid(E), '0.5');
    assert.ok(D.cmp(price, bestAsk(E)) < 0);
    const buy = (size: string) => orders.addOrder(O.AddOrderReq.builder().setSymbol(E).setSide(O.AddOrderReq.SideEnum.BUY).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice(price).setSize(size).build());
    const first = await buy('0.05');
    const second = await buy('0.01');
    const held = usdt().holds;
    const r = await orders.cancelPartialOrder(O.CancelPartialOrderReq.builder().setOrderId(first.orderId).setSymbol(E).setCancelSize('0.02').build());
    assert.deepEqual([r.orderId, r.cancelSize], [first.orderId, '0.02']);
    const e = sb.state.exchange.getOrder(uid, E, first.orderId);
    assert.deepEqual([e.active, e.remainSize, e.cancelledSize, e.cancelExist], [true, '0.03', '0.02', true]);
    // the order now holds what an order of its remaining 0.03 holds
    assert.equal(usdt().holds, D.add(D.sub(held, buyHold(price, '0.05')), buyHold(price, '0.03')));
    // still first in its level: a sell at that price fills it, not the order queued behind it
    const seller = await createUser(sb, { balances: [{ currency: 'ETH', type: 'trade', amount: '1' }] });
    await sdkClient(sb.baseUrl, seller, { retries: 1, explain: false })
      .restService()
      .getSpotService()
      .getOrderApi()
      .addOrder(O.AddOrderReq.builder().setSymbol(E).setSide(O.AddOrderReq.SideEnum.SELL).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice(price).setSize('0.01').setTimeInForce(O.AddOrderReq.TimeInForceEnum.IOC).build());
    assert.equal(sb.state.exchange.getOrder(uid, E, first.orderId).dealSize, '0.01');
    assert.deepEqual(sb.state.exchange.fills(uid, { symbol: E, orderId: second.orderId }).items, []);
    // a cancelSize above what remains cancels the rest, and says how much that was
    const rest = await orders.cancelPartialOrder(O.CancelPartialOrderReq.builder().setOrderId(first.orderId).setSymbol(E).setCancelSize('1').build());
    assert.equal(rest.cancelSize, '0.02');
    const done = sb.state.exchange.getOrder(uid, E, first.orderId);
    assert.deepEqual([done.active, done.dealSize, done.cancelledSize], [false, '0.01', '0.04']);
    await orders.cancelOrderByOrderId(O.CancelOrderByOrderIdReq.builder().setSymbol(E).setOrderId(second.orderId).build());
  });

  it('modifyOrder: cancel + a NEW order (new id, same clientOid and flags); holds exact; getOpenOrdersByPage shows it', async () => {
    const before = usdt();
    const o = await orders.addOrder(O.AddOrderReq.builder().setClientOid('alter-1').setSymbol(SYM).setSide(O.AddOrderReq.SideEnum.BUY).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.002').setRemark('keep me').build());
    const m = await orders.modifyOrder(O.ModifyOrderReq.builder().setSymbol(SYM).setOrderId(o.orderId).setNewPrice('21000').setNewSize('0.003').build());
    assert.notEqual(m.newOrderId, o.orderId);
    assert.equal(m.clientOid, 'alter-1');
    const old = sb.state.exchange.getOrder(uid, SYM, o.orderId);
    const neu = sb.state.exchange.getOrder(uid, SYM, m.newOrderId);
    assert.deepEqual([old.active, old.cancelledSize], [false, '0.002']);
    assert.deepEqual([neu.active, neu.price, neu.size, neu.clientOid, neu.remark], [true, '21000', '0.003', 'alter-1', 'keep me']);
    assert.equal(usdt().holds, D.add(before.holds, buyHold('21000', '0.003')));
    // by clientOid
    const m2 = await orders.modifyOrder(O.ModifyOrderReq.builder().setSymbol(SYM).setClientOid('alter-1').setNewPrice('20500').build());
    assert.equal(sb.state.exchange.getOrder(uid, SYM, m2.newOrderId).size, '0.003');

    const page = await orders.getOpenOrdersByPage(O.GetOpenOrdersByPageReq.builder().setSymbol(SYM).setPageNum(1).setPageSize(20).build());
    const active = sb.state.exchange.activeOrders(uid, SYM);
    assert.deepEqual([page.currentPage, page.pageSize, page.totalNum, page.totalPage], [1, 20, active.length, 1]);
    assert.ok(page.items.some((x) => x.id === m2.newOrderId && x.tax === '0'));
    assert.deepEqual((await orders.getSymbolsWithOpenOrder()).symbols, ['ETH-USDT', SYM].filter((s) => sb.state.exchange.activeOrders(uid, s).length > 0).sort((a, b) => sb.state.world.symbols.findIndex((w) => w.symbol === a) - sb.state.world.symbols.findIndex((w) => w.symbol === b)));
    // an alter that the balance cannot carry changes nothing
    assert.equal(await sdkCode(orders.modifyOrder(O.ModifyOrderReq.builder().setSymbol(SYM).setOrderId(m2.newOrderId).setNewSize('100').build())), '200004');
    assert.equal(sb.state.exchange.getOrder(uid, SYM, m2.newOrderId).active, true);
  });

  it('getOrderByOrderId, getClosedOrders and getTradeHistory carry tax (and taxRate); an unknown lastId gives an empty page', async () => {
    const done = sb.state.exchange.doneOrders(uid, SYM, { limit: 1 })[0];
    assert.equal((await orders.getOrderByOrderId(O.GetOrderByOrderIdReq.builder().setSymbol(SYM).setOrderId(done.id).build())).tax, '0');
    const closed = await orders.getClosedOrders(O.GetClosedOrdersReq.builder().setSymbol(SYM).setLimit(5).build());
    assert.ok(closed.items.length > 0 && closed.items.every((x) => x.tax === '0'));
    // HF fills: the SDK's GetTradeHistoryItems declares taxRate and tax required (the sandbox charges no tax)
    const fills = await orders.getTradeHistory(O.GetTradeHistoryReq.builder().setSymbol(SYM).setLimit(100).build());
    const engineFills = sb.state.exchange.fills(uid, { symbol: SYM, limit: 100 }).items;
    assert.ok(engineFills.length > 0);
    assert.deepEqual(
      fills.items.map((f) => [String(f.tradeId), f.orderId, f.price, f.size, f.fee, f.tax, f.taxRate]),
      engineFills.map((f) => [String(f.tradeId), f.orderId, f.price, f.size, f.fee, '0', '0']),
    );
    const none = await orders.getClosedOrders(O.GetClosedOrdersReq.builder().setSymbol(SYM).setLastId(987654321).build());
    assert.deepEqual(none.items, []);
  });

  it('cancelAllOrders: every pair, with the symbols that were cancelled', async () => {
    assert.ok(sb.state.exchange.activeOrders(uid, SYM).length > 0 && sb.state.exchange.activeOrders(uid, 'ETH-USDT').length > 0);
    const r = await orders.cancelAllOrders();
    assert.deepEqual(r.succeedSymbols.slice().sort(), ['BTC-USDT', 'ETH-USDT']);
    assert.deepEqual(r.failedSymbols, []);
    for (const s of sb.state.world.symbols) assert.deepEqual(sb.state.exchange.activeOrders(uid, s.symbol), [], s.symbol);
    assert.equal(usdt().holds, '0');
    assert.deepEqual((await orders.cancelAllOrders()).succeedSymbols, []);
  });

  it("setDCP / getDCP: the dead-man's switch fires on the sandbox clock and cancels the pairs it names", async () => {
    const b = await orders.addOrder(O.AddOrderReq.builder().setSymbol(SYM).setSide(O.AddOrderReq.SideEnum.BUY).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.001').build());
    const e = await orders.addOrder(O.AddOrderReq.builder().setSymbol('ETH-USDT').setSide(O.AddOrderReq.SideEnum.SELL).setType(O.AddOrderReq.TypeEnum.LIMIT).setPrice('99999').setSize('0.01').build());
    const set = await orders.setDCP(O.SetDCPReq.builder().setTimeout(5).setSymbols(SYM).build());
    assert.equal(set.triggerTime - set.currentTime, 5);
    const q = await orders.getDCP();
    assert.deepEqual([q.timeout, q.symbols, q.triggerTime], [5, SYM, set.triggerTime]);
    // the sandbox's settle timer brings the clock to the trigger without any request
    await until(() => !sb.state.exchange.getOrder(uid, SYM, b.orderId).active, 'the switch fired', 10_000);
    const o = sb.state.exchange.getOrder(uid, SYM, b.orderId);
    assert.ok(o.cancelExist && Math.floor(o.lastUpdatedAt / 1000) === set.triggerTime, `stamped at the trigger time: ${o.lastUpdatedAt}`);
    assert.equal(sb.state.exchange.getOrder(uid, 'ETH-USDT', e.orderId).active, true, 'ETH-USDT was not named');
    const after = await orders.getDCP();
    assert.deepEqual([after.timeout, after.triggerTime], [undefined, undefined], 'no switch left');
    // a timeout outside -1 / 5..86400 is a parameter error (400100, HTTP 400): the SDK reports the status
    assert.equal(await sdkCode(orders.setDCP(O.SetDCPReq.builder().setTimeout(3).build())), 'HTTP 400');
    assert.equal(sb.state.exchange.deadCancelOf(uid), null);
    await orders.cancelOrderByOrderId(O.CancelOrderByOrderIdReq.builder().setSymbol('ETH-USDT').setOrderId(e.orderId).build());
  });

  it('classic API: addOrderOld / addOrderTestOld / batchAddOrdersOld share the one book and trading account', async () => {
    const before = usdt();
    const ordersBefore = sb.state.exchange.activeOrders(uid, SYM).length;
    const t = await orders.addOrderTestOld(O.AddOrderTestOldReq.builder().setClientOid('ct-1').setSide(O.AddOrderTestOldReq.SideEnum.BUY).setSymbol(SYM).setType(O.AddOrderTestOldReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.001').build());
    assert.match(t.orderId, /^[0-9a-f]{24}$/);
    assert.equal(sb.state.exchange.activeOrders(uid, SYM).length, ordersBefore, 'the test order created nothing');
    const a = await orders.addOrderOld(O.AddOrderOldReq.builder().setClientOid('c-1').setSide(O.AddOrderOldReq.SideEnum.BUY).setSymbol(SYM).setType(O.AddOrderOldReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.002').build());
    const e = sb.state.exchange.getOrder(uid, SYM, a.orderId);
    assert.deepEqual([e.active, e.clientOid, e.price, e.size], [true, 'c-1', '20000', '0.002']);
    assert.equal(usdt().holds, D.add(before.holds, buyHold('20000', '0.002')), 'held in the one trading account');
    const item = (coid: string, price: string, size: string) => O.BatchAddOrdersOldOrderList.builder().setClientOid(coid).setSide(O.BatchAddOrdersOldOrderList.SideEnum.BUY).setSymbol(SYM).setType(O.BatchAddOrdersOldOrderList.TypeEnum.LIMIT).setPrice(price).setSize(size).build();
    const m = await orders.batchAddOrdersOld(O.BatchAddOrdersOldReq.builder().setSymbol(SYM).setOrderList([item('cm-1', '20001', '0.001'), item('cm-2', '20002', '5')]).build());
    assert.deepEqual(m.data.map((x) => [x.clientOid, x.status, x.failMsg]), [['cm-1', 'success', null], ['cm-2', 'fail', 'Balance insufficient!']]);
    assert.equal(sb.state.exchange.getOrder(uid, SYM, m.data[0].id).clientOid, 'cm-1');
  });

  it('classic API: get by id / by clientOid, lists (active, done, recent), fills and recent fills equal the engine', async () => {
    const a = sb.state.exchange.activeOrders(uid, SYM).find((o) => o.clientOid === 'c-1');
    assert.ok(a);
    const byId = await orders.getOrderByOrderIdOld(O.GetOrderByOrderIdOldReq.builder().setOrderId(a.id).build());
    assert.deepEqual([byId.id, byId.symbol, byId.isActive, byId.price, byId.size, byId.funds, byId.clientOid, byId.stop, byId.stopTriggered], [a.id, SYM, true, '20000', '0.002', '0', 'c-1', '', false]);
    const byCoid = await orders.getOrderByClientOidOld(O.GetOrderByClientOidOldReq.builder().setClientOid('c-1').build());
    assert.equal(byCoid.id, a.id);
    const active = await orders.getOrdersListOld(O.GetOrdersListOldReq.builder().setStatus(O.GetOrdersListOldReq.StatusEnum.ACTIVE).setSymbol(SYM).build());
    assert.deepEqual(active.items.map((o) => o.id).sort(), sb.state.exchange.activeOrders(uid, SYM).map((o) => o.id).sort());
    const doneAll = await orders.getOrdersListOld(O.GetOrdersListOldReq.builder().setStatus(O.GetOrdersListOldReq.StatusEnum.DONE).setPageSize(500).build());
    const engineDone = sb.state.world.symbols.flatMap((s) => sb.state.exchange.doneOrders(uid, s.symbol, { limit: 100 }));
    assert.equal(doneAll.totalNum, engineDone.length);
    assert.deepEqual(doneAll.items.map((o) => o.id).sort(), engineDone.map((o) => o.id).sort());
    assert.ok(doneAll.items.every((o) => !o.isActive));
    const recent = await orders.getRecentOrdersListOld();
    const engineActive = sb.state.world.symbols.flatMap((s) => sb.state.exchange.activeOrders(uid, s.symbol));
    assert.deepEqual(recent.data.map((o) => o.id).sort(), [...engineDone, ...engineActive].map((o) => o.id).sort());
    assert.deepEqual(recent.data.filter((o) => o.isActive).map((o) => o.id).sort(), engineActive.map((o) => o.id).sort());

    const fills = await orders.getTradeHistoryOld(O.GetTradeHistoryOldReq.builder().setSymbol(SYM).setPageSize(500).build());
    const engineFills = sb.state.exchange.fills(uid, { symbol: SYM, limit: 100 }).items;
    assert.ok(engineFills.length > 0);
    assert.deepEqual(fills.items.map((f) => [f.tradeId, f.orderId, f.price, f.size, f.fee, f.liquidity]), engineFills.map((f) => [String(f.tradeId), f.orderId, f.price, f.size, f.fee, f.liquidity]));
    const recentFills = await orders.getRecentTradeHistoryOld();
    assert.deepEqual(recentFills.data.filter((f) => f.symbol === SYM).map((f) => f.tradeId), engineFills.map((f) => String(f.tradeId)));
  });

  it('classic API: cancel by id, by clientOid, cancel all; the private /spotMarket/tradeOrders (SDK orderV1) follows', async () => {
    const ws = client.wsService().newSpotPrivateWS();
    await ws.start();
    try {
      type Ev = { orderId: string; type: string; status: string; clientOid: string; canceledSize?: string };
      const evs: Ev[] = [];
      await ws.orderV1((_t, _s, e) => evs.push(e as unknown as Ev));
      const a = await orders.addOrderOld(O.AddOrderOldReq.builder().setClientOid('ws-1').setSide(O.AddOrderOldReq.SideEnum.BUY).setSymbol(SYM).setType(O.AddOrderOldReq.TypeEnum.LIMIT).setPrice('19000').setSize('0.001').build());
      const c = await orders.cancelOrderByOrderIdOld(O.CancelOrderByOrderIdOldReq.builder().setOrderId(a.orderId).build());
      assert.deepEqual(c.cancelledOrderIds, [a.orderId]);
      await until(() => evs.some((e) => e.orderId === a.orderId && e.type === 'canceled'), 'orderV1 canceled');
      const mine = evs.filter((e) => e.orderId === a.orderId);
      // V1 has no `received`; the order opened, then was cancelled (status done), with its clientOid
      assert.deepEqual(mine.map((e) => `${e.type}/${e.status}`), ['open/open', 'canceled/done']);
      assert.equal(mine[1].clientOid, 'ws-1');
      assert.equal(mine[1].canceledSize, '0.001');
      assert.equal(await sdkCode(orders.cancelOrderByOrderIdOld(O.CancelOrderByOrderIdOldReq.builder().setOrderId(a.orderId).build())), '400100');
    } finally {
      await ws.stop();
    }
    const cc = await orders.cancelOrderByClientOidOld(O.CancelOrderByClientOidOldReq.builder().setClientOid('c-1').build());
    const id = sb.state.exchange.getOrderByClientOid(uid, SYM, 'c-1').id;
    assert.deepEqual([cc.cancelledOrderId, cc.clientOid, cc.cancelledOcoOrderIds], [id, 'c-1', null]);
    assert.equal(sb.state.exchange.getOrder(uid, SYM, id).active, false);
    // a done order by clientOid: KuCoin answers "does not exist" for a settled order
    assert.equal(await sdkCode(orders.getOrderByClientOidOld(O.GetOrderByClientOidOldReq.builder().setClientOid('c-1').build())), '400100');

    await orders.addOrderOld(O.AddOrderOldReq.builder().setClientOid('all-1').setSide(O.AddOrderOldReq.SideEnum.SELL).setSymbol('ETH-USDT').setType(O.AddOrderOldReq.TypeEnum.LIMIT).setPrice('99999').setSize('0.01').build());
    const all = await orders.batchCancelOrderOld(O.BatchCancelOrderOldReq.builder().build());
    const expected = sb.state.world.symbols.flatMap((s) => sb.state.exchange.doneOrders(uid, s.symbol, { limit: 100 })).filter((o) => all.cancelledOrderIds.includes(o.id));
    assert.equal(expected.length, all.cancelledOrderIds.length);
    assert.ok(all.cancelledOrderIds.length >= 2);
    for (const s of sb.state.world.symbols) assert.deepEqual(sb.state.exchange.activeOrders(uid, s.symbol), []);
    assert.equal(usdt().holds, '0');
    assert.deepEqual(sdkLog.filter((l) => l.startsWith('error')), []);
  });
});
