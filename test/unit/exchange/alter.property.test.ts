/**
 * Property tests (fast-check) of the HF order variants in the exchange core: Exchange.alterOrder (KuCoin
 * "Modify Order": cancel + a new order with a new id) and Exchange.cancelPartial (KuCoin "Cancel Partial
 * Order"), mixed with placements, cancels and time passing, against the naive model (model.ts), which
 * recomputes every hold by scanning the active orders. After every command: the engine's invariants hold
 * (Σ balances + fees = deposits − withdrawals, holds = what open orders reserve, book not crossed, …) and
 * balances, holds, book, fills and every order equal the model's. So "alter keeps holds exact" is checked
 * against an independent computation, and on both the Number and the BigInt-only path.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { ExchangeError } from '../../../src/exchange/core';
import { Model, type MReq } from './model';
import { SYM, world } from './helpers';
import { limitArb, marketArb, ratesArb } from './commands';

const USERS = ['u0', 'u1', 'u2'];
const stats = { commands: 0, alters: 0, altersRejected: 0, altersCancelOnly: 0, partials: 0, partialsFull: 0 };

type Cmd =
  | { k: 'place'; u: number; r: MReq }
  | { k: 'cancel'; u: number; pick: number }
  | { k: 'alter'; u: number; pick: number; newPrice?: string; newSize?: string }
  | { k: 'partial'; u: number; pick: number; size: string }
  | { k: 'time'; ms: number };

const priceArb = fc.integer({ min: 996, max: 1004 }).map((t) => D.fromUnits(BigInt(t), 1));
const sizeArb = fc.integer({ min: 1, max: 150 }).map((l) => D.fromUnits(BigInt(l), 2));

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('place' as const), u: fc.integer({ min: 0, max: 2 }), r: limitArb }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('place' as const), u: fc.integer({ min: 0, max: 2 }), r: marketArb }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), u: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        k: fc.constant('alter' as const),
        u: fc.integer({ min: 0, max: 2 }),
        pick: fc.nat(),
        newPrice: fc.option(priceArb, { nil: undefined }),
        // now and then more than the balance can carry (200004: nothing may change), and now and then one lot,
        // which is at most what a partly filled order has dealt (the alter then only cancels)
        newSize: fc.option(
          fc.oneof({ weight: 8, arbitrary: sizeArb }, { weight: 1, arbitrary: fc.constantFrom('5', '40') }, { weight: 1, arbitrary: fc.constant('0.01') }),
          { nil: undefined },
        ),
      })
      .map((c) => (c.newPrice === undefined && c.newSize === undefined ? { ...c, newPrice: '100' } : c)),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('partial' as const), u: fc.integer({ min: 0, max: 2 }), pick: fc.nat(), size: sizeArb }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 6000 }) }) },
);

function code(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof ExchangeError) return e.code;
    throw e;
  }
}

function compare(ex: ReturnType<typeof world>['ex'], model: Model, where: string): void {
  for (const u of USERS) {
    for (const cur of ['USDT', 'BTC']) {
      const a = ex.accounts(u, { currency: cur, type: 'trade' })[0];
      const mb = model.get(u, cur, 'trade');
      const mh = model.holds(u, cur, 'trade');
      assert.deepEqual([a.balance, a.holds, a.available], [mb, mh, D.sub(mb, mh)], `${where}: ${u} ${cur} trade`);
    }
    const fills = ex.fills(u, { symbol: SYM, limit: 100 }).items.map((f) => [f.orderId, f.counterOrderId, f.side, f.liquidity, f.price, f.size, f.fee]);
    const mf = model.fills
      .filter((f) => f.uid === u)
      .reverse()
      .slice(0, 100)
      .map((f) => [f.orderId, f.counterOrderId, f.side, f.liquidity, f.price, f.size, f.fee]);
    assert.deepEqual(fills, mf, `${where}: fills of ${u}`);
  }
  const l2 = ex.level2(SYM, 1000);
  assert.deepEqual([l2.bids, l2.asks], model.level2(), `${where}: level2`);
  assert.equal(ex.collectedFees().USDT ?? '0', model.feesUSDT, `${where}: fees`);
  for (const o of model.orders) {
    const e = ex.getOrder(o.uid, SYM, o.id);
    const isFunds = o.funds !== null;
    assert.deepEqual(
      [e.active, e.inOrderBook, e.price, e.size === '0' ? null : e.size, e.dealSize, e.fee, e.cancelExist, e.lastUpdatedAt, isFunds ? e.remainFunds : e.remainSize, isFunds ? e.cancelledFunds : e.cancelledSize],
      [o.active, o.inBook, D.normalize(o.price), o.size === null ? null : D.normalize(o.size), o.deal, o.fee, o.cancelExist, o.lastUpdatedAt, isFunds ? o.remainFunds : o.remain, isFunds ? o.cancelledFunds : o.cancelled],
      `${where}: order ${o.id}`,
    );
  }
}

function run(rates: [string, string][], cmds: Cmd[], bigIntOnly: boolean): void {
  const { ex, clock } = world(1_700_000_000_000, bigIntOnly);
  const model = new Model();
  USERS.forEach((u, i) => {
    ex.setFeeRates(u, rates[i][0], rates[i][1]);
    model.rates.set(u, rates[i]);
    for (const [cur, amt, tr] of [['USDT', '3000', '250'], ['BTC', '30', '2.5']]) {
      ex.deposit(u, cur, amt);
      model.deposit(u, cur, amt);
      ex.transfer(u, cur, 'main', 'trade', tr);
      model.transfer(u, cur, 'main', 'trade', tr);
    }
  });
  const ids: string[] = [];
  cmds.forEach((c, step) => {
    const where = `step ${step} ${JSON.stringify(c)}`;
    if (c.k === 'time') {
      clock.t += c.ms;
      ex.tick();
      model.expire(clock.t);
    } else {
      clock.t += 1;
      const uid = USERS[c.u];
      if (c.k === 'place') {
        let id = '';
        const got = code(() => (id = ex.placeOrder(uid, { symbol: SYM, ...c.r }).orderId));
        const want = model.place(uid, c.r, clock.t);
        assert.equal(got, typeof want === 'string' ? want : null, where);
        if (typeof want !== 'string') {
          assert.equal(id, want.id, where);
          ids.push(id);
        }
      } else if (ids.length > 0) {
        const id = ids[c.pick % ids.length];
        if (c.k === 'cancel') {
          assert.equal(
            code(() => ex.cancelOrder(uid, SYM, id)),
            model.cancelCode(uid, id, clock.t),
            where,
          );
        } else if (c.k === 'alter') {
          let got: { newOrderId: string | null; clientOid: string } | undefined;
          const err = code(() => (got = ex.alterOrder(uid, SYM, { orderId: id }, { ...(c.newPrice ? { newPrice: c.newPrice } : {}), ...(c.newSize ? { newSize: c.newSize } : {}) })));
          const want = model.alter(uid, id, c.newPrice, c.newSize, clock.t);
          if (typeof want === 'string') {
            assert.equal(err, want, where);
            if (want !== '400100' || model.orders.some((o) => o.id === id && o.uid === uid && o.active)) stats.altersRejected++;
          } else {
            assert.equal(err, null, where);
            assert.equal(got?.newOrderId ?? null, want === null ? null : want.id, where);
            if (want === null) stats.altersCancelOnly++;
            else {
              stats.alters++;
              ids.push(want.id);
            }
          }
        } else {
          let got: { cancelSize: string } | undefined;
          const err = code(() => (got = ex.cancelPartial(uid, SYM, id, c.size)));
          const want = model.cancelPartial(uid, id, c.size, clock.t);
          if (want === '400100') assert.equal(err, '400100', where);
          else {
            assert.equal(err, null, where);
            assert.equal(D.cmp(got?.cancelSize ?? '-1', want), 0, where);
            stats.partials++;
            if (D.cmp(want, c.size) < 0) stats.partialsFull++;
          }
        }
      }
    }
    stats.commands++;
    ex.checkInvariants();
    compare(ex, model, where);
  });
}

describe('exchange core: alter and partial cancel (property tests against the naive model)', function () {
  this.timeout(180_000);
  const runs = Number(process.env.EXCHANGE_MODEL_RUNS ?? 400);
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
  it('alter keeps holds exact: balances, holds, book, fills and orders equal the model after every command; invariants hold', () => {
    fc.assert(
      fc.property(ratesArb, fc.array(cmdArb, { minLength: 1, maxLength: 60, size: 'max' }), (rates, cmds) => run(rates as [string, string][], cmds, false)),
      { numRuns: runs, seed },
    );
    console.log(`      alter runs: ${JSON.stringify(stats)}`);
    // the generator reaches every case (so a weak generator cannot hide a bug)
    assert.ok(stats.alters > 50 && stats.altersRejected > 5 && stats.altersCancelOnly > 5 && stats.partials > 20 && stats.partialsFull > 5, JSON.stringify(stats));
  });
  it('the same on the BigInt-only path (Number fast path disabled)', () => {
    fc.assert(
      fc.property(ratesArb, fc.array(cmdArb, { minLength: 1, maxLength: 60, size: 'max' }), (rates, cmds) => run(rates as [string, string][], cmds, true)),
      { numRuns: runs >> 2, seed },
    );
  });
});
