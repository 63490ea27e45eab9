/**
 * Model-based property tests: random command sequences (place, cancel, transfer, time passing) run
 * against the engine and the naive reference model (model.ts); after every command the engine's
 * invariants are checked and balances, holds, book, orders and fills are compared.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { ExchangeError } from '../../../src/exchange/core';
import { Model, type MReq } from './model';
import { SYM, world } from './helpers';
import { limitArb, marketArb, ratesArb } from './commands';

const USERS = ['u0', 'u1', 'u2'];
/** Coverage counters printed after the property run (so a weak generator is visible). */
const stats = { commands: 0, placed: 0, rejected: 0, fills: 0, cancels: 0, expired: 0 };

type Cmd =
  | { k: 'place'; u: number; r: MReq }
  | { k: 'cancel'; u: number; pick: number }
  | { k: 'transfer'; u: number; cur: 'USDT' | 'BTC'; toTrade: boolean; amt: string }
  | { k: 'time'; ms: number };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('place' as const), u: fc.integer({ min: 0, max: 2 }), r: limitArb }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('place' as const), u: fc.integer({ min: 0, max: 2 }), r: marketArb }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), u: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('transfer' as const),
      u: fc.integer({ min: 0, max: 2 }),
      cur: fc.constantFrom('USDT' as const, 'BTC' as const),
      toTrade: fc.boolean(),
      amt: fc.integer({ min: 1, max: 2000 }).map((a) => D.fromUnits(BigInt(a), 1 + (a % 3))),
    }),
  },
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

function run(rates: [string, string][], cmds: Cmd[], bigIntOnly = false): void {
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
    const uid = c.k === 'time' ? '' : USERS[c.u];
    if (c.k === 'time') {
      clock.t += c.ms;
      ex.tick();
      model.expire(clock.t);
    } else if (c.k === 'place') {
      let id = '';
      const got = code(() => {
        id = ex.placeOrder(uid, { symbol: SYM, ...c.r }).orderId;
      });
      const want = model.place(uid, c.r, clock.t);
      assert.equal(got, typeof want === 'string' ? want : null, where);
      if (got) stats.rejected++;
      else stats.placed++;
      if (typeof want !== 'string') {
        assert.equal(id, want.id, where);
        ids.push(id);
      }
    } else if (c.k === 'cancel') {
      if (ids.length === 0) return;
      const id = ids[c.pick % ids.length];
      const got = code(() => ex.cancelOrder(uid, SYM, id));
      assert.equal(got, model.cancelCode(uid, id, clock.t), where);
    } else {
      const [from, to] = c.toTrade ? (['main', 'trade'] as const) : (['trade', 'main'] as const);
      const got = code(() => ex.transfer(uid, c.cur, from, to, c.amt));
      model.expire(clock.t);
      assert.equal(got, model.transfer(uid, c.cur, from, to, c.amt), where);
    }
    stats.commands++;
    ex.checkInvariants();
    compare(ex, model, where);
  });
  stats.fills += model.fills.length / 2;
  stats.cancels += model.orders.filter((o) => o.cancelExist).length;
  stats.expired += model.orders.filter((o) => o.tif === 'GTT' && !o.active && o.lastUpdatedAt === o.expireAt).length;
}

function compare(ex: ReturnType<typeof world>['ex'], model: Model, where: string): void {
  for (const u of USERS) {
    for (const cur of ['USDT', 'BTC']) {
      for (const type of ['main', 'trade'] as const) {
        const a = ex.accounts(u, { currency: cur, type })[0];
        const mb = model.get(u, cur, type);
        const mh = model.holds(u, cur, type);
        assert.deepEqual([a.balance, a.holds, a.available], [mb, mh, D.sub(mb, mh)], `${where}: ${u} ${cur} ${type}`);
      }
    }
    const fills = ex.fills(u, { symbol: SYM, limit: 100 }).items.map((f) => ({
      orderId: f.orderId, counterOrderId: f.counterOrderId, tradeId: f.tradeId, side: f.side, liquidity: f.liquidity, forceTaker: f.forceTaker,
      price: f.price, size: f.size, funds: f.funds, fee: f.fee, feeRate: f.feeRate, createdAt: f.createdAt,
    }));
    const mf = model.fills.filter((f) => f.uid === u).reverse().slice(0, 100).map(({ uid: _u, ...rest }) => rest);
    assert.deepEqual(fills, mf, `${where}: fills of ${u}`);
  }
  const l2 = ex.level2(SYM, 1000);
  const [mbids, masks] = model.level2();
  assert.deepEqual([l2.bids, l2.asks], [mbids, masks], `${where}: level2`);
  assert.deepEqual(ex.collectedFees().USDT ?? '0', model.feesUSDT, `${where}: fees`);
  for (const o of model.orders) {
    const e = ex.getOrder(o.uid, SYM, o.id);
    const isFunds = o.funds !== null;
    assert.deepEqual(
      [e.active, e.inOrderBook, e.dealSize, e.dealFunds, e.fee, e.cancelExist, e.lastUpdatedAt, isFunds ? e.remainFunds : e.remainSize, isFunds ? e.cancelledFunds : e.cancelledSize],
      [o.active, o.inBook, o.deal, o.dealFunds, o.fee, o.cancelExist, o.lastUpdatedAt, isFunds ? o.remainFunds : o.remain, isFunds ? o.cancelledFunds : o.cancelled],
      `${where}: order ${o.id}`,
    );
  }
}

describe('exchange core: model-based property tests (engine vs naive model)', function () {
  this.timeout(120_000);
  it('random command sequences give the same fills, book, orders and balances; invariants hold after every command', () => {
    fc.assert(
      fc.property(ratesArb, fc.array(cmdArb, { minLength: 1, maxLength: 80, size: 'max' }), (rates, cmds) => {
        run(rates as [string, string][], cmds);
      }),
      { numRuns: Number(process.env.EXCHANGE_MODEL_RUNS ?? 1000), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    console.log(`      model runs: ${JSON.stringify(stats)}`);
  });
  it('the same on the BigInt-only path (Number fast path disabled)', () => {
    fc.assert(
      fc.property(ratesArb, fc.array(cmdArb, { minLength: 1, maxLength: 80, size: 'max' }), (rates, cmds) => {
        run(rates as [string, string][], cmds, true);
      }),
      { numRuns: Number(process.env.EXCHANGE_MODEL_RUNS ?? 1000) >> 2, seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
  });
});
