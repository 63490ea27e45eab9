/**
 * Redirects (src/api/transport.ts): a stub exchange answers 307/302/301 pointing at a second stub.
 * A signed request is never forwarded (the second stub receives nothing: no KC-API-* headers, no
 * body) and fails with a TransportError 'redirect' that says where it pointed; a public GET follows
 * a redirect within its own origin only.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpotClient } from '../../../src/api/client';
import { TransportError } from '../../../src/api/errors';
import { describeFailure } from '../../../src/api/failure';

interface Stub {
  url: string;
  seen: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** A local server answering each request with `answer(path)`; records every request it receives. */
async function stub(answer: (path: string) => { status: number; headers?: Record<string, string>; body?: string }): Promise<Stub> {
  const seen: Stub['seen'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const a = answer(req.url!);
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const CREDS = { apiKey: '5c2db93503aa674c74a31734', apiSecret: 'test-secret-value', apiPassphrase: 'test-passphrase-value', keyVersion: '2' as const };
const ok = (data: unknown) => ({ status: 200, body: JSON.stringify({ code: '200000', data }) });

describe('client: redirects', () => {
  let attacker: Stub;
  let exchange: Stub;
  let client: SpotClient;

  beforeEach(async () => {
    attacker = await stub(() => ok({ orderId: 'stolen', clientOid: 'x' }));
    exchange = await stub((p) => (p.startsWith('/moved') ? ok(1_700_000_000_000) : { status: 307, headers: { location: `${attacker.url}${p}` } }));
    client = new SpotClient({ baseUrl: exchange.url, credentials: CREDS, maxRetries: 0 });
  });
  afterEach(async () => {
    client.close();
    await Promise.all([attacker.close(), exchange.close()]);
  });

  it('a signed POST answered 307 to another host is not re-sent: the second host receives nothing', async () => {
    const err = await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1', size: '1', clientOid: 'c1' }).then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TransportError, String(err));
    assert.equal(err.kind, 'redirect');
    assert.equal(err.httpStatus, 307);
    assert.equal(err.location, `${attacker.url}/api/v1/hf/orders`);
    assert.equal(err.message, `POST /api/v1/hf/orders: the exchange answered a redirect (HTTP 307) to ${attacker.url}/api/v1/hf/orders; SpotDesk does not forward signed requests. Check the profile's base URL`);
    assert.equal(exchange.seen.length, 1, 'sent once, to the exchange');
    assert.deepEqual(attacker.seen, [], 'the redirect target received nothing');
    assert.equal(describeFailure(err).kind, 'http');
  });

  it('a signed GET is not forwarded either, even within the same origin', async () => {
    await exchange.close();
    exchange = await stub((p) => (p.startsWith('/moved') ? ok([]) : { status: 302, headers: { location: `/moved${p}` } }));
    client.close();
    client = new SpotClient({ baseUrl: exchange.url, credentials: CREDS, maxRetries: 0 });
    await assert.rejects(client.getAccounts({}), (e: unknown) => e instanceof TransportError && e.kind === 'redirect' && e.location === `${exchange.url}/moved/api/v1/accounts`);
    assert.deepEqual(exchange.seen.map((s) => s.path), ['/api/v1/accounts'], 'no second request');
    assert.deepEqual(attacker.seen, []);
  });

  it('a public GET follows a redirect within its own origin', async () => {
    await exchange.close();
    exchange = await stub((p) => (p.startsWith('/moved') ? ok(1_700_000_000_000) : { status: 301, headers: { location: `/moved${p}` } }));
    client.close();
    client = new SpotClient({ baseUrl: exchange.url, maxRetries: 0 });
    assert.equal(await client.getServerTime(), 1_700_000_000_000);
    assert.deepEqual(exchange.seen.map((s) => s.path), ['/api/v1/timestamp', '/moved/api/v1/timestamp']);
    assert.equal(exchange.seen[1].headers['kc-api-key'], undefined);
  });

  it('a public GET redirected to another origin is not followed', async () => {
    const pub = new SpotClient({ baseUrl: exchange.url, maxRetries: 0 });
    try {
      await assert.rejects(pub.getServerTime(), (e: unknown) => e instanceof TransportError && e.kind === 'redirect' && /another origin or a non-GET request/.test(e.message));
      assert.deepEqual(attacker.seen, []);
    } finally {
      pub.close();
    }
  });

  it('a redirect loop within the origin stops after 5 hops', async () => {
    await exchange.close();
    exchange = await stub((p) => ({ status: 302, headers: { location: `${p}x` } }));
    client.close();
    client = new SpotClient({ baseUrl: exchange.url, maxRetries: 0 });
    await assert.rejects(client.getServerTime(), (e: unknown) => e instanceof TransportError && e.kind === 'redirect');
    assert.equal(exchange.seen.length, 6, 'the first request and 5 redirects');
  });
});
