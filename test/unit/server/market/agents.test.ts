/**
 * The agents of the agent-based market (src/exchange/server/market/), one by one, against a recording
 * order flow: arrival rates and self-excitation of the noise traders, power-law sizes, the momentum and
 * mean-reversion traders' sides, the informed trader closing its gap, the arbitrageur's basis and book
 * checks, the maker's ladder and re-quotes, the batch command's checks.
 */
import { strict as assert } from 'node:assert';
import { Arbitrageur } from '../../../../src/exchange/server/market/arbitrage';
import { BatchBuilder, BatchOp, applyBatch, checkBatch, type BatchTarget } from '../../../../src/exchange/server/market/batch';
import { InformedTrader, INFORMED_DEFAULTS } from '../../../../src/exchange/server/market/informed';
import { quoteLadder, requote, type MakerParams } from '../../../../src/exchange/server/market/marketMaker';
import { MeanReversionTrader, MEAN_REVERSION_DEFAULTS } from '../../../../src/exchange/server/market/meanReversion';
import { MomentumTrader, MOMENTUM_DEFAULTS } from '../../../../src/exchange/server/market/momentum';
import { NoiseTrader, NOISE_DEFAULTS } from '../../../../src/exchange/server/market/noiseTrader';
import { Rng } from '../../../../src/exchange/server/market/rng';
import { quantile } from '../../../../src/exchange/server/market/stylizedFacts';
import { AgentKind, IntentKind, type OrderFlow, type Side } from '../../../../src/exchange/server/market/types';
import { SandboxState } from '../../../../src/exchange/server/state';

/** An order flow that records intents and applies a square-root impact to x. */
class Recorder implements OrderFlow {
  readonly symbol = 'TEST-USDT';
  x = 0;
  dt = 1;
  activity = 1;
  marketOnly = false;
  intents: { kind: IntentKind; agent: AgentKind; side: Side; units: number; depthBp: number }[] = [];
  constructor(
    readonly rng: Rng,
    readonly impact = 0,
  ) {}
  market(agent: AgentKind, side: Side, units: number): void {
    this.x += (side === 0 ? 1 : -1) * this.impact * Math.sqrt(units);
    this.intents.push({ kind: IntentKind.Market, agent, side, units, depthBp: 0 });
  }
  limit(agent: AgentKind, side: Side, units: number, depthBp: number): void {
    this.intents.push({ kind: IntentKind.Limit, agent, side, units, depthBp });
  }
  cancel(agent: AgentKind): void {
    this.intents.push({ kind: IntentKind.Cancel, agent, side: 0, units: 0, depthBp: 0 });
  }
}

