/**
 * Every view says the failure it actually has: src/api/failure.ts describes the
 * client's real errors — a refused connection, a timeout, a non-JSON HTTP answer, an exchange
 * error code — produced here by a real SpotClient against a closed port and a scripted server.
 */
import { strict as assert } from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { SpotClient } from '../../../src/api/client';
import { describeFailure, failureText } from '../../../src/api/failure';

/** The error a client call rejects with. */
async function failureOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('the call did not fail');
}

describe('describeFailure (src/api/failure.ts)', function () {
  this.timeout(10_000);
  let server: http.Server;
  let base: string;
  let answer: (res: http.ServerResponse) => void = () => undefined;

  before(async () => {
    server = http.createServer((_req, res) => answer(res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const client = (baseUrl: string) => new SpotClient({ baseUrl, maxRetries: 0, timeoutMs: 300 });

  it('a closed port: unreachable, connection refused, with the request and what to do', async () => {
    const c = client('http://127.0.0.1:9');
    const f = describeFailure(await failureOf(c.getMarkets()));
    c.close();
    assert.deepEqual(f, {
      kind: 'unreachable',
      text: 'Unreachable: connection refused (GET /api/v1/markets)',
      hint: "check the profile's base URL and your connection, then Retry.",
      code: 'ECONNREFUSED',
    });
  });

  it('no answer in time: a timeout', async () => {
    answer = () => undefined; // never answers
    const c = client(base);
    const f = describeFailure(await failureOf(c.getMarkets()));
    c.close();
    assert.equal(f.kind, 'timeout');
    assert.equal(f.text, 'Timeout: no answer within 300 ms (GET /api/v1/markets)');
  });

  it('an HTML error page: the HTTP status, not the API', async () => {
    answer = (res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad Gateway</body></html>');
    };
    const c = client(base);
    const f = describeFailure(await failureOf(c.getMarkets()));
    c.close();
    assert.equal(f.kind, 'http');
    assert.equal(f.httpStatus, 502);
    assert.equal(f.text, "HTTP 502: the answer is not the API's JSON (GET /api/v1/markets)");
  });

  it("the exchange's own error: its code, message and HTTP status, with the fix", async () => {
    answer = (res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"code":"400005","msg":"Invalid KC-API-SIGN"}');
    };
    const c = client(base);
    const err = await failureOf(c.getMarkets());
    c.close();
    assert.deepEqual(describeFailure(err), {
      kind: 'exchange',
      text: 'Exchange error 400005: Invalid KC-API-SIGN (HTTP 401, GET /api/v1/markets)',
      code: '400005',
      hint: 'check the profile\'s API credentials ("SpotDesk: Set API Credentials").',
      httpStatus: 401,
    });
    assert.equal(failureText(err), 'Exchange error 400005: Invalid KC-API-SIGN (HTTP 401, GET /api/v1/markets) — check the profile\'s API credentials ("SpotDesk: Set API Credentials").');
  });

  it('a message meant for the person is kept as it is; anything else is its message', () => {
    const e = Object.assign(new Error('Profile "KuCoin" has no API credentials.'), { name: 'UserFacingError' });
    assert.deepEqual(describeFailure(e), { kind: 'setup', text: 'Profile "KuCoin" has no API credentials.' });
    assert.deepEqual(describeFailure(new Error('boom')), { kind: 'other', text: 'boom' });
    assert.deepEqual(describeFailure('plain'), { kind: 'other', text: 'plain' });
  });
});
