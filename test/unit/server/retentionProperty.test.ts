/**
 * Retention of the 3 × 24 h history window, as a property: random histories of every
 * kind of record the retention touches — deposits, withdrawals (settled, failed, in flight), done orders,
 * fills, account-ledger entries, tape trades and candle rows — with timestamps around the window's start,
 * run through SandboxState's command path on a state dir (StateStore, manual clock). After the clock moves
 * on, exactly the records older than the window are gone and nothing newer; a restart — from a clean
 * snapshot, or after a kill, from a snapshot taken mid-history plus the journal after it — keeps the same
 * set. (SandboxState.pruneHistory once took the number of dropped ledger and tape records as its start
 * index into the deposits and dropped deposits newer than the cutoff.)
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { HISTORY_WINDOW_MS } from '../../../src/exchange/core';
import { CANDLE_SECONDS, CANDLE_TYPES, candleStart } from '../../../src/exchange/server/marketTape';
import { SandboxState, newKeyMaterial, type SnapshotSource } from '../../../src/exchange/server/state';
import { StateStore } from '../../../src/exchange/server/stateStore';

const T0 = Date.UTC(2026, 0, 5); // a Monday
const MIN = 60_000;
const HOUR = 60 * MIN;
/** The server prunes its history when the command clock enters a new interval of this length (state.ts PRUNE_EVERY_MS). */
const PRUNE_EVERY_MS = 10 * MIN;
const SYM = 'BTC-USDT';
const TRON = 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8';

/** One thing that happened, at `at` ms after the history's origin (see {@link run}). */
type Event =
  | { k: 'deposit'; at: number }
  | { k: 'transfer'; at: number }
  | { k: 'withdrawal'; at: number; end: 'settle' | 'release' | 'none'; after: number }
  | { k: 'done'; at: number; after: number }
  | { k: 'trade'; at: number; side: 'buy' | 'sell' };

/** Open `dir` the way startSandbox does (manual clock starting at T0). */
function open(dir: string): ReturnType<typeof StateStore.open> {
  return StateStore.open(dir, (snapshot?: SnapshotSource) => {
    const s = new SandboxState({ manualClock: true, startTime: T0, snapshot });
    return { state: s, warnings: snapshot ? s.importSections(snapshot) : [] };
  });
}

/** What the retention keeps, as sorted keys per kind. */
interface Kept {
  deposits: string[];
  withdrawals: string[];
  doneOrders: string[];
  fills: string[];
  ledger: number[];
  tape: string[];
  candles: Record<string, number[]>;
}

function observe(state: SandboxState, uid: string): Kept {
  const candles: Record<string, number[]> = {};
  for (const type of CANDLE_TYPES) candles[type] = state.tape.candles(SYM, type).map((r) => Number(r[0])).sort((a, b) => a - b);
  return {
    deposits: state.deposits.map((d) => d.depositId).sort(),
    withdrawals: [...state.withdrawals.keys()].sort(),
    doneOrders: state.exchange.doneOrders(uid, SYM, { limit: 100 }).map((o) => o.clientOid ?? '').sort(),
    fills: [...new Set(state.exchange.fills(uid, { symbol: SYM, limit: 100 }).items.map((f) => f.orderId))].sort(),
    ledger: state.ledger.entriesOf(uid).map((e) => e.id).sort((a, b) => a - b),
    tape: state.tape.recentTrades(SYM).map((t) => t.sequence).sort(),
    candles,
  };
}

/**
 * Run `events` (times relative to `end − HISTORY_WINDOW_MS`, the final cutoff) on a fresh state dir, take a
 * snapshot after `snapAt` of the actions, move the clock to `end`, and check what is kept against what was
 * made; then restart (clean close, or a kill after which the journal is replayed) and check again.
 */
