/**
 * Sandbox server, black-box over HTTP: signature auth (key versions 1/2/3, raw query rule),
 * permissions, gateway errors (404/415/413), rate limits and their headers, 500 envelope.
 */
import { strict as assert } from 'node:assert';
import { computeSign, signPassphrase, signRequest } from '../../../src/api/signing';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { HANDLERS } from '../../../src/exchange/server/routes';
import { admin, createUser, credsOf, rawRequest, signed, startTestSandbox } from './helpers';

function hasRateHeaders(h: Record<string, unknown>): void {
  for (const k of ['gw-ratelimit-limit', 'gw-ratelimit-remaining', 'gw-ratelimit-reset']) assert.match(String(h[k]), /^\d+$/, `${k} missing`);
}

describe('sandbox server: auth, gateway errors, rate limits', () => {
  let sb: RunningSandbox;

  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });

  it('400001 when a KC-API header is missing (HTTP 401)', async () => {
    const r = await rawRequest(sb.baseUrl, 'GET', '/api/v1/accounts');
    assert.equal(r.status, 401);
    assert.equal(r.json.code, '400001');
    hasRateHeaders(r.headers);
    const { headers } = signRequest({ credentials: credsOf(sb), timestamp: sb.state.now(), method: 'GET', pathWithRawQuery: '/api/v1/accounts', body: '' });
    delete headers['KC-API-PASSPHRASE'];
    const r2 = await rawRequest(sb.baseUrl, 'GET', '/api/v1/accounts', headers);
    assert.equal(r2.json.code, '400001');
  });

  it('400002 when the timestamp is more than 5 s off (HTTP 400); 5 s exactly passes', async () => {
    const c = credsOf(sb);
    const now = sb.state.now();
    const late = await signed(sb, c, 'GET', '/api/v1/accounts', undefined, { timestamp: now - 5001 });
    assert.equal(late.status, 400);
    assert.deepEqual(late.json, { code: '400002', msg: 'Invalid KC-API-TIMESTAMP' });
    const early = await signed(sb, c, 'GET', '/api/v1/accounts', undefined, { timestamp: now + 5001 });
    assert.equal(early.json.code, '400002');
    const edge = await signed(sb, c, 'GET', '/api/v1/accounts', undefined, { timestamp: now + 5000 });
    assert.equal(edge.json.code, '200000');
  });

  it('400003 unknown key, 400004 wrong passphrase, 400005 wrong signature (HTTP 401, fixture messages)', async () => {
    const c = credsOf(sb);
    const r3 = await signed(sb, { ...c, apiKey: 'ffffffffffffffffffffffff' }, 'GET', '/api/v1/accounts');
    assert.equal(r3.status, 401);
    assert.deepEqual(r3.json, { code: '400003', msg: 'KC-API-KEY not exists' });
    const r4 = await signed(sb, { ...c, apiPassphrase: 'wrong' }, 'GET', '/api/v1/accounts');
    assert.equal(r4.status, 401);
    assert.deepEqual(r4.json, { code: '400004', msg: 'Invalid KC-API-PASSPHRASE' });
    const r5 = await signed(sb, { ...c, apiSecret: 'not-the-secret' }, 'GET', '/api/v1/accounts', undefined);
    // wrong secret also breaks the signed passphrase → 400004; sign a correct passphrase with a wrong sign:
    assert.equal(r5.json.code, '400004');
    const ts = String(sb.state.now());
    const headers = {
      'KC-API-KEY': c.apiKey,
      'KC-API-SIGN': computeSign(c.apiSecret, `${ts}GET/api/v1/accounts?currency=BTC`),
      'KC-API-TIMESTAMP': ts,
      'KC-API-PASSPHRASE': signPassphrase(c.apiSecret, c.apiPassphrase, '2'),
      'KC-API-KEY-VERSION': '2',
    };
    const r6 = await rawRequest(sb.baseUrl, 'GET', '/api/v1/accounts?currency=USDT', headers);
    assert.equal(r6.status, 401);
    assert.deepEqual(r6.json, { code: '400005', msg: 'Invalid KC-API-SIGN' });
    // A body different from the signed one fails too.
    const body = JSON.stringify({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.001' });
    const s = signRequest({ credentials: c, timestamp: sb.state.now(), method: 'POST', pathWithRawQuery: '/api/v1/hf/orders/test', body });
    const r7 = await rawRequest(sb.baseUrl, 'POST', '/api/v1/hf/orders/test', { ...s.headers, 'Content-Type': 'application/json' }, body.replace('1000', '1001'));
    assert.equal(r7.json.code, '400005');
  });

  it('key versions 1 (plain passphrase), 2 and 3 (HMAC passphrase) all verify', async () => {
    for (const keyVersion of ['1', '2', '3'] as const) {
      const u = await createUser(sb, { keyVersion });
      assert.equal(u.keyVersion, keyVersion);
      const r = await signed(sb, u, 'GET', '/api/v1/accounts');
      assert.equal(r.json.code, '200000', `key version ${keyVersion}: ${r.text}`);
      // the other passphrase form is refused
      const other = keyVersion === '1' ? '2' : '1';
      const r2 = await signed(sb, { ...u, keyVersion: other }, 'GET', '/api/v1/accounts');
      assert.equal(r2.json.code, '400004');
    }
  });

  it('signed path = raw un-encoded query; the percent-encoded wire form is accepted as signed text too', async () => {
    const u = await createUser(sb);
    // The client signs `currency=BTC&type=main` un-encoded; special characters: signs raw, sends encoded.
    const raw = '/api/v1/hf/fills?symbol=BTC-USDT&orderId=a b+c/d';
    const wire = '/api/v1/hf/fills?symbol=BTC-USDT&orderId=a%20b%2Bc%2Fd';
    const r = await signed(sb, u, 'GET', raw, undefined, { wirePath: wire });
    assert.equal(r.json.code, '200000', r.text);
    assert.deepEqual(r.json.data, { items: [], lastId: 0 });
    const r2 = await signed(sb, u, 'GET', wire);
    assert.equal(r2.json.code, '200000', r2.text);
    // Signing a different query than sent fails.
    const r3 = await signed(sb, u, 'GET', '/api/v1/hf/fills?symbol=ETH-USDT', undefined, { wirePath: '/api/v1/hf/fills?symbol=BTC-USDT' });
    assert.equal(r3.json.code, '400005');
  });

  it('400007 (HTTP 403) when the key lacks General / Spot Trading / Transfer', async () => {
    const general = await createUser(sb, { permissions: ['General'] });
    const order = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.001' };
    const r = await signed(sb, general, 'POST', '/api/v1/hf/orders/test', order);
    assert.equal(r.status, 403);
    assert.equal(r.json.code, '400007');
    assert.match(String(r.json.msg), /Spot Trading/);
    const w = await signed(sb, general, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: 'x', amount: '20' });
    assert.equal(w.json.code, '400007');
    assert.match(String(w.json.msg), /Transfer/);
    assert.equal((await signed(sb, general, 'GET', '/api/v1/accounts')).json.code, '200000');
    const spot = await createUser(sb, { permissions: ['Spot'] });
    assert.equal((await signed(sb, spot, 'POST', '/api/v1/hf/orders/test', order)).json.code, '200004');
    const acc = await signed(sb, spot, 'GET', '/api/v1/accounts');
    assert.equal(acc.json.code, '400007');
    assert.match(String(acc.json.msg), /General/);
  });

  it('404000 for unknown paths and methods, 415000 for POST without JSON content type, 413 for > 1 MB', async () => {
    const r = await rawRequest(sb.baseUrl, 'GET', '/api/v9/nothing');
    assert.equal(r.status, 404);
    assert.equal(r.json.code, '404000');
    hasRateHeaders(r.headers);
    const m = await rawRequest(sb.baseUrl, 'PUT', '/api/v1/accounts');
    assert.equal(m.status, 404);
    assert.equal(m.json.code, '404000');
    const c = credsOf(sb);
    const ct = await signed(sb, c, 'POST', '/api/v1/hf/orders/test', { symbol: 'BTC-USDT' }, { contentType: 'text/plain' });
    assert.equal(ct.status, 415);
    assert.equal(ct.json.code, '415000');
    const none = await signed(sb, c, 'POST', '/api/v1/hf/orders/test', { symbol: 'BTC-USDT' }, { contentType: null });
    assert.equal(none.status, 415);
    const huge = 'x'.repeat(1024 * 1024 + 10);
    const big = await signed(sb, c, 'POST', '/api/v1/hf/orders/test', undefined, { rawBody: `{"remark":"${huge}"}` });
    assert.equal(big.status, 413);
    assert.equal(big.json.code, '400100');
    assert.match(String(big.json.msg), /1 MB/);
    const mal = await signed(sb, c, 'POST', '/api/v1/hf/orders/test', undefined, { rawBody: '{"symbol": "BTC-USDT",' });
    assert.equal(mal.status, 400);
    assert.equal(mal.json.code, '400100');
    assert.match(String(mal.json.msg), /malformed JSON/);
    const arr = await signed(sb, c, 'POST', '/api/v1/hf/orders/test', undefined, { rawBody: '[1,2]' });
    assert.equal(arr.json.code, '400100');
    const lossy = await signed(sb, c, 'POST', '/api/v1/withdrawals', undefined, { rawBody: '{"currency":"USDT","address":"x","amount":20.00000000000000001}' });
    assert.equal(lossy.json.code, '400100');
    assert.match(String(lossy.json.msg), /amount: .*decimal string/);
    // still alive
    assert.equal((await rawRequest(sb.baseUrl, 'GET', '/api/v1/status')).json.code, '200000');
  });

  it('a chunked body over 1 MB is cut off without buffering it, the rest read and dropped, the 413 answer reaches the client and the server stays up', async () => {
    const http = await import('node:http');
    const u = new URL(sb.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: u.port, method: 'POST', path: '/api/v1/hf/orders', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 40) {
          sent++;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
    assert.equal(status, 413);
    assert.equal((await rawRequest(sb.baseUrl, 'GET', '/api/v1/status')).json.code, '200000');
  });

  it('every response carries gw-ratelimit-* headers with the pool quota (public 2000, spot 4000, management 2000)', async () => {
    const pub = await rawRequest(sb.baseUrl, 'GET', '/api/v1/markets');
    hasRateHeaders(pub.headers);
    assert.equal(pub.headers['gw-ratelimit-limit'], '2000');
    const c = await createUser(sb);
    const spot = await signed(sb, c, 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT');
    assert.equal(spot.headers['gw-ratelimit-limit'], '4000');
    assert.equal(spot.headers['gw-ratelimit-remaining'], '3998');
    assert.equal(spot.headers['gw-ratelimit-reset'], '30000');
    const mgmt = await signed(sb, c, 'GET', '/api/v1/accounts');
    assert.equal(mgmt.headers['gw-ratelimit-limit'], '2000');
    assert.equal(mgmt.headers['gw-ratelimit-remaining'], '1995');
    const err = await signed(sb, c, 'GET', '/api/v1/accounts?type=bad');
    hasRateHeaders(err.headers);
  });

  it('an unexpected handler exception becomes HTTP 500 {code, msg} and is logged; the server keeps serving', async () => {
    const logs: string[] = [];
    const sb2 = await startTestSandbox({ log: (l) => logs.push(l) });
    const orig = HANDLERS.markets;
    HANDLERS.markets = () => {
      throw new TypeError('boom');
    };
    try {
      const r = await rawRequest(sb2.baseUrl, 'GET', '/api/v1/markets');
      assert.equal(r.status, 500);
      assert.equal(r.json.code, '500000');
      hasRateHeaders(r.headers);
      assert.ok(logs.some((l) => l.includes('boom')));
    } finally {
      HANDLERS.markets = orig;
    }
    assert.equal((await rawRequest(sb2.baseUrl, 'GET', '/api/v1/markets')).json.code, '200000');
    await sb2.close();
  });
});

describe('sandbox server: rate limit enforcement', () => {
  let sb: RunningSandbox;
  before(async () => {
    sb = await startTestSandbox({ rateLimits: { public: { limit: 10, windowMs: 30_000 }, spot: { limit: 5, windowMs: 30_000 } } });
  });
  after(async () => sb.close());

  it('public pool per IP: over quota → HTTP 429 {429000}; resets after the window', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await rawRequest(sb.baseUrl, 'GET', '/api/v1/status'); // weight 3
      seen.push(`${r.status}:${r.headers['gw-ratelimit-remaining']}`);
    }
    assert.deepEqual(seen, ['200:7', '200:4', '200:1', '429:1']);
    const r = await rawRequest(sb.baseUrl, 'GET', '/api/v1/status');
    assert.equal(r.status, 429);
    assert.deepEqual(r.json, { code: '429000', msg: 'Too Many Requests' });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 30_000 });
    const again = await rawRequest(sb.baseUrl, 'GET', '/api/v1/status');
    assert.equal(again.status, 200);
    assert.equal(again.headers['gw-ratelimit-remaining'], '7');
  });

  it('spot pool is per user: one user exhausted, another unaffected', async () => {
    const a = await createUser(sb);
    const b = await createUser(sb);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push(String((await signed(sb, a, 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT')).json.code));
    assert.deepEqual(codes, ['200000', '200000', '429000', '429000']);
    const rb = await signed(sb, b, 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT');
    assert.equal(rb.json.code, '200000');
    assert.equal(rb.headers['gw-ratelimit-remaining'], '3');
  });
});
