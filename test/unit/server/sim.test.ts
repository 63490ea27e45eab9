/**
 * Market simulation (src/exchange/server/sim.ts): with a fixed seed and a manual
 * clock, in process (no HTTP), the books stay two-sided and never crossed, prices and books move,
 * fills happen, every bot action is a journaled command accepted by the engine, and the ledger
 * invariants hold.
 */
import { strict as assert } from 'node:assert';
import * as D from '../../../src/api/decimal';
import { Command, MemoryJournal, SandboxState } from '../../../src/exchange/server/state';
import { SIM_MAKER_LABEL, SIM_TAKER_LABEL, startSimulation } from '../../../src/exchange/server/sim';

const T0 = 1_700_000_000_000;

/** A seeded sandbox state with a manual clock and an in-memory journal. */
function seededState(): { state: SandboxState; journal: MemoryJournal } {
  const state = new SandboxState({ manualClock: true, startTime: T0 });
  const journal = new MemoryJournal();
  state.attachJournal(journal);
  state.exec({ op: 'world.seed', t: T0, args: { seed: 1 } });
  return { state, journal };
}

/** Advance the manual clock by `ms` and run one simulation step. */
function tick(state: SandboxState, sim: { step(): void }, ms = 1000): void {
  const now = state.now() + ms;
  state.exec({ op: 'clock.set', t: now, args: { now } });
  sim.step();
}

/** Bot actions of a journal without the random key material (for determinism comparisons). */
function botActions(cmds: Command[]): unknown[] {
  return cmds.filter((c) => c.op === 'order.place' || c.op === 'order.cancel' || c.op === 'funds.grant').map((c) => ({ op: c.op, t: c.t, args: c.args }));
}

