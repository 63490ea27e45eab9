/**
 * Every published payload of test/fixtures/kucoin/orders/ (KuCoin's docs-new examples of the HF order
 * variants and the classic order API, orders/SOURCES.md) decoded through the real client pipeline — the
 * typed `SpotClient` method → URL → lossless JSON → envelope → zod — with the request URL (or body) and the
 * field values checked; a POST fixture's published request parses with the endpoint's request schema. A
 * fixture file that no case claims fails the last test.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import { ENDPOINTS } from '../../../src/api/endpoints';
import type { FetchLike } from '../../../src/api/transport';
import { ORDERS_DIR } from '../../fixtures';

const covered = new Set<string>();
const U = 'http://fixture.invalid';
type Seen = { url: string; method: string; body: string }[];

/** The fixture's published request (POST) and a client whose fetch answers with its envelope, recording what it sent. */
function clientFor(file: string, seen: Seen): { client: SpotClient; request: unknown } {
  covered.add(file);
  const doc = JSON.parse(fs.readFileSync(path.join(ORDERS_DIR, file), 'utf8')) as Record<string, unknown>;
  const raw = JSON.stringify('response' in doc ? doc.response : doc);
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url, method: init.method, body: typeof init.body === 'string' ? init.body : '' });
    return { status: 200, headers: { get: (n: string) => (n === 'content-type' ? 'application/json' : null) }, text: async () => raw };
  };
  const client = new SpotClient({ baseUrl: U, fetch, credentials: { apiKey: 'k'.repeat(24), apiSecret: 'secret', apiPassphrase: 'pass', keyVersion: '2' } });
  return { client, request: 'request' in doc ? doc.request : undefined };
}

