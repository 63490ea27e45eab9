/**
 * Sandbox server, black-box over HTTP: HF orders, order test, fills, service status, inner transfer.
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { admin, balanceOf, createUser, credsOf, signed, startTestSandbox } from './helpers';

const DAY = 24 * 3600 * 1000;

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

describe('sandbox server: orders, fills, status, transfers', () => {
  let sb: RunningSandbox;
  let client: SpotClient;
  let uid: string;

  before(async () => {
    sb = await startTestSandbox();
    const u = await createUser(sb, {
      balances: [
        { currency: 'USDT', type: 'trade', amount: '10000' },
        { currency: 'BTC', type: 'trade', amount: '1' },
        { currency: 'USDT', type: 'main', amount: '500' },
      ],
      takerFeeRate: '0.001',
      makerFeeRate: '0.001',
    });
    uid = u.uid;
    client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, now: () => sb.state.now(), maxRetries: 0 });
  });
  after(async () => {
    client.close();
    await sb.close();
  });

  it('places a resting limit order, reads it by id and in the active list, then cancels it (holds released)', async () => {
    const placed = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000', size: '0.01', clientOid: 'o-1', remark: 'r' });
    assert.match(placed.orderId, /^[0-9a-f]{24}$/);
    assert.equal(placed.clientOid, 'o-1');
    assert.deepEqual(balanceOf(sb, uid, 'USDT', 'trade'), { balance: '10000', available: '9399.4', holds: '600.6' });
    const o = await client.getOrder('BTC-USDT', placed.orderId);
    assert.equal(o.id, placed.orderId);
    assert.equal(o.active, true);
    assert.equal(o.inOrderBook, true);
    assert.equal(o.price, '60000');
    assert.equal(o.size, '0.01');
    assert.equal(o.clientOid, 'o-1');
    const active = await client.getActiveOrders('BTC-USDT');
    assert.deepEqual(
      active.map((a) => a.id),
      [placed.orderId],
    );
    const c = await client.cancelOrder('BTC-USDT', placed.orderId);
    assert.deepEqual(c, { orderId: placed.orderId });
    assert.deepEqual(balanceOf(sb, uid, 'USDT', 'trade'), { balance: '10000', available: '10000', holds: '0' });
    const done = await client.getOrder('BTC-USDT', placed.orderId);
    assert.equal(done.active, false);
    assert.equal(done.cancelledSize, '0.01');
    assert.deepEqual(await client.getActiveOrders('BTC-USDT'), []);
    await rejects(client.cancelOrder('BTC-USDT', placed.orderId), '400100', /not active/);
  });

  it('cancel-all cancels every active order of the pair and answers "success"', async () => {
    await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' });
    await client.placeOrder({ symbol: 'BTC-USDT', side: 'sell', type: 'limit', price: '90000', size: '0.001' });
    assert.equal((await client.getActiveOrders('BTC-USDT')).length, 2);
    assert.equal(await client.cancelAllOrders('BTC-USDT'), 'success');
    assert.equal((await client.getActiveOrders('BTC-USDT')).length, 0);
    assert.deepEqual(balanceOf(sb, uid, 'BTC', 'trade'), { balance: '1', available: '1', holds: '0' });
  });

  it('order test validates exactly like placement and creates nothing', async () => {
    const before = balanceOf(sb, uid, 'USDT', 'trade');
    const ok = await client.testOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000', size: '0.01', clientOid: 't-1' });
    assert.match(ok.orderId, /^[0-9a-f]{24}$/);
    assert.equal(ok.clientOid, 't-1');
    assert.deepEqual(balanceOf(sb, uid, 'USDT', 'trade'), before);
    assert.deepEqual(await client.getActiveOrders('BTC-USDT'), []);
    await rejects(client.getOrder('BTC-USDT', ok.orderId), '400100', /not exist/);
    // Same rule errors as placement.
    const bad = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000.05', size: '0.01' } as const;
    const e1 = await rejects(client.testOrder(bad), '400100');
    const e2 = await rejects(client.placeOrder(bad), '400100');
    assert.equal(e1.msg, e2.msg);
    assert.match(e1.msg, /priceIncrement/);
    const big = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000', size: '1' } as const;
    await rejects(client.testOrder(big), '200004');
    await rejects(client.placeOrder(big), '200004');
    await rejects(client.testOrder({ symbol: 'DOGE-USDT', side: 'buy', type: 'limit', price: '1', size: '1' }), '900001');
    await rejects(client.placeOrder({ symbol: 'DOGE-USDT', side: 'buy', type: 'limit', price: '1', size: '1' }), '900001');
    assert.deepEqual(balanceOf(sb, uid, 'USDT', 'trade'), before);
  });

  it('schema errors name the field (400100, HTTP 400) and change nothing', async () => {
    const c = { ...(await createUser(sb)) };
    const cases: Array<[unknown, RegExp]> = [
      [{ symbol: 'BTC-USDT', side: 'buy', type: 'limit', size: '0.01' }, /^price: is required/],
      [{ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1e5', size: '0.01' }, /^price: must be a plain decimal/],
      [{ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: 'NaN', size: '0.01' }, /^price: /],
      [{ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '-5', size: '0.01' }, /^price: must be greater than 0/],
      [{ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: 60000, size: '0.01' }, /^price: /],
      [{ symbol: 'BTC-USDT', side: 'hold', type: 'limit', price: '1', size: '1' }, /^side: /],
      [{ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '1', funds: '1' }, /^funds: /],
    ];
    for (const [body, re] of cases) {
      const r = await signed(sb, c, 'POST', '/api/v1/hf/orders', body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, '400100');
      assert.match(String(r.json.msg), re);
    }
    const tooPrecise = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders', { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000', size: '0.000000001' });
    assert.equal(tooPrecise.json.code, '400100');
    assert.match(String(tooPrecise.json.msg), /size|baseIncrement/);
  });

  it('fills: descending, paginated by lastId, limit ≤ 100, orderId filter; readable for 3 × 24 h only', async () => {
    // 5 taker buys at the best ask, each a separate order → ≥ 5 fills.
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const ask = (await client.call('level2_20', { symbol: 'BTC-USDT' })).asks[0][0];
      const r = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: ask, size: '0.0001', timeInForce: 'IOC' });
      ids.push(r.orderId);
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 1000 });
    }
    const all = await client.getFills({ symbol: 'BTC-USDT' });
    assert.equal(all.items.length, 5);
    for (let i = 1; i < all.items.length; i++) assert.ok(all.items[i].createdAt <= all.items[i - 1].createdAt);
    assert.deepEqual(
      all.items.map((f) => f.orderId),
      [...ids].reverse(),
    );
    const p1 = await client.getFills({ symbol: 'BTC-USDT', limit: 2 });
    assert.equal(p1.items.length, 2);
    assert.equal(String(p1.lastId), String(p1.items[1].id));
    const p2 = await client.getFills({ symbol: 'BTC-USDT', limit: 2, lastId: String(p1.lastId) });
    assert.deepEqual(
      p2.items.map((f) => f.orderId),
      [ids[2], ids[1]],
    );
    const byOrder = await client.getFills({ symbol: 'BTC-USDT', orderId: ids[0], side: 'sell' });
    assert.deepEqual(
      byOrder.items.map((f) => f.orderId),
      [ids[0]],
    );
    const f = all.items[0];
    assert.equal(f.liquidity, 'taker');
    assert.equal(f.side, 'buy');
    assert.equal(f.stop, '');
    assert.equal(f.tradeType, 'TRADE');
    const tooMany = await signed(sb, { ...(await createUser(sb)) }, 'GET', '/api/v1/hf/fills?symbol=BTC-USDT&limit=101');
    assert.equal(tooMany.json.code, '400100');
    assert.match(String(tooMany.json.msg), /^limit: /);
    // A range wider than 3 days is replaced by the window ending now: still all 5.
    const wide = await client.getFills({ symbol: 'BTC-USDT', startAt: sb.state.now() - 30 * DAY, endAt: sb.state.now() - 10 * DAY });
    assert.equal(wide.items.length, 5);
    // 3 days + 10 s later, fills and done orders are gone.
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 3 * DAY + 10_000 });
    assert.equal((await client.getFills({ symbol: 'BTC-USDT' })).items.length, 0);
    await rejects(client.getOrder('BTC-USDT', ids[4]), '400100', /not exist/);
  });

  it('GTT orders expire by the (manual) clock', async () => {
    const r = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', timeInForce: 'GTT', cancelAfter: 60 });
    assert.equal((await client.getOrder('BTC-USDT', r.orderId)).active, true);
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 61_000 });
    const o = await client.getOrder('BTC-USDT', r.orderId);
    assert.equal(o.active, false);
    assert.equal(o.cancelledSize, '0.001');
    assert.deepEqual(balanceOf(sb, uid, 'USDT', 'trade').holds, '0');
  });

  it('service status: cancelonly rejects placement but accepts cancels; close rejects both (400350)', async () => {
    const resting = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' });
    const resting2 = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50001', size: '0.001' });
    let r = await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'cancelonly', msg: 'upgrade' });
    assert.equal(r.status, 200);
    assert.deepEqual(await client.getStatus(), { status: 'cancelonly', msg: 'upgrade' });
    await rejects(client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' }), '400350', /cancel-only/);
    await rejects(client.testOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' }), '400350');
    assert.deepEqual(await client.cancelOrder('BTC-USDT', resting.orderId), { orderId: resting.orderId });
    r = await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'close', msg: 'maintenance' });
    assert.deepEqual(await client.getStatus(), { status: 'close', msg: 'maintenance' });
    await rejects(client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' }), '400350', /closed/);
    await rejects(client.cancelOrder('BTC-USDT', resting2.orderId), '400350');
    await rejects(client.cancelAllOrders('BTC-USDT'), '400350');
    assert.equal((await client.getOrder('BTC-USDT', resting2.orderId)).active, true);
    await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'open' });
    assert.deepEqual(await client.cancelOrder('BTC-USDT', resting2.orderId), { orderId: resting2.orderId });
    const bad = await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'paused' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, '400100');
  });

  it('inner transfer main → trade (idempotent by clientOid), insufficient → 200004, base fee', async () => {
    const r = await client.innerTransfer({ clientOid: 'tr-1', currency: 'USDT', from: 'main', to: 'trade', amount: '200' });
    assert.match(r.orderId, /^[0-9a-f]{24}$/);
    assert.deepEqual(balanceOf(sb, uid, 'USDT', 'main'), { balance: '300', available: '300', holds: '0' });
    const again = await client.innerTransfer({ clientOid: 'tr-1', currency: 'USDT', from: 'main', to: 'trade', amount: '200' });
    assert.equal(again.orderId, r.orderId);
    assert.equal(balanceOf(sb, uid, 'USDT', 'main').balance, '300');
    await rejects(client.innerTransfer({ clientOid: 'tr-2', currency: 'USDT', from: 'main', to: 'trade', amount: '300.01' }), '200004');
    await rejects(client.innerTransfer({ clientOid: 'tr-3', currency: 'NOPE', from: 'main', to: 'trade', amount: '1' }), '400100');
    assert.deepEqual(await client.getBaseFee(), { takerFeeRate: '0.001', makerFeeRate: '0.001' });
  });

  it('accounts: {code, data} envelope; filters by currency and type', async () => {
    const all = await client.getAccounts();
    assert.ok(all.length >= 3);
    const usdtMain = await client.getAccounts({ currency: 'USDT', type: 'main' });
    assert.equal(usdtMain.length, 1);
    assert.equal(usdtMain[0].type, 'main');
    assert.equal(usdtMain[0].currency, 'USDT');
    const trade = await client.getAccounts({ type: 'trade' });
    assert.ok(trade.every((a) => a.type === 'trade'));
    const raw = await signed(sb, credsOf(sb), 'GET', '/api/v1/accounts?currency=BTC');
    assert.equal(raw.json.code, '200000');
    assert.ok(Array.isArray(raw.json.data));
    // KuCoin's other documented types answer an empty list (the sandbox has no such accounts); an unknown type is 400100
    const margin = await signed(sb, credsOf(sb), 'GET', '/api/v1/accounts?type=margin');
    assert.deepEqual(margin.json, { code: '200000', data: [] });
    const badType = await signed(sb, credsOf(sb), 'GET', '/api/v1/accounts?type=futures');
    assert.equal(badType.json.code, '400100');
    assert.match(String(badType.json.msg), /^type: /);
  });
});
