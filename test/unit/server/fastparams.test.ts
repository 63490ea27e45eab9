/**
 * The sandbox's hot-path order validator (src/exchange/server/fastparams.ts) against the zod schema
 * of record (src/api/schemas.ts PlaceOrderRequest): on JSON-decoded bodies it must accept exactly
 * what the schema accepts (one documented exception: remark/tags longer than 20 UTF-16 units are
 * left to zod, which counts code points) and give the same object, key order included.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as S from '../../../src/api/schemas';
import { FAST_PARAMS, fastPlaceOrderRequest, PLACE_ORDER_KEYS, PLACE_ORDER_SHAPE_OK } from '../../../src/exchange/server/fastparams';
import { ORDER_FIELDS } from '../../../src/api/orderRules';

/** A field that is mostly absent, sometimes valid, sometimes invalid. */
function field<T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown>, absentWeight = 24): fc.Arbitrary<T | unknown | typeof ABSENT> {
  return fc.oneof({ weight: absentWeight, arbitrary: fc.constant(ABSENT) }, { weight: 12, arbitrary: valid }, { weight: 1, arbitrary: invalid });
}
const ABSENT = Symbol('absent');

const decimals = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.nat(10 ** 6), fc.nat(10 ** 8)).map(([a, b]) => `${a}.${b}`) },
  { weight: 3, arbitrary: fc.nat(10 ** 9).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '0.000', '00', '-1', '-0', '-0.5', '007.50', '1e5', 'NaN', '', '1.', '.5', '+1', ' 1', '1'.repeat(80), '1'.repeat(81), '0.'.padEnd(80, '0') + '1') },
);
const junk = fc.oneof(fc.constantFrom(null, true, 1, 0, -1, 1.5, '', [], {}), fc.string({ maxLength: 5 }));
const texts = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.constantFrom('😀'.repeat(10), '😀'.repeat(11), '😀'.repeat(20), '😀'.repeat(21), 'a'.repeat(20), 'a'.repeat(21)),
);

const body = fc.record({
  clientOid: field(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.constantFrom('', 'a b', 'x'.repeat(41), 'é', null, 5)),
  symbol: fc.oneof({ weight: 30, arbitrary: fc.constantFrom('BTC-USDT', 'ETH-BTC', 'a-b', 'X'.repeat(20) + '-Y') }, { weight: 1, arbitrary: fc.oneof(junk, fc.constantFrom('BTCUSDT', 'BTC-', 'X'.repeat(21) + '-Y', 'BTC-USDT-X', ABSENT)) }),
  side: fc.oneof({ weight: 30, arbitrary: fc.constantFrom('buy', 'sell') }, { weight: 1, arbitrary: fc.oneof(junk, fc.constantFrom('BUY', ABSENT)) }),
  type: fc.oneof({ weight: 30, arbitrary: fc.constantFrom('limit', 'market') }, { weight: 1, arbitrary: fc.oneof(junk, fc.constantFrom('stop', ABSENT)) }),
  price: field(decimals, junk, 3),
  size: field(decimals, junk, 3),
  funds: fc.oneof({ weight: 4, arbitrary: fc.constant(ABSENT) }, { weight: 1, arbitrary: decimals }),
  timeInForce: field(fc.constantFrom('GTC', 'GTT', 'IOC', 'FOK'), fc.oneof(junk, fc.constant('gtc'))),
  cancelAfter: field(fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 10 ** 6 }) }), fc.constantFrom(0, -2, 1.5, 2 ** 53, 1e300, '5', null)),
  postOnly: field(fc.boolean(), junk),
  hidden: field(fc.boolean(), junk),
  iceberg: field(fc.boolean(), junk),
  visibleSize: field(decimals, junk),
  stp: field(fc.constantFrom('', 'DC', 'CO', 'CN', 'CB'), fc.oneof(junk, fc.constant('dc'))),
  remark: field(texts, junk),
  tags: field(texts, junk),
  extra: field(fc.anything(), fc.constant(1)),
});

