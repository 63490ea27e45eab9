import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { SpotClient } from '../../../src/api/client';
import type { FetchLike } from '../../../src/api/transport';
import { buildQuery, computeSign, maskKey, prehashOf, signPartner, signPassphrase, signRequest, type Credentials } from '../../../src/api/signing';
import { readFixture } from '../../fixtures';

interface Vector {
  source: string;
  apiKey?: string;
  secret: string;
  apiKeyVersion?: string;
  timestamp?: string;
  method?: string;
  endpoint?: string;
  body?: string;
  stringToSign: string;
  expectedSign: string;
  passphrasePlaintext?: string | null;
  expectedSignedPassphrase?: string | null;
}

const vectors = JSON.parse(readFixture('SIGNING_test_vectors.json')) as Vector[];

describe('signing: SIGNING_test_vectors.json', () => {
  it('has the 4 published vectors', () => assert.equal(vectors.length, 4));
  vectors.forEach((v, i) => {
    it(`vector ${i + 1}: ${v.source.slice(0, 60)}…`, () => {
      if (v.timestamp !== undefined) {
        assert.equal(prehashOf(v.timestamp, v.method!, v.endpoint!, v.body!), v.stringToSign);
      }
      assert.equal(computeSign(v.secret, v.stringToSign), v.expectedSign);
      if (v.passphrasePlaintext && v.expectedSignedPassphrase) {
        assert.equal(signPassphrase(v.secret, v.passphrasePlaintext, '2'), v.expectedSignedPassphrase);
        assert.equal(signPassphrase(v.secret, v.passphrasePlaintext, '3'), v.expectedSignedPassphrase);
        assert.equal(signPassphrase(v.secret, v.passphrasePlaintext, '1'), v.passphrasePlaintext);
      }
    });
  });
  it('signRequest reproduces the official full vector, with redacted headers', () => {
    const v = vectors[0];
    const creds: Credentials = { apiKey: v.apiKey!, apiSecret: v.secret, apiPassphrase: 'Ab12345678)(*&^%$#@', keyVersion: '2' };
    const s = signRequest({ credentials: creds, timestamp: v.timestamp!, method: 'POST', pathWithRawQuery: v.endpoint!, body: v.body! });
    assert.equal(s.prehash, v.stringToSign);
    assert.equal(s.headers['KC-API-SIGN'], '7QP/oM0ykidMdrfNEUmng8eZjg/ZvPafjIqmxiVfYu4=');
    assert.equal(s.headers['KC-API-KEY'], '5c2db93503aa674c74a31734');
    assert.equal(s.headers['KC-API-TIMESTAMP'], '1547015186532');
    assert.equal(s.headers['KC-API-KEY-VERSION'], '2');
    assert.equal(s.headers['KC-API-PASSPHRASE'], createHmac('sha256', v.secret).update('Ab12345678)(*&^%$#@').digest('base64'));
    assert.deepEqual(s.redactedHeaders, {
      'KC-API-KEY': '5c2d…1734',
      'KC-API-SIGN': '<redacted>',
      'KC-API-TIMESTAMP': '1547015186532',
      'KC-API-PASSPHRASE': '<redacted>',
      'KC-API-KEY-VERSION': '2',
    });
    assert.ok(!JSON.stringify(s.redactedHeaders).includes(v.secret));
  });
  it('key version 1 sends the passphrase in clear; broker headers are signed', () => {
    const creds: Credentials = {
      apiKey: 'key-1234567890',
      apiSecret: 'sec',
      apiPassphrase: 'plain-pass',
      keyVersion: '1',
      broker: { partner: 'spotdesk', brokerKey: 'broker-secret', name: 'SpotDesk' },
    };
    const s = signRequest({ credentials: creds, timestamp: 1700000000000, method: 'get', pathWithRawQuery: '/api/v1/accounts', body: '' });
    assert.equal(s.prehash, '1700000000000GET/api/v1/accounts');
    assert.equal(s.headers['KC-API-PASSPHRASE'], 'plain-pass');
    assert.equal(s.headers['KC-API-PARTNER'], 'spotdesk');
    assert.equal(s.headers['KC-BROKER-NAME'], 'SpotDesk');
    const expected = createHmac('sha256', 'broker-secret').update('1700000000000spotdeskkey-1234567890').digest('base64');
    assert.equal(s.headers['KC-API-PARTNER-SIGN'], expected);
    assert.equal(signPartner('broker-secret', '1700000000000', 'spotdesk', 'key-1234567890'), expected);
    assert.equal(s.redactedHeaders['KC-API-PARTNER-SIGN'], '<redacted>');
    assert.equal(s.redactedHeaders['KC-API-PASSPHRASE'], '<redacted>');
    assert.equal(maskKey('short'), '…');
  });
});

