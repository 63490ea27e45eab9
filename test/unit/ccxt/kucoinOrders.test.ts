/**
 * ccxt 4.5 (class `kucoin`, STOCK options; only its URLs and credentials changed, as in kucoin.test.ts)
 * against an in-process sandbox: the unified methods that reach KuCoin's HF order variants (createOrder /
 * cancelOrder with `sync`, createOrders, editOrder → alter, cancelAllOrders without a symbol → cancelAll) and
 * ccxt's `hf: false` path, the classic order API (createOrder, createOrders, test order, fetchOrder by id and
 * by clientOrderId, fetchOpenOrders, fetchClosedOrders, fetchMyTrades, cancelOrder by id and by
 * clientOrderId, cancelAllOrders, fetchBalance). Endpoints without a unified method are called through
 * ccxt's own implicit API methods (stock ccxt, e.g. `privateDeleteHfOrdersCancelOrderId`). Every result is
 * compared with the sandbox's own state (engine orders, holds, fills, balances), not only "it did not throw".
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { until } from '../stream/helpers';
import { createUser } from '../server/helpers';

type Kucoin = InstanceType<typeof ccxt.kucoin>;
/** ccxt's implicit API methods are generated at run time; this is how a bot calls them. */
type Implicit = Record<string, (params?: Record<string, unknown>) => Promise<{ code: string; data: unknown }>>;

const TAKER = '0.002';
const SYM = 'BTC-USDT';

