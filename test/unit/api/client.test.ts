/**
 * SpotClient transport behaviour against a real local node:http server on 127.0.0.1:0.
 * Time-dependent behaviour (queuing, backoff, rate-limit resets) runs on a virtual clock: the
 * injected `sleep` advances the injected `now`, and tests assert the recorded waits and request
 * counts, never wall-clock thresholds.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import { SpotClient, type RequestLogEntry, type SpotClientOptions } from '../../../src/api/client';
import { ApiError, TransportError, ValidationError } from '../../../src/api/errors';
import { computeSign, signPassphrase, type Credentials } from '../../../src/api/signing';

interface Seen {
  method: string;
  url: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: Seen, res: http.ServerResponse, n: number) => void;

const CREDS: Credentials = { apiKey: '5c2db93503aa674c74a31734', apiSecret: 'test-secret-value', apiPassphrase: 'test-passphrase-value', keyVersion: '2' };

/** A scripted local server: `handler` answers request number n (0-based); every request is recorded. */
async function startServer(handler: Handler) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const s: Seen = { method: req.method!, url: req.url!, path: req.url!.split('?')[0], headers: req.headers, body };
      seen.push(s);
      handler(s, res, seen.length - 1);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Virtual clock: sleep(ms) advances now by ms and records it. */
