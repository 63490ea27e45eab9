import { strict as assert } from 'assert';
import { orderSummary, placementConfirmation, prettyBody, toView } from '../../../src/features/requestBuilder/controller';
import { estimateOrder } from '../../../src/api/orderEstimate';
import type { PreparedRequest } from '../../../src/api/client';

describe('requestBuilder/controller helpers (vscode-free)', () => {
  it('prettyBody re-indents JSON without re-parsing numbers (ids above 2^53 stay exact)', () => {
    assert.equal(
      prettyBody('{"code":"200000","data":{"tradeId":11029373945659392,"items":[],"o":{},"s":"a\\"b,:{"}}'),
      '{\n  "code": "200000",\n  "data": {\n    "tradeId": 11029373945659392,\n    "items": [],\n    "o": {},\n    "s": "a\\"b,:{"\n  }\n}',
    );
    assert.equal(prettyBody('Bad Gateway'), 'Bad Gateway');
  });

  it('orderSummary lists what will be placed', () => {
    assert.equal(
      orderSummary({ clientOid: 'c1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', timeInForce: 'GTT', cancelAfter: 60, postOnly: true }),
      'BUY limit on BTC-USDT\nprice 50000\nsize 0.001\ntimeInForce GTT (cancel after 60 s)\npostOnly\nclientOid c1',
    );
  });

  it('the placement confirmation names the profile (REAL only for a real exchange) and shows notional, fee and the crossing warning', () => {
    const order = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '67001', size: '0.001' };
    const estimate = estimateOrder({ side: 'buy', type: 'limit', price: '67001', size: '0.001' }, { bestBid: '66999.9', bestAsk: '67000' }, { takerFeeRate: '0.001', makerFeeRate: '0.001' }, 'USDT', 6);
    const sandbox = placementConfirmation(order, { name: 'Sandbox (local)', sandbox: true }, estimate, 'USDT');
    assert.equal(sandbox.message, 'Place a buy limit order on BTC-USDT on the sandbox profile "Sandbox (local)"?');
    assert.equal(
      sandbox.detail,
      [
        'BUY limit on BTC-USDT',
        'price 67001',
        'size 0.001',
        '',
        'Notional: 67.001 USDT',
        'Estimated fee: 0.067001 USDT (taker rate 0.1 %)',
        '⚠ This limit buy at 67001 USDT crosses the spread (best ask 67000 USDT): it executes at once, as a taker.',
        '',
        'Profile: the sandbox profile "Sandbox (local)" (play money, not real). This sends POST /api/v1/hf/orders: the order goes to the matching engine.',
      ].join('\n'),
    );
    const real = placementConfirmation(order, { name: 'KuCoin', sandbox: false }, estimate, 'USDT');
    assert.equal(real.message, 'Place a REAL buy limit order on BTC-USDT with profile "KuCoin"?');
    assert.match(real.detail, /Profile: REAL funds on the profile "KuCoin"\./);
    // A loopback base URL is a local server: SpotDesk says what it knows, not "real funds".
    const local = placementConfirmation(order, { name: 'Dev', sandbox: false, baseUrl: 'http://127.0.0.1:8100' }, estimate, 'USDT');
    assert.equal(local.message, 'Place a buy limit order on BTC-USDT on the local server of profile "Dev"?');
    assert.match(local.detail, /Profile: the profile "Dev" on a local server \(http:\/\/127\.0\.0\.1:8100\): real funds only if that server is connected to a real exchange\./);
    assert.doesNotMatch(local.detail, /REAL/);
  });

  it('a market order\'s confirmation walks the visible book: average price, slippage, and a warning past its depth', () => {
    const asks = [['100', '1'], ['101', '1']] as const;
    const order = { symbol: 'ETH-USDT', side: 'buy', type: 'market', size: '3' };
    const estimate = estimateOrder({ side: 'buy', type: 'market', size: '3', base: 'ETH' }, { bestAsk: '100', asks }, { takerFeeRate: '0.001', makerFeeRate: '0.001' }, 'USDT', 6);
    const c = placementConfirmation(order, { name: 'Sandbox (local)', sandbox: true }, estimate, 'USDT');
    const lines = c.detail.split('\n');
    assert.ok(lines.includes('Market price: ≈ 100.5 USDT average over 2 ask levels, 50 bps above the best ask 100 (2 ETH from the visible book)'), c.detail);
    assert.ok(lines.includes('⚠ Larger than the visible book: its 2 ask levels hold 2 ETH (201 USDT); the rest fills at prices nobody can see, or not at all.'), c.detail);
    assert.ok(lines.includes('Notional: ≈ 301.5 USDT'), c.detail);
  });

  it('toView keeps only display fields, timestamp as a string', () => {
    const p = {
      endpoint: 'testOrder', method: 'POST', url: 'http://h/api/v1/hf/orders/test', path: '/api/v1/hf/orders/test', pathWithRawQuery: '/api/v1/hf/orders/test',
      body: '{}', prehash: '1POST/api/v1/hf/orders/test{}', headers: { 'KC-API-KEY': 'abcd…wxyz' }, timestamp: 1, keyVersion: '2', clockOffsetMs: -3,
      signed: true, pool: 'spot', weight: 1,
    } as PreparedRequest;
    assert.deepEqual(toView(p), {
      method: 'POST', url: 'http://h/api/v1/hf/orders/test', pathWithRawQuery: '/api/v1/hf/orders/test', body: '{}', prehash: '1POST/api/v1/hf/orders/test{}',
      headers: { 'KC-API-KEY': 'abcd…wxyz' }, timestamp: '1', keyVersion: '2', clockOffsetMs: -3,
    });
  });
});
