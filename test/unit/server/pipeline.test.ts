/**
 * Request-pipeline details of src/exchange/server/http.ts that its fast paths must keep: the
 * lossless-number check of parseBody (skipped only when the body holds no number), the literal
 * route cache (trailing slash, wrong method), and the order-test answers on and off the fast
 * validator; bounded bodies: nesting depth, and a body over the cap answered
 * with the 413 envelope even to a client that writes it all at once.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { MAX_BODY_BYTES, parseBody } from '../../../src/exchange/server/http';
import { MAX_JSON_DEPTH } from '../../../src/api/json';
import { SandboxError } from '../../../src/exchange/server/state';
import { credsOf, rawRequest, signed, startTestSandbox } from './helpers';

/** The 400100 message parseBody throws for `text`. */
function rejected(text: string): string {
  try {
    parseBody(text);
  } catch (e) {
    assert.ok(e instanceof SandboxError, String(e));
    assert.equal(e.code, '400100');
    assert.equal(e.httpStatus, 400);
    return e.msg;
  }
  assert.fail(`expected ${text} to be rejected`);
}

/** `depth` nested objects {"a":{"a":…inner…}}. */
function nested(depth: number, inner: string): string {
  return '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
}

describe('sandbox pipeline: parseBody', () => {
  it('rejects numbers that JSON.parse would round, naming the field', () => {
    assert.equal(rejected('{"tradeId":11029373945659393}'), 'tradeId: the number 11029373945659393 cannot be represented exactly; send it as a decimal string');
    assert.equal(rejected('{"a":{"b":[1,2e400]}}'), 'a.b[1]: the number 2e400 cannot be represented exactly; send it as a decimal string');
    assert.equal(rejected('{"cancelAfter":5,"remark":"ok","x":0.30000000000000004444}'), 'x: the number 0.30000000000000004444 cannot be represented exactly; send it as a decimal string');
  });
  it('accepts long digit runs inside strings, with or without other numbers in the body', () => {
    assert.deepEqual(parseBody('{"remark":"x:12345678901234567890"}'), { remark: 'x:12345678901234567890' });
    assert.deepEqual(parseBody('{"cancelAfter":5,"remark":":12345678901234567890"}'), { cancelAfter: 5, remark: ':12345678901234567890' });
    assert.deepEqual(parseBody('{"n":9007199254740991,"f":0.5}'), { n: 9007199254740991, f: 0.5 });
  });
  it('deeply nested bodies keep the exact check (40 levels)', () => {
    assert.equal(rejected(nested(40, '12345678901234567891')), `${Array(40).fill('a').join('.')}: the number 12345678901234567891 cannot be represented exactly; send it as a decimal string`);
    assert.deepEqual(JSON.stringify(parseBody(nested(40, '"12345678901234567891"'))), nested(40, '"12345678901234567891"'));
  });
  it('bodies nested deeper than 64 levels are refused before parsing (400100); brackets inside strings do not count', () => {
    assert.equal(MAX_JSON_DEPTH, 64);
    const deep = `{"a":${'['.repeat(5000)}1e5${']'.repeat(5000)}}`;
    assert.equal(rejected(deep), 'request body: JSON nested deeper than 64 levels');
    assert.equal(rejected(`${'['.repeat(5000)}`), 'request body: JSON nested deeper than 64 levels');
    assert.equal(rejected(nested(64, '{}')), 'request body: JSON nested deeper than 64 levels');
    assert.deepEqual(JSON.stringify(parseBody(nested(63, '{}'))), nested(63, '{}'));
    const brackets = `{"remark":"${'[{'.repeat(3000)}\\"${'['.repeat(100)}"}`;
    assert.deepEqual(parseBody(brackets), JSON.parse(brackets));
  });
  it('empty, malformed and non-object bodies', () => {
    assert.equal(rejected('  '), 'request body: must be a JSON object, got an empty body');
    assert.equal(rejected('[1]'), 'request body: must be a JSON object');
    assert.equal(rejected('null'), 'request body: must be a JSON object');
    assert.match(rejected('{"a":'), /^request body: malformed JSON \(/);
  });
});

describe('sandbox pipeline: routing cache and order test over HTTP', () => {
  let sb: RunningSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });
  const order = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000', size: '0.01' };

  it('the order test answers the same on repeated calls, with and without a trailing slash', async () => {
    for (const path of ['/api/v1/hf/orders/test', '/api/v1/hf/orders/test', '/api/v1/hf/orders/test/', '/api/v1/hf/orders/test/']) {
      const r = await signed(sb, credsOf(sb), 'POST', path, { ...order, clientOid: 'pipe-1', unknownField: 1 });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.code, '200000');
      const d = r.json.data as { orderId: string; clientOid: string };
      assert.match(d.orderId, /^[0-9a-f]{24}$/);
      assert.equal(d.clientOid, 'pipe-1');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['content-length'], String(Buffer.byteLength(r.text)));
      assert.equal(r.headers['gw-ratelimit-limit'], '4000');
    }
  });
  it('bodies the fast validator leaves to zod get the schema error; cancelAfter -1 is accepted', async () => {
    const zero = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders/test', { ...order, price: '0.00' });
    assert.equal(zero.status, 400);
    assert.deepEqual(zero.json, { code: '400100', msg: 'price: must be greater than 0' });
    const both = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders/test', { ...order, type: 'market', funds: '10' });
    assert.deepEqual(both.json, { code: '400100', msg: 'funds: a market order takes exactly one of size or funds, not both' });
    const sdk = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders/test', { ...order, cancelAfter: -1 });
    assert.equal(sdk.json.code, '200000', sdk.text);
    // a remark of 15 emoji is 30 UTF-16 units but 15 code points: valid, decided by zod
    const emoji = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders/test', { ...order, remark: '😀'.repeat(15) });
    assert.equal(emoji.json.code, '200000', emoji.text);
  });
  it('wrong method and unknown path: 404000 with the public pool headers', async () => {
    const get = await rawRequest(sb.baseUrl, 'PUT', '/api/v1/hf/orders/test');
    assert.equal(get.status, 404);
    assert.deepEqual(get.json, { code: '404000', msg: 'PUT is not supported on /api/v1/hf/orders/test' });
    assert.equal(get.headers['gw-ratelimit-limit'], '2000');
    const none = await rawRequest(sb.baseUrl, 'POST', '/api/v9/nothing', { 'Content-Type': 'application/json' }, '{}');
    assert.deepEqual(none.json, { code: '404000', msg: '/api/v9/nothing not found' });
  });
});

