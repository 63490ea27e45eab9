/**
 * The sandbox feed's `/spotMarket/advancedOrders` messages (src/exchange/server/feed/payloads.ts
 * `advancedOrderMessage`) decoded by SpotDesk's own stream schemas (src/api/streamSchemas.ts `WsStopOrder`),
 * with the published KuCoin example (test/fixtures/kucoin/WS_spotMarket_advancedOrders.json) as the reference of
 * the field set: every field of the example is in the sandbox's `open` message with the same JSON type. And the
 * topic is private: a public token cannot subscribe.
 */
import { strict as assert } from 'node:assert';
import { decodeStreamMessage } from '../../../src/api/streamSchemas';
import { advancedOrderMessage } from '../../../src/exchange/server/feed/payloads';
import { parseTopic } from '../../../src/exchange/server/feed/topics';
import { readFixture } from '../../fixtures';

describe('stream: /spotMarket/advancedOrders (stop and OCO events)', () => {
  const open = advancedOrderMessage(
    { uid: '226000001', symbol: 'BTC-USDT', orderId: 'vs5d0c000000000000000001', type: 'open', side: 'buy', stop: 'loss', stopPrice: '71000', orderPrice: '70000', size: '0.00007142', createdAt: 1742305928064, time: 1742305928091 },
    '1742305928091268493',
  );

  it('an open message has the published example\'s fields, with the same JSON types, and decodes', () => {
    const ours = JSON.parse(open) as { data: Record<string, unknown> } & Record<string, unknown>;
    const theirs = JSON.parse(readFixture('WS_spotMarket_advancedOrders.json')) as { data: Record<string, unknown> } & Record<string, unknown>;
    for (const k of Object.keys(theirs)) if (k !== 'data') assert.equal(typeof ours[k], typeof theirs[k], k);
    assert.deepEqual(Object.keys(ours.data).sort(), Object.keys(theirs.data).sort());
    for (const k of Object.keys(theirs.data)) assert.equal(typeof ours.data[k], typeof theirs.data[k], `data.${k}`);
    const m = decodeStreamMessage(open);
    if (m.kind !== 'message' || m.subject !== 'stopOrder') assert.fail('not a stopOrder message');
    assert.deepEqual([m.data.orderId, m.data.type, m.data.stop, m.data.stopPrice, m.data.orderPrice, m.data.size, m.data.createdAt, String(m.data.ts)], ['vs5d0c000000000000000001', 'open', 'loss', '71000', '70000', '0.00007142', 1742305928064, '1742305928091268493']);
  });

  it('a triggered message carries triggerSuccess, a refused one its error; a funds order its funds', () => {
    const ok = decodeStreamMessage(advancedOrderMessage({ uid: 'u', symbol: 'BTC-USDT', orderId: 'vs1', type: 'triggered', side: 'sell', stop: 'e_l_o', stopPrice: '1', orderPrice: '1', size: '2', triggerSuccess: true, triggeredOrderId: 'x', createdAt: 1, time: 2 }, '2000001'));
    const bad = decodeStreamMessage(advancedOrderMessage({ uid: 'u', symbol: 'BTC-USDT', orderId: 'vs2', type: 'triggered', side: 'buy', stop: 'entry', stopPrice: '1', funds: '10', triggerSuccess: false, error: 'Balance "insufficient"!', createdAt: 1, time: 2 }, '2000002'));
    if (ok.kind !== 'message' || ok.subject !== 'stopOrder' || bad.kind !== 'message' || bad.subject !== 'stopOrder') assert.fail('not stopOrder messages');
    assert.deepEqual([ok.data.type, ok.data.stop, ok.data.triggerSuccess, ok.data.error], ['triggered', 'e_l_o', true, undefined]);
    assert.deepEqual([bad.data.triggerSuccess, bad.data.error, bad.data.funds, bad.data.orderPrice], [false, 'Balance "insufficient"!', '10', undefined]);
  });

  it('the topic is private: the token\'s user, never a symbol; refused on a public token', () => {
    assert.deepEqual(parseTopic('/spotMarket/advancedOrders', () => true, '226000001'), { keys: [{ channel: 'advanced', key: '226000001' }] });
    assert.equal((parseTopic('/spotMarket/advancedOrders', () => true, undefined) as { code: number }).code, 401);
    assert.equal((parseTopic('/spotMarket/advancedOrders:BTC-USDT', () => true, 'u') as { code: number }).code, 400);
  });
});
