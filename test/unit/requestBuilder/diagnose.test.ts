import { strict as assert } from 'assert';
import { diagnose, fieldFromMessage } from '../../../src/features/requestBuilder/model/diagnose';
import type { PreparedView } from '../../../src/features/requestBuilder/model/signatureView';
import { BTC } from './orderRules.test';

const body = '{"clientOid":"c1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.00001"}';
const p: PreparedView = {
  method: 'POST',
  url: 'http://127.0.0.1:8080/api/v1/hf/orders/test',
  pathWithRawQuery: '/api/v1/hf/orders/test',
  body,
  prehash: `1700000000000POST/api/v1/hf/orders/test${body}`,
  headers: { 'KC-API-KEY': 'abcd…wxyz', 'KC-API-TIMESTAMP': '1700000000000', 'KC-API-KEY-VERSION': '2' },
  timestamp: '1700000000000',
  keyVersion: '2',
  clockOffsetMs: 0,
};

describe('requestBuilder/diagnose', () => {
  it('200000: accepted', () => {
    assert.deepEqual(diagnose({ status: 200, code: '200000', msg: undefined, prepared: p }), {
      title: 'Accepted (200000)', severity: 'ok', details: ['The exchange accepted the signature and the order parameters.'],
    });
  });

  it('400005: shows exactly what was signed and the usual causes', () => {
    const d = diagnose({ status: 401, code: '400005', msg: 'Invalid KC-API-SIGN', prepared: { ...p, pathWithRawQuery: '/api/v1/x?remark=a%20b', prehash: '1700000000000GET/api/v1/x?remark=a%20b', body: '', method: 'GET' } });
    assert.equal(d.title, 'Signature rejected (400005)');
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.details.slice(0, 3), [
      'The exchange said: "Invalid KC-API-SIGN".',
      'Signed string (prehash, whitespace shown as · ⏎ →): 1700000000000GET/api/v1/x?remark=a%20b',
      '= timestamp "1700000000000" + method "GET" + path "/api/v1/x?remark=a%20b" + body (empty).',
    ]);
    assert.equal(d.details.length, 8);
    assert.match(d.details[3], /^The query string was signed in a different form than sent \(e.g. percent-encoded on one side, raw on the other/);
    assert.match(d.details[4], /^The body was re-serialized after signing/);
    assert.match(d.details[5], /^The API secret is wrong/);
    assert.match(d.details[6], /^Leading\/trailing whitespace/);
    assert.equal(d.details[7], 'Note: this path contains percent-encoded characters; the server verifies against the raw query it received.');
  });

  it('400002: reports the measured skew against the 5 s window', () => {
    const d = diagnose({ status: 401, code: '400002', msg: 'Invalid KC-API-TIMESTAMP', prepared: { ...p, clockOffsetMs: null }, measuredSkewMs: -30250 });
    assert.deepEqual(d, {
      title: 'Timestamp rejected (400002)',
      severity: 'error',
      details: [
        'The exchange said: "Invalid KC-API-TIMESTAMP".',
        'KC-API-TIMESTAMP sent: 1700000000000 ms.',
        'Measured against GET /api/v1/timestamp: the server clock is −30.250 s relative to the signing clock (this machine\'s clock + the offset used).',
        'That exceeds the 5 s window the exchange accepts: synchronize the system clock (e.g. enable NTP), or let the client correct timestamps by the measured offset.',
      ],
    });
    const within = diagnose({ status: 401, code: '400002', msg: undefined, prepared: p, measuredSkewMs: 40 });
    assert.equal(within.details[2], 'Measured against GET /api/v1/timestamp: the server clock is +40 ms relative to the signing clock (this machine\'s clock + the offset used).');
    assert.match(within.details[3], /^That is within the 5 s window now/);
    assert.equal(within.details[4], 'Clock offset used when signing: +0 ms.');
  });

  it('400004: passphrase / key version mismatch', () => {
    const d = diagnose({ status: 401, code: '400004', msg: 'Invalid KC-API-PASSPHRASE', prepared: p });
    assert.equal(d.title, 'Passphrase rejected (400004)');
    assert.equal(d.details[1], 'Key version sent: KC-API-KEY-VERSION 2.');
    assert.match(d.details[2], /version 1 sends the passphrase in plain text; versions 2 and 3 send base64\(HMAC-SHA256\(secret, passphrase\)\)/);
  });

  it('400007: missing Spot Trading permission', () => {
    const d = diagnose({ status: 403, code: '400007', msg: 'Access denied, require more permission.', prepared: p });
    assert.equal(d.title, 'Missing permission (400007)');
    assert.match(d.details[1], /without the "Spot Trading" permission/);
  });

  it('400100: the field named by the exchange, with the local rule check', () => {
    const order = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000.05', size: '0.00001' };
    const d = diagnose({ status: 400, code: '400100', msg: 'Price increment invalid.', prepared: p, order, rules: BTC });
    assert.deepEqual(d, {
      title: 'Invalid parameter (400100)',
      severity: 'error',
      field: 'price',
      details: [
        'The exchange said: "Price increment invalid.".',
        'Field at fault: "price" = "50000.05".',
        'Local check: price 50000.05 is not a multiple of priceIncrement 0.1 (nearest valid: 50000 or 50000.1).',
      ],
    });
    // No field in the message: the first local error names it.
    const d2 = diagnose({ status: 400, code: '400100', msg: 'Invalid Parameter.', prepared: p, order: { ...order, price: '50000', size: '0.000001' }, rules: BTC });
    assert.equal(d2.field, 'size');
    assert.equal(d2.details[1], 'Field at fault: "size" = "0.000001".');
  });

  it('fieldFromMessage prefers the longest field name and knows rule names', () => {
    assert.equal(fieldFromMessage('visibleSize must not exceed size'), 'visibleSize');
    assert.equal(fieldFromMessage('body.funds: a market order takes exactly one of size or funds'), 'funds');
    assert.equal(fieldFromMessage('quoteMinSize not reached'), 'funds');
    assert.equal(fieldFromMessage('Invalid Parameter.'), undefined);
  });

  it('429000 and unknown codes', () => {
    assert.equal(diagnose({ status: 429, code: '429000', msg: 'Too Many Requests', prepared: p }).severity, 'warning');
    assert.deepEqual(diagnose({ status: 502, code: undefined, msg: undefined, prepared: p }).title, 'HTTP 502');
  });
});
