import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ENDPOINTS, KUCOIN_RESERVED_SEGMENTS, fillPath, matchEndpoint, pathExists, POOL_QUOTAS } from '../../../src/api/endpoints';
import { jsonDepthExceeds, needsLossless, parseJson } from '../../../src/api/json';
import * as S from '../../../src/api/schemas';

/** The "field: why" description of a failed parse. */
function why(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown): string {
  const r = schema.safeParse(value);
  assert.equal(r.success, false, `expected ${JSON.stringify(value)} to be rejected`);
  return S.describeZodError(r.error);
}

const limit = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' };

describe('schemas: PlaceOrderRequest rules', () => {
  it('accepts a plain limit order and strips unknown fields', () => {
    assert.deepEqual(S.PlaceOrderRequest.parse({ ...limit, hf: true, foo: 'x' }), limit);
  });
  it('limit needs price and size; funds only for market', () => {
    assert.equal(why(S.PlaceOrderRequest, { ...limit, price: undefined }), 'price: is required for a limit order');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, size: undefined }), 'size: is required for a limit order');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, funds: '10' }), 'funds: is only allowed for a market order');
  });
  it('market needs exactly one of size / funds', () => {
    const m = { symbol: 'BTC-USDT', side: 'sell', type: 'market' };
    assert.equal(S.PlaceOrderRequest.parse({ ...m, funds: '10' }).funds, '10');
    assert.equal(S.PlaceOrderRequest.parse({ ...m, size: '0.1' }).size, '0.1');
    assert.equal(why(S.PlaceOrderRequest, m), 'size: a market order needs exactly one of size or funds');
    assert.equal(why(S.PlaceOrderRequest, { ...m, size: '1', funds: '2' }), 'funds: a market order takes exactly one of size or funds, not both');
  });
  it('cancelAfter only with GTT (and GTT needs it); iceberg needs visibleSize; not hidden+iceberg; postOnly not with IOC/FOK', () => {
    assert.equal(why(S.PlaceOrderRequest, { ...limit, cancelAfter: 60 }), 'cancelAfter: is only allowed with timeInForce GTT');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, timeInForce: 'GTT' }), 'cancelAfter: is required with timeInForce GTT');
    assert.equal(S.PlaceOrderRequest.parse({ ...limit, timeInForce: 'GTT', cancelAfter: 60 }).cancelAfter, 60);
    assert.equal(why(S.PlaceOrderRequest, { ...limit, iceberg: true }), 'visibleSize: is required for an iceberg order');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, iceberg: true, hidden: true, visibleSize: '0.0001' }), 'iceberg: an order cannot be both hidden and iceberg');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, postOnly: true, timeInForce: 'IOC' }), 'postOnly: is invalid with timeInForce IOC');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, cancelAfter: 1.5, timeInForce: 'GTT' }), 'cancelAfter: expected int, received number');
  });
  it('decimal fields: plain, positive decimal strings only', () => {
    for (const bad of ['1e5', 'NaN', '+1', '', '1.', 'Infinity']) {
      assert.match(why(S.PlaceOrderRequest, { ...limit, price: bad }), /^price: must be a plain decimal string/);
    }
    assert.equal(why(S.PlaceOrderRequest, { ...limit, size: '0' }), 'size: must be greater than 0');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, size: '-1' }), 'size: must be greater than 0');
    assert.match(why(S.PlaceOrderRequest, { ...limit, price: 50000 }), /^price: expected string, received number$/);
  });
  it('enums and required fields are named', () => {
    assert.equal(why(S.PlaceOrderRequest, { ...limit, side: 'long' }), 'side: Invalid option: expected one of "buy"|"sell"');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, stp: 'XX' }), 'stp: Invalid option: expected one of ""|"DC"|"CO"|"CN"|"CB"');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, symbol: undefined }), 'symbol: is required');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, clientOid: 'x'.repeat(41) }), 'clientOid: must be 1-40 characters of letters, digits, "_" or "-"');
    assert.equal(why(S.PlaceOrderRequest, { ...limit, remark: 'r'.repeat(21) }), 'remark: Too big: expected string to have <=20 characters');
  });
  it('property: any positive decimal price/size pair is accepted and kept verbatim', () => {
    const dec = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 8 })).map(([u, s]) => {
      const str = u.toString().padStart(s + 1, '0');
      return s ? `${str.slice(0, -s)}.${str.slice(-s)}` : str;
    });
    fc.assert(
      fc.property(dec, dec, (price, size) => {
        const o = S.PlaceOrderRequest.parse({ ...limit, price, size });
        return o.price === price && o.size === size;
      }),
      { numRuns: 200 },
    );
  });
});