describe('signing: raw query signed, encoded query sent', () => {
  it('buildQuery gives the raw form (signed) and the encoded form (wire)', () => {
    const q = buildQuery({ symbol: 'BTC-USDT', remark: 'a b&c', skip: undefined, none: null, limit: 5 });
    assert.equal(q.raw, 'symbol=BTC-USDT&remark=a b&c&limit=5');
    assert.equal(q.encoded, 'symbol=BTC-USDT&remark=a%20b%26c&limit=5');
    assert.deepEqual(buildQuery({}), { raw: '', encoded: '' });
  });
  it('the client signs `?currency=a b&c` un-encoded and sends `?currency=a%20b%26c`', async () => {
    let sentUrl = '';
    let sentHeaders: Record<string, string> = {};
    const fetch: FetchLike = async (url, init) => {
      sentUrl = url;
      sentHeaders = init.headers;
      return { status: 200, headers: { get: () => 'application/json' }, text: async () => '{"code":"200000","data":[]}' };
    };
    const creds: Credentials = { apiKey: '5c2db93503aa674c74a31734', apiSecret: 'f03a5284-5c39-4aaa-9b20-dea10bdcf8e3', apiPassphrase: 'pp', keyVersion: '2' };
    const client = new SpotClient({ baseUrl: 'http://x.invalid', credentials: creds, fetch, now: () => 1547015186532 });
    const p = client.prepare('accounts', { currency: 'a b&c', type: 'trade' });
    assert.equal(p.pathWithRawQuery, '/api/v1/accounts?currency=a b&c&type=trade');
    assert.equal(p.url, 'http://x.invalid/api/v1/accounts?currency=a%20b%26c&type=trade');
    assert.equal(p.prehash, '1547015186532GET/api/v1/accounts?currency=a b&c&type=trade');
    await client.getAccounts({ currency: 'a b&c', type: 'trade' });
    assert.equal(sentUrl, 'http://x.invalid/api/v1/accounts?currency=a%20b%26c&type=trade');
    assert.equal(sentHeaders['KC-API-SIGN'], computeSign(creds.apiSecret, '1547015186532GET/api/v1/accounts?currency=a b&c&type=trade'));
    // what a server does: decode the wire query once and sign that
    const wireQuery = new URL(sentUrl).search;
    assert.equal(computeSign(creds.apiSecret, '1547015186532GET/api/v1/accounts' + decodeURIComponent(wireQuery)), sentHeaders['KC-API-SIGN']);
    assert.notEqual(computeSign(creds.apiSecret, '1547015186532GET/api/v1/accounts' + wireQuery), sentHeaders['KC-API-SIGN']);
  });
  it('POST: the body signed is exactly the body sent (serialized once)', async () => {
    let sentBody = '';
    let sign = '';
    const fetch: FetchLike = async (_url, init) => {
      sentBody = init.body ?? '';
      sign = init.headers['KC-API-SIGN'];
      return { status: 200, headers: { get: () => null }, text: async () => '{"code":"200000","data":{"orderId":"o1","clientOid":"c1"}}' };
    };
    const client = new SpotClient({ baseUrl: 'http://x.invalid', credentials: { apiKey: 'k'.repeat(24), apiSecret: 's3', apiPassphrase: 'p', keyVersion: '3' }, fetch, now: () => 1685000000000 });
    const r = await client.testOrder({ clientOid: 'c1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.00001', junk: 1 } as never);
    assert.deepEqual(r, { orderId: 'o1', clientOid: 'c1' });
    assert.equal(sentBody, '{"clientOid":"c1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.00001"}');
    assert.equal(sign, computeSign('s3', '1685000000000POST/api/v1/hf/orders/test' + sentBody));
  });
});
