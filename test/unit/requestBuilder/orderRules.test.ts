import { strict as assert } from 'assert';
import { symbolRules, validateOrder, type SymbolRules } from '../../../src/api/orderRules';
import { SymbolList } from '../../../src/api/schemas';
import { draftToOrder, emptyDraft } from '../../../src/features/requestBuilder/protocol';
import { symbolsV2Fixture as symbolsFixture } from '../../fixtures';

/** BTC-USDT rules exactly as published (GET /api/v2/symbols fixture). */
export const BTC: SymbolRules = symbolsFixture.data[0];
export const SYMBOLS = new Map([[BTC.symbol, BTC]]);

function codes(order: Record<string, unknown>) {
  return validateOrder(order, { symbols: SYMBOLS, reportUnknownFields: true }).map((i) => `${i.severity}:${i.code}@${i.field}`);
}

describe('requestBuilder/orderRules validateOrder', () => {
  const limit = { clientOid: 'abc-1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.00001' };

  it('accepts the published limit order (POST /api/v1/hf/orders example) with no issues', () => {
    assert.deepEqual(validateOrder(limit, { symbols: SYMBOLS, reportUnknownFields: true }), []);
  });

  it('price not a multiple of priceIncrement names both neighbours on the grid', () => {
    const issues = validateOrder({ ...limit, price: '50000.05' }, { symbols: SYMBOLS });
    assert.deepEqual(issues, [
      { code: 'price-increment', field: 'price', severity: 'error', message: 'price 50000.05 is not a multiple of priceIncrement 0.1 (nearest valid: 50000 or 50000.1).' },
    ]);
  });

  it('size below baseMinSize, off the baseIncrement grid, and notional below minFunds', () => {
    const issues = validateOrder({ ...limit, price: '1000', size: '0.000005' }, { symbols: SYMBOLS });
    assert.deepEqual(issues.map((i) => i.message), [
      'size 0.000005 BTC is below baseMinSize 0.00001.',
      'order value price × size = 0.005 USDT is below minFunds 0.1.',
    ]);
    const off = validateOrder({ ...limit, size: '0.000010001' }, { symbols: SYMBOLS });
    assert.deepEqual(off.map((i) => i.message), ['size 0.000010001 is not a multiple of baseIncrement 0.00000001 (round down to 0.00001).']);
  });

  it('size above baseMaxSize', () => {
    assert.deepEqual(codes({ ...limit, price: '0.1', size: '10000000001' }), ['error:size-max@size', 'error:funds-max@size']);
  });

  it('market order with both size and funds, and with neither', () => {
    assert.deepEqual(codes({ symbol: 'BTC-USDT', side: 'sell', type: 'market', size: '0.001', funds: '10' }), ['error:market-size-and-funds@funds']);
    assert.deepEqual(codes({ symbol: 'BTC-USDT', side: 'sell', type: 'market' }), ['error:market-missing-amount@type']);
  });

  it('market funds checked against quoteIncrement and quoteMinSize', () => {
    assert.deepEqual(validateOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '0.0500001' }, { symbols: SYMBOLS }).map((i) => i.message), [
      'funds 0.0500001 is not a multiple of quoteIncrement 0.000001 (round down to 0.05).',
      'funds 0.0500001 USDT is below quoteMinSize 0.1.',
    ]);
  });

  it('market order: price and ignored limit fields are warnings; postOnly/hidden/iceberg are errors (the sandbox rejects them)', () => {
    assert.deepEqual(codes({ symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '10', price: '1', timeInForce: 'IOC' }), [
      'warning:market-price@price',
      'warning:market-ignored@timeInForce',
    ]);
    assert.deepEqual(codes({ symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '10', price: '1', postOnly: true }), [
      'warning:market-price@price',
      'error:market-limit-only@postOnly',
    ]);
  });

  it('unknown symbol only when the symbol list is known', () => {
    assert.deepEqual(codes({ ...limit, symbol: 'FOO-BAR' }), ['error:unknown-symbol@symbol']);
    assert.deepEqual(validateOrder({ ...limit, symbol: 'FOO-BAR' }), []);
  });

  it('missing required fields and bad enums', () => {
    assert.deepEqual(codes({ side: 'hold', type: 'stop' }), ['error:missing-field@null', 'error:invalid-enum@side', 'error:invalid-enum@type']);
    assert.deepEqual(codes({ symbol: 'BTC-USDT', side: 'buy', type: 'limit' }), ['error:limit-missing-price@type', 'error:limit-missing-size@type']);
  });

  it('amounts must be decimal strings, not numbers', () => {
    assert.deepEqual(validateOrder({ ...limit, price: 50000 }, { symbols: SYMBOLS }), [
      { code: 'not-decimal-string', field: 'price', severity: 'error', message: '"price" must be a decimal string ("50000"), not a JSON number: numbers lose precision.' },
    ]);
    assert.deepEqual(codes({ ...limit, size: '1e-5' }), ['error:not-decimal@size']);
    assert.deepEqual(codes({ ...limit, size: '0' }), ['error:not-positive@size']);
  });

  it('time in force, cancelAfter, postOnly, hidden/iceberg rules', () => {
    assert.deepEqual(codes({ ...limit, cancelAfter: 60 }), ['error:cancel-after-without-gtt@cancelAfter']);
    assert.deepEqual(codes({ ...limit, timeInForce: 'GTT' }), ['error:gtt-missing-cancel-after@timeInForce']);
    assert.deepEqual(codes({ ...limit, timeInForce: 'GTT', cancelAfter: 1.5 }), ['error:cancel-after-invalid@cancelAfter']);
    assert.deepEqual(codes({ ...limit, timeInForce: 'GTT', cancelAfter: 60 }), []);
    assert.deepEqual(codes({ ...limit, cancelAfter: -1 }), [], 'cancelAfter -1 (never) is the same as absent');
    assert.deepEqual(codes({ ...limit, timeInForce: 'GTT', cancelAfter: -1 }), ['error:gtt-missing-cancel-after@timeInForce']);
    assert.deepEqual(codes({ ...limit, timeInForce: 'GTT', cancelAfter: 0 }), ['error:cancel-after-invalid@cancelAfter']);
    assert.deepEqual(codes({ ...limit, timeInForce: 'IOC', postOnly: true }), ['error:post-only-tif@postOnly']);
    assert.deepEqual(codes({ ...limit, hidden: true, iceberg: true, visibleSize: '0.00001' }), ['error:hidden-and-iceberg@iceberg']);
    assert.deepEqual(codes({ ...limit, iceberg: true }), ['error:iceberg-missing-visible-size@iceberg']);
    assert.deepEqual(codes({ ...limit, iceberg: true, visibleSize: '0.0001' }), ['error:visible-size-above-size@visibleSize']);
    // the sandbox rejects visibleSize without iceberg (400100 "visibleSize is only valid for iceberg orders")
    assert.deepEqual(codes({ ...limit, visibleSize: '0.00001' }), ['error:visible-size-without-iceberg@visibleSize']);
  });

  it('clientOid, remark, tags, stp and unknown fields', () => {
    assert.deepEqual(codes({ ...limit, clientOid: 'has space' }), ['error:client-oid-format@clientOid']);
    assert.deepEqual(codes({ ...limit, remark: 'x'.repeat(21) }), ['error:text-length@remark']);
    assert.deepEqual(codes({ ...limit, tags: 'café' }), ['warning:text-ascii@tags']);
    assert.deepEqual(codes({ ...limit, stp: 'XX' }), ['error:invalid-enum@stp']);
    assert.deepEqual(codes({ ...limit, stp: 'CN', leverage: 3 }), ['warning:unknown-field@leverage']);
  });
});

