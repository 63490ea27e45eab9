/**
 * API client hot paths against bare baselines measured in the same run (`npx tsx bench/api.bench.ts`
 * or `npm run bench -- api`).
 *
 * 1. Decode + validate a 100-level book (100 bids, 100 asks, realistic decimal strings, standard
 *    envelope) exactly as the client does it — `parseJson` (lossless fast path) → envelope →
 *    `fastLevel2Book` hot-path check (zod `Level2Book` as fallback/validator of record) — vs bare
 *    `JSON.parse` of the same bytes. Target ≤ 3×. The zod-only figure is printed for reference.
 * 2. Sign a private request with `signRequest` (prehash, KC-API-SIGN, signed passphrase, redacted
 *    headers) vs one bare HMAC-SHA256 of the same prehash. Target ≤ 1.5×.
 *
 * Env: BENCH_MS (per measurement, default 400), BENCH_ROUNDS (default 5; the median is reported).
 */
import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { ENDPOINTS } from '../src/api/endpoints';
import { decodeEnvelope } from '../src/api/transport';
import { signRequest, type Credentials } from '../src/api/signing';

const MS = Number(process.env.BENCH_MS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** ops/s of `fn` over one measurement of MS. */
function rate(fn: () => unknown): number {
  let n = 0;
  const t0 = process.hrtime.bigint();
  const end = t0 + BigInt(MS) * 1_000_000n;
  let now = t0;
  while (now < end) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
    now = process.hrtime.bigint();
  }
  return n / (Number(now - t0) / 1e9);
}

/**
 * Median ops/s of a baseline and a candidate, measured in alternating rounds (so that load from
 * other processes on the machine hits both alike), after a warm-up of each.
 */
function measurePair(base: () => unknown, cand: () => unknown): [number, number] {
  for (let i = 0; i < 2000; i++) {
    base();
    cand();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    a.push(rate(base));
    b.push(rate(cand));
  }
  const med = (x: number[]) => x.sort((p, q) => p - q)[Math.floor(x.length / 2)];
  return [med(a), med(b)];
}

/** A realistic 100-level BTC-USDT book as the API would send it. */
function bookBody(): string {
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 100; i++) {
    bids.push([(669764 - i * 3).toString().replace(/(\d)$/, '.$1'), (rnd() * 3).toFixed(8).replace(/\.?0+$/, '')]);
    asks.push([(669765 + i * 3).toString().replace(/(\d)$/, '.$1'), (rnd() * 3).toFixed(8).replace(/\.?0+$/, '')]);
  }
  return JSON.stringify({ code: '200000', data: { time: 1729176273859, sequence: '14610502970', bids, asks } });
}

const body = bookBody();
const ep = ENDPOINTS.level2_100;
/** Exactly what SpotClient.call does with a success answer: envelope → hot-path check → zod fallback. */
const decodeBook = () => {
  const payload = decodeEnvelope(answer, 'GET', '/api/v1/market/orderbook/level2_100', true).payload;
  return ep.fast(payload) ?? ep.response.parse(payload);
};
const answer = { status: 200, header: () => null, contentType: 'application/json', text: body, latencyMs: 0 };

// sanity: the client path yields the same book as JSON.parse
const viaClient = decodeBook();
assert.deepStrictEqual(ep.response.parse((JSON.parse(body) as { data: unknown }).data), viaClient);
assert.deepStrictEqual(viaClient, (JSON.parse(body) as { data: unknown }).data);

const [bare, client] = measurePair(
  () => JSON.parse(body),
  decodeBook,
);
const [, zodOnly] = measurePair(
  () => JSON.parse(body),
  () => ep.response.parse(decodeEnvelope(answer, 'GET', '/api/v1/market/orderbook/level2_100', true).payload),
);

const creds: Credentials = { apiKey: '5c2db93503aa674c74a31734', apiSecret: 'f03a5284-5c39-4aaa-9b20-dea10bdcf8e3', apiPassphrase: 'Ab12345678', keyVersion: '2' };
const orderBody = '{"clientOid":"5c52e11203aa677f33e493fb","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.00001"}';
let ts = 1547015186532;
const [hmac, sign] = measurePair(
  () => createHmac('sha256', creds.apiSecret).update(`${ts++}POST/api/v1/hf/orders${orderBody}`).digest('base64'),
  () => signRequest({ credentials: creds, timestamp: ts++, method: 'POST', pathWithRawQuery: '/api/v1/hf/orders', body: orderBody }),
);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(10);
console.log(`book (100+100 levels, ${body.length} bytes)`);
console.log(`  JSON.parse                 ${fmt(bare)} ops/s`);
console.log(`  client path (hot check)    ${fmt(client)} ops/s   ratio ${(bare / client).toFixed(2)}× (target ≤ 3×)`);
console.log(`  same, zod schema only      ${fmt(zodOnly)} ops/s   ratio ${(bare / zodOnly).toFixed(2)}× (informative: no hot path)`);
console.log('signing (POST /api/v1/hf/orders)');
console.log(`  bare HMAC-SHA256           ${fmt(hmac)} ops/s`);
console.log(`  signRequest                ${fmt(sign)} ops/s   ratio ${(hmac / sign).toFixed(2)}× (target ≤ 1.5×)`);