describe('ccxt kucoin (stock options): HF order variants and the classic (hf: false) order API', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let ex: Kucoin;
  let api: Implicit;
  let uid: string;
  let creds: Awaited<ReturnType<typeof createUser>>;
  const results: [string, 'pass' | 'fail'][] = [];

  before(async () => {
    sb = await startSandbox({ sim: false, seed: 7, settleIntervalMs: 25 });
    const u = await createUser(sb, {
      balances: [
        { currency: 'USDT', type: 'trade', amount: '40000' },
        { currency: 'BTC', type: 'trade', amount: '1' },
        { currency: 'ETH', type: 'trade', amount: '5' },
      ],
      takerFeeRate: TAKER,
      makerFeeRate: '0.001',
    });
    uid = u.uid;
    creds = u;
    ex = new ccxt.kucoin({ apiKey: u.apiKey, secret: u.apiSecret, password: u.apiPassphrase });
    ex.urls.api = ccxtApiUrls(ex.urls.api as Record<string, unknown>, sb.baseUrl) as never;
    api = ex as unknown as Implicit;
    await ex.loadMarkets();
    assert.equal(ex.options.hf, true, 'the sandbox answers as an HF account: ccxt uses the HF endpoints by default');
  });
  afterEach(function () {
    const t = this.currentTest;
    if (t) results.push([t.title, t.state === 'passed' ? 'pass' : 'fail']);
  });
  after(async () => {
    await sb?.close();
    const w = Math.max(...results.map(([m]) => m.length));
    console.log(`\n      ccxt ${ccxt.version} kucoin: HF variants and the classic API vs the SpotDesk sandbox`);
    for (const [m, r] of results) console.log(`      ${m.padEnd(w)}  ${r}`);
    console.log(`      ${results.filter(([, r]) => r === 'pass').length}/${results.length} pass\n`);
  });

  const usdtHolds = () => sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0].holds;
  const buyHold = (price: string, size: string): string => {
    const cost = D.mul(price, size);
    return D.add(cost, D.roundUp(D.mul(cost, TAKER), D.precisionIncrement(sb.state.world.currencyMap.get('USDT')?.precision ?? 8)));
  };

  // ------------------------------------------------------------- HF variants (ccxt's default path)

  let syncId = '';
  it('createOrder {sync: true} → POST /api/v1/hf/orders/sync', async () => {
    const o = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.002, 30000, { sync: true, clientOrderId: 'cx-sync' });
    syncId = String(o.id);
    const e = sb.state.exchange.getOrder(uid, SYM, syncId);
    assert.deepEqual([e.clientOid, e.price, e.size, e.active], ['cx-sync', '30000', '0.002', true]);
    // ccxt keeps the synchronous answer in `info` (its parser reads only the id and dealSize of it)
    const info = o.info as Record<string, unknown>;
    assert.deepEqual(
      [info.clientOid, info.originSize, info.dealSize, info.remainSize, info.canceledSize, info.status, info.orderTime, info.matchTime],
      ['cx-sync', e.size, e.dealSize, e.remainSize, e.cancelledSize, 'open', e.createdAt, e.lastUpdatedAt],
    );
    assert.equal(o.filled, 0);
  });

  it('editOrder → POST /api/v1/hf/orders/alter (a new order id, holds exact)', async () => {
    const before = usdtHolds();
    const o = await ex.editOrder(syncId, 'BTC/USDT', 'limit', 'buy', 0.003, 31000);
    const newId = String(o.id);
    assert.notEqual(newId, syncId);
    assert.equal(sb.state.exchange.getOrder(uid, SYM, syncId).active, false);
    const e = sb.state.exchange.getOrder(uid, SYM, newId);
    assert.deepEqual([e.active, e.price, e.size, e.clientOid], [true, '31000', '0.003', 'cx-sync']);
    assert.equal(usdtHolds(), D.add(D.sub(before, buyHold('30000', '0.002')), buyHold('31000', '0.003')));
    syncId = newId;
  });

  it('cancelOrder {sync: true} → DELETE /api/v1/hf/orders/sync/{orderId}', async () => {
    const before = usdtHolds();
    const o = await ex.cancelOrder(syncId, 'BTC/USDT', { sync: true });
    assert.equal(o.id, syncId);
    const e = sb.state.exchange.getOrder(uid, SYM, syncId);
    assert.deepEqual([e.active, e.cancelledSize], [false, '0.003']);
    assert.equal(usdtHolds(), D.sub(before, buyHold('31000', '0.003')));
  });

  it('cancelOrder {sync: true, clientOrderId} → DELETE /api/v1/hf/orders/sync/client-order/{clientOid}', async () => {
    const placed = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 30000, { clientOrderId: 'cx-coid' });
    await ex.cancelOrder(undefined as unknown as string, 'BTC/USDT', { sync: true, clientOrderId: 'cx-coid' });
    assert.equal(sb.state.exchange.getOrder(uid, SYM, String(placed.id)).active, false);
  });

  it('createOrders → POST /api/v1/hf/orders/multi (and {sync: true} → /multi/sync)', async () => {
    // KuCoin's HF batch answers `data` as a list (its docs and SDK); ccxt 4.5 reads `data.data` (the classic
    // batch's shape) and so returns no order for it — against KuCoin as here: the orders are checked on the sandbox
    await ex.createOrders([
      { symbol: 'BTC/USDT', type: 'limit', side: 'buy', amount: 0.001, price: 30001, params: { clientOrderId: 'cx-m1' } },
      { symbol: 'BTC/USDT', type: 'limit', side: 'buy', amount: 0.001, price: 30002, params: { clientOrderId: 'cx-m2' } },
    ]);
    const byCoid = (c: string) => sb.state.exchange.getOrderByClientOid(uid, SYM, c);
    assert.deepEqual([byCoid('cx-m1').price, byCoid('cx-m1').active, byCoid('cx-m2').price, byCoid('cx-m2').active], ['30001', true, '30002', true]);
    await ex.createOrders([{ symbol: 'BTC/USDT', type: 'limit', side: 'buy', amount: 0.001, price: 30003, params: { clientOrderId: 'cx-m3' } }], { sync: true });
    assert.deepEqual([byCoid('cx-m3').price, byCoid('cx-m3').active], ['30003', true]);
  });

  it('implicit API: partial cancel, symbols with open orders, dead-man switch and its query; SpotDesk client: active page', async () => {
    const id = sb.state.exchange.activeOrders(uid, SYM).find((o) => o.clientOid === 'cx-m1')?.id as string;
    const p = await api.privateDeleteHfOrdersCancelOrderId({ orderId: id, symbol: SYM, cancelSize: '0.0004' });
    assert.deepEqual(p.data, { orderId: id, cancelSize: '0.0004' });
    assert.equal(sb.state.exchange.getOrder(uid, SYM, id).remainSize, '0.0006');
    // ccxt has no method (implicit or unified) for GET /api/v1/hf/orders/active/page: SpotDesk's own client
    const own = new SpotClient({ baseUrl: sb.baseUrl, credentials: creds, maxRetries: 0 });
    const page = await own.getActiveOrdersPage({ symbol: SYM, pageNum: 1, pageSize: 2 });
    own.close();
    const active = sb.state.exchange.activeOrders(uid, SYM);
    assert.equal(page.totalNum, active.length);
    assert.deepEqual(page.items.map((o) => o.id), active.slice().sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).slice(0, 2).map((o) => o.id));
    assert.deepEqual((await api.privateGetHfOrdersActiveSymbols()).data, { symbols: [SYM] });
    const set = (await api.privatePostHfOrdersDeadCancelAll({ timeout: 5, symbols: SYM })).data as { currentTime: number; triggerTime: number };
    assert.equal(set.triggerTime - set.currentTime, 5);
    // currentTime is the server's second when the query ran: between the engine's reading before and after it
    const nowS = () => (sb.state.exchange.deadCancelOf(uid) as { currentTime: number }).currentTime;
    const before = nowS();
    const query = (await api.privateGetHfOrdersDeadCancelAllQuery()).data as { currentTime: number };
    const after = nowS();
    assert.ok(query.currentTime >= before && query.currentTime <= after, `currentTime ${query.currentTime} within [${before}, ${after}]`);
    assert.deepEqual(query, { timeout: 5, symbols: SYM, currentTime: query.currentTime, triggerTime: set.triggerTime });
    // unset again: nothing fires
    const unset = (await api.privatePostHfOrdersDeadCancelAll({ timeout: -1 })).data as { triggerTime: number };
    assert.equal(unset.triggerTime, 0);
    assert.equal(sb.state.exchange.deadCancelOf(uid), null);
  });

  it('cancelAllOrders() without a symbol → DELETE /api/v1/hf/orders/cancelAll', async () => {
    await ex.createOrder('ETH/USDT', 'limit', 'sell', 0.01, 99999);
    assert.ok(sb.state.exchange.activeOrders(uid, 'ETH-USDT').length === 1 && sb.state.exchange.activeOrders(uid, SYM).length > 0);
    const r = await ex.cancelAllOrders();
    assert.deepEqual(((r[0].info as { data: { succeedSymbols: string[] } }).data.succeedSymbols).slice().sort(), ['BTC-USDT', 'ETH-USDT']);
    for (const s of sb.state.world.symbols) assert.deepEqual(sb.state.exchange.activeOrders(uid, s.symbol), []);
    assert.equal(usdtHolds(), '0');
  });

  // ------------------------------------------------------------- the classic API ({hf: false})

  let classicId = '';
  it('createOrder {hf: false} → POST /api/v1/orders; {test: true} → /api/v1/orders/test', async () => {
    const t = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.002, 30000, { hf: false, test: true });
    assert.match(String(t.id), /^[0-9a-f]{24}$/);
    assert.equal(sb.state.exchange.activeOrders(uid, SYM).length, 0, 'a test order creates nothing');
    const o = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.002, 30000, { hf: false, clientOrderId: 'cl-1' });
    classicId = String(o.id);
    const e = sb.state.exchange.getOrder(uid, SYM, classicId);
    assert.deepEqual([e.clientOid, e.active, e.price], ['cl-1', true, '30000']);
    assert.equal(usdtHolds(), buyHold('30000', '0.002'), 'held in the one trading account');
  });

  it('createOrders {hf: false} → POST /api/v1/orders/multi', async () => {
    const list = await ex.createOrders(
      [
        { symbol: 'BTC/USDT', type: 'limit', side: 'buy', amount: 0.001, price: 29000, params: { clientOrderId: 'cl-m1' } },
        { symbol: 'BTC/USDT', type: 'limit', side: 'buy', amount: 0.001, price: 29001, params: { clientOrderId: 'cl-m2' } },
      ],
      { hf: false },
    );
    assert.deepEqual(list.map((o) => [o.clientOrderId, o.status]), [['cl-m1', undefined], ['cl-m2', undefined]]);
    assert.deepEqual(list.map((o) => sb.state.exchange.getOrder(uid, SYM, String(o.id)).clientOid), ['cl-m1', 'cl-m2']);
    assert.deepEqual(sb.state.exchange.activeOrders(uid, SYM).map((o) => o.clientOid).sort(), ['cl-1', 'cl-m1', 'cl-m2']);
  });

  it('fetchOrder {hf: false} by id → GET /api/v1/orders/{orderId}, by clientOrderId → GET /api/v1/order/client-order/{clientOid}', async () => {
    const o = await ex.fetchOrder(classicId, 'BTC/USDT', { hf: false });
    const e = sb.state.exchange.getOrder(uid, SYM, classicId);
    assert.deepEqual([o.id, o.status, o.side, o.price, o.amount, o.filled, o.clientOrderId, o.timestamp], [e.id, 'open', 'buy', 30000, 0.002, 0, 'cl-1', e.createdAt]);
    // ccxt's fetchOrder wants some id; with clientOrderId it asks by clientOid and ignores it
    const c = await ex.fetchOrder('by-client-oid', 'BTC/USDT', { hf: false, clientOrderId: 'cl-m2' });
    assert.equal(c.id, sb.state.exchange.getOrderByClientOid(uid, SYM, 'cl-m2').id);
  });

  it('fetchOpenOrders {hf: false} → GET /api/v1/orders?status=active', async () => {
    const open = await ex.fetchOpenOrders('BTC/USDT', undefined, undefined, { hf: false });
    assert.deepEqual(open.map((o) => o.id).sort(), sb.state.exchange.activeOrders(uid, SYM).map((o) => o.id).sort());
  });

  it('createOrder {hf: false} market, fetchMyTrades {hf: false} → GET /api/v1/fills; implicit GET /api/v1/limit/fills', async () => {
    const btc0 = sb.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0].balance;
    const m = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.003, undefined, { hf: false });
    const e = sb.state.exchange.getOrder(uid, SYM, String(m.id));
    assert.deepEqual([e.type, e.dealSize, e.active], ['market', '0.003', false]);
    assert.equal(sb.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0].balance, D.add(btc0, '0.003'));
    const trades = await ex.fetchMyTrades('BTC/USDT', undefined, undefined, { hf: false });
    const fills = sb.state.exchange.fills(uid, { symbol: SYM, orderId: e.id }).items;
    assert.ok(fills.length > 0);
    assert.deepEqual(
      trades.filter((t) => t.order === e.id).map((t) => [t.id, t.side, t.takerOrMaker, t.price, t.amount, t.fee?.cost]).sort(),
      fills.map((f) => [String(f.tradeId), f.side, f.liquidity, Number(f.price), Number(f.size), Number(f.fee)]).sort(),
    );
    const recent = (await api.privateGetLimitFills()).data as { tradeId: string; orderId: string }[];
    assert.deepEqual(recent.filter((f) => f.orderId === e.id).map((f) => f.tradeId).sort(), fills.map((f) => String(f.tradeId)).sort());
    const recentOrders = (await api.privateGetLimitOrders()).data as { id: string; isActive: boolean }[];
    assert.deepEqual(recentOrders.find((o) => o.id === e.id)?.isActive, false);
  });

  it('fetchClosedOrders {hf: false} → GET /api/v1/orders?status=done', async () => {
    const closed = await ex.fetchClosedOrders('BTC/USDT', undefined, 500, { hf: false });
    const done = sb.state.exchange.doneOrders(uid, SYM, { limit: 100 });
    assert.deepEqual(closed.map((o) => o.id).sort(), done.map((o) => o.id).sort());
  });

  it('cancelOrder {hf: false} by id → DELETE /api/v1/orders/{orderId}; by clientOrderId → DELETE /api/v1/order/client-order/{clientOid}', async () => {
    await ex.cancelOrder(classicId, 'BTC/USDT', { hf: false });
    assert.equal(sb.state.exchange.getOrder(uid, SYM, classicId).active, false);
    await ex.cancelOrder(undefined as unknown as string, 'BTC/USDT', { hf: false, clientOrderId: 'cl-m1' });
    assert.equal(sb.state.exchange.getOrderByClientOid(uid, SYM, 'cl-m1').active, false);
    // a second cancel: KuCoin's classic "not exist or not allowed" is ccxt's OrderNotFound
    await assert.rejects(ex.cancelOrder(classicId, 'BTC/USDT', { hf: false }), ccxt.OrderNotFound);
  });

  it('cancelAllOrders {hf: false} → DELETE /api/v1/orders', async () => {
    assert.equal(sb.state.exchange.activeOrders(uid, SYM).length, 1);
    await ex.cancelAllOrders('BTC/USDT', { hf: false });
    assert.deepEqual(sb.state.exchange.activeOrders(uid, SYM), []);
    assert.equal(usdtHolds(), '0');
  });

  it('fetchBalance {hf: false} → GET /api/v1/accounts?type=trade: the one trading account', async () => {
    const b = await ex.fetchBalance({ hf: false });
    for (const a of sb.state.exchange.accounts(uid, { type: 'trade' })) {
      const c = b[a.currency] as { free: number; used: number; total: number };
      assert.deepEqual([c.free, c.used, c.total], [Number(a.available), Number(a.holds), Number(a.balance)], a.currency);
    }
  });

  it("the dead-man's switch fires on the sandbox clock without any request (implicit API)", async () => {
    const o = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 30000);
    await api.privatePostHfOrdersDeadCancelAll({ timeout: 5 });
    await until(() => !sb.state.exchange.getOrder(uid, SYM, String(o.id)).active, 'the switch fired', 10_000);
    assert.equal((await ex.fetchOrder(String(o.id), 'BTC/USDT')).status, 'canceled');
  });
});