describe('requestBuilder/protocol draftToOrder', () => {
  it('serializes a limit draft in wire order, dropping empty fields and false flags', () => {
    const d = { ...emptyDraft('BTC-USDT', 'oid1'), price: ' 50000 ', size: '0.00001', timeInForce: 'GTT', cancelAfter: '60', postOnly: true, funds: '5' };
    assert.equal(
      JSON.stringify(draftToOrder(d)),
      '{"clientOid":"oid1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.00001","timeInForce":"GTT","cancelAfter":60,"postOnly":true}',
    );
  });
  it('market draft keeps funds and drops limit-only fields; a non-integer cancelAfter stays a string', () => {
    const d = { ...emptyDraft('BTC-USDT', 'oid2'), type: 'market' as const, side: 'sell' as const, funds: '10', price: '1', iceberg: true, visibleSize: '1' };
    assert.equal(JSON.stringify(draftToOrder(d)), '{"clientOid":"oid2","symbol":"BTC-USDT","side":"sell","type":"market","funds":"10"}');
    assert.deepEqual(draftToOrder({ ...emptyDraft('BTC-USDT', 'o'), cancelAfter: '1.5' }).cancelAfter, '1.5');
  });
});

describe('api/orderRules symbolRules', () => {
  it('keeps exactly the SymbolRules fields of a GET /api/v2/symbols row, values unchanged', () => {
    const info = SymbolList.parse(symbolsFixture.data)[0];
    const rules = symbolRules(info);
    const keys = ['symbol', 'baseCurrency', 'quoteCurrency', 'baseIncrement', 'priceIncrement', 'quoteIncrement', 'baseMinSize', 'quoteMinSize', 'baseMaxSize', 'quoteMaxSize', 'minFunds', 'enableTrading'];
    assert.deepEqual(Object.keys(rules), keys);
    for (const k of keys) assert.equal(rules[k as keyof SymbolRules], info[k as keyof typeof info], k);
    assert.ok('market' in info && !('market' in rules), 'fields beyond the rules are dropped');
  });
});
