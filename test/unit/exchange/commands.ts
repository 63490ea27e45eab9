/**
 * Random command streams for the exchange core's property tests (fast-check): order requests of every kind on
 * the BTC-USDT world of helpers.ts, and a driver that applies engine commands (placements on both entry
 * points, every cancel, transfers, deposits, withdrawal holds, time passing) to an Exchange and reads back its
 * whole observable state. For history retention and snapshots: {@link historyCmdArb} adds clock jumps of up to
 * 4 days and bulk loads of a fourth user (FILLER: thousands of orders, so that archive and fill-store chunks
 * fill up and get released).
 */
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { Exchange, ExchangeError, HISTORY_WINDOW_MS, type PlaceOrderRequest } from '../../../src/exchange/core';
import type { MReq } from './model';
import { addRefMarket } from '../../../src/exchange/core/refmarket';
import { SYM, type Clock } from './helpers';

export const USERS = ['u0', 'u1', 'u2'];
/** The user of the bulk loads ({@link historyCmdArb}), funded by every Driver. */
export const FILLER = 'f';

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
  /** Exchange.alterOrder of the `pick`-th order (by id, or by its clientOid when `byCoid`) */
  | { k: 'alter'; u: number; pick: number; newPrice?: string; newSize?: string; byCoid: boolean }
  /** Exchange.cancelPartial of the `pick`-th order */
  | { k: 'partial'; u: number; pick: number; size: string }
  /** Exchange.setDeadCancel: `timeout` s (−1 unsets), on the symbol or on every symbol */
  | { k: 'dcp'; u: number; timeout: number; onSymbol: boolean }
  | { k: 'transfer'; u: number; cur: 'USDT' | 'BTC'; toTrade: boolean; amt: string }
  | { k: 'deposit'; u: number; cur: 'USDT' | 'BTC'; amt: string }
  | { k: 'wdHold'; u: number; cur: 'USDT' | 'BTC'; amt: string }
  | { k: 'wdSettle'; pick: number; fee: string }
  | { k: 'wdRelease'; pick: number }
  | { k: 'time'; ms: number }
  /** a clock jump (ms) that may cross the 3 × 24 h window */
  | { k: 'jump'; ms: number }
  /**
   * `n` orders of FILLER at once: `cross` — alternating buys and sells at 100.0 that trade with each other
   * (and with resting orders of others at that price); otherwise far from the book, each cancelled at once
   * (every `keep`-th one is left resting, 0: none)
   */
  | { k: 'filler'; n: number; cross: boolean; keep: number }
  /** the clock to `d` ms after a bulk load started (the `pick`-th of them) + 3 × 24 h: the edge of its history
   * (the clock never goes back) */
  | { k: 'edge'; pick: number; d: number };

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
    weight: 8,
    arbitrary: fc
      .record({ k: fc.constant('alter' as const), u: userArb, pick: fc.nat(), newPrice: fc.option(priceArb, { nil: undefined }), newSize: fc.option(sizeArb, { nil: undefined }), byCoid: fc.boolean() })
      .map((c) => (c.newPrice === undefined && c.newSize === undefined ? { ...c, newSize: '1' } : c)),
  },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('partial' as const), u: userArb, pick: fc.nat(), size: sizeArb }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('dcp' as const), u: userArb, timeout: fc.constantFrom(-1, 5, 8, 30), onSymbol: fc.boolean() }) },
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

