/**
 * Sandbox server fuzz: ≥ 10,000 seeded random malformed requests (bad JSON, wrong types, unknown
 * fields, exponents/NaN/negatives/too many decimals, unknown symbols and currencies, traversal in
 * path params, bad/missing auth, wrong methods and content types), the endpoints beyond the spec
 * (market data, order and funding history, cancels by clientOid and of withdrawals, the
 * universal transfer, paths that name no endpoint) included. Expectations: zero 5xx, the
 * server never crashes, every answer is a `{code, msg}` envelope, ledger invariants hold, and
 * nothing changed (balances, orders, withdrawals, deposit addresses).
 */
import { strict as assert } from 'node:assert';
import { signRequest, type Credentials } from '../../../src/api/signing';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { mulberry32 } from '../../../src/exchange/server/world';
import { credsOf, rawRequest, startTestSandbox } from './helpers';

const N = 10_000;
const CONCURRENCY = 16;

/** Values that break a decimal field for sure. */
const BAD_DECIMALS: unknown[] = ['1e5', '1E-3', 'NaN', 'Infinity', '-1', '-0.5', '0', '', ' 1', '1,5', '0x10', '+1', '1.', '.5', '١٢', null, true, {}, [], Number.MAX_VALUE, -3, '9'.repeat(90), '1.0000000000000000000001'];
const BAD_STRINGS: unknown[] = ['', null, 123, true, {}, [], '../../etc/passwd', '%2e%2e%2f', 'A'.repeat(5000), '\u0000', '💥'];
const NOISE_KEYS = ['__proto__', 'constructor', 'unknownField', 'extra', 'toString', ''];

interface Req {
  /** Which generator case made it (set by `gen`). */
  kind?: number;
  method: string;
  path: string;
  body?: string;
  contentType?: string | null;
  auth: 'good' | 'badSign' | 'none' | 'oldTs' | 'badKey';
}

function gen(rnd: () => number): Req {
  const kindRef = { kind: -1 };
  const r = genKind(rnd, kindRef);
  return { ...r, kind: kindRef.kind };
}