describe('schemas: funding requests', () => {
  const v4 = { currency: 'USDT', toAddress: 'T123', amount: '10', withdrawType: 'ADDRESS', receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace' };
  it('V1 amount as number or decimal string → decimal string', () => {
    assert.equal(S.WithdrawalV1Request.parse({ currency: 'USDT', address: 'a', amount: 3 }).amount, '3');
    assert.equal(S.WithdrawalV1Request.parse({ currency: 'USDT', address: 'a', amount: '0.00000001' }).amount, '0.00000001');
    assert.equal(why(S.WithdrawalV1Request, { currency: 'USDT', address: 'a', amount: 1e-7 }), 'amount: must be a plain decimal; the number 1e-7 has no plain decimal form, send it as a string');
    assert.equal(why(S.WithdrawalV1Request, { currency: 'USDT', address: 'a', amount: 0 }), 'amount: must be greater than 0');
    assert.equal(why(S.WithdrawalV1Request, { currency: 'USDT', amount: '1' }), 'address: is required');
    assert.equal(why(S.WithdrawalV1Request, { currency: 'USDT', address: 'a', amount: '1', feeDeductType: 'BOTH' }), 'feeDeductType: Invalid option: expected one of "INTERNAL"|"EXTERNAL"');
  });
  it('V4 receiverType rules', () => {
    assert.equal(S.WithdrawalV4Request.parse(v4).firstName, 'Ada');
    assert.equal(why(S.WithdrawalV4Request, { ...v4, lastName: undefined }), 'lastName: is required when receiverType is individual');
    assert.equal(why(S.WithdrawalV4Request, { ...v4, receiverType: 'company' }), 'companyName: is required when receiverType is company');
    assert.equal(S.WithdrawalV4Request.parse({ ...v4, receiverType: 'company', companyName: 'ACME' }).companyName, 'ACME');
    assert.equal(why(S.WithdrawalV4Request, { ...v4, country: 'TR', identityType: 'PASSPORT' }), 'identityType: must be ID_CARD when country is TR');
    assert.equal(why(S.WithdrawalV4Request, { ...v4, country: 'DE', identityType: 'ID_CARD' }), 'identityType: must be PASSPORT when country is DE');
    assert.equal(why(S.WithdrawalV4Request, { ...v4, chain: 'btcln', feeDeductType: 'EXTERNAL' }), 'feeDeductType: the Lightning network can only deduct the fee internally');
    assert.equal(why(S.WithdrawalV4Request, { ...v4, reasonOfTransfer: 'FUN' }).startsWith('reasonOfTransfer: Invalid option'), true);
  });
  it('inner transfer and deposit address', () => {
    assert.deepEqual(S.InnerTransferRequest.parse({ clientOid: 'c-1', currency: 'USDT', from: 'main', to: 'trade', amount: '5' }), { clientOid: 'c-1', currency: 'USDT', from: 'main', to: 'trade', amount: '5' });
    assert.equal(why(S.InnerTransferRequest, { clientOid: 'c-1', currency: 'USDT', from: 'main', to: 'main', amount: '5' }), 'to: must differ from from');
    assert.equal(why(S.DepositAddressRequest, { currency: 'ETH', to: 'margin' }), 'to: must be main or trade');
  });
  it('query schemas take URL strings', () => {
    assert.deepEqual(S.FillsQuery.parse({ symbol: 'BTC-USDT', limit: '50', startAt: '1728663338000', lastId: '254062248624417' }), { symbol: 'BTC-USDT', limit: 50, startAt: 1728663338000, lastId: '254062248624417' });
    assert.equal(why(S.FillsQuery, { symbol: 'BTC-USDT', limit: '101' }), 'limit: Too big: expected number to be <=100');
    assert.equal(why(S.FillsQuery, { symbol: 'BTCUSDT' }), 'symbol: must be a trading pair like BTC-USDT');
  });
  it('ExactId rejects an unsafe JSON number (digits already lost) and keeps strings/bigints', () => {
    assert.equal(S.ExactId.parse(11029373945659392n), '11029373945659392');
    assert.equal(S.ExactId.parse('11029373945659392'), '11029373945659392');
    assert.equal(S.ExactId.parse(19814995255305), '19814995255305');
    assert.match(why(S.ExactId, 2 ** 60), /above 2\^53 lost digits/);
  });
});

describe('json: lossless decode', () => {
  it('keeps every digit of integers above 2^53 as strings; safe numbers stay numbers', () => {
    const v = parseJson('{"a":11029373945659393,"b":19814995255305,"c":[90071992547409931,1.5],"d":"x","e":1.1174410000000001,"f":1.12345678901234567}') as Record<string, unknown>;
    // e: the double's shortest form IS the literal, so it stays a number (String(e) is exact); f is not
    assert.deepEqual(v, { a: '11029373945659393', b: 19814995255305, c: ['90071992547409931', 1.5], d: 'x', e: 1.1174410000000001, f: '1.12345678901234567' });
    assert.equal(String(v.e), '1.1174410000000001');
  });
  it('fast path scan: only bodies with a long numeric literal take the slow path', () => {
    assert.equal(needsLossless('{"price":"67717.60000000000001","t":1729577515473}'), false);
    assert.equal(needsLossless('{"t": 11029373945659392}'), true);
    assert.equal(needsLossless('[1,11029373945659392]'), true);
    assert.equal(needsLossless('11029373945659392'), true);
    assert.equal(needsLossless('{"x":-0.12345678901234567}'), true);
  });
  it('property: integers of any size round-trip exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (n) => {
        const out = (parseJson(`{"id":${n}}`) as { id: unknown }).id;
        return String(out) === n.toString() && (typeof out === 'number' ? Number.isSafeInteger(out) : true);
      }),
      { numRuns: 300 },
    );
  });
  it('invalid JSON throws SyntaxError on both paths', () => {
    assert.throws(() => parseJson('<html>'), SyntaxError);
    assert.throws(() => parseJson('{"a":11029373945659392,'), SyntaxError);
  });
  it('depth: more than 64 levels on the lossless path is a SyntaxError naming the depth (the recursive parser blew its stack); the scan skips strings and escapes', () => {
    assert.throws(() => parseJson(`${'['.repeat(5000)}11029373945659392${']'.repeat(5000)}`), { name: 'SyntaxError', message: 'JSON nested deeper than 64 levels' });
    assert.deepEqual(parseJson(`${'['.repeat(64)}11029373945659392${']'.repeat(64)}`), JSON.parse(`${'['.repeat(64)}"11029373945659392"${']'.repeat(64)}`));
    assert.equal(jsonDepthExceeds('['.repeat(65)), true);
    assert.equal(jsonDepthExceeds('['.repeat(64)), false);
    assert.equal(jsonDepthExceeds(`"${'['.repeat(100)}"`), false);
    assert.equal(jsonDepthExceeds(`["\\\\"${'['.repeat(64)}`), true, 'an escaped backslash ends before the quote: the string is closed');
    assert.equal(jsonDepthExceeds(`["\\\\"${'['.repeat(63)}`), false);
    assert.equal(jsonDepthExceeds(`["\\"${'['.repeat(100)}`), false, 'an escaped quote does not close the string');
  });
});