describe('market simulation (seeded, manual clock)', function () {
  this.timeout(60_000);
  const STEPS = 120;

  it('keeps every book two-sided and uncrossed while prices, books and fills move', () => {
    const { state, journal } = seededState();
    const symbols = state.world.symbols.filter((s) => s.enableTrading && state.exchange.level2(s.symbol, 1).bids.length > 0).map((s) => s.symbol);
    assert.ok(symbols.length >= 5, `simulated symbols: ${symbols.join(',')}`);
    const before = new Map(symbols.map((s) => [s, JSON.stringify(state.exchange.level2(s, 20))]));
    const tradesBefore = new Map(symbols.map((s) => [s, state.exchange.trades(s).length]));
    const sim = startSimulation(state, { seed: 42, intervalMs: 0 });
    const journaledBefore = journal.commands.length;
    const mids = new Map<string, Set<string>>(symbols.map((s) => [s, new Set()]));
    for (let i = 0; i < STEPS; i++) {
      tick(state, sim);
      for (const s of symbols) {
        const b = state.exchange.level2(s, 20);
        assert.ok(b.bids.length > 0 && b.asks.length > 0, `${s} two-sided at step ${i}`);
        assert.equal(D.cmp(b.bids[0][0], b.asks[0][0]), -1, `${s} not crossed at step ${i}: ${b.bids[0][0]} / ${b.asks[0][0]}`);
        for (let k = 1; k < b.bids.length; k++) assert.equal(D.cmp(b.bids[k - 1][0], b.bids[k][0]), 1, `${s} bids sorted high→low`);
        for (let k = 1; k < b.asks.length; k++) assert.equal(D.cmp(b.asks[k - 1][0], b.asks[k][0]), -1, `${s} asks sorted low→high`);
        mids.get(s)!.add(D.add(b.bids[0][0], b.asks[0][0]));
      }
    }
    assert.equal(sim.steps, STEPS);
    assert.equal(sim.rejected, 0, `no bot command rejected (last: ${sim.lastRejection})`);
    for (const s of symbols) {
      assert.notEqual(JSON.stringify(state.exchange.level2(s, 20)), before.get(s), `${s} book changed`);
      assert.ok(mids.get(s)!.size >= 5, `${s} best bid/ask moved (${mids.get(s)!.size} distinct mids)`);
      const newTrades = state.exchange.trades(s).length - tradesBefore.get(s)!;
      assert.ok(newTrades >= 10, `${s} traded (${newTrades} trades)`);
      // the maker quotes on both sides, on the symbol's grid
      const info = state.world.symbolMap.get(s)!;
      const maker = [...state.users.values()].find((u) => u.label === SIM_MAKER_LABEL)!;
      const quotes = state.exchange.activeOrders(maker.uid, s);
      assert.ok(quotes.some((o) => o.side === 'buy') && quotes.some((o) => o.side === 'sell'), `${s} maker quotes both sides`);
      for (const o of quotes) {
        assert.ok(D.isMultipleOf(o.price, info.priceIncrement) && D.isMultipleOf(o.size, info.baseIncrement), `${s} quote on grid`);
        assert.ok(D.cmp(o.size, info.baseMinSize) >= 0, `${s} quote ≥ baseMinSize`);
      }
    }
    // bots are real users created through exec; every action is journaled
    const labels = [...state.users.values()].map((u) => u.label);
    assert.ok(labels.includes(SIM_MAKER_LABEL) && labels.includes(SIM_TAKER_LABEL));
    const simCmds = journal.commands.slice(journaledBefore - 2);
    assert.ok(simCmds.filter((c) => c.op === 'user.create').length === 2, 'two bot users journaled');
    const placed = journal.commands.filter((c) => c.op === 'order.place').length;
    assert.ok(placed >= STEPS * symbols.length, `orders journaled: ${placed}`);
    assert.ok(placed <= STEPS * symbols.length * 5, `CPU-light: at most ~5 placements per symbol per step (${placed})`);
    state.exchange.checkInvariants();
  });

  it('is deterministic for a seed, finds its bots again after a restart, and never runs out of funds', () => {
    const a = seededState();
    const simA = startSimulation(a.state, { seed: 7, intervalMs: 0 });
    const b = seededState();
    const simB = startSimulation(b.state, { seed: 7, intervalMs: 0 });
    for (let i = 0; i < 30; i++) {
      tick(a.state, simA);
      tick(b.state, simB);
    }
    assert.deepEqual(botActions(b.journal.commands), botActions(a.journal.commands));
    assert.ok(botActions(a.journal.commands).length > 100);

    // "restart": replay the journal into a fresh state, start the simulation again → same bots, no new users
    const c = new SandboxState({ manualClock: true, startTime: T0 });
    c.replay(a.journal.commands);
    assert.equal(c.users.size, a.state.users.size);
    const simC = startSimulation(c, { seed: 8, intervalMs: 0 });
    assert.equal(simC.makerUid, simA.makerUid);
    assert.equal(simC.takerUid, simA.takerUid);
    for (const s of ['BTC-USDT', 'ETH-USDT']) assert.deepEqual(c.exchange.level2(s, 100), a.state.exchange.level2(s, 100));
    // drain the maker's trade USDT: the next step tops it up through funds.grant before quoting
    const journalC = new MemoryJournal();
    c.attachJournal(journalC);
    const usdt = c.exchange.accounts(simC.makerUid, { currency: 'USDT', type: 'trade' })[0];
    c.exec({ op: 'transfer', t: c.now(), args: { uid: simC.makerUid, clientOid: 'drain', currency: 'USDT', from: 'trade', to: 'main', amount: D.roundDown(usdt.available, '0.00000001') } });
    assert.equal(D.cmp(c.exchange.accounts(simC.makerUid, { currency: 'USDT', type: 'trade' })[0].available, '0.00000001'), -1);
    for (let i = 0; i < 60; i++) tick(c, simC);
    const grants = journalC.commands.filter((x) => x.op === 'funds.grant' && x.args.uid === simC.makerUid && x.args.currency === 'USDT');
    assert.equal(grants.length, 1, 'one top-up of the drained currency');
    assert.equal(simC.rejected, 0, simC.lastRejection);
    c.exchange.checkInvariants();
  });

  it('pauses while the service status is not open and can be stopped', () => {
    const { state, journal } = seededState();
    const sim = startSimulation(state, { seed: 3, intervalMs: 0 });
    state.exec({ op: 'status.set', t: state.now(), args: { status: 'cancelonly', msg: 'maintenance' } });
    const n = journal.commands.length;
    for (let i = 0; i < 5; i++) tick(state, sim);
    assert.equal(journal.commands.filter((c, i) => i >= n && c.op !== 'clock.set').length, 0, 'no bot action while cancelonly');
    state.exec({ op: 'status.set', t: state.now(), args: { status: 'open', msg: '' } });
    tick(state, sim);
    assert.ok(journal.commands.slice(n).some((c) => c.op === 'order.place'));
    sim.stop();
    sim.stop();
  });

  it('steps on its own timer when intervalMs > 0', async () => {
    const { state, journal } = seededState();
    const sim = startSimulation(state, { seed: 5, intervalMs: 20 });
    await new Promise((r) => setTimeout(r, 150));
    sim.stop();
    const steps = sim.steps;
    assert.ok(steps >= 2, `steps ${steps}`);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(sim.steps, steps, 'no step after stop()');
    assert.ok(journal.commands.some((c) => c.op === 'order.place'));
  });
});
