/**
 * Random command streams for the exchange core's property tests (fast-check): order requests of every kind on
 * the BTC-USDT world of helpers.ts, and a driver that applies engine commands (placements on both entry
 * points, every cancel, transfers, deposits, withdrawal holds, time passing) to an Exchange and reads back its
 * whole observable state.
 */
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { Exchange, ExchangeError, type PlaceOrderRequest } from '../../../src/exchange/core';
import type { MReq } from './model';
import { SYM, world, type Clock } from './helpers';

export const USERS = ['u0', 'u1', 'u2'];

const priceArb = fc.integer({ min: 996, max: 1004 }).map((t) => D.fromUnits(BigInt(t), 1));
const sizeArb = fc.integer({ min: 1, max: 150 }).map((l) => D.fromUnits(BigInt(l), 2));

/** A limit order of the model's subset: GTC/GTT/IOC/FOK, post-only, hidden, iceberg, STP. */
export const limitArb: fc.Arbitrary<MReq> = fc
  .record({
    side: fc.constantFrom('buy' as const, 'sell' as const),
    price: priceArb,
    size: sizeArb,
    tif: fc.constantFrom('GTC' as const, 'GTC' as const, 'GTT' as const, 'IOC' as const, 'FOK' as const),
    cancelAfter: fc.integer({ min: 1, max: 8 }),
    flavour: fc.constantFrom('plain', 'plain', 'plain', 'postOnly', 'hidden', 'iceberg'),
    vis: fc.integer({ min: 1, max: 100 }),
    stp: fc.constantFrom(undefined, undefined, 'DC' as const, 'CO' as const, 'CN' as const, 'CB' as const),
  })
  .map((x) => {
    const r: MReq = { side: x.side, type: 'limit', price: x.price, size: x.size, timeInForce: x.tif };
    if (x.tif === 'GTT') r.cancelAfter = x.cancelAfter;
    if (x.flavour === 'postOnly' && (x.tif === 'GTC' || x.tif === 'GTT')) r.postOnly = true;
    if (x.flavour === 'hidden') r.hidden = true;
    if (x.flavour === 'iceberg') {
      r.iceberg = true;
      const vis = Math.min(x.vis, Number(D.toUnits(x.size, 2)));
      r.visibleSize = D.fromUnits(BigInt(vis), 2);
    }
    if (x.stp) r.stp = x.stp;
    return r;
  });

/** A market order by size or funds (STP DC only by size). */
export const marketArb: fc.Arbitrary<MReq> = fc
  .record({
    side: fc.constantFrom('buy' as const, 'sell' as const),
    bySize: fc.boolean(),
    size: sizeArb,
    funds: fc.integer({ min: 100, max: 150_000 }).map((f) => D.fromUnits(BigInt(f), 3)),
    stp: fc.constantFrom(undefined, undefined, 'DC' as const, 'CO' as const, 'CN' as const, 'CB' as const),
  })
  .map((x) => {
    const r: MReq = x.bySize ? { side: x.side, type: 'market', size: x.size } : { side: x.side, type: 'market', funds: x.funds };
    if (x.stp && !(x.stp === 'DC' && !x.bySize)) r.stp = x.stp;
    return r;
  });

/** Taker/maker fee rates of the three users. */
export const ratesArb = fc.array(
  fc.tuple(fc.constantFrom('0.001', '0.002', '0.0015'), fc.constantFrom('0.001', '0.0005', '0', '-0.0002')),
  { minLength: 3, maxLength: 3 },
);

const amountArb = fc.integer({ min: 1, max: 2000 }).map((a) => D.fromUnits(BigInt(a), 1 + (a % 3)));
const userArb = fc.integer({ min: 0, max: USERS.length - 1 });
const coidArb = fc.constantFrom('c1', 'c2', 'c3');