describe('endpoints table', () => {
  it('matchEndpoint resolves literal and templated paths with decoded params', () => {
    assert.equal(matchEndpoint('GET', '/api/v1/hf/orders/active')?.name, 'activeOrders');
    assert.deepEqual(matchEndpoint('GET', '/api/v1/hf/orders/6717422bd51c29000775ea03'), {
      name: 'order',
      endpoint: ENDPOINTS.order,
      pathParams: { orderId: '6717422bd51c29000775ea03' },
    });
    assert.equal(matchEndpoint('DELETE', '/api/v1/hf/orders/abc')?.name, 'cancelOrder');
    assert.equal(matchEndpoint('DELETE', '/api/v1/hf/orders')?.name, 'cancelAllOrders');
    assert.equal(matchEndpoint('POST', '/api/v1/hf/orders')?.name, 'placeOrder');
    assert.equal(matchEndpoint('post', '/api/v1/hf/orders/test')?.name, 'testOrder');
    assert.deepEqual(matchEndpoint('GET', '/api/v3/currencies/US%20DT')?.pathParams, { currency: 'US DT' });
    assert.equal(matchEndpoint('GET', '/api/v3/currencies')?.name, 'currencies');
    assert.equal(matchEndpoint('GET', '/kyc/regions/v4')?.name, 'regions');
    assert.equal(matchEndpoint('PUT', '/api/v1/hf/orders'), undefined);
    assert.equal(matchEndpoint('GET', '/api/v1/nope'), undefined);
    assert.equal(pathExists('/api/v1/hf/orders'), true);
    assert.equal(pathExists('/api/v9/x'), false);
  });
  it('a path parameter never takes the segment of another endpoint or of a KuCoin endpoint the sandbox lacks', () => {
    assert.equal(matchEndpoint('GET', '/api/v1/hf/orders/done')?.name, 'doneOrders');
    assert.equal(matchEndpoint('GET', '/api/v1/hf/orders/active/symbols')?.name, 'activeOrderSymbols');
    assert.deepEqual(matchEndpoint('DELETE', '/api/v1/hf/orders/client-order/my-oid')?.pathParams, { clientOid: 'my-oid' });
    // literal siblings (done, active, test, client-order) and KuCoin's own sub-resources are no ids
    for (const seg of ['done', 'active', 'test', 'client-order', 'sync', 'multi', 'cancel', 'cancelAll', 'alter', 'dead-cancel-all', ...(KUCOIN_RESERVED_SEGMENTS['/api/v1/hf/orders'] ?? [])]) {
      assert.notEqual(matchEndpoint('DELETE', `/api/v1/hf/orders/${seg}`)?.name, 'cancelOrder', `DELETE ${seg}`);
      assert.notEqual(matchEndpoint('GET', `/api/v1/hf/orders/${seg}`)?.name, 'order', `GET ${seg}`);
    }
    assert.equal(matchEndpoint('DELETE', '/api/v1/hf/orders/sync'), undefined);
    assert.equal(matchEndpoint('GET', '/api/v1/hf/orders/alter'), undefined);
    // KuCoin's own sub-resources are endpoints now, never an order id
    assert.equal(matchEndpoint('DELETE', '/api/v1/hf/orders/cancelAll')?.name, 'hfCancelAllSymbols');
    assert.equal(matchEndpoint('DELETE', '/api/v1/hf/orders/sync/abc')?.name, 'hfCancelOrderSync');
    assert.deepEqual(matchEndpoint('DELETE', '/api/v1/hf/orders/sync/client-order/my-oid')?.pathParams, { clientOid: 'my-oid' });
    assert.equal(matchEndpoint('DELETE', '/api/v1/hf/orders/cancel/abc')?.name, 'hfCancelPartial');
    assert.equal(matchEndpoint('GET', '/api/v1/hf/orders/dead-cancel-all/query')?.name, 'hfGetDeadCancel');
    assert.equal(matchEndpoint('DELETE', '/api/v1/orders/multi'), undefined);
    assert.equal(matchEndpoint('DELETE', '/api/v1/orders/test'), undefined);
    assert.equal(matchEndpoint('GET', '/api/v1/orders/6717422bd51c29000775ea03')?.name, 'classicOrder');
    assert.equal(pathExists('/api/v1/hf/orders/done'), true);
    // a clientOid is the user's word: only literal siblings (none under client-order/) are excluded
    assert.equal(matchEndpoint('GET', '/api/v1/hf/orders/client-order/sync')?.name, 'orderByClientOid');
    assert.equal(matchEndpoint('DELETE', '/api/v1/withdrawals/quotas'), undefined);
    assert.equal(matchEndpoint('DELETE', '/api/v1/withdrawals/67e6515f7960ba0007b42025')?.name, 'cancelWithdrawal');
  });
  it('facts of the spec Limits table and the brief', () => {
    const f = (n: keyof typeof ENDPOINTS) => [ENDPOINTS[n].method, ENDPOINTS[n].path, ENDPOINTS[n].permission, ENDPOINTS[n].pool, ENDPOINTS[n].weight];
    assert.deepEqual(f('level2_100'), ['GET', '/api/v1/market/orderbook/level2_100', 'public', 'public', 4]);
    assert.deepEqual(f('baseFee'), ['GET', '/api/v1/base-fee', 'General', 'spot', 3]);
    assert.deepEqual(f('accounts'), ['GET', '/api/v1/accounts', 'General', 'management', 5]);
    assert.deepEqual(f('testOrder'), ['POST', '/api/v1/hf/orders/test', 'Spot', 'spot', 1]);
    assert.deepEqual(f('cancelAllOrders'), ['DELETE', '/api/v1/hf/orders', 'Spot', 'spot', 2]);
    assert.deepEqual(f('withdrawV4'), ['POST', '/api/v4/withdrawals', 'Transfer', 'management', 5]);
    assert.deepEqual(f('withdrawalQuotas'), ['GET', '/api/v1/withdrawals/quotas', 'General', 'management', 20]);
    assert.deepEqual(f('allTickers'), ['GET', '/api/v1/market/allTickers', 'public', 'public', 15]);
    assert.deepEqual(POOL_QUOTAS, { public: { limit: 2000, windowMs: 30000 }, spot: { limit: 4000, windowMs: 30000 }, management: { limit: 2000, windowMs: 30000 } });
  });
  it('fillPath substitutes and encodes path params, leaving the rest as query', () => {
    assert.deepEqual(fillPath('/api/v1/hf/orders/{orderId}', { orderId: 'a/b', symbol: 'BTC-USDT' }), { path: '/api/v1/hf/orders/a%2Fb', query: { symbol: 'BTC-USDT' } });
    assert.throws(() => fillPath('/api/v1/hf/orders/{orderId}', { symbol: 'X-Y' }), /missing path parameter orderId/);
  });
});

