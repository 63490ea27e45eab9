/**
 * Request log lines carry the failure: a real SpotClient's onRequest hook against a
 * closed port and a scripted server, formatted by src/host/requestLog.ts — the error class,
 * its message and the attempt, where the log used to say "→ ? 1 ms".
 */
import { strict as assert } from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { SpotClient, type RequestLogEntry } from '../../../src/api/client';
import { redact, requestLogLine } from '../../../src/host/requestLog';

/** The log lines of one failing call of `client`. */
async function linesOf(make: (onRequest: (e: RequestLogEntry) => void) => SpotClient): Promise<Array<{ level: string; line: string }>> {
  const out: Array<{ level: string; line: string }> = [];
  const c = make((e) => out.push(requestLogLine(e)));
  await c.getMarkets().catch(() => undefined);
  c.close();
  return out;
}

describe('request log lines (src/host/requestLog.ts)', () => {
  it('an answered request keeps its compact form', () => {
    assert.deepEqual(requestLogLine({ method: 'GET', path: '/api/v1/accounts', code: '200000', httpStatus: 200, latencyMs: 12.4, weight: 5, pool: 'management', attempt: 0 }), {
      level: 'info',
      line: 'GET /api/v1/accounts  → 200000  HTTP 200  12 ms  weight 5 (management)',
    });
  });

  it('a refused connection: the error class, why, and each retry as its attempt', async () => {
    const lines = await linesOf((onRequest) => new SpotClient({ baseUrl: 'http://127.0.0.1:9', onRequest, maxRetries: 1, retryBaseMs: 1 }));
    assert.equal(lines.length, 2);
    for (const [i, l] of lines.entries()) {
      assert.equal(l.level, 'warn');
      assert.match(l.line, /^GET \/api\/v1\/markets {2}→ TransportError \(network\): GET \/api\/v1\/markets: network error: .*ECONNREFUSED.* {2}\d+ ms/);
      assert.equal(l.line.includes('attempt 2'), i === 1);
    }
  });

  it("the exchange's error: its code and message", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"code":"400005","msg":"Invalid KC-API-SIGN"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [l] = await linesOf((onRequest) => new SpotClient({ baseUrl: base, onRequest, maxRetries: 0 }));
      assert.equal(l.level, 'warn');
      assert.match(l.line, /^GET \/api\/v1\/markets {2}→ 400005 ApiError: Invalid KC-API-SIGN {2}HTTP 401 {2}\d+ ms {2}weight \d+ \(public\)$/);
    } finally {
      server.close();
    }
  });

  it('blanks anything shaped like a KC-API-* header value', () => {
    assert.equal(redact('x KC-API-SIGN: abc "KC-API-KEY":"k" y'), 'x KC-API-SIGN: *** "KC-API-KEY":"***" y');
  });
});
