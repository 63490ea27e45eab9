/**
 * The stop-order and OCO endpoints through SpotDesk's own client (SpotClient's methods, zod-checked answers)
 * against an in-process sandbox: what the third-party clients cannot show — the list filters and paging, the
 * permission a placement needs (Spot; General reads), KuCoin's error envelopes (400100 naming the field, 400350
 * in cancel-only mode), the answers' exact fields against the engine's stop book — and a triggered stop's order
 * in GET /api/v1/hf/orders and its hold.
 */
import { strict as assert } from 'node:assert';
import { ApiError, SpotClient, ValidationError } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import type { Credentials } from '../../../src/api/signing';
import { admin, balanceOf, createUser, signed, startTestSandbox } from './helpers';

const SYM = 'BTC-USDT';

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected an ApiError');
}

describe('stop and OCO endpoints through SpotClient', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let c: SpotClient;
  let uid: string;
  let helper: SpotClient;
  let credsOfUser: Credentials;

  before(async () => {
    sb = await startTestSandbox({ rateLimits: false });
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '10000' }, { currency: 'BTC', type: 'trade', amount: '1' }] });
    uid = u.uid;
    credsOfUser = u;
    c = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, maxRetries: 0 });
    helper = new SpotClient({ baseUrl: sb.baseUrl, credentials: await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '10000' }, { currency: 'BTC', type: 'trade', amount: '1' }] }), maxRetries: 0 });
    await helper.placeOrder({ symbol: SYM, side: 'buy', type: 'market', size: '0.0001' });
  });
  after(async () => {
    c?.close();
    helper?.close();
    await sb?.close();
  });

  it('place, read (by id, clientOid, list with filters and paging), all equal to the engine', async () => {
    const bid = sb.state.exchange.level2(SYM, 1).bids[0][0];
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const low = D.sub(bid, String(1000 + i));
      const r = await c.placeStopOrder({ symbol: SYM, side: i % 3 === 0 ? 'sell' : 'buy', type: i % 2 ? 'market' : 'limit', ...(i % 2 ? { funds: '10' } : { price: low, size: '0.001' }), stopPrice: low, clientOid: `s${i}` });
      assert.equal(r.clientOid, `s${i}`);
      ids.push(r.orderId);
    }
    const one = await c.getStopOrder(ids[3]);
    assert.deepEqual({ ...one, orderTime: String(one.orderTime) }, { ...sb.state.exchange.advanced.stopOrder(uid, ids[3]), orderTime: String(sb.state.exchange.advanced.stopOrder(uid, ids[3]).orderTime) });
    assert.equal(one.funds, '10');
    assert.equal(one.size, null);
    assert.equal(one.orderTime, `${one.createdAt}000000`, 'ns, exact');
    assert.deepEqual((await c.getStopOrdersByClientOid('s5', SYM)).map((s) => s.id), [ids[5]]);
    const p1 = await c.getStopOrders({ symbol: SYM, pageSize: 10 });
    assert.deepEqual([p1.totalNum, p1.totalPage, p1.items.length], [12, 2, 10]);
    assert.deepEqual(p1.items.map((s) => s.id), [...ids].reverse().slice(0, 10));
    const p2 = await c.getStopOrders({ symbol: SYM, pageSize: 10, currentPage: 2 });
    assert.deepEqual(p2.items.map((s) => s.id), [ids[1], ids[0]]);
    const sells = await c.getStopOrders({ side: 'sell' });
    assert.deepEqual(sells.items.map((s) => s.id), ids.filter((_, i) => i % 3 === 0).reverse());
    const markets = await c.getStopOrders({ type: 'market', orderIds: ids.slice(0, 4).join(',') });
    assert.deepEqual(markets.items.map((s) => s.id), [ids[3], ids[1]]);
    assert.deepEqual(await c.cancelStopOrders({ symbol: SYM }), ids);
    assert.equal((await c.getStopOrders()).totalNum, 0);
  });

  it('a triggered stop becomes an HF order (GET /api/v1/hf/orders/{id}) holding its funds now', async () => {
    const bid = sb.state.exchange.level2(SYM, 1).bids[0][0];
    const r = await c.placeStopOrder({ symbol: SYM, side: 'buy', type: 'limit', price: D.sub(bid, '2000'), size: '0.01', stopPrice: bid, stop: 'loss' });
    const usdt = balanceOf(sb, uid, 'USDT', 'trade');
    const have = sb.state.exchange.level2(SYM, 1).bids[0][1];
    await helper.placeOrder({ symbol: SYM, side: 'sell', type: 'market', size: D.min('0.0001', have) });
    const s = await c.getStopOrder(r.orderId);
    assert.equal(s.status, 'TRIGGERED');
    const active = await c.getActiveOrders(SYM);
    assert.equal(active.length, 1);
    const o = await c.getOrder(SYM, active[0].id);
    assert.deepEqual([o.side, o.price, o.size, o.active], ['buy', D.sub(bid, '2000'), '0.01', true]);
    const held = D.sub(balanceOf(sb, uid, 'USDT', 'trade').holds, usdt.holds);
    assert.ok(D.cmp(held, D.mul(o.price, '0.01')) >= 0, `held ${held}`);
    await c.cancelOrder(SYM, o.id);
  });

  it('OCO: place, read, cancel through SpotClient, equal to the engine', async () => {
    const bid = sb.state.exchange.level2(SYM, 1).bids[0][0];
    const r = await c.placeOcoOrder({ symbol: SYM, side: 'buy', price: D.sub(bid, '3000'), size: '0.001', stopPrice: D.add(bid, '3000'), limitPrice: D.add(bid, '3100'), clientOid: 'oco-c' });
    assert.deepEqual(await c.getOcoOrderDetail(r.orderId), sb.state.exchange.advanced.ocoOrderDetail(uid, r.orderId));
    assert.deepEqual(await c.getOcoOrder(r.orderId), sb.state.exchange.advanced.ocoOrder(uid, r.orderId));
    assert.deepEqual(await c.getOcoOrderByClientOid('oco-c'), sb.state.exchange.advanced.ocoOrder(uid, r.orderId));
    assert.deepEqual((await c.getOcoOrders({ symbol: SYM })).items.map((o) => o.orderId), [r.orderId]);
    const detail = sb.state.exchange.advanced.ocoOrderDetail(uid, r.orderId);
    assert.deepEqual(detail.orders.map((l) => sb.state.exchange.advanced.stopOrder(uid, l.id).stop), ['l_l_o', 'e_s_o']);
    assert.deepEqual(await c.cancelOcoOrderByClientOid('oco-c'), detail.orders.map((l) => l.id));
    const again = await apiError(c.cancelOcoOrder(r.orderId));
    assert.deepEqual([again.code, again.msg], ['400100', 'order not exists']);
  });

  it('errors: 400100 naming the field, nothing placed; margin refused; a General key cannot place; cancel-only mode', async () => {
    // the same schema checks the request before it is sent (client) and when it arrives (sandbox: 400100)
    await assert.rejects(c.placeStopOrder({ symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01' } as never), (e: unknown) => e instanceof ValidationError && /stopPrice/.test(e.message));
    const raw = await signed(sb, credsOfUser, 'POST', '/api/v1/stop-order', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01' });
    assert.equal((raw.json as { code: string }).code, '400100');
    assert.match((raw.json as { msg: string }).msg, /stopPrice/);
    const e2 = await apiError(c.placeStopOrder({ symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01', stopPrice: '100.05' }));
    assert.deepEqual([e2.code, e2.msg], ['400100', 'stopPrice must be a multiple of priceIncrement 0.1']);
    const e3 = await apiError(c.placeStopOrder({ symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01', stopPrice: '100', tradeType: 'MARGIN_TRADE' }));
    assert.equal(e3.code, '400100');
    const e4 = await apiError(c.placeStopOrder({ symbol: 'NOPE-USDT', side: 'buy', type: 'limit', price: '100', size: '0.01', stopPrice: '100' }));
    assert.equal(e4.code, '900001');
    const e5 = await apiError(c.placeOcoOrder({ symbol: SYM, side: 'sell', price: '100', size: '0.01', stopPrice: '200', limitPrice: '190', clientOid: 'x' }));
    assert.deepEqual([e5.code, e5.msg], ['400100', 'price must be above stopPrice for a sell OCO order']);
    assert.equal(sb.state.exchange.advanced.waitingCount(), 0);
    const ro = new SpotClient({ baseUrl: sb.baseUrl, credentials: await createUser(sb, { permissions: ['General'] }), maxRetries: 0 });
    try {
      assert.equal((await apiError(ro.placeStopOrder({ symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01', stopPrice: '100' }))).code, '400007');
      assert.equal((await ro.getStopOrders()).totalNum, 0, 'reads need General only');
    } finally {
      ro.close();
    }
    const st = await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'cancelonly', msg: '' });
    assert.equal(st.status, 200);
    try {
      assert.equal((await apiError(c.placeStopOrder({ symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01', stopPrice: '100' }))).code, '400350');
      assert.deepEqual(await c.cancelStopOrders(), []);
    } finally {
      await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'open', msg: '' });
    }
  });
});
