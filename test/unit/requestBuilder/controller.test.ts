import { strict as assert } from 'assert';
import { orderSummary, prettyBody, toView } from '../../../src/extension/requestBuilder/controller';
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
      'BUY limit on BTC-USDT\nprice 50000\nsize 0.001\ntimeInForce GTT (cancel after 60 s)\npostOnly\nclientOid c1\n\nThis sends POST /api/v1/hf/orders: the order goes to the matching engine.',
    );
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