describe('fastLevel2Book agrees with the Level2Book zod schema', () => {
  const dec = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.nat(10 ** 9), fc.nat(10 ** 8)).map(([a, b]) => `${a}.${b}`) },
    { weight: 2, arbitrary: fc.constantFrom('66976.4', '0.0005', '0', '-1', '007.50', '1e5', 'NaN', '', '1.', '.5', '+1', ' 1', '1'.repeat(81)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
  const level = fc.oneof(
    { weight: 30, arbitrary: fc.tuple(dec, dec) },
    { weight: 1, arbitrary: fc.array(dec, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.anything() },
  );
  const book = fc.record({
    sequence: fc.oneof({ weight: 8, arbitrary: fc.constant('14610502970') }, { weight: 1, arbitrary: fc.constantFrom('', 'x1', '01') }, { weight: 1, arbitrary: fc.anything() }),
    time: fc.oneof({ weight: 8, arbitrary: fc.constant(1729176273859) }, { weight: 1, arbitrary: fc.constantFrom(1.5, 2 ** 60, NaN) }, { weight: 1, arbitrary: fc.anything() }),
    bids: fc.oneof({ weight: 9, arbitrary: fc.array(level, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.anything() }),
    asks: fc.oneof({ weight: 9, arbitrary: fc.array(level, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.anything() }),
    extra: fc.anything(),
  });
  it('same verdict and same output on random (mostly near-valid) books', () => {
    let valid = 0;
    fc.assert(
      fc.property(book, (b) => {
        const z = S.Level2Book.safeParse(b);
        const f = S.fastLevel2Book(b);
        if (!z.success) return f === undefined;
        valid++;
        return f !== undefined && JSON.stringify(f) === JSON.stringify(z.data);
      }),
      { numRuns: 2000 },
    );
    assert.ok(valid >= 100 && valid <= 1900, `both verdicts exercised (valid: ${valid} of 2000)`);
  });
  it('accepts the fixture book and rejects a level with an exponent', () => {
    const ok = { sequence: '14610502970', time: 1729176273859, bids: [['66976.4', '0.69109872']], asks: [['66976.5', '0.05408199']] };
    assert.deepEqual(S.fastLevel2Book({ ...ok, extra: 1 }), ok);
    assert.equal(S.fastLevel2Book({ ...ok, asks: [['1e5', '1']] }), undefined);
  });
});