function genKind(rnd: () => number, kindRef: { kind: number }): Req {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
  const auth = pick(['good', 'good', 'good', 'badSign', 'none', 'oldTs', 'badKey'] as const);
  const noise = (o: Record<string, unknown>): Record<string, unknown> => {
    if (rnd() < 0.4) o[pick(NOISE_KEYS)] = pick([...BAD_STRINGS, ...BAD_DECIMALS]);
    return o;
  };
  const breakField = (o: Record<string, unknown>, fields: string[], decimals: string[]): Record<string, unknown> => {
    const f = pick(fields);
    if (rnd() < 0.25) delete o[f];
    else o[f] = decimals.includes(f) ? pick(BAD_DECIMALS) : pick(BAD_STRINGS);
    return noise(o);
  };
  const kind = Math.floor(rnd() * 20);
  kindRef.kind = kind;
  switch (kind) {
    case 0: {
      // order placement / test with a breaking field (valid base would fill against the book)
      const base: Record<string, unknown> = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '66000', size: '0.001', clientOid: 'fz' };
      const r = rnd();
      let body: Record<string, unknown>;
      if (r < 0.15) body = { ...base, symbol: pick(['NOPE-USDT', 'BTC-NOPE', 'btc_usdt', 'BTCUSDT', '../x']) };
      else if (r < 0.3) body = { ...base, price: pick(['66000.05', '66000.123', '0.00000001']) };
      else if (r < 0.4) body = { ...base, size: pick(['0.000000001', '100000000000', '0.000001']) };
      else if (r < 0.5) body = { ...base, type: 'market', size: '0.001', funds: '10' };
      else if (r < 0.55) body = { ...base, timeInForce: 'GTT' };
      else if (r < 0.6) body = { ...base, hidden: true, iceberg: true, visibleSize: '0.0001' };
      else body = breakField({ ...base }, ['symbol', 'side', 'type', 'price', 'size'], ['price', 'size']);
      return { method: 'POST', path: pick(['/api/v1/hf/orders', '/api/v1/hf/orders/test']), body: JSON.stringify(body), auth };
    }
    case 1: {
      const base: Record<string, unknown> = { currency: 'USDT', address: 'TXyz', amount: '20', chain: 'trx' };
      const r = rnd();
      const body =
        r < 0.2
          ? { ...base, amount: pick(['20.0000001', '9', '0.1', '-20', '1e2']) }
          : r < 0.35
            ? { ...base, currency: pick(['NOPE', 'usdt ', 'US DT']) }
            : r < 0.45
              ? { ...base, chain: pick(['algorand', 'bech33', '../trx']) }
              : r < 0.5
                ? { ...base, feeDeductType: pick(['internal', 'BOTH', 1]) }
                : breakField({ ...base }, ['currency', 'address', 'amount'], ['amount']);
      return { method: 'POST', path: '/api/v1/withdrawals', body: JSON.stringify(body), auth };
    }
    case 2: {
      const base: Record<string, unknown> = { currency: 'USDT', toAddress: 'TXyz', amount: '20', chain: 'trx', withdrawType: 'ADDRESS', receiverType: 'individual', firstName: 'A', lastName: 'B' };
      const r = rnd();
      const body =
        r < 0.2
          ? { ...base, receiverType: 'company' }
          : r < 0.3
            ? { ...base, lastName: undefined }
            : r < 0.4
              ? { ...base, withdrawType: pick(['IBAN', 'uid', '']) }
              : r < 0.5
                ? { ...base, chain: 'btcln', currency: 'BTC', amount: '0.001', feeDeductType: 'EXTERNAL' }
                : r < 0.6
                  ? { ...base, identityType: 'ID_CARD', country: 'DE' }
                  : breakField({ ...base }, ['currency', 'toAddress', 'amount', 'withdrawType'], ['amount']);
      // V3 ignores the V4 identity fields: only the common-field mutations go to V3.
      const v3ok = (r >= 0.3 && r < 0.5) || r >= 0.6;
      return { method: 'POST', path: v3ok ? pick(['/api/v4/withdrawals', '/api/v3/withdrawals']) : '/api/v4/withdrawals', body: JSON.stringify(body), auth };
    }
    case 3: {
      const base: Record<string, unknown> = { clientOid: 'fz-t', currency: 'USDT', from: 'main', to: 'trade', amount: '1' };
      const r = rnd();
      const body = r < 0.3 ? { ...base, to: 'main' } : r < 0.5 ? { ...base, amount: pick(['1000000000', '0.0000000000001', '-1']) } : breakField({ ...base }, ['clientOid', 'currency', 'from', 'to', 'amount'], ['amount']);
      return { method: 'POST', path: '/api/v2/accounts/inner-transfer', body: JSON.stringify(body), auth };
    }
    case 4: {
      const body = breakField({ currency: 'USDT', chain: 'trx' }, ['currency', 'chain'], []);
      if (body.currency === 'USDT' && body.chain === undefined) body.currency = 'NOPE';
      if (typeof body.chain === 'string' && body.currency === 'USDT' && body.chain !== '') body.chain = 'nochain';
      return { method: 'POST', path: pick(['/api/v1/deposit-addresses', '/api/v3/deposit-address/create']), body: JSON.stringify(body), auth };
    }
    case 5: {
      // malformed JSON / not an object / lossy numbers / wrong content type
      const body = pick(['{', '{"symbol":', 'null', '[]', '"str"', '123', '{"a":1}}', '\u0000\u0001', '{"amount": 1e999}', '{"price": 0.30000000000000004444}', 'x'.repeat(rnd() * 3000), '{"symbol":"BTC-USDT","side":"buy","type":"limit","price":"1","size":"1",}']);
      return { method: 'POST', path: pick(['/api/v1/hf/orders', '/api/v1/withdrawals', '/api/v2/accounts/inner-transfer', '/api/v1/hf/orders/test']), body, contentType: pick(['application/json', 'text/plain', null, 'application/x-www-form-urlencoded', 'application/jsonx']), auth };
    }
    case 6: {
      const id = pick(['../../etc/passwd', '..%2F..%2Fetc', '%2e%2e', '%00', 'x'.repeat(300), '6a5d0c000000000000000001', 'ffffffffffffffffffffffff', '%E0%A4%A', '%25']);
      const sym = pick(['BTC-USDT', 'NOPE-X', '', '%20', '../']);
      return { method: pick(['GET', 'DELETE']), path: `/api/v1/hf/orders/${id}?symbol=${sym}`, auth };
    }
    case 7: {
      const q = pick(['symbol=', 'symbol=BTC-USDT&limit=0', 'symbol=BTC-USDT&limit=1e2', 'symbol=BTC-USDT&limit=-5', 'symbol=BTC-USDT&lastId=abc', 'symbol=BTC-USDT&startAt=9e99', 'symbol=BTC-USDT&side=hold', 'symbol=BTC-USDT&symbol=ETH-USDT', 'symbol=%ZZ', 'symbol=NOPE-USDT']);
      return { method: 'GET', path: `/api/v1/hf/fills?${q}`, auth };
    }
    case 8: {
      const p = pick(['/api/v1/market/orderbook/level2_20', '/api/v1/market/orderbook/level2_100', '/api/v1/hf/orders/active', '/api/v3/currencies/%2E%2E', '/api/v3/currencies/NOPE', '/api/v1/accounts', '/api/v1/withdrawals/quotas', '/api/v2/symbols', '/api/v1/prices', '/api/v1/base-fee']);
      const q = pick(['', '?symbol=../../x', '?symbol=NOPE-USDT', '?currency=NOPE', '?type=margin', '?market=%00', '?base=XXX', '?currencyType=7', '?chain=none&currency=USDT', '?' + 'a'.repeat(4000)]);
      return { method: 'GET', path: p + q, auth };
    }
    case 9:
      return { method: pick(['PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'POST']), path: pick(['/api/v1/accounts', '/api/v1/status', '/', '/api', '/api/v1/hf/orders/x/y/z', '/api/v1/../../etc/passwd', '/%2e%2e/%2e%2e']), body: '{}', auth };
    case 10:
      return { method: 'DELETE', path: `/api/v1/hf/orders?symbol=${pick(['', 'NOPE-USDT', 'BTC-USDT&symbol=ETH-USDT', '%'])}`, auth };
    case 11:
      return { method: pick(['POST', 'PUT', 'GET']), path: pick(['/sandbox/v1/users', '/sandbox/v1/deposits', '/sandbox/v1/status', '/sandbox/v1/clock', '/sandbox/v1/invariants']), body: '{"uid":"1","currency":"USDT","amount":"1e9"}', auth: 'none' };
    case 12: {
      const body = JSON.stringify({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '66000', size: '0.001', nested: { deep: [1, { a: 'b' }] }, price2: '1' }).replace('"66000"', pick(['66000', '"66000.0000000001"', '[]', '{}', 'null', '"１"']));
      return { method: 'POST', path: '/api/v1/hf/orders', body, auth };
    }
    case 14: {
      // the GET endpoints beyond the spec with broken queries
      const p = pick([
        '/api/v1/market/candles?symbol=BTC-USDT&type=' + pick(['1month', '2min', '', '1MIN', 'x']),
        '/api/v1/market/candles?symbol=BTC-USDT&type=1min&startAt=' + pick(['-1', '1e9', 'x', '9'.repeat(20)]),
        '/api/v1/market/candles?symbol=BTC-USDT&type=1min&startAt=100&endAt=50',
        '/api/v1/market/candles?type=1min&symbol=' + pick(['NOPE-USDT', '', '../x']),
        '/api/v1/market/' + pick(['stats', 'histories', 'orderbook/level1']) + '?symbol=' + pick(['NOPE-USDT', 'BTCUSDT', '', '%00']),
        '/api/v3/market/orderbook/level2?symbol=' + pick(['NOPE-USDT', 'btc', '']),
        '/api/v1/hf/orders/done?symbol=BTC-USDT&' + pick(['limit=0', 'limit=101', 'lastId=-1', 'lastId=abc', 'side=hold', 'type=stop', 'startAt=5&endAt=1']),
        '/api/v1/hf/orders/done?symbol=' + pick(['NOPE-USDT', '']),
        '/api/v1/hf/orders/client-order/' + pick(['a.b', 'x'.repeat(41), '%20', 'nope']) + '?symbol=' + pick(['BTC-USDT', 'NOPE-USDT', '']),
        '/api/v1/trade-fees?symbols=' + pick(['', ',', 'BTC-USDT,,ETH-USDT', 'NOPE-USDT', Array.from({ length: 11 }, () => 'BTC-USDT').join(',')]),
        '/api/v1/deposit-addresses?currency=' + pick(['NOPE', '', 'USDT&chain=algorand']),
        '/api/v1/' + pick(['deposits', 'withdrawals', 'accounts/ledgers']) + '?' + pick(['pageSize=5', 'pageSize=501', 'currentPage=0', 'status=DONE', 'currency=NOPE', 'startAt=9&endAt=1', 'direction=up']),
        '/api/v1/hf/accounts/ledgers?' + pick(['limit=0', 'limit=201', 'bizType=DEPOSIT', 'lastId=x', 'currency=' + Array.from({ length: 11 }, () => 'BTC').join(',')]),
        '/api/v1/accounts/transferable?' + pick(['currency=USDT&type=ISOLATED', 'currency=NOPE&type=MAIN', 'type=MAIN', 'currency=USDT']),
        '/api/v1/accounts?type=' + pick(['trade-hf', 'TRADE_HF', 'futures']),
      ]);
      return { method: 'GET', path: p, auth };
    }
    case 15: {
      // cancels beyond the spec that must find nothing to cancel
      const p = pick([
        '/api/v1/withdrawals/' + pick(['ffffffffffffffffffffffff', 'nope', '..', '%2e%2e', 'x'.repeat(70), 'quotas']),
        '/api/v1/hf/orders/client-order/' + pick(['never-placed', 'a.b', '%00', 'x'.repeat(41)]) + '?symbol=' + pick(['BTC-USDT', 'NOPE-USDT', '']),
      ]);
      return { method: 'DELETE', path: p, auth };
    }
    case 16: {
      const base: Record<string, unknown> = { clientOid: 'fz-u', currency: 'USDT', amount: '1', type: 'INTERNAL', fromAccountType: 'MAIN', toAccountType: 'TRADE' };
      const r = rnd();
      const body =
        r < 0.15
          ? { ...base, type: pick(['PARENT_TO_SUB', 'SUB_TO_PARENT', 'internal', 'X']) }
          : r < 0.3
            ? { ...base, fromAccountType: pick(['MARGIN', 'CONTRACT', 'ISOLATED', '', 'TRADE']) }
            : r < 0.4
              ? { ...base, toAccountType: 'MAIN' }
              : r < 0.5
                ? { ...base, amount: pick(['1000000000', '0.0000000000001', '-1', '0']) }
                : breakField({ ...base }, ['clientOid', 'currency', 'amount', 'type', 'fromAccountType', 'toAccountType'], ['amount']);
      return { method: 'POST', path: '/api/v3/accounts/universal-transfer', body: JSON.stringify(body), auth };
    }
    case 17:
      // paths under known prefixes that name no endpoint
      return { method: pick(['GET', 'DELETE', 'POST']), path: pick(['/api/v1/hf/orders/cancelAll/x', '/api/v1/hf/orders/sync', '/api/v1/hf/orders/multi/x', '/api/v1/hf/orders/alter/x', '/api/v1/hf/orders/done/x', '/api/v1/hf/orders/active/page/x', '/api/v1/hf/orders/client-order', '/api/v1/hf/orders/cancel', '/api/v1/order/client-order']) + '?symbol=BTC-USDT', body: '{}', auth };
    case 18: {
      // the HF order variants and the classic order API with malformed or pointless input: refused, nothing changes
      const none = 'ffffffffffffffffffffffff';
      const item = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '66000', size: '0.001' };
      const r = pick([
        ['POST', '/api/v1/hf/orders/alter', pick([{ symbol: 'BTC-USDT' }, { symbol: 'BTC-USDT', orderId: 'x', newPrice: pick(['-1', '0', 'x', 1]) }, { symbol: 'BTC-USDT', orderId: none, newSize: '1' }, { orderId: none, newPrice: '1' }])],
        ['POST', '/api/v1/hf/orders/' + pick(['multi', 'multi/sync']), pick([{ orderList: [] }, { orderList: Array.from({ length: 6 }, () => item) }, { orderList: [{ ...item, price: 'x' }] }, { orderList: item }, {}])],
        ['POST', '/api/v1/hf/orders/sync', pick([{ ...item, price: undefined }, { ...item, side: 'hold' }, { ...item, size: '-1' }])],
        ['POST', '/api/v1/hf/orders/dead-cancel-all', pick([{ timeout: pick([0, 4, 86_401, -2, 5.5, '5', null]) }, { timeout: 5, symbols: pick(['NOPE', 'BTC-USDT,,', 'NOPE-USDT', Array.from({ length: 51 }, () => 'BTC-USDT').join(',')]) }, {}])],
        ['DELETE', `/api/v1/hf/orders/cancel/${pick([none, 'x'])}?symbol=BTC-USDT&cancelSize=${pick(['1', '-1', '0', 'x', ''])}`, undefined],
        ['DELETE', `/api/v1/hf/orders/sync/${pick([none, '%00'])}?symbol=${pick(['BTC-USDT', 'NOPE-USDT', ''])}`, undefined],
        ['DELETE', `/api/v1/hf/orders/sync/client-order/${pick(['never-placed', 'a.b'])}?symbol=BTC-USDT`, undefined],
        ['POST', '/api/v1/orders' + pick(['', '/test']), pick([{ ...item }, { ...item, clientOid: 'fz-c', tradeType: pick(['MARGIN_TRADE', 'X']) }, { ...item, clientOid: 'a b' }])],
        ['POST', '/api/v1/orders/multi', pick([{ symbol: 'BTC-USDT', orderList: [] }, { symbol: 'BTC-USDT', orderList: [{ ...item, symbol: 'ETH-USDT', clientOid: 'fz-m' }] }, { orderList: [{ ...item, clientOid: 'fz-m' }] }])],
        ['DELETE', '/api/v1/' + pick([`orders/${none}`, 'order/client-order/never-placed', 'order/client-order/a.b', 'orders?tradeType=X']), undefined],
        ['GET', '/api/v1/' + pick(['orders?status=open', 'orders?pageSize=5', 'orders?currentPage=0', 'fills?pageSize=501', 'fills?symbol=NOPE-USDT', `orders/${none}`, 'order/client-order/never-placed', 'hf/orders/active/page?symbol=BTC-USDT&pageSize=0']), undefined],
      ] as const);
      return { method: r[0], path: r[1], body: r[2] === undefined ? '' : JSON.stringify(r[2]), auth };
    }
    default: {
      const body = JSON.stringify(noise(noise({ clientOid: pick(BAD_STRINGS), symbol: 'BTC-USDT', side: pick(['buy', 'sell', 'BUY', 0]), type: pick(['limit', 'market', 'stop']), stp: pick(['XX', 'dc', 1]), remark: 'r'.repeat(21) })));
      return { method: 'POST', path: '/api/v1/hf/orders/test', body, auth };
    }
  }
}

function snapshot(sb: RunningSandbox, uid: string): string {
  const st = sb.state;
  const active = st.world.symbols.map((s) => st.exchange.activeOrders(uid, s.symbol).length);
  return JSON.stringify({
    accounts: st.exchange.accounts(uid),
    active,
    withdrawals: [...st.withdrawals.values()].map((w) => [w.withdrawalId, w.status]),
    tape: st.tape.export(),
    ledger: st.ledger.export(),
    depositAddresses: st.depositAddresses.length,
    transfers: st.transfers.size,
    users: st.users.size,
    status: st.status,
    fees: st.exchange.collectedFees(),
    l2: st.exchange.level2('BTC-USDT', 100),
  });
}

describe('sandbox server: fuzz', function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  let creds: Credentials;

  before(async () => {
    sb = await startTestSandbox({ rateLimits: { disabled: true } });
    creds = credsOf(sb);
  });
  after(async () => sb.close());

  it(`${N} seeded malformed requests: no 5xx, envelopes only, invariants intact, nothing changed`, async () => {
    const rnd = mulberry32(20261121);
    const before = snapshot(sb, sb.credentials.uid);
    const statusCounts = new Map<number, number>();
    const codes = new Map<string, number>();
    /** Codes answered per generator case of the endpoints beyond the spec (14..18), good auth only. */
    const beyond = new Map<number, Set<string>>();
    const failures: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < N) {
        next++;
        const r = gen(rnd);
        const body = r.body ?? '';
        const headers: Record<string, string> = {};
        if (r.auth !== 'none') {
          const ts = r.auth === 'oldTs' ? sb.state.now() - 60_000 : sb.state.now();
          const c = r.auth === 'badKey' ? { ...creds, apiKey: 'deadbeefdeadbeefdeadbeef' } : creds;
          // sign the raw (decoded) form of the path as a KuCoin client would
          let signedPath = r.path;
          try {
            signedPath = decodeURIComponent(r.path);
          } catch {
            /* keep raw */
          }
          Object.assign(headers, signRequest({ credentials: c, timestamp: ts, method: r.method, pathWithRawQuery: signedPath, body: r.method === 'POST' ? body : '' }).headers);
          if (r.auth === 'badSign') headers['KC-API-SIGN'] = 'AAAA' + headers['KC-API-SIGN'].slice(4);
        }
        if (r.method !== 'GET' && r.method !== 'HEAD' && r.contentType !== null) headers['Content-Type'] = r.contentType ?? 'application/json';
        let res;
        try {
          res = await rawRequest(sb.baseUrl, r.method, r.path, headers, r.method === 'GET' || r.method === 'HEAD' ? undefined : body);
        } catch (e) {
          // Node's own HTTP client refuses some invalid request lines (e.g. control characters): not a server answer.
          if (/Request path contains unescaped characters|Invalid character/.test(String(e))) continue;
          failures.push(`${r.method} ${r.path.slice(0, 80)} → transport error ${String(e)}`);
          continue;
        }
        statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${r.method} ${r.path.slice(0, 80)} ${body.slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`);
        if (r.method !== 'HEAD') {
          const code = res.json.code;
          if (typeof code !== 'string') failures.push(`${r.method} ${r.path.slice(0, 80)} → no envelope: ${res.text.slice(0, 120)}`);
          else codes.set(code, (codes.get(code) ?? 0) + 1);
          if (typeof code === 'string' && r.auth === 'good' && r.kind !== undefined && r.kind >= 14 && r.kind <= 18) {
            let set = beyond.get(r.kind);
            if (set === undefined) beyond.set(r.kind, (set = new Set()));
            set.add(code);
          }
          if (code === '200000' && r.method !== 'GET') failures.push(`${r.method} ${r.path.slice(0, 80)} ${body.slice(0, 200)} → accepted (should be malformed)`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    assert.deepEqual(failures.slice(0, 10), []);
    console.log(`      fuzz: ${N} requests; HTTP ${JSON.stringify(Object.fromEntries([...statusCounts].sort()))}; codes ${JSON.stringify(Object.fromEntries([...codes].sort()))}`);
    const total = [...statusCounts.values()].reduce((a, b) => a + b, 0);
    assert.ok(total >= N - 50, `only ${total} answers`);
    // The mix really exercised every gateway and business error path.
    for (const c of ['400001', '400002', '400003', '400005', '400100', '404000', '415000', '900001']) assert.ok((codes.get(c) ?? 0) > 0, `no ${c} seen: ${JSON.stringify([...codes])}`);
    // the routes beyond the spec were reached and judged: bad input 400100, unknown paths 404000
    for (const k of [14, 15, 16]) assert.ok(beyond.get(k)?.has('400100'), `case ${k}: ${JSON.stringify([...(beyond.get(k) ?? [])])}`);
    assert.ok(beyond.get(14)?.has('900001'), 'unknown symbols on the new market routes');
    assert.ok(beyond.get(17)?.has('404000') && !beyond.get(17)?.has('200000'), `case 17: ${JSON.stringify([...(beyond.get(17) ?? [])])}`);
    // the HF variants and the classic API refused every malformed or pointless request (GETs of nothing included)
    assert.ok(beyond.get(18)?.has('400100') && beyond.get(18)?.has('900001') && !beyond.get(18)?.has('200000'), `case 18: ${JSON.stringify([...(beyond.get(18) ?? [])])}`);
    assert.equal(snapshot(sb, sb.credentials.uid), before);
    sb.state.exchange.checkInvariants();
    const inv = await rawRequest(sb.baseUrl, 'GET', '/sandbox/v1/invariants', { Authorization: `Bearer ${sb.adminToken}` });
    assert.equal(inv.json.code, '200000');
  });

  it('raw TCP garbage (broken request lines, bad headers, truncated bodies) never crashes the server', async () => {
    const net = await import('node:net');
    const u = new URL(sb.baseUrl);
    const rnd = mulberry32(7);
    const payloads = [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /api/v1/status HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST /api/v1/hf/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
      'POST /api/v1/hf/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'GET /api/v1/status HTTP/1.1\r\nBad Header\r\n\r\n',
      '\x00\x01\x02\xff\r\n\r\n',
    ];
    for (let i = 0; i < 300; i++) {
      const p = i < payloads.length ? payloads[i] : Array.from({ length: 1 + Math.floor(rnd() * 200) }, () => String.fromCharCode(Math.floor(rnd() * 256))).join('');
      await new Promise<void>((resolve) => {
        const sock = net.connect(Number(u.port), u.hostname, () => {
          sock.write(Buffer.from(p, 'latin1'));
          setTimeout(() => sock.destroy(), 5);
        });
        sock.on('error', () => undefined);
        sock.on('close', () => resolve());
      });
    }
    const r = await rawRequest(sb.baseUrl, 'GET', '/api/v1/status');
    assert.deepEqual(r.json, { code: '200000', data: { status: 'open', msg: '' } });
    sb.state.exchange.checkInvariants();
  });
});