/** One engine command (indices `pick` select among the orders / withdrawal holds issued so far). */
export type EngineCmd =
  | { k: 'place'; u: number; r: MReq; coid?: string }
  | { k: 'ticks'; u: number; side: 'buy' | 'sell'; ticks: number; lots: number; tif: 'GTC' | 'IOC' | 'FOK'; postOnly: boolean }
  | { k: 'cancel'; u: number; pick: number }
  | { k: 'cancelSeq'; u: number; pick: number }
  | { k: 'cancelCoid'; u: number; coid: string }
  | { k: 'cancelAll'; u: number }
  | { k: 'transfer'; u: number; cur: 'USDT' | 'BTC'; toTrade: boolean; amt: string }
  | { k: 'deposit'; u: number; cur: 'USDT' | 'BTC'; amt: string }
  | { k: 'wdHold'; u: number; cur: 'USDT' | 'BTC'; amt: string }
  | { k: 'wdSettle'; pick: number; fee: string }
  | { k: 'wdRelease'; pick: number }
  | { k: 'time'; ms: number };

/** Engine commands: mostly placements (string API and numeric entry), every cancel, ledger moves, time. */
export const engineCmdArb: fc.Arbitrary<EngineCmd> = fc.oneof(
  { weight: 60, arbitrary: fc.record({ k: fc.constant('place' as const), u: userArb, r: limitArb, coid: fc.option(coidArb, { nil: undefined, freq: 4 }) }) },
  { weight: 20, arbitrary: fc.record({ k: fc.constant('place' as const), u: userArb, r: marketArb }) },
  {
    weight: 20,
    arbitrary: fc.record({
      k: fc.constant('ticks' as const),
      u: userArb,
      side: fc.constantFrom('buy' as const, 'sell' as const),
      ticks: fc.integer({ min: 996, max: 1004 }),
      lots: fc.integer({ min: 1, max: 15_000 }),
      tif: fc.constantFrom('GTC' as const, 'GTC' as const, 'IOC' as const, 'FOK' as const),
      postOnly: fc.boolean(),
    }),
  },
  { weight: 20, arbitrary: fc.record({ k: fc.constant('cancel' as const), u: userArb, pick: fc.nat() }) },
  { weight: 10, arbitrary: fc.record({ k: fc.constant('cancelSeq' as const), u: userArb, pick: fc.nat() }) },
  { weight: 10, arbitrary: fc.record({ k: fc.constant('cancelCoid' as const), u: userArb, coid: coidArb }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('cancelAll' as const), u: userArb }) },
  {
    weight: 10,
    arbitrary: fc.record({ k: fc.constant('transfer' as const), u: userArb, cur: fc.constantFrom('USDT' as const, 'BTC' as const), toTrade: fc.boolean(), amt: amountArb }),
  },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('deposit' as const), u: userArb, cur: fc.constantFrom('USDT' as const, 'BTC' as const), amt: amountArb }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('wdHold' as const), u: userArb, cur: fc.constantFrom('USDT' as const, 'BTC' as const), amt: amountArb }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('wdSettle' as const), pick: fc.nat(), fee: fc.constantFrom('0', '0.1', '1') }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('wdRelease' as const), pick: fc.nat() }) },
  { weight: 10, arbitrary: fc.record({ k: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 6000 }) }) },
);

/** A command's outcome: its return value, or the KuCoin code of its ExchangeError. */
export type Outcome = { ok: unknown } | { err: string };

/** An Exchange on the helpers.ts world with three funded users, and the ids it issued. */
export class Driver {
  readonly ex: Exchange;
  readonly clock: Clock;
  /** order ids issued so far, in placement order */
  readonly ids: string[] = [];
  /** withdrawal holds created so far */
  readonly holds: string[] = [];

  /** @param opts constructor options of the Exchange (besides the clock). */
  constructor(rates: [string, string][], opts: { bigIntOnly?: boolean; fastPaths?: boolean } = {}) {
    const w = world(1_700_000_000_000, opts.bigIntOnly ?? false, opts.fastPaths ?? true);
    this.ex = w.ex;
    this.clock = w.clock;
    USERS.forEach((u, i) => {
      this.ex.setFeeRates(u, rates[i][0], rates[i][1]);
      for (const [cur, amt, tr] of [['USDT', '3000', '250'], ['BTC', '30', '2.5']]) {
        this.ex.deposit(u, cur, amt);
        this.ex.transfer(u, cur, 'main', 'trade', tr);
      }
    });
  }