/** {@link engineCmdArb} plus clock jumps across the window and bulk loads (see {@link EngineCmd}). */
export const historyCmdArb: fc.Arbitrary<EngineCmd> = fc.oneof(
  { weight: 40, arbitrary: engineCmdArb },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('jump' as const), ms: fc.oneof(fc.integer({ min: 60_000, max: 3_600_000 }), fc.integer({ min: 86_400_000, max: 4 * 86_400_000 })) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('filler' as const), n: fc.integer({ min: 500, max: 5000 }), cross: fc.boolean(), keep: fc.constantFrom(0, 0, 97, 500) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('edge' as const), pick: fc.nat(), d: fc.integer({ min: -2, max: 60 }) }) },
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

  /** FILLER orders left resting, by seq (bulk loads cancel the oldest of them now and then) */
  readonly resting: number[] = [];
  /** clock times at which the bulk loads started */
  readonly bulks: number[] = [];

  /**
   * @param opts constructor options of the Exchange (besides the clock); `noHistory`: users whose history is
   *   disabled before anything happens (e.g. ['u2', FILLER]).
   * @param from a restored Exchange (and its clock) to drive instead of a new one: the ids, holds and FILLER
   *   orders of `from.driver` are carried over (no setup is run).
   */
  constructor(
    rates: [string, string][],
    opts: { bigIntOnly?: boolean; fastPaths?: boolean; release?: boolean; noHistory?: string[] } = {},
    from?: { driver: Driver; ex: Exchange; clock: Clock },
  ) {
    if (from) {
      this.ex = from.ex;
      this.clock = from.clock;
      this.ids.push(...from.driver.ids);
      this.holds.push(...from.driver.holds);
      this.resting.push(...from.driver.resting);
      this.bulks.push(...from.driver.bulks);
      return;
    }
    const clock = { t: 1_700_000_000_000 };
    this.ex = new Exchange({ now: () => clock.t, bigIntOnly: opts.bigIntOnly ?? false, fastPaths: opts.fastPaths ?? true, release: opts.release });
    addRefMarket(this.ex);
    this.clock = clock;
    for (const u of opts.noHistory ?? []) this.ex.disableHistory(u);
    USERS.forEach((u, i) => {
      this.ex.setFeeRates(u, rates[i][0], rates[i][1]);
      for (const [cur, amt, tr] of [['USDT', '3000', '250'], ['BTC', '30', '2.5']]) {
        this.ex.deposit(u, cur, amt);
        this.ex.transfer(u, cur, 'main', 'trade', tr);
      }
    });
    for (const [cur, amt] of [['USDT', '100000000'], ['BTC', '1000000']]) {
      this.ex.deposit(FILLER, cur, amt);
      this.ex.transfer(FILLER, cur, 'main', 'trade', amt);
    }
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
        case 'alter': {
          if (this.ids.length === 0) return { ok: null };
          const id = this.ids[c.pick % this.ids.length];
          const change = { ...(c.newPrice !== undefined ? { newPrice: c.newPrice } : {}), ...(c.newSize !== undefined ? { newSize: c.newSize } : {}) };
          let ref: { orderId?: string; clientOid?: string } = { orderId: id };
          if (c.byCoid) {
            const coid = ex.getOrder(uid, SYM, id).clientOid;
            if (coid) ref = { clientOid: coid };
          }
          const r = ex.alterOrder(uid, SYM, ref, change);
          if (r.newOrderId !== null) this.ids.push(r.newOrderId);
          return { ok: r };
        }
        case 'partial':
          return this.ids.length === 0 ? { ok: null } : { ok: ex.cancelPartial(uid, SYM, this.ids[c.pick % this.ids.length], c.size) };
        case 'dcp':
          return { ok: ex.setDeadCancel(uid, c.timeout, c.onSymbol ? [SYM] : []) };
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
        case 'jump':
          this.clock.t += c.ms;
          ex.tick();
          return { ok: null };
        case 'filler':
          return { ok: this.filler(c) };
        case 'edge':
          if (this.bulks.length > 0) this.clock.t = Math.max(this.clock.t, this.bulks[c.pick % this.bulks.length] + HISTORY_WINDOW_MS + c.d);
          ex.tick();
          return { ok: null };
      }
    } catch (e) {
      if (e instanceof ExchangeError) return { err: e.code };
      throw e;
    }
  }

  /** A bulk load of FILLER (see EngineCmd 'filler'); returns a digest of what happened (seqs, trades, errors). */
  private filler(c: Extract<EngineCmd, { k: 'filler' }>): string {
    const ex = this.ex;
    let sum = 0;
    let errors = 0;
    this.bulks.push(this.clock.t);
    for (let i = 0; i < c.n; i++) {
      if (i % 50 === 0) this.clock.t += 1;
      try {
        if (c.cross) {
          sum += ex.placeLimitTicks(FILLER, SYM, i % 2 === 0 ? 'buy' : 'sell', 1000, 10 * (1 + (i % 7)));
        } else {
          const seq = ex.placeLimitTicks(FILLER, SYM, i % 2 === 0 ? 'buy' : 'sell', i % 2 === 0 ? 900 : 1100, 10 * (2 + (i % 5)));
          sum += seq;
          if (c.keep > 0 && i % c.keep === 0) this.resting.push(seq);
          else ex.cancelSeq(FILLER, seq);
        }
      } catch (e) {
        if (!(e instanceof ExchangeError)) throw e;
        errors++;
      }
    }
    // now and then the oldest resting ones go
    while (this.resting.length > 20) ex.cancelSeq(FILLER, this.resting.shift() as number);
    return `${sum}/${errors}/${ex.trades(SYM).length}`;
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
      out[u] = { accounts: ex.accounts(u), active: ex.activeOrders(u, SYM), done: ex.doneOrders(u, SYM), fills, deadCancel: ex.deadCancelOf(u) };
    }
    // each id as every user reads it (the owner gets the order, the others 400100)
    out.orders = this.ids.map((id) => USERS.map((u) => orderOrCode(ex, u, id)));
    // the fills of each id and each clientOid as its users read them
    out.fillsById = this.ids.map((id) => USERS.map((u) => ex.fills(u, { symbol: SYM, orderId: id }).items.map((f) => f.id)));
    out.byClientOid = ['c1', 'c2', 'c3'].map((c) => USERS.map((u) => coidOrCode(ex, u, c)));
    // FILLER's fills: all pages, as a digest (thousands of them)
    let n = 0;
    let sum = 0;
    let lastId: number | undefined;
    for (;;) {
      const pg = ex.fills(FILLER, { symbol: SYM, lastId, limit: 100 });
      n += pg.items.length;
      for (const f of pg.items) sum += f.id + Number(f.size) + f.createdAt;
      if (pg.items.length < 100) break;
      lastId = pg.lastId;
    }
    out.filler = { accounts: ex.accounts(FILLER), active: ex.activeOrders(FILLER, SYM).length, done: ex.doneOrders(FILLER, SYM, { limit: 100 }).map((o) => o.id), fills: [n, sum] };
    return out;
  }
}

function coidOrCode(ex: Exchange, uid: string, clientOid: string): unknown {
  try {
    return ex.getOrderByClientOid(uid, SYM, clientOid).id;
  } catch (e) {
    if (e instanceof ExchangeError) return e.code;
    throw e;
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