describe('order fixtures (docs-new): HF order variants', () => {
  it('add order sync: the request parses; the answer has the sizes and state after matching', async () => {
    const seen: Seen = [];
    const { client, request } = clientFor('POST_api_v1_hf_orders_sync.json', seen);
    const req = ENDPOINTS.hfPlaceOrderSync.params.parse(request);
    const out = await client.placeOrderSync(req as never);
    assert.deepEqual([seen[0].method, seen[0].url], ['POST', `${U}/api/v1/hf/orders/sync`]);
    assert.deepEqual(out, { orderId: '67111a7cb7cbdf000703e1f6', clientOid: '5c52e11203aa677f33e493f', orderTime: 1729174140586, originSize: '0.00001', dealSize: '0', remainSize: '0.00001', canceledSize: '0', status: 'open', matchTime: 1729174140588 });
  });
  it('batch add (and sync): orders of different pairs; a failed item carries failMsg only', async () => {
    const seen: Seen = [];
    const { client, request } = clientFor('POST_api_v1_hf_orders_multi.json', seen);
    // the published example's clientOids ("client order id 12") break KuCoin's own rule (letters, digits, "_"
    // and "-" only): refused on exactly those fields; the rest of it parses
    const refused = ENDPOINTS.hfPlaceMulti.params.safeParse(request);
    assert.ok(!refused.success);
    assert.deepEqual(refused.error.issues.map((i) => i.path.join('.')), ['orderList.0.clientOid', 'orderList.1.clientOid']);
    const fixed = { orderList: (request as { orderList: Record<string, unknown>[] }).orderList.map((o) => ({ ...o, clientOid: String(o.clientOid).replace(/ /g, '-') })) };
    const req = ENDPOINTS.hfPlaceMulti.params.parse(fixed) as { orderList: { symbol: string }[] };
    assert.deepEqual(req.orderList.map((o) => o.symbol), ['BTC-USDT', 'ETH-USDT']);
    const out = await client.placeOrders(req.orderList as never);
    assert.equal(seen[0].url, `${U}/api/v1/hf/orders/multi`);
    assert.deepEqual(out, [{ orderId: '6710d8336afcdb0007319c27', clientOid: 'client order id 12', success: true }, { success: false, failMsg: 'The order funds should more then 0.1 USDT.' }]);
    const seen2: Seen = [];
    const s = clientFor('POST_api_v1_hf_orders_multi_sync.json', seen2);
    const sfixed = { orderList: (s.request as { orderList: Record<string, unknown>[] }).orderList.map((o) => ({ ...o, clientOid: String(o.clientOid).replace(/ /g, '-') })) };
    const sreq = ENDPOINTS.hfPlaceMultiSync.params.parse(sfixed) as { orderList: unknown[] };
    const sout = await s.client.placeOrdersSync(sreq.orderList as never);
    assert.equal(seen2[0].url, `${U}/api/v1/hf/orders/multi/sync`);
    assert.deepEqual([sout[0].orderId, sout[0].status, sout[0].matchTime, sout[0].success, sout[1].success, sout[1].failMsg], ['6711195e5584bc0007bd5aef', 'open', 1729173854326, true, false, 'The order funds should more then 0.1 USDT.']);
  });
  it('cancel sync by id and by clientOid: the final sizes, status done', async () => {
    const seen: Seen = [];
    const a = await clientFor('DELETE_api_v1_hf_orders_sync_orderId.json', seen).client.cancelOrderSync('BTC-USDT', '671128ee365ccb0007534d45');
    assert.deepEqual([seen[0].method, seen[0].url], ['DELETE', `${U}/api/v1/hf/orders/sync/671128ee365ccb0007534d45?symbol=BTC-USDT`]);
    assert.deepEqual(a, { orderId: '671128ee365ccb0007534d45', originSize: '0.00001', dealSize: '0', remainSize: '0', canceledSize: '0.00001', status: 'done' });
    const b = await clientFor('DELETE_api_v1_hf_orders_sync_client-order_clientOid.json', seen).client.cancelOrderByClientOidSync('BTC-USDT', '5c52e11203aa677f33e493fb');
    assert.equal(seen[1].url, `${U}/api/v1/hf/orders/sync/client-order/5c52e11203aa677f33e493fb?symbol=BTC-USDT`);
    assert.deepEqual([b.clientOid, b.canceledSize, b.status], ['5c52e11203aa677f33e493fb', '0.00001', 'done']);
  });
  it('partial cancel: orderId and cancelSize', async () => {
    const seen: Seen = [];
    const out = await clientFor('DELETE_api_v1_hf_orders_cancel_orderId.json', seen).client.cancelPartialOrder('BTC-USDT', '6711f73c1ef16c000717bb31', '0.00001');
    assert.equal(seen[0].url, `${U}/api/v1/hf/orders/cancel/6711f73c1ef16c000717bb31?symbol=BTC-USDT&cancelSize=0.00001`);
    assert.deepEqual(out, { orderId: '6711f73c1ef16c000717bb31', cancelSize: '0.00001' });
  });
  it('modify (alter): the request parses; the answer is the NEW order id', async () => {
    const seen: Seen = [];
    const { client, request } = clientFor('POST_api_v1_hf_orders_alter.json', seen);
    const req = ENDPOINTS.hfAlterOrder.params.parse(request);
    assert.deepEqual(req, { symbol: 'BTC-USDT', orderId: '670fd33bf9406e0007ab3945', newPrice: '30000', newSize: '0.0001' });
    const out = await client.alterOrder(req as never);
    assert.equal(JSON.parse(seen[0].body).newPrice, '30000');
    assert.deepEqual(out, { newOrderId: '67112258f9406e0007408827', clientOid: 'client order id 12' });
  });
  it('active orders by page: a page of HF orders with tax', async () => {
    const seen: Seen = [];
    const out = await clientFor('GET_api_v1_hf_orders_active_page.json', seen).client.getActiveOrdersPage({ symbol: 'BTC-USDT', pageNum: 1, pageSize: 20 });
    assert.equal(seen[0].url, `${U}/api/v1/hf/orders/active/page?symbol=BTC-USDT&pageNum=1&pageSize=20`);
    assert.deepEqual([out.currentPage, out.pageSize, out.totalNum, out.totalPage], [1, 20, 1, 1]);
    assert.deepEqual([out.items[0].id, out.items[0].active, out.items[0].remainFunds, out.items[0].tax], ['67c1437ea5226600071cc080', true, '0.5', '0']);
  });
  it('an HF order carries tax (docs-new)', async () => {
    const seen: Seen = [];
    const out = await clientFor('GET_api_v1_hf_orders_orderId.tax.json', seen).client.getOrder('BTC-USDT', '6717422bd51c29000775ea03');
    assert.deepEqual([out.id, out.tax, out.dealFunds, out.fee], ['6717422bd51c29000775ea03', '0', '0.677176', '0.000677176']);
  });
  it("dead-man's switch: the request parses (timeout s, symbols comma-separated); the answer is in seconds", async () => {
    const seen: Seen = [];
    const { client, request } = clientFor('POST_api_v1_hf_orders_dead-cancel-all.json', seen);
    assert.deepEqual(ENDPOINTS.hfSetDeadCancel.params.parse(request), { timeout: 5, symbols: 'BTC-USDT,ETH-USDT' });
    const out = await client.setDeadCancel(5, ['BTC-USDT', 'ETH-USDT']);
    assert.deepEqual(JSON.parse(seen[0].body), request);
    assert.deepEqual(out, { currentTime: 1729656588, triggerTime: 1729656593 });
  });
});