describe('sandbox pipeline: bounded bodies over HTTP (REST and admin)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let logs: string[];
  before(async () => {
    logs = [];
    sb = await startTestSandbox({ log: (l) => logs.push(l) });
  });
  after(async () => {
    await sb.close();
  });

  /** 10 KB: `{"a": [[[…1e5…]]]}`, 5,000 levels (the number sends it through lossless-json, which recursed). */
  const deep = `{"a":${'['.repeat(5000)}1e5${']'.repeat(5000)}}`;

  it('5,000 nested arrays: HTTP 400, 400100 naming the depth, on the REST API and the admin API; nothing logged as an internal error', async () => {
    const rest = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders', undefined, { rawBody: deep });
    assert.equal(rest.status, 400, rest.text);
    assert.deepEqual(rest.json, { code: '400100', msg: 'request body: JSON nested deeper than 64 levels' });
    const adm = await rawRequest(sb.baseUrl, 'POST', '/sandbox/v1/users', { Authorization: `Bearer ${sb.adminToken}`, 'Content-Type': 'application/json' }, deep);
    assert.equal(adm.status, 400, adm.text);
    assert.deepEqual(adm.json, { code: '400100', msg: 'request body: JSON nested deeper than 64 levels' });
    assert.equal(sb.state.users.size, 2, 'no user created (the default user and the seeded liquidity)');
    assert.deepEqual(logs.filter((l) => /internal error/.test(l)), []);
  });

  /**
   * POST `bytes` bytes with node:http's own client in one `req.end(body)`, from a child process (in the
   * test's own process the client's writes interleave with the server's reads and the loss does not show):
   * the answer, or the client's socket error code.
   */
  function postAllAtOnce(path: string, headers: Record<string, string>, bytes: number): Promise<{ status?: number; text?: string; error?: string }> {
    const client = `
      const http = require('node:http');
      const [url, path, headers, size] = process.argv.slice(1);
      const u = new URL(url);
      const req = http.request({ host: u.hostname, port: u.port, method: 'POST', path, headers: { 'Content-Type': 'application/json', ...JSON.parse(headers) } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') })));
        res.on('error', (e) => console.log(JSON.stringify({ error: e.code ?? e.message })));
      });
      req.on('error', (e) => console.log(JSON.stringify({ error: e.code ?? e.message })));
      req.end(Buffer.alloc(Number(size), 0x20));
    `;
    return new Promise((resolve, reject) => {
      execFile(process.execPath, ['-e', client, sb.baseUrl, path, JSON.stringify(headers), String(bytes)], { timeout: 20_000 }, (err, stdout) => {
        if (err) reject(err);
        else resolve(JSON.parse(stdout) as { status?: number; text?: string; error?: string });
      });
    });
  }

  it("a 2 MB (and a 6 MB) body written at once by node:http's own client gets the 413 envelope (REST and admin), not EPIPE/ECONNRESET", async () => {
    const want = { status: 413, text: JSON.stringify({ code: '400100', msg: `request body exceeds ${MAX_BODY_BYTES} bytes (1 MB)` }) };
    for (let round = 0; round < 3; round++) {
      for (const bytes of [2 * 1024 * 1024, 6 * 1024 * 1024]) assert.deepEqual(await postAllAtOnce('/api/v1/hf/orders', {}, bytes), want, `REST, ${bytes} bytes, round ${round}`);
      for (const bytes of [2 * 1024 * 1024, 6 * 1024 * 1024]) {
        assert.deepEqual(await postAllAtOnce('/sandbox/v1/users', { Authorization: `Bearer ${sb.adminToken}` }, bytes), want, `admin, ${bytes} bytes, round ${round}`);
      }
    }
    assert.equal((await rawRequest(sb.baseUrl, 'GET', '/api/v1/status')).json.code, '200000');
  });
});
