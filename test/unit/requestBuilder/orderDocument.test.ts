import { strict as assert } from 'assert';
import { analyzeOrderDocument } from '../../../src/shared/requestBuilder/orderDocument';
import { SYMBOLS } from './orderRules.test';

/** [text at the range, code, message] of each issue, for exact range assertions. */
function located(text: string) {
  return analyzeOrderDocument(text, SYMBOLS).issues.map((i) => [text.slice(i.offset, i.offset + i.length), i.offset, i.code, i.message, i.orderIndex]);
}

describe('requestBuilder/orderDocument analyzeOrderDocument', () => {
  it('a single valid order: one order at offset 0, no issues', () => {
    const text = '{ "symbol": "BTC-USDT", "side": "buy", "type": "limit", "price": "50000", "size": "0.00001" }';
    const a = analyzeOrderDocument(text, SYMBOLS);
    assert.deepEqual(a.issues, []);
    assert.equal(a.orders.length, 1);
    assert.equal(a.orders[0].offset, 0);
    assert.equal(a.orders[0].length, text.length);
  });

  it('price off the tick grid: range is the price value string', () => {
    const text = '{"symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000.05","size":"0.00001"}';
    assert.deepEqual(located(text), [
      ['"50000.05"', 57, 'price-increment', 'price 50000.05 is not a multiple of priceIncrement 0.1 (nearest valid: 50000 or 50000.1).', 0],
    ]);
  });

  it('array of orders: size below baseMinSize on order #2, both size and funds on market order #3, unknown symbol on #4', () => {
    const text = [
      '[',
      '  {"symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.00001"},',
      '  {"symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.000001"},',
      '  {"symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001","funds":"10"},',
      '  // comments are allowed',
      '  {"symbol":"DOGE-EUR","side":"sell","type":"market","size":"1"}',
      ']',
    ].join('\n');
    const a = analyzeOrderDocument(text, SYMBOLS);
    assert.deepEqual(a.orders.map((o) => [o.index, text.slice(o.offset, o.offset + 12)]), [
      [0, '{"symbol":"B'], [1, '{"symbol":"B'], [2, '{"symbol":"B'], [3, '{"symbol":"D'],
    ]);
    assert.deepEqual(located(text), [
      ['"0.000001"', text.indexOf('"0.000001"'), 'size-min', 'size 0.000001 BTC is below baseMinSize 0.00001.', 1],
      ['"0.000001"', text.indexOf('"0.000001"'), 'min-funds', 'order value price × size = 0.05 USDT is below minFunds 0.1.', 1],
      ['"10"', text.indexOf('"10"'), 'market-size-and-funds', 'A market order takes either "size" or "funds", not both.', 2],
      ['"DOGE-EUR"', text.indexOf('"DOGE-EUR"'), 'unknown-symbol', 'Unknown symbol "DOGE-EUR": not listed by GET /api/v2/symbols.', 3],
    ]);
  });

  it('missing field anchors on the "{" (absent property) or on the requiring property', () => {
    const text = '{"side":"buy","type":"limit","size":"0.00001"}';
    assert.deepEqual(located(text), [
      ['{', 0, 'missing-field', 'Missing required field "symbol" (e.g. "BTC-USDT").', 0],
      ['"limit"', text.indexOf('"limit"'), 'limit-missing-price', 'A limit order needs "price".', 0],
    ]);
  });

  it('unknown field: range is the key; JSON number amount: range is the number', () => {
    const text = '{"symbol":"BTC-USDT","side":"buy","type":"limit","price":50000,"size":"0.00001","leverage":3}';
    assert.deepEqual(located(text), [
      ['50000', text.indexOf('50000'), 'not-decimal-string', '"price" must be a decimal string ("50000"), not a JSON number: numbers lose precision.', 0],
      ['"leverage"', text.indexOf('"leverage"'), 'unknown-field', '"leverage" is not an HF order field.', 0],
    ]);
  });

  it('syntax errors and non-order documents', () => {
    assert.deepEqual(located('{"symbol": "BTC-USDT",'), [
      ['', 22, 'json-syntax', 'JSON syntax error: PropertyNameExpected.', null],
      ['', 22, 'json-syntax', 'JSON syntax error: ValueExpected.', null],
      ['', 22, 'json-syntax', 'JSON syntax error: CloseBraceExpected.', null],
      ['{', 0, 'missing-field', 'Missing required field "side" ("buy" or "sell").', 0],
      ['{', 0, 'missing-field', 'Missing required field "type" ("limit" or "market").', 0],
    ]);
    assert.deepEqual(located('"x"'), [['"x"', 0, 'not-an-order', 'An order document holds one order object or an array of order objects.', null]]);
    assert.deepEqual(located('[1]'), [['1', 1, 'not-an-order', 'Order #1 must be an object.', 0]]);
  });

  it('without a symbol list, symbol rules are skipped', () => {
    const text = '{"symbol":"DOGE-EUR","side":"buy","type":"limit","price":"0.123456789","size":"1"}';
    assert.deepEqual(analyzeOrderDocument(text).issues, []);
  });
});