describe('order fixtures (docs-new): the classic order API', () => {
  it('add order (and test): the request parses (clientOid required, type defaults to limit); the answer is {orderId}', async () => {
    const seen: Seen = [];
    const { client, request } = clientFor('POST_api_v1_orders.json', seen);
    const req = ENDPOINTS.classicPlaceOrder.params.parse(request);
    assert.equal((req as { clientOid: string }).clientOid, '5c52e11203aa677f33e493fb');
    assert.deepEqual(await client.placeClassicOrder(req as never), { orderId: '674a8635b38d120007709c0f' });
    assert.equal(seen[0].url, `${U}/api/v1/orders`);
    const t = clientFor('POST_api_v1_orders_test.json', seen);
    assert.deepEqual(await t.client.testClassicOrder(ENDPOINTS.classicTestOrder.params.parse(t.request) as never), { orderId: '674a8776291d9e00074f1edf' });
    assert.equal(seen[1].url, `${U}/api/v1/orders/test`);
    assert.equal(ENDPOINTS.classicPlaceOrder.params.safeParse({ symbol: 'BTC-USDT', side: 'buy', price: '1', size: '1' }).success, false, 'clientOid is required');
  });
  it('batch add: the request parses; the answer {data: [...]} has each order with status and failMsg', async () => {
    const seen: Seen = [];
    const { client, request } = clientFor('POST_api_v1_orders_multi.json', seen);
    const req = ENDPOINTS.classicPlaceMulti.params.parse(request) as { symbol: string; orderList: unknown[] };
    const out = await client.placeClassicOrders(req.symbol, req.orderList as never);
    assert.equal(seen[0].url, `${U}/api/v1/orders/multi`);
    assert.deepEqual(out.data.map((o) => [o.id, o.status, o.failMsg, o.iceberge, o.price]), [
      ['674a97dfef434f0007efc431', 'success', null, false, '50000'],
      ['674a97dffb378b00077b9c20', 'fail', 'Balance insufficient!', false, '49999'],
    ]);
  });
  it('cancel by id, by clientOid, cancel all', async () => {
    const seen: Seen = [];
    assert.deepEqual(await clientFor('DELETE_api_v1_orders_orderId.json', seen).client.cancelClassicOrder('674a97dfef434f0007efc431'), { cancelledOrderIds: ['674a97dfef434f0007efc431'] });
    assert.deepEqual([seen[0].method, seen[0].url], ['DELETE', `${U}/api/v1/orders/674a97dfef434f0007efc431`]);
    assert.deepEqual(await clientFor('DELETE_api_v1_order_client-order_clientOid.json', seen).client.cancelClassicOrderByClientOid('5c52e11203aa677f331e493fb'), {
      cancelledOrderId: '67c3252a63d25e0007f91de9',
      clientOid: '5c52e11203aa677f331e493fb',
      cancelledOcoOrderIds: null,
    });
    assert.equal(seen[1].url, `${U}/api/v1/order/client-order/5c52e11203aa677f331e493fb`);
    const all = await clientFor('DELETE_api_v1_orders.json', seen).client.cancelAllClassicOrders({ symbol: 'BTC-USDT', tradeType: 'TRADE' });
    assert.equal(seen[2].url, `${U}/api/v1/orders?symbol=BTC-USDT&tradeType=TRADE`);
    assert.deepEqual(all.cancelledOrderIds, ['674a8635b38d120007709c0f', '674a8630439c100007d3bce1']);
  });
  it('orders list, order by id and by clientOid: the classic order (isActive, stop fields, funds)', async () => {
    const seen: Seen = [];
    const page = await clientFor('GET_api_v1_orders.json', seen).client.getClassicOrders({ symbol: 'BTC-USDT', status: 'active', side: 'buy', type: 'limit', tradeType: 'TRADE', startAt: 123456, endAt: 123456, currentPage: 1, pageSize: 50 });
    assert.equal(seen[0].url, `${U}/api/v1/orders?status=active&symbol=BTC-USDT&side=buy&type=limit&tradeType=TRADE&currentPage=1&pageSize=50&startAt=123456&endAt=123456`);
    assert.deepEqual([page.totalNum, page.items[0].id, page.items[0].isActive, page.items[0].cancelExist, page.items[0].stopTriggered, page.items[0].funds], [1, '674a9a872033a50007e2790d', false, true, false, '0']);
    const byId = await clientFor('GET_api_v1_orders_orderId.json', seen).client.getClassicOrder('674a97dfef434f0007efc431');
    assert.equal(seen[1].url, `${U}/api/v1/orders/674a97dfef434f0007efc431`);
    assert.deepEqual([byId.id, byId.remark, byId.tags, byId.stop, byId.stopPrice, byId.tradeType], ['674a97dfef434f0007efc431', null, null, '', '0', 'TRADE']);
    const byCoid = await clientFor('GET_api_v1_order_client-order_clientOid.json', seen).client.getClassicOrderByClientOid('3d07008668054da6b3cb12e432c2b13a');
    assert.equal(seen[2].url, `${U}/api/v1/order/client-order/3d07008668054da6b3cb12e432c2b13a`);
    assert.equal(byCoid.clientOid, '3d07008668054da6b3cb12e432c2b13a');
  });
  it('fills: a page of classic fills (tradeId a string, no fill id)', async () => {
    const seen: Seen = [];
    const page = await clientFor('GET_api_v1_fills.json', seen).client.getClassicFills({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', tradeType: 'TRADE', startAt: 1728663338000, endAt: 1728692138000, currentPage: 1, pageSize: 50 });
    assert.equal(seen[0].url.startsWith(`${U}/api/v1/fills?symbol=BTC-USDT&side=buy`), true);
    assert.deepEqual([page.items[0].tradeId, page.items[0].symbol, page.items[0].type, page.items[0].funds, page.items[0].liquidity], ['10862827223795713', 'DOGE-USDT', 'market', '4.0739', 'taker']);
  });
});

describe('order fixtures: coverage', () => {
  it('every fixture file of test/fixtures/kucoin/orders/ is claimed by a case above', () => {
    const all = fs.readdirSync(ORDERS_DIR).filter((f) => f.endsWith('.json'));
    assert.deepEqual(all.filter((f) => !covered.has(f)), []);
    assert.equal(all.length, 20);
  });
});