function run(events: Event[], end: number, snapAt: number, kill: boolean): Record<keyof Kept, { made: number; kept: number }> {
  const cutoff = end - HISTORY_WINDOW_MS;
  // every action happens before the 10-minute interval of `end`: moving the clock to `end` prunes
  const last = Math.floor(end / PRUNE_EVERY_MS) * PRUNE_EVERY_MS - 1;
  const at = (rel: number): number => Math.max(T0 + 1, Math.min(last, cutoff + rel));
  type Action = { t: number; i: number; go: () => void };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-retention-'));
  try {
    const a = open(dir);
    const st = a.state;
    st.run('world.seed', { seed: 3 });
    const u = st.run('user.create', {
      ...newKeyMaterial(),
      keyVersion: '2',
      permissions: ['General', 'Spot', 'Transfer'],
      balances: [
        { currency: 'USDT', type: 'main', amount: '100000' },
        { currency: 'USDT', type: 'trade', amount: '100000' },
        { currency: 'BTC', type: 'trade', amount: '2' },
      ],
      label: 'r',
    });
    // the model: what was made, and when
    const made = { deposits: new Map<string, number>(), withdrawals: new Map<string, number>(), done: new Map<string, number>(), fills: new Map<string, number>() };
    const actions: Action[] = [];
    events.forEach((e, n) => {
      const t = at(e.at);
      const push = (time: number, go: () => void): void => void actions.push({ t: time, i: actions.length, go });
      switch (e.k) {
        case 'deposit':
          push(t, () => st.run('deposit', { uid: u.uid, currency: 'USDT', chainId: 'trx', amount: '5', depositId: `d${n}` }));
          made.deposits.set(`d${n}`, t);
          break;
        case 'transfer':
          push(t, () => st.run('transfer', { uid: u.uid, clientOid: `t${n}`, currency: 'USDT', from: 'main', to: 'trade', amount: '1' }));
          break;
        case 'withdrawal': {
          const id = `w${n}`;
          const t2 = Math.min(last, t + e.after);
          push(t, () =>
            st.run('withdrawal.create', { withdrawalId: id, uid: u.uid, version: 'v1', currency: 'USDT', chainId: 'trx', withdrawType: 'ADDRESS', toAddress: TRON, memo: '', isInner: false, remark: '', amount: '20' }),
          );
          if (e.end === 'settle') push(t2, () => st.run('withdrawal.settle', { withdrawalId: id }));
          if (e.end === 'release') push(t2, () => st.run('withdrawal.release', { withdrawalId: id, reason: 'test' }));
          made.withdrawals.set(id, e.end === 'none' ? Infinity : t2);
          break;
        }
        case 'done': {
          const t2 = Math.min(last, t + e.after);
          let orderId = '';
          push(t, () => void ({ orderId } = st.run('order.place', { uid: u.uid, req: { clientOid: `o${n}`, symbol: SYM, side: 'buy', type: 'limit', price: '20000', size: '0.001' } })));
          push(t2, () => void st.run('order.cancel', { uid: u.uid, symbol: SYM, orderId }));
          made.done.set(`o${n}`, t2);
          break;
        }
        case 'trade':
          push(t, () => {
            const r = st.run('order.place', { uid: u.uid, req: { clientOid: `x${n}`, symbol: SYM, side: e.side, type: 'limit', price: e.side === 'buy' ? '200000' : '20000', size: '0.00001', timeInForce: 'IOC' } });
            made.fills.set(r.orderId, t);
          });
          made.done.set(`x${n}`, t);
          break;
      }
    });
    actions.sort((x, y) => x.t - y.t || x.i - y.i);
    // every ledger entry and tape trade ever made (a command's own prune drops only older ones, so
    // looking after each command sees them all)
    const ledgerMade = new Map<number, number>();
    const tapeMade = new Map<string, number>();
    const look = (): void => {
      for (const e of st.ledger.entriesOf(u.uid)) ledgerMade.set(e.id, e.createdAt);
      for (const tr of st.tape.recentTrades(SYM)) tapeMade.set(tr.sequence, tr.time);
    };
    actions.forEach((x, k) => {
      if (x.t > st.now()) st.run('clock.set', { now: x.t });
      x.go();
      look();
      if (k === snapAt) a.store.rotate();
    });
    st.run('clock.set', { now: end });

    const newer = <K>(m: Map<K, number>): K[] => [...m].filter(([, t]) => t >= cutoff).map(([k]) => k);
    const tradeTimes = [...made.fills.values()];
    const candles: Record<string, number[]> = {};
    for (const type of CANDLE_TYPES) {
      const len = CANDLE_SECONDS[type];
      const starts = new Set(tradeTimes.map((t) => candleStart(type, Math.floor(t / 1000))).filter((s) => (s + len) * 1000 > cutoff));
      candles[type] = [...starts].sort((x, y) => x - y);
    }
    const want: Kept = {
      deposits: newer(made.deposits).sort(),
      withdrawals: newer(made.withdrawals).sort(),
      doneOrders: newer(made.done).sort(),
      fills: newer(made.fills).sort(),
      ledger: newer(ledgerMade).sort((x, y) => x - y),
      tape: newer(tapeMade).sort(),
      candles,
    };
    assert.equal(tapeMade.size, made.fills.size, 'one tape trade per IOC order');
    const allCandles = new Set(CANDLE_TYPES.flatMap((type) => tradeTimes.map((t) => `${type} ${candleStart(type, Math.floor(t / 1000))}`)));
    const counts = {
      deposits: { made: made.deposits.size, kept: want.deposits.length },
      withdrawals: { made: made.withdrawals.size, kept: want.withdrawals.length },
      doneOrders: { made: made.done.size, kept: want.doneOrders.length },
      fills: { made: made.fills.size, kept: want.fills.length },
      ledger: { made: ledgerMade.size, kept: want.ledger.length },
      tape: { made: tapeMade.size, kept: want.tape.length },
      candles: { made: allCandles.size, kept: Object.values(candles).reduce((x, c) => x + c.length, 0) },
    };
    assert.deepEqual(observe(st, u.uid), want, 'kept after the clock moved on');
    if (kill) a.store.abandon();
    else a.store.close();
    const b = open(dir);
    try {
      assert.deepEqual(observe(b.state, u.uid), want, `kept after a restart (${kill ? 'kill, journal replayed' : 'clean close'})`);
      b.state.exchange.checkInvariants();
    } finally {
      b.store.abandon();
    }
    return counts;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A time relative to the final cutoff: mostly within minutes of it, sometimes anywhere in the day before or the window after. */
const relTime = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -15 * MIN, max: 15 * MIN }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1) },
  { weight: 2, arbitrary: fc.integer({ min: -24 * HOUR, max: HISTORY_WINDOW_MS }) },
);
const after = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 * MIN }));
const eventArb: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ k: fc.constant('deposit' as const), at: relTime }),
  fc.record({ k: fc.constant('transfer' as const), at: relTime }),
  fc.record({ k: fc.constant('withdrawal' as const), at: relTime, end: fc.constantFrom('settle' as const, 'release' as const, 'none' as const), after }),
  fc.record({ k: fc.constant('done' as const), at: relTime, after }),
  fc.record({ k: fc.constant('trade' as const), at: relTime, side: fc.constantFrom('buy' as const, 'sell' as const) }),
);
/** The final clock: 3 × 24 h after T0 and then up to a day and a half more, sometimes on a whole minute. */
const endArb = fc.oneof(fc.integer({ min: 12 * HOUR, max: 36 * HOUR }), fc.integer({ min: 12 * 60, max: 36 * 60 }).map((m) => m * MIN)).map((d) => T0 + HISTORY_WINDOW_MS + d);