function virtualClock(start = 1_700_000_000_000) {
  const clock = { t: start, sleeps: [] as number[] };
  return {
    clock,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
}

/** Server-side check of a signed request (what the sandbox does). */
function verify(s: Seen, creds: Credentials): boolean {
  const ts = String(s.headers['kc-api-timestamp']);
  const q = s.url.includes('?') ? '?' + decodeURIComponent(s.url.split('?')[1]) : '';
  const prehash = ts + s.method + s.path + q + s.body;
  return s.headers['kc-api-sign'] === computeSign(creds.apiSecret, prehash) && s.headers['kc-api-passphrase'] === signPassphrase(creds.apiSecret, creds.apiPassphrase, creds.keyVersion) && s.headers['kc-api-key'] === creds.apiKey;
}

const BOOK = { sequence: '14610502970', time: 1729176273859, bids: [['66976.4', '0.69109872']], asks: [['66976.5', '0.05408199']] };
const ACCOUNTS = [
  { id: 'a1', currency: 'USDT', type: 'trade', balance: '26.66759503', available: '26.66759503', holds: '0' },
  { id: 'a2', currency: 'USDT', type: 'main', balance: '0.01', available: '0.01', holds: '0' },
];
const ORDER = { clientOid: 'c1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.00001' } as const;

describe('SpotClient over HTTP', function () {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  async function setup(handler: Handler, opts: Partial<SpotClientOptions> = {}) {
    const srv = await startServer(handler);
    const vc = virtualClock();
    const log: RequestLogEntry[] = [];
    const client = new SpotClient({ baseUrl: srv.baseUrl, credentials: CREDS, now: vc.now, sleep: vc.sleep, onRequest: (e) => log.push(e), ...opts });
    cleanups.push(srv.close, () => client.close());
    return { srv, client, clock: vc.clock, log };
  }

  it('standard envelope, signed request verified by the server, log without secrets', async () => {
    const { srv, client, log } = await setup((s, res) => json(res, 200, { code: '200000', data: ACCOUNTS }));
    const out = await client.getAccounts({ type: 'trade' });
    assert.deepEqual(out.map((a) => a.id), ['a1', 'a2']);
    assert.equal(srv.seen[0].url, '/api/v1/accounts?type=trade');
    assert.equal(srv.seen[0].headers['kc-api-key-version'], '2');
    assert.equal(srv.seen[0].headers['kc-api-timestamp'], '1700000000000');
    assert.equal(verify(srv.seen[0], CREDS), true);
    assert.equal(log.length, 1);
    assert.deepEqual({ ...log[0], latencyMs: 0 }, { method: 'GET', path: '/api/v1/accounts', endpoint: 'accounts', code: '200000', httpStatus: 200, latencyMs: 0, weight: 5, pool: 'management', attempt: 0 });
    const dump = JSON.stringify(log) + inspect(client, { depth: 6 }) + JSON.stringify(client.prepare('accounts', {}));
    for (const secret of [CREDS.apiSecret, CREDS.apiPassphrase, CREDS.apiKey, String(srv.seen[0].headers['kc-api-sign'])]) assert.ok(!dump.includes(secret), 'secret leaked');
  });

  it('accepts GET /api/v1/accounts as a bare array and level-2 at top level', async () => {
    const { client } = await setup((s, res) => json(res, 200, s.path === '/api/v1/accounts' ? ACCOUNTS : BOOK));
    const acc = await client.getAccounts();
    assert.deepEqual(acc.map((a) => [a.type, a.balance]), [['trade', '26.66759503'], ['main', '0.01']]);
    const book = await client.getLevel2('BTC-USDT', 100);
    assert.deepEqual(book, BOOK);
  });

  it('a bare payload is NOT accepted for a standard-envelope endpoint', async () => {
    const { client } = await setup((s, res) => json(res, 200, { status: 'open', msg: '' }));
    await assert.rejects(client.getStatus(), (e: unknown) => e instanceof TransportError && e.kind === 'non-json');
  });

  it('any non-200000 code is an ApiError, even with HTTP 200', async () => {
    const { client } = await setup((s, res) => json(res, 200, { code: '900001', msg: 'symbol not exists' }));
    await assert.rejects(client.getLevel2('NOPE-USDT'), (e: unknown) => e instanceof ApiError && e.isSymbolNotFound && e.httpStatus === 200 && e.path === '/api/v1/market/orderbook/level2_20');
  });

  it('a signed request that waited for the budget is signed again before it leaves (its timestamp is the send time, not the queue time)', async () => {
    const { srv, client, clock } = await setup((s, res, n) => {
      if (n === 0) json(res, 200, { code: '200000', data: ACCOUNTS }, { 'gw-ratelimit-limit': '2000', 'gw-ratelimit-remaining': '0', 'gw-ratelimit-reset': '30000' });
      else json(res, 200, { code: '200000', data: ACCOUNTS });
    });
    await client.getAccounts({});
    const queuedAt = clock.t;
    await client.getAccounts({ type: 'trade' });
    assert.deepEqual(clock.sleeps, [30_000], 'the second request waited for the reset');
    const sent = srv.seen[1];
    assert.equal(sent.headers['kc-api-timestamp'], String(queuedAt + 30_000), 'signed when sent: within the exchange\'s 5 s window');
    assert.equal(verify(sent, CREDS), true, 'the new signature matches');
  });

  it('rate-limit headers update the budget; requests queue instead of being sent when it is exhausted', async () => {
    // a sleep that only ends when the test releases it: while it is pending, nothing queued may be sent
    const t = { now: 1_700_000_000_000 };
    const sleeps: number[] = [];
    let release: (() => void) | undefined;
    const sleep = (ms: number) =>
      new Promise<void>((r) => {
        sleeps.push(ms);
        release = () => {
          t.now += ms;
          r();
        };
      });
    const { srv, client } = await setup(
      (s, res, n) => {
        if (n === 0) json(res, 200, { code: '200000', data: BOOK }, { 'gw-ratelimit-limit': '10', 'gw-ratelimit-remaining': '2', 'gw-ratelimit-reset': '1500' });
        else json(res, 200, { code: '200000', data: BOOK });
      },
      { now: () => t.now, sleep },
    );
    await client.getLevel2('BTC-USDT');
    assert.deepEqual(client.budget().public, { limit: 10, remaining: 2, resetAt: t.now + 1500 });
    // three level2_20 (weight 2): the first fits the remaining 2, the other two must wait for the reset
    const p = Promise.all(['A-USDT', 'B-USDT', 'C-USDT'].map((s) => client.getLevel2(s)));
    while (srv.seen.length < 2) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50)); // give a misbehaving client every chance to send more
    assert.equal(srv.seen.length, 2, 'B and C were queued, not sent');
    assert.deepEqual(sleeps, [1500]);
    assert.equal(client.budget().public.remaining, 0);
    release!();
    await p;
    assert.equal(srv.seen.length, 4);
    assert.deepEqual(srv.seen.slice(1).map((s) => s.url.split('=')[1]), ['A-USDT', 'B-USDT', 'C-USDT']);
    // after the reset the window is refilled to the server's limit: 10 - 2 - 2
    assert.equal(client.budget().public.remaining, 6);
    assert.deepEqual(sleeps, [1500]);
  });

  it('429000 then success: waits out the reset and re-sends', async () => {
    const { srv, client, clock, log } = await setup((s, res, n) => {
      if (n === 0) json(res, 429, { code: '429000', msg: 'Too Many Requests' }, { 'gw-ratelimit-limit': '4000', 'gw-ratelimit-remaining': '0', 'gw-ratelimit-reset': '700' });
      else json(res, 200, { code: '200000', data: [] });
    });
    const out = await client.getActiveOrders('BTC-USDT');
    assert.deepEqual(out, []);
    assert.equal(srv.seen.length, 2);
    assert.deepEqual(clock.sleeps, [700]);
    assert.deepEqual(log.map((l) => [l.code, l.httpStatus, l.attempt]), [['429000', 429, 0], ['200000', 200, 1]]);
  });

  it('400002 then resync from /api/v1/timestamp, re-signed and successful', async () => {
    const skew = 7_000;
    const { srv, client, clock } = await setup((s, res) => {
      if (s.path === '/api/v1/timestamp') return json(res, 200, { code: '200000', data: clock.t + skew });
      const ts = Number(s.headers['kc-api-timestamp']);
      if (Math.abs(ts - (clock.t + skew)) > 5000) return json(res, 400, { code: '400002', msg: 'Invalid KC-API-TIMESTAMP' });
      json(res, 200, { code: '200000', data: ACCOUNTS });
    });
    const out = await client.getAccounts();
    assert.equal(out.length, 2);
    assert.deepEqual(srv.seen.map((s) => s.path), ['/api/v1/accounts', '/api/v1/timestamp', '/api/v1/accounts']);
    assert.equal(client.clockOffsetMs, skew);
    assert.equal(srv.seen[2].headers['kc-api-timestamp'], String(clock.t + skew));
    assert.equal(verify(srv.seen[2], CREDS), true);
  });

  it('400002 on a GET is retried once only', async () => {
    const { srv, client } = await setup((s, res) => {
      if (s.path === '/api/v1/timestamp') return json(res, 200, { code: '200000', data: 1 });
      json(res, 400, { code: '400002', msg: 'Invalid KC-API-TIMESTAMP' });
    });
    await assert.rejects(client.getActiveOrders('BTC-USDT'), (e: unknown) => e instanceof ApiError && e.isTimestampError && e.httpStatus === 400);
    assert.deepEqual(srv.seen.map((s) => s.method + s.path), ['GET/api/v1/hf/orders/active', 'GET/api/v1/timestamp', 'GET/api/v1/hf/orders/active']);
  });

  it('400002 on a POST resyncs the clock but never re-sends the order', async () => {
    const { srv, client } = await setup((s, res) => {
      if (s.path === '/api/v1/timestamp') return json(res, 200, { code: '200000', data: 1 });
      json(res, 400, { code: '400002', msg: 'Invalid KC-API-TIMESTAMP' });
    });
    await assert.rejects(client.placeOrder(ORDER), (e: unknown) => e instanceof ApiError && e.isTimestampError && e.httpStatus === 400);
    assert.deepEqual(srv.seen.map((s) => s.method + s.path), ['POST/api/v1/hf/orders', 'GET/api/v1/timestamp']);
  });

  it('429000 on a POST is not re-sent; the pool is exhausted until the reset', async () => {
    const { srv, client } = await setup((_s, res) => {
      json(res, 429, { code: '429000', msg: 'Too Many Requests' }, { 'gw-ratelimit-limit': '4000', 'gw-ratelimit-remaining': '0', 'gw-ratelimit-reset': '700' });
    });
    await assert.rejects(client.placeOrder(ORDER), (e: unknown) => e instanceof ApiError && e.isRateLimit);
    assert.equal(srv.seen.length, 1);
    assert.equal(client.budget().spot.remaining, 0);
  });

  it('GET timeout → TransportError timeout (after the configured retries)', async () => {
    const { srv, client, clock } = await setup(() => undefined /* never answers */, { timeoutMs: 150, maxRetries: 1 });
    await assert.rejects(client.getStatus(), (e: unknown) => e instanceof TransportError && e.kind === 'timeout' && /no answer within 150 ms/.test(e.message));
    assert.equal(srv.seen.length, 2);
    assert.deepEqual(clock.sleeps, [250]);
  });

  it('POST timeout → ambiguous, not retried', async () => {
    const { srv, client } = await setup(() => undefined, { timeoutMs: 150 });
    await assert.rejects(client.placeOrder(ORDER), (e: unknown) => e instanceof TransportError && e.kind === 'ambiguous' && /may have been executed/.test(e.message));
    assert.equal(srv.seen.length, 1);
  });

  it('HTML 502 body → non-json error with a clear message', async () => {
    const { client } = await setup((s, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    }, { maxRetries: 0 });
    await assert.rejects(client.getMarkets(), (e: unknown) => {
      assert.ok(e instanceof TransportError);
      assert.equal(e.kind, 'non-json');
      assert.equal(e.httpStatus, 502);
      assert.match(e.message, /^GET \/api\/v1\/markets: the server answered HTTP 502 with an HTML page, not the API's JSON/);
      return true;
    });
  });

  it('POST answered by a gateway with an HTML 502 → ambiguous (it may have reached the API), not retried', async () => {
    const { srv, client } = await setup((s, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway</body></html>');
    });
    await assert.rejects(client.placeOrder(ORDER), (e: unknown) => {
      assert.ok(e instanceof TransportError);
      assert.equal(e.kind, 'ambiguous');
      assert.equal(
        e.message,
        "POST /api/v1/hf/orders: the server answered HTTP 502 with an HTML page, not the API's JSON (a gateway error); the request may have been executed by the server. It was NOT retried: check your orders/withdrawals before sending it again",
      );
      return true;
    });
    assert.equal(srv.seen.length, 1);
  });

  it('ApiError message names method, path, code, msg and HTTP status', () => {
    const e = new ApiError({ code: '400100', msg: 'price: is required for a limit order', httpStatus: 400, method: 'POST', path: '/api/v1/hf/orders' });
    assert.equal(e.message, 'POST /api/v1/hf/orders failed: 400100 price: is required for a limit order (HTTP 400)');
    assert.equal(new ApiError({ code: '500000', httpStatus: 500, method: 'GET', path: '/p' }).message, 'GET /p failed: 500000 (HTTP 500)');
  });

  it('POST on a network failure (connection dropped) is not retried: ambiguous; server counts 1', async () => {
    const { srv, client } = await setup((s, res) => res.socket?.destroy());
    await assert.rejects(client.withdrawV1({ currency: 'USDT', address: 'T1', amount: 3 }), (e: unknown) => e instanceof TransportError && e.kind === 'ambiguous');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(srv.seen.length, 1);
    assert.equal(srv.seen[0].body, '{"currency":"USDT","amount":"3","address":"T1"}');
  });

  it('POST to a closed port: network error (provably not sent), not retried', async () => {
    const srv = await startServer(() => undefined);
    const base = srv.baseUrl;
    await srv.close();
    const client = new SpotClient({ baseUrl: base, credentials: CREDS });
    cleanups.push(() => client.close());
    await assert.rejects(client.placeOrder(ORDER), (e: unknown) => e instanceof TransportError && e.kind === 'network');
  });

  it('GET retried on 503 with backoff, then success', async () => {
    const { srv, client, clock, log } = await setup((s, res, n) => {
      if (n < 2) json(res, 503, 'Service Unavailable');
      else json(res, 200, { code: '200000', data: ['USDS', 'BTC'] });
    });
    assert.deepEqual(await client.getMarkets(), ['USDS', 'BTC']);
    assert.equal(srv.seen.length, 3);
    assert.deepEqual(clock.sleeps, [250, 500]);
    assert.deepEqual(log.map((l) => l.httpStatus), [503, 503, 200]);
  });

  it('POST answered 503 is not retried', async () => {
    const { srv, client } = await setup((s, res) => json(res, 503, { code: '503000', msg: 'busy' }));
    await assert.rejects(client.placeOrder(ORDER), (e: unknown) => e instanceof ApiError && e.code === '503000' && e.httpStatus === 503);
    assert.equal(srv.seen.length, 1);
  });

  it('invalid params are rejected before sending; invalid payloads after', async () => {
    const { srv, client } = await setup((s, res) => json(res, 200, { code: '200000', data: { status: 'weird', msg: '' } }));
    await assert.rejects(client.placeOrder({ ...ORDER, price: undefined }), (e: unknown) => e instanceof ValidationError && e.side === 'request' && e.detail === 'price: is required for a limit order');
    assert.equal(srv.seen.length, 0);
    await assert.rejects(client.getStatus(), (e: unknown) => e instanceof ValidationError && e.side === 'response' && /^status: Invalid option/.test(e.detail));
  });

  it('private endpoint without credentials: clear error, nothing sent', async () => {
    const { srv, client } = await setup(() => undefined, { credentials: undefined });
    await assert.rejects(client.getAccounts(), /needs an API key with the General permission/);
    assert.equal(srv.seen.length, 0);
  });

  it('iterateFills follows lastId (exact, above 2^53) page by page', async () => {
    const fill = (id: string) => `{"id":${id},"symbol":"BTC-USDT","tradeId":${id},"orderId":"o","counterOrderId":"c","side":"buy","liquidity":"maker","forceTaker":false,"price":"1","size":"1","funds":"1","fee":"0","feeRate":"0","feeCurrency":"USDT","stop":"","tradeType":"TRADE","type":"limit","createdAt":1}`;
    const { srv, client } = await setup((s, res, n) => {
      const pages = [
        `{"code":"200000","data":{"items":[${fill('11029373945659399')},${fill('11029373945659398')}],"lastId":11029373945659398}}`,
        `{"code":"200000","data":{"items":[${fill('11029373945659397')}],"lastId":11029373945659397}}`,
      ];
      json(res, 200, pages[n]);
    });
    const ids: string[] = [];
    for await (const f of client.iterateFills({ symbol: 'BTC-USDT', limit: 2 })) ids.push(f.tradeId);
    assert.deepEqual(ids, ['11029373945659399', '11029373945659398', '11029373945659397']);
    assert.deepEqual(srv.seen.map((s) => s.url), ['/api/v1/hf/fills?symbol=BTC-USDT&limit=2', '/api/v1/hf/fills?symbol=BTC-USDT&lastId=11029373945659398&limit=2']);
  });

  it('prepare() shows the exact request (redacted) and send() returns API errors without throwing', async () => {
    const { srv, client } = await setup((s, res) => json(res, 401, { code: '400005', msg: 'Invalid KC-API-SIGN' }, { 'gw-ratelimit-remaining': '3998', 'gw-ratelimit-limit': '4000', 'gw-ratelimit-reset': '29000' }));
    client.setClockOffset(-250);
    const p = client.prepare('testOrder', ORDER);
    assert.equal(p.method, 'POST');
    assert.equal(p.url, `${srv.baseUrl}/api/v1/hf/orders/test`);
    assert.equal(p.body, '{"clientOid":"c1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.00001"}');
    assert.equal(p.timestamp, 1_700_000_000_000 - 250);
    assert.equal(p.clockOffsetMs, -250);
    assert.equal(p.prehash, `${p.timestamp}POST/api/v1/hf/orders/test${p.body}`);
    assert.deepEqual(p.headers, {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'KC-API-KEY': '5c2d…1734',
      'KC-API-SIGN': '<redacted>',
      'KC-API-TIMESTAMP': String(p.timestamp),
      'KC-API-PASSPHRASE': '<redacted>',
      'KC-API-KEY-VERSION': '2',
    });
    const r = await client.send(p);
    assert.deepEqual({ ...r, latencyMs: 0 }, {
      status: 401,
      code: '400005',
      bodyText: '{"code":"400005","msg":"Invalid KC-API-SIGN"}',
      contentType: 'application/json',
      latencyMs: 0,
      rateLimit: { limit: 4000, remaining: 3998, reset: 29000 },
    });
    assert.equal(verify(srv.seen[0], CREDS), true, 'send() used the real, unredacted headers');
    await assert.rejects(client.send({ ...p }), /not prepared by this client/);
    // the real values are available only on explicit request (user-confirmed "copy with secrets")
    const real = client.unredactedHeaders(p);
    assert.equal(real?.['KC-API-SIGN'], computeSign(CREDS.apiSecret, p.prehash));
    assert.equal(real?.['KC-API-KEY'], CREDS.apiKey);
    assert.equal(Object.values(real ?? {}).includes(CREDS.apiSecret), false, 'the secret itself is never a header');
    assert.equal(client.unredactedHeaders({ ...p }), undefined);
    // validation can be switched off to send a deliberately invalid request
    const bad = client.prepare('testOrder', { symbol: 'BTC-USDT' } as never, { validate: false });
    assert.equal(bad.body, '{"symbol":"BTC-USDT"}');
  });
});