  /** Apply one command (time passing: advance the clock, then process expiries). */
  apply(c: EngineCmd): Outcome {
    const ex = this.ex;
    const uid = 'u' in c ? USERS[c.u] : '';
    try {
      switch (c.k) {
        case 'place': {
          const req: PlaceOrderRequest = { symbol: SYM, ...c.r };
          if (c.coid !== undefined) req.clientOid = c.coid;
          const r = ex.placeOrder(uid, req);
          this.ids.push(r.orderId);
          return { ok: r };
        }
        case 'ticks': {
          const seq = ex.placeLimitTicks(uid, SYM, c.side, c.ticks, c.lots, { tif: c.tif, postOnly: c.postOnly });
          this.ids.push(ex.orderIdOf(seq));
          return { ok: seq };
        }
        case 'cancel':
          return this.ids.length === 0 ? { ok: null } : { ok: ex.cancelOrder(uid, SYM, this.ids[c.pick % this.ids.length]) };
        case 'cancelSeq':
          return this.ids.length === 0 ? { ok: null } : { ok: ex.cancelSeq(uid, parseInt(this.ids[c.pick % this.ids.length].slice(8), 16)) };
        case 'cancelCoid':
          return { ok: ex.cancelOrderByClientOid(uid, SYM, c.coid) };
        case 'cancelAll':
          return { ok: ex.cancelAll(uid, SYM) };
        case 'transfer': {
          const [from, to] = c.toTrade ? (['main', 'trade'] as const) : (['trade', 'main'] as const);
          ex.transfer(uid, c.cur, from, to, c.amt);
          return { ok: null };
        }
        case 'deposit':
          ex.deposit(uid, c.cur, c.amt);
          return { ok: null };
        case 'wdHold': {
          const id = ex.holdWithdrawal(uid, c.cur, c.amt);
          this.holds.push(id);
          return { ok: id };
        }
        case 'wdSettle':
        case 'wdRelease': {
          if (this.holds.length === 0) return { ok: null };
          const id = this.holds[c.pick % this.holds.length];
          if (c.k === 'wdSettle') ex.settleWithdrawal(id, c.fee);
          else ex.releaseWithdrawal(id);
          return { ok: id };
        }
        case 'time':
          this.clock.t += c.ms;
          ex.tick();
          return { ok: null };
      }
    } catch (e) {
      if (e instanceof ExchangeError) return { err: e.code };
      throw e;
    }
  }

  /** Everything a client can read: accounts, orders (active, done, each issued id), fills, book, trades, fees. */
  observe(): unknown {
    const ex = this.ex;
    const out: Record<string, unknown> = {
      level2: ex.level2(SYM, Number.MAX_SAFE_INTEGER),
      best: ex.bestBidAsk(SYM),
      sequence: ex.sequence(SYM),
      trades: ex.trades(SYM),
      fees: ex.collectedFees(),
    };
    for (const u of USERS) {
      const fills: unknown[] = [];
      let lastId: number | undefined;
      for (;;) {
        const pg = ex.fills(u, { symbol: SYM, lastId, limit: 100 });
        fills.push(...pg.items);
        if (pg.items.length < 100) break;
        lastId = pg.lastId;
      }
      out[u] = { accounts: ex.accounts(u), active: ex.activeOrders(u, SYM), done: ex.doneOrders(u, SYM), fills };
    }
    // each id as every user reads it (the owner gets the order, the others 400100)
    out.orders = this.ids.map((id) => USERS.map((u) => orderOrCode(ex, u, id)));
    return out;
  }
}

function orderOrCode(ex: Exchange, uid: string, id: string): unknown {
  try {
    return ex.getOrder(uid, SYM, id);
  } catch (e) {
    if (e instanceof ExchangeError) return e.code;
    throw e;
  }
}