/** The body as the server sees it: JSON text decoded by JSON.parse (absent fields omitted). */
function toJsonBody(r: Record<string, unknown>): unknown {
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (v !== ABSENT) o[k] = v;
  return JSON.parse(JSON.stringify(o)) as unknown;
}

describe('fastPlaceOrderRequest agrees with the PlaceOrderRequest zod schema', () => {
  it('same verdict and the same output (keys in the same order) on random near-valid JSON bodies', () => {
    let valid = 0;
    let fastHits = 0;
    fc.assert(
      fc.property(body, (r) => {
        const input = toJsonBody(r);
        const z = S.PlaceOrderRequest.safeParse(input);
        const f = fastPlaceOrderRequest(input);
        if (!z.success) {
          assert.equal(f, undefined, `fast path accepted what zod rejects: ${JSON.stringify(input)} (${S.describeZodError(z.error)})`);
          return;
        }
        valid++;
        if (f === undefined) {
          // the only case left to zod: remark/tags of more than 20 UTF-16 units (zod counts code points)
          const o = input as { remark?: unknown; tags?: unknown };
          const long = (x: unknown) => typeof x === 'string' && x.length > 20;
          assert.ok(long(o.remark) || long(o.tags), `fast path fell back on a valid body: ${JSON.stringify(input)}`);
          return;
        }
        fastHits++;
        assert.deepStrictEqual(Object.keys(f), Object.keys(z.data));
        assert.deepStrictEqual(f, z.data);
      }),
      { numRuns: 4000 },
    );
    assert.ok(valid >= 400 && valid <= 3600, `both verdicts exercised (valid: ${valid} of 4000)`);
    assert.ok(fastHits >= valid * 0.8, `fast path taken for most valid bodies (${fastHits} of ${valid})`);
  });

  it("the fast path's key list is the schema's field list, in order (else its load-time guard disables it)", () => {
    assert.deepEqual([...PLACE_ORDER_KEYS], Object.keys(S.PlaceOrderRequest.shape));
    assert.deepEqual([...PLACE_ORDER_KEYS], [...ORDER_FIELDS]);
    assert.equal(PLACE_ORDER_SHAPE_OK, true);
  });

  it('known cases: strips unknown fields, keeps key order, normalises cancelAfter -1, defers to zod on doubt', () => {
    const out = fastPlaceOrderRequest({ size: '0.001', price: '10000', type: 'limit', side: 'buy', symbol: 'BTC-USDT', clientOid: 'c1', hf: true, cancelAfter: -1 });
    assert.deepStrictEqual(out, { clientOid: 'c1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '10000', size: '0.001', cancelAfter: undefined });
    assert.deepStrictEqual(Object.keys(out!), ['clientOid', 'symbol', 'side', 'type', 'price', 'size', 'cancelAfter']);
    const limit = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1', size: '1' };
    assert.equal(fastPlaceOrderRequest({ ...limit, price: '0.000' }), undefined); // zero
    assert.equal(fastPlaceOrderRequest({ ...limit, size: '1e3' }), undefined); // exponent
    assert.equal(fastPlaceOrderRequest({ ...limit, funds: '5' }), undefined); // funds on a limit order
    assert.equal(fastPlaceOrderRequest({ ...limit, type: 'market', funds: '5' }), undefined); // size and funds
    assert.equal(fastPlaceOrderRequest({ ...limit, postOnly: true, timeInForce: 'IOC' }), undefined);
    assert.equal(fastPlaceOrderRequest({ ...limit, timeInForce: 'GTT' }), undefined); // GTT without cancelAfter
    assert.equal(fastPlaceOrderRequest({ ...limit, clientOid: undefined }), undefined); // not JSON: zod decides
    assert.equal(fastPlaceOrderRequest([limit]), undefined);
    assert.equal(fastPlaceOrderRequest(Object.assign(Object.create(null) as object, limit)), undefined);
    assert.equal(FAST_PARAMS.testOrder, fastPlaceOrderRequest);
    assert.equal(FAST_PARAMS.placeOrder, fastPlaceOrderRequest);
  });
});