describe('retention (property): exactly the records older than the 3 × 24 h window go, in memory and after a restart', function () {
  this.timeout(120_000);

  it('random histories of deposits, withdrawals, done orders, fills, ledger entries, tape trades and candles around the cutoff', () => {
    // runs in which a kind had records on both sides of the cutoff (some dropped, some kept)
    const split: Record<string, number> = {};
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 30 }), endArb, fc.nat(), fc.boolean(), (events, end, snap, kill) => {
        const counts = run(events, end, snap % (events.length * 2), kill);
        for (const [kind, c] of Object.entries(counts)) if (c.kept > 0 && c.kept < c.made) split[kind] = (split[kind] ?? 0) + 1;
      }),
      { numRuns: Number(process.env.RETENTION_RUNS ?? 40), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    // the histories straddled the cutoff for every kind
    for (const kind of ['deposits', 'withdrawals', 'doneOrders', 'fills', 'ledger', 'tape', 'candles']) assert.ok((split[kind] ?? 0) > 0, `${kind}: ${JSON.stringify(split)}`);
  });

  it('the reproduced run: deposits newer than the cutoff survive the prune that drops older ledger entries and tape trades', () => {
    const end = T0 + HISTORY_WINDOW_MS + 20 * HOUR;
    run(
      [
        { k: 'deposit', at: -2 * HOUR },
        { k: 'trade', at: -HOUR, side: 'buy' },
        { k: 'transfer', at: -HOUR },
        { k: 'deposit', at: 5 * MIN },
        { k: 'deposit', at: HOUR },
        { k: 'deposit', at: 2 * HOUR },
      ],
      end,
      0,
      false,
    );
  });
});
