/**
 * The stop and OCO order rules (src/api/advancedOrderRules.ts): what order documents, the market panel's ticket
 * and the extension's placement check. Fixed cases name each rule; a fast-check property checks that the rules
 * and the sandbox agree on which stop and OCO requests are rejected — the sandbox side being exactly what POST
 * /api/v1/stop-order and POST /api/v3/oco/order run (the zod schemas StopOrderRequest / OcoOrderRequest, the
 * symbol check, the engine's StopBook placement), against the seeded symbols, for a user funded far beyond any
 * order (the rules cannot know a balance; KuCoin does not hold stop orders anyway). No trade has happened in this
 * sandbox, so nothing fires at placement; each accepted order is cancelled again.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { describeZodError, OcoOrderRequest, StopOrderRequest } from '../../../src/api/schemas';
import { orderKind, stopFor, triggerSign, validateAnyOrder, validateOcoOrder, validateStopOrder, fieldsOf } from '../../../src/api/advancedOrderRules';
import type { SymbolRules } from '../../../src/api/orderRules';
import * as D from '../../../src/api/decimal';
import { ExchangeError } from '../../../src/exchange/core';
import { SandboxState } from '../../../src/exchange/server/state';

const UID = '226999998';
const state = new SandboxState({ manualClock: true, startTime: 1_700_000_000_000 });
for (const c of state.world.currencies) {
  const amount = `1${'0'.repeat(15)}`;
  state.exchange.deposit(UID, c.currency, amount);
  state.exchange.transfer(UID, c.currency, 'main', 'trade', amount);
}
const SYMBOLS = new Map<string, SymbolRules>(state.world.symbols.map((s) => [s.symbol, s]));
const BTC = SYMBOLS.get('BTC-USDT')!;

const errors = (issues: ReturnType<typeof validateAnyOrder>) => issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.field}`);

describe('api/advancedOrderRules: stop and OCO order rules', () => {
  it('tells an HF order, a stop order and an OCO order apart by their fields', () => {
    assert.equal(orderKind({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1', size: '1' }), 'order');
    assert.equal(orderKind({ type: 'limit', stopPrice: '1' }), 'stop');
    assert.equal(orderKind({ type: 'market', stop: 'entry' }), 'stop');
    assert.equal(orderKind({ price: '1', stopPrice: '1', limitPrice: '1' }), 'oco');
    assert.deepEqual(fieldsOf('oco'), ['clientOid', 'symbol', 'side', 'price', 'size', 'stopPrice', 'limitPrice', 'remark']);
    assert.ok(fieldsOf('stop').includes('stopPrice') && fieldsOf('stop').includes('timeInForce'));
  });

  it('derives the trigger direction: below the last price a loss, above it an entry; at it by side', () => {
    assert.equal(stopFor('sell', '29500', '30000'), 'loss');
    assert.equal(stopFor('buy', '31000', '30000'), 'entry');
    assert.equal(stopFor('buy', '29000', '30000'), 'loss'); // a buy on the way down
    assert.equal(stopFor('sell', '30000', '30000'), 'loss');
    assert.equal(stopFor('buy', '30000', null), 'entry');
    assert.deepEqual([triggerSign('loss'), triggerSign('entry'), triggerSign('l_s_o'), triggerSign('e_l_o'), triggerSign(undefined)], ['≤', '≥', '≤', '≥', '≤']);
  });

  it('a stop order: the order it becomes by validateOrder, plus stopPrice (required, on the tick) and stop', () => {
    const ok = { symbol: 'BTC-USDT', side: 'sell', type: 'limit', price: '29000', size: '0.01', stopPrice: '29500', stop: 'loss' };
    assert.deepEqual(validateStopOrder(ok, { symbols: SYMBOLS, reportUnknownFields: true }), []);
    assert.deepEqual(errors(validateStopOrder({ ...ok, stopPrice: undefined, stop: undefined }, { symbols: SYMBOLS })), ['missing-field stopPrice']);
    assert.deepEqual(errors(validateStopOrder({ ...ok, stopPrice: '29500.05' }, { symbols: SYMBOLS })), ['price-increment stopPrice']);
    assert.deepEqual(errors(validateStopOrder({ ...ok, stopPrice: 29500 }, { symbols: SYMBOLS })), ['not-decimal-string stopPrice']);
    assert.deepEqual(errors(validateStopOrder({ ...ok, stopPrice: '0' }, { symbols: SYMBOLS })), ['not-positive stopPrice']);
    assert.deepEqual(errors(validateStopOrder({ ...ok, stop: 'up' }, { symbols: SYMBOLS })), ['invalid-enum stop']);
    // the order's own rules still apply (here: the lot)
    assert.deepEqual(errors(validateStopOrder({ ...ok, size: '0.000009' }, { symbols: SYMBOLS })), ['size-min size']);
    // a stop-market by size
    assert.deepEqual(validateStopOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.01', stopPrice: '31000', stop: 'entry' }, { symbols: SYMBOLS }), []);
    const unknown = validateStopOrder({ ...ok, foo: 1 }, { symbols: SYMBOLS, reportUnknownFields: true });
    assert.deepEqual(unknown.map((i) => [i.code, i.field, i.severity]), [['unknown-field', 'foo', 'warning']]);
  });

  it('an OCO order: every field required, both legs checked as limit orders, price on the profitable side of stopPrice', () => {
    const ok = { clientOid: 'o1', symbol: 'BTC-USDT', side: 'sell', price: '31000', size: '0.01', stopPrice: '29500', limitPrice: '29400' };
    assert.deepEqual(validateOcoOrder(ok, { symbols: SYMBOLS, reportUnknownFields: true }), []);
    assert.deepEqual(errors(validateOcoOrder({ side: 'sell' }, { symbols: SYMBOLS })), [
      'missing-field symbol',
      'missing-field price',
      'missing-field size',
      'missing-field stopPrice',
      'missing-field limitPrice',
      'missing-client-oid null',
    ]);
    assert.deepEqual(errors(validateOcoOrder({ ...ok, price: '29000' }, { symbols: SYMBOLS })), ['oco-price-side price']);
    assert.match(validateOcoOrder({ ...ok, side: 'buy' }, { symbols: SYMBOLS })[0].message, /buy OCO needs price \(take profit\) below stopPrice/);
    // the stop leg's price issues are reported on limitPrice, in its words
    const leg = validateOcoOrder({ ...ok, limitPrice: '29400.05' }, { symbols: SYMBOLS });
    assert.deepEqual(errors(leg), ['price-increment limitPrice']);
    assert.match(leg[0].message, /^limitPrice 29400\.05 is not a multiple of priceIncrement/);
    assert.deepEqual(errors(validateOcoOrder({ ...ok, stopPrice: '29500.01' }, { symbols: SYMBOLS })), ['price-increment stopPrice']);
    // a leg below the minimum order value: the stop leg's own (limitPrice × size) when only it is
    const small = validateOcoOrder({ ...ok, size: BTC.baseMinSize, limitPrice: '100', stopPrice: '200' }, { symbols: SYMBOLS });
    assert.deepEqual(errors(small), ['min-funds size']);
    assert.match(small[0].message, /^stop leg: order value limitPrice × size/);
    // HF-only fields are not OCO fields
    assert.deepEqual(
      validateOcoOrder({ ...ok, type: 'limit', timeInForce: 'GTC' }, { symbols: SYMBOLS, reportUnknownFields: true }).map((i) => [i.code, i.field]),
      [['unknown-field', 'type'], ['unknown-field', 'timeInForce']],
    );
  });

  describe('agrees with the sandbox on which stop and OCO requests are rejected (property)', () => {
    /** Why the sandbox rejects `body` as a stop (or OCO) request, or null when it accepts it (then cancelled again). */
    function sandboxRejection(body: Record<string, unknown>, oco: boolean): string | null {
      const parsed = (oco ? OcoOrderRequest : StopOrderRequest).safeParse(body);
      if (!parsed.success) return `400100 ${describeZodError(parsed.error)}`;
      if (!state.world.symbolMap.has(parsed.data.symbol)) return '900001 symbol not exists!';
      try {
        if (oco) state.exchange.advanced.cancelOco(UID, state.exchange.advanced.placeOco(UID, parsed.data as OcoOrderRequest).orderId);
        else state.exchange.advanced.cancel(UID, state.exchange.advanced.place(UID, parsed.data as StopOrderRequest).orderId);
        return null;
      } catch (e) {
        if (e instanceof ExchangeError) return e.code === '200004' ? null : `${e.code} ${e.msg}`;
        throw e;
      }
    }
    const symbolArb = fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...SYMBOLS.keys()) }, { weight: 1, arbitrary: fc.constant('FOO-BAR') });
    /** A price near `ref` ticks of `r`: mostly on the tick, sometimes off it or malformed. */
    const price = (r: SymbolRules, minTicks: bigint, maxTicks: bigint) =>
      fc.oneof(
        { weight: 12, arbitrary: fc.bigInt({ min: minTicks, max: maxTicks }).map((n) => D.mul(n.toString(), r.priceIncrement)) },
        { weight: 1, arbitrary: fc.bigInt({ min: minTicks, max: maxTicks }).map((n) => D.add(D.mul(n.toString(), r.priceIncrement), D.mul(r.priceIncrement, '0.5'))) },
        { weight: 1, arbitrary: fc.constantFrom('0', '-1', 'x', undefined) },
      );
    const sizeArb = (r: SymbolRules) => {
      const min = BigInt(D.roundUp(D.divDown(r.baseMinSize, r.baseIncrement, 8), '1'));
      return fc.oneof(
        { weight: 12, arbitrary: fc.bigInt({ min: min / 2n + 1n, max: min * 1000n }).map((n) => D.mul(n.toString(), r.baseIncrement)) },
        { weight: 1, arbitrary: fc.constantFrom('0', D.add(r.baseMaxSize, r.baseIncrement), undefined) },
      );
    };
    let seq = 0;
    const ocoArb = symbolArb.chain((symbol) => {
      const r = SYMBOLS.get(symbol) ?? BTC;
      return fc.record({
        clientOid: fc.oneof({ weight: 10, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constant(undefined) }),
        symbol: fc.constant(symbol),
        side: fc.constantFrom('buy', 'sell'),
        price: price(r, 1n, 1_000_000n),
        size: sizeArb(r),
        stopPrice: price(r, 1n, 1_000_000n),
        limitPrice: price(r, 1n, 1_000_000n),
      });
    });
    const stopArb = symbolArb.chain((symbol) => {
      const r = SYMBOLS.get(symbol) ?? BTC;
      return fc.record({
        symbol: fc.constant(symbol),
        side: fc.constantFrom('buy', 'sell'),
        type: fc.constantFrom('limit', 'market'),
        price: fc.oneof({ weight: 3, arbitrary: price(r, 1n, 1_000_000n) }, { weight: 1, arbitrary: fc.constant(undefined) }),
        size: sizeArb(r),
        stopPrice: price(r, 1n, 1_000_000n),
        stop: fc.constantFrom(undefined, 'loss', 'entry', 'up'),
      });
    });
    const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

    it('OCO orders', () => {
      const seen = { accepted: 0, rejected: 0 };
      fc.assert(
        fc.property(ocoArb, (raw) => {
          const o = clean({ ...raw, clientOid: raw.clientOid === '' ? `oco-${++seq}` : raw.clientOid });
          const local = validateOcoOrder(o, { symbols: SYMBOLS }).filter((i) => i.severity === 'error');
          const sandbox = sandboxRejection(o, true);
          seen[sandbox === null ? 'accepted' : 'rejected']++;
          assert.equal(local.length > 0, sandbox !== null, `local: ${local.map((i) => i.message).join(' | ') || 'ok'}; sandbox: ${sandbox ?? 'ok'}; ${JSON.stringify(o)}`);
        }),
        { numRuns: 400, seed: 31 },
      );
      assert.ok(seen.accepted > 40 && seen.rejected > 40, `both outcomes are exercised: ${JSON.stringify(seen)}`);
    });

    it('stop orders', () => {
      const seen = { accepted: 0, rejected: 0 };
      fc.assert(
        fc.property(stopArb, (raw) => {
          const o = clean(raw);
          const local = validateStopOrder(o, { symbols: SYMBOLS }).filter((i) => i.severity === 'error');
          const sandbox = sandboxRejection(o, false);
          seen[sandbox === null ? 'accepted' : 'rejected']++;
          assert.equal(local.length > 0, sandbox !== null, `local: ${local.map((i) => i.message).join(' | ') || 'ok'}; sandbox: ${sandbox ?? 'ok'}; ${JSON.stringify(o)}`);
        }),
        { numRuns: 400, seed: 31 },
      );
      assert.ok(seen.accepted > 40 && seen.rejected > 40, `both outcomes are exercised: ${JSON.stringify(seen)}`);
    });
  });
});