describe('market agents', () => {
  describe('noise traders (Hawkes arrivals, power-law sizes)', () => {
    it('without excitation or regime, arrive at the base rate with the configured mix of market, limit and cancel', () => {
      const f = new Recorder(new Rng(7));
      const n = new NoiseTrader({ ...NOISE_DEFAULTS, branching: 0, regimeStd: 0, baseRate: 2 });
      for (let i = 0; i < 20_000; i++) n.step(f);
      const rate = f.intents.length / 20_000;
      assert.ok(Math.abs(rate - 2) < 0.05, `rate ${rate}`);
      const share = (k: IntentKind): number => f.intents.filter((i) => i.kind === k).length / f.intents.length;
      assert.ok(Math.abs(share(IntentKind.Market) - NOISE_DEFAULTS.pMarket) < 0.02);
      assert.ok(Math.abs(share(IntentKind.Limit) - NOISE_DEFAULTS.pLimit) < 0.02);
      const buys = f.intents.filter((i) => i.kind !== IntentKind.Cancel && i.side === 0).length / f.intents.filter((i) => i.kind !== IntentKind.Cancel).length;
      assert.ok(Math.abs(buys - 0.5) < 0.02, `buy share ${buys}`);
    });

    it('self-excite: events raise the intensity, which decays back at the configured rate; the mean rate is base / (1 − branching)', () => {
      const n = new NoiseTrader({ ...NOISE_DEFAULTS, regimeStd: 0, branching: 0.5, decay: 0.1, baseRate: 1 });
      assert.equal(n.intensity(1), 1);
      n.excite(10);
      assert.ok(Math.abs(n.intensity(1) - 1.5) < 1e-12, 'ten events add 10 × 0.5 × 0.1');
      const f = new Recorder(new Rng(1));
      const before = n.excitation;
      n.step({ ...f, rng: new Rng(99), dt: 10, market: () => undefined, limit: () => undefined, cancel: () => undefined } as OrderFlow);
      assert.ok(n.excitation < before, 'decays');
      const g = new Recorder(new Rng(3));
      const m = new NoiseTrader({ ...NOISE_DEFAULTS, regimeStd: 0, branching: 0.5, decay: 0.1, baseRate: 1 });
      for (let i = 0; i < 50_000; i++) m.step(g);
      const rate = g.intents.length / 50_000;
      assert.ok(Math.abs(rate - 2) < 0.15, `stationary rate ${rate} ≈ 1 / (1 − 0.5)`);
    });

    it('sizes: power law ≥ 1 unit, capped, p99 / median ≥ 10', () => {
      const f = new Recorder(new Rng(11));
      const n = new NoiseTrader(NOISE_DEFAULTS);
      for (let i = 0; i < 20_000; i++) n.step(f);
      const sizes = f.intents.filter((i) => i.kind !== IntentKind.Cancel).map((i) => i.units);
      assert.ok(sizes.every((s) => s >= 1 && s <= NOISE_DEFAULTS.sizeCap));
      assert.ok(quantile(sizes, 0.99) / quantile(sizes, 0.5) >= 10);
    });

    it('in a prices-only step (the history) emits marketable orders only', () => {
      const f = new Recorder(new Rng(5));
      f.marketOnly = true;
      const n = new NoiseTrader(NOISE_DEFAULTS);
      for (let i = 0; i < 2000; i++) n.step(f);
      assert.ok(f.intents.length > 100);
      assert.ok(f.intents.every((i) => i.kind === IntentKind.Market));
    });
  });

  it('momentum traders buy after a rise, sell after a fall, stay out of a flat market', () => {
    for (const [drift, side] of [
      [2e-5, 0],
      [-2e-5, 1],
    ] as const) {
      const f = new Recorder(new Rng(1));
      const m = new MomentumTrader(MOMENTUM_DEFAULTS);
      for (let i = 0; i < 3000; i++) {
        f.x += drift;
        m.step(f);
      }
      assert.ok(f.intents.length > 10, `orders after a trend (${drift})`);
      assert.ok(f.intents.every((i) => i.kind === IntentKind.Market && i.side === side && i.agent === AgentKind.Momentum));
    }
    const flat = new Recorder(new Rng(1));
    const m = new MomentumTrader(MOMENTUM_DEFAULTS);
    for (let i = 0; i < 3000; i++) m.step(flat);
    assert.equal(flat.intents.length, 0);
  });

  it('mean-reversion traders sell above the slow average and buy below it', () => {
    for (const [jump, side] of [
      [0.01, 1],
      [-0.01, 0],
    ] as const) {
      const f = new Recorder(new Rng(2));
      const m = new MeanReversionTrader(MEAN_REVERSION_DEFAULTS);
      m.step(f);
      f.x = jump;
      for (let i = 0; i < 300; i++) m.step(f);
      assert.ok(f.intents.length > 10);
      assert.ok(f.intents.every((i) => i.side === side && i.agent === AgentKind.MeanReversion));
    }
  });

  it('the informed trader sends large orders toward the news until the gap is closed', () => {
    const f = new Recorder(new Rng(4), 1e-5); // at most 1.4 bp per order: below the threshold, no overshoot
    const t = new InformedTrader({ ...INFORMED_DEFAULTS, newsPerHour: 3600 * 1000 });
    t.step(f); // news arrives now (rate × dt ≫ 1)
    const gap = t.gap;
    assert.notEqual(gap, 0);
    const target = f.x + gap;
    const quiet = new InformedTrader({ ...t.p, newsPerHour: 0 });
    Object.assign(quiet, { target, gap });
    for (let i = 0; i < 3000 && quiet.gap !== 0; i++) quiet.step(f);
    assert.equal(quiet.gap, 0, 'gap closed');
    assert.ok(Math.abs(f.x - target) < INFORMED_DEFAULTS.thresholdBp * 1e-4, `left ${f.x - target}`);
    const orders = f.intents.filter((i) => i.agent === AgentKind.Informed);
    assert.ok(orders.length > 0 && orders.every((o) => o.side === (gap > 0 ? 0 : 1) && o.units >= INFORMED_DEFAULTS.orderUnits));
  });

  it('the arbitrageur trades the basis back inside its threshold, and takes mispriced cross-pair levels', () => {
    const a = new Arbitrageur({ thresholdBp: 3, ratePerSecond: 1000, impact: 1e-4, maxUnits: 200 });
    const f = new Recorder(new Rng(1));
    a.basis = 10e-4;
    a.step(f);
    assert.equal(f.intents.length, 1);
    assert.equal(f.intents[0].side, 1, 'the cross pair is rich: sell it');
    assert.ok(Math.abs(f.intents[0].units - 49) < 1e-9, '(7 bp / 1 bp per √unit)² = 49 units');
    a.basis = 2e-4;
    a.step(f);
    assert.equal(f.intents.length, 1, 'within the threshold: nothing');
    // books: ETH-BTC ask 0.0380 while ETH-USDT bid 2600 / BTC-USDT ask 65000 = 0.04 → buy ETH-BTC
    const books = { bid: 0.0379, ask: 0.038, baseLegBid: 2600, baseLegAsk: 2601, quoteLegBid: 64999, quoteLegAsk: 65000 };
    assert.equal(a.bookCheck(books), 0);
    assert.equal(a.bookCheck({ ...books, bid: 0.0402, ask: 0.0403 }), 1);
    assert.equal(a.bookCheck({ ...books, bid: 0.03999, ask: 0.04001 }), null);
    assert.equal(a.bookCheck({ ...books, ask: null, bid: null }), null);
  });

  describe('market makers', () => {
    const p: MakerParams = { spreadTicks: 1, nearLevels: 3, nearSpacingTicks: 1, farLevels: 2, farGridTicks: 10, levelUnits: 5, skewTicksPerUnit: 0.1, maxInventoryUnits: 100, refreshPerSecond: 0 };

    it('quote a 1-tick touch around the fair price, near levels behind it and grid levels, skewed against inventory', () => {
      const flat = quoteLadder(p, 1000.4, 0);
      assert.deepEqual(flat.bids, [1000, 999, 998, 990, 980]);
      assert.deepEqual(flat.asks, [1001, 1002, 1003, 1010, 1020]);
      const long = quoteLadder(p, 1000.4, 50); // 5 ticks lower
      assert.equal(long.bids[0], 995);
      assert.equal(long.asks[0], 996);
      const wide = quoteLadder({ ...p, spreadTicks: 6 }, 1000, 0);
      assert.equal(wide.asks[0] - wide.bids[0], 6);
      const capped = quoteLadder({ ...p, skewTicksPerUnit: 0 }, 1000, 1000); // far past the limit: no near bids
      assert.deepEqual(capped.bids, [990, 980]);
    });

    it('re-quote: cancel what left the ladder and duplicates, place what is missing', () => {
      const resting = [
        { seq: 1, side: 0 as const, ticks: 1000 },
        { seq: 2, side: 0 as const, ticks: 1000 },
        { seq: 3, side: 1 as const, ticks: 1001 },
        { seq: 4, side: 1 as const, ticks: 1050 },
      ];
      const r = requote(p, new Rng(1), 0.1, 1000.4, 0, resting);
      assert.deepEqual(r.cancels.sort(), [2, 4]);
      assert.deepEqual(r.bids.map((q) => q.ticks), [999, 998, 990, 980]);
      assert.deepEqual(r.asks.map((q) => q.ticks), [1002, 1003, 1010, 1020]);
      assert.ok(r.bids.every((q) => q.units >= p.levelUnits));
    });
  });

  describe('market.batch', () => {
    const state = new SandboxState({ manualClock: true, startTime: 1_700_000_000_000 });
    state.run('world.seed', { seed: 1 });
    const bot = state.run('user.create', { apiKey: 'k1', apiSecret: 's', apiPassphrase: 'p', keyVersion: '2', permissions: [], label: 'sim-test', balances: [{ currency: 'USDT', type: 'trade', amount: '100000' }] });
    const person = state.run('user.create', { apiKey: 'k2', apiSecret: 's', apiPassphrase: 'p', keyVersion: '2', permissions: [], label: 'someone', balances: [{ currency: 'USDT', type: 'trade', amount: '100000' }] });
    const target: BatchTarget = {
      exchange: state.exchange,
      baseIncrement: (s) => state.world.symbolMap.get(s)?.baseIncrement,
      isBot: (uid) => state.users.get(uid)?.label.startsWith('sim-') ?? false,
    };

    it('refuses a person, an unknown symbol or op, and a torn action list, before changing anything', () => {
      const b = new BatchBuilder();
      b.push(BatchOp.Limit, person.uid, 'BTC-USDT', 0, 600_000, 100_000);
      assert.throws(() => checkBatch(target, b.args), /not a simulation bot/);
      assert.throws(() => checkBatch(target, { u: [bot.uid], s: ['NOPE-USDT'], a: [1, 0, 0, 0, 1, 1] }), /unknown symbol/);
      assert.throws(() => checkBatch(target, { u: [bot.uid], s: ['BTC-USDT'], a: [9, 0, 0, 0, 1, 1] }), /unknown action/);
      assert.throws(() => checkBatch(target, { u: [bot.uid], s: ['BTC-USDT'], a: [1, 0, 0, 0, 1] }), /multiple of 6/);
      assert.throws(() => state.run('market.batch', b.args), /not a simulation bot/);
      assert.equal(state.exchange.activeOrders(person.uid, 'BTC-USDT').length, 0);
    });

    it('applies actions in order through the engine; a rejected one is counted and skipped', () => {
      const b = new BatchBuilder();
      b.push(BatchOp.Limit, bot.uid, 'BTC-USDT', 0, 600_000, 100_000); // 60000 × 0.001 BTC
      b.push(BatchOp.PostOnly, bot.uid, 'BTC-USDT', 0, 700_000, 100_000); // crosses the seeded asks: post-only cancels it
      b.push(BatchOp.Limit, bot.uid, 'BTC-USDT', 0, 600_001, 1); // below the minimum size: rejected
      const r = state.run('market.batch', b.args);
      assert.equal(r.seqs.length, 3);
      assert.ok(r.seqs[0] > 0);
      assert.equal(r.rejected, 1);
      assert.match(r.firstRejection, /400100/);
      const active = state.exchange.activeQuotes(bot.uid, 'BTC-USDT');
      assert.deepEqual(active, [r.seqs[0], 0, 600_000]);
      const c = new BatchBuilder();
      c.push(BatchOp.Cancel, bot.uid, 'BTC-USDT', r.seqs[0], 0, 0);
      c.push(BatchOp.Cancel, bot.uid, 'BTC-USDT', r.seqs[0], 0, 0); // no longer active: a no-op
      state.run('market.batch', c.args);
      assert.deepEqual(state.exchange.activeQuotes(bot.uid, 'BTC-USDT'), []);
      state.exchange.checkInvariants();
      assert.equal(applyBatch(target, { u: [], s: [], a: [] }).seqs.length, 0);
    });
  });
});
