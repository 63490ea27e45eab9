/**
 * The agent-based market as a whole (src/exchange/server/market/): history from the first minute, the
 * same seed giving the same history and the same first minute of live market, the history surviving a
 * restart (clean, and a kill before the first snapshot: the journal's `market.history` replays), the money
 * invariants under random interleavings of a person's orders with the bots' steps (fast-check), and the
 * live rates of the majors on a manual clock.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import * as D from '../../../../src/api/decimal';
import { startSandbox } from '../../../../src/exchange/server/index';
import { buildMarketHistory, startMarket } from '../../../../src/exchange/server/market';
import { CANDLE_TYPES } from '../../../../src/exchange/server/marketTape';
import { computeTickers } from '../../../../src/exchange/server/routes';
import { MemoryJournal, SandboxState, type Command } from '../../../../src/exchange/server/state';

const T0 = 1_700_000_000_000;
const SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'ETH-BTC', 'NEO-ETH'];

/** Every candle of every interval of `symbols`, as the API answers them (newest first, paged back). */
function allCandles(state: SandboxState, symbols = SYMBOLS): string {
  const out: unknown[] = [];
  for (const s of symbols) {
    for (const type of CANDLE_TYPES) {
      let endAt = 0;
      for (;;) {
        const page = state.tape.candles(s, type, 0, endAt, state.historyStart());
        out.push(page);
        if (page.length < 1500) break;
        endAt = Number(page[page.length - 1][0]) - 1;
      }
    }
  }
  return JSON.stringify(out);
}

/** A fresh in-memory state with the history built at T0. */
function withHistory(seed: number): { state: SandboxState; journal: MemoryJournal } {
  const state = new SandboxState({ manualClock: true, startTime: T0 });
  const journal = new MemoryJournal();
  state.attachJournal(journal);
  buildMarketHistory(state, { seed, profile: 'realistic', now: T0 });
  return { state, journal };
}

/** Advance the manual clock by one market step and step the market. */
function tick(state: SandboxState, sim: { step(): void }, ms = 75): void {
  const now = state.now() + ms;
  state.exec({ op: 'clock.set', t: now, args: { now } });
  sim.step();
}

/** The market's commands of a journal (without the bots' random key material). */
function marketCommands(cmds: Command[]): unknown[] {
  return cmds.filter((c) => c.op === 'market.batch' || c.op === 'market.history' || c.op === 'funds.grant').map((c) => ({ op: c.op, t: c.t, args: c.args }));
}

describe('agent-based market', function () {
  this.timeout(120_000);

  it('starts with 3 × 24 h of candles of every interval, 24 h statistics and a live book at a 1-tick spread on the majors', () => {
    const { state } = withHistory(1);
    const minutes = state.tape.candles('BTC-USDT', '1min', Math.floor(T0 / 1000) - 72 * 3600, 0, state.historyStart());
    assert.equal(minutes.length, 1500, 'one page');
    let n = 0;
    for (let endAt = 0; ; ) {
      const page = state.tape.candles('BTC-USDT', '1min', Math.floor(T0 / 1000) - 72 * 3600, endAt, state.historyStart());
      n += page.length;
      if (page.length < 1500) break;
      endAt = Number(page[page.length - 1][0]) - 1;
    }
    assert.ok(n >= 4300, `1-minute candles of 72 h: ${n}`);
    for (const type of CANDLE_TYPES) assert.ok(state.tape.candles('ETH-USDT', type, 0, 0, state.historyStart()).length > 0, `${type} rows`);
    for (const [o, c, h, l] of state.tape.candles('BTC-USDT', '1hour').map((r) => r.slice(1, 5))) {
      assert.ok(D.cmp(h, o) >= 0 && D.cmp(h, c) >= 0 && D.cmp(l, o) <= 0 && D.cmp(l, c) <= 0, 'high/low bound open and close');
    }
    const btc = computeTickers(state).ticker.find((t) => t.symbol === 'BTC-USDT')!;
    assert.ok(D.cmp(btc.volValue ?? '0', '1000000') > 0, `24 h volume ${btc.volValue} USDT`);
    assert.ok(btc.high !== null && btc.low !== null && D.cmp(btc.high, btc.low) > 0);
    const book = state.exchange.level2('BTC-USDT', 1);
    assert.equal(D.sub(book.asks[0][0], book.bids[0][0]), '0.1', 'BTC-USDT at a 1-tick spread');
    assert.ok(state.tape.recentTrades('BTC-USDT').length >= 50, 'recent trades of the last minute');
    state.exchange.checkInvariants();
  });

  it('is deterministic by seed: the same history and the same first minute of live market; another seed differs', () => {
    const a = withHistory(5);
    const b = withHistory(5);
    assert.equal(allCandles(a.state), allCandles(b.state));
    const simA = startMarket(a.state, { seed: 5, profile: 'realistic', intervalMs: 0 });
    const simB = startMarket(b.state, { seed: 5, profile: 'realistic', intervalMs: 0 });
    for (let i = 0; i < 800; i++) {
      tick(a.state, simA);
      tick(b.state, simB);
    }
    assert.deepEqual(marketCommands(a.journal.commands), marketCommands(b.journal.commands));
    assert.equal(JSON.stringify(a.state.tape.recentTrades('BTC-USDT')), JSON.stringify(b.state.tape.recentTrades('BTC-USDT')));
    assert.equal(allCandles(a.state), allCandles(b.state));
    assert.ok(simA.steps === 800 && a.journal.commands.filter((c) => c.op === 'market.batch').length >= 700);
    const c = withHistory(6);
    assert.notEqual(allCandles(c.state, ['BTC-USDT']), allCandles(a.state, ['BTC-USDT']));
  });

  it('keeps the history across restarts: from the snapshot after a clean stop, and by replaying market.history after a kill', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-market-'));
    try {
      // a kill before the first snapshot: copy the state dir while the sandbox runs (a crash image)
      const first = await startSandbox({ stateDir: path.join(dir, 'a'), manualClock: true, market: 'realistic', seed: 3 });
      assert.ok(first.historyBuildMs !== null && first.historyBuildMs > 0);
      const atStart = allCandles(first.state, ['BTC-USDT', 'ETH-BTC']);
      fs.cpSync(path.join(dir, 'a'), path.join(dir, 'killed'), { recursive: true, filter: (f) => !f.endsWith('.lock') && !f.includes('lock') });
      await first.close();
      const atClose = allCandles(first.state, ['BTC-USDT', 'ETH-BTC']);
      const again = await startSandbox({ stateDir: path.join(dir, 'a'), manualClock: true, market: 'realistic', seed: 3 });
      try {
        assert.equal(again.historyBuildMs, null, 'no second history');
        assert.equal(allCandles(again.state, ['BTC-USDT', 'ETH-BTC']), atClose);
      } finally {
        await again.close();
      }
      const replayed = await startSandbox({ stateDir: path.join(dir, 'killed'), manualClock: true, sim: false, seed: 3 });
      try {
        assert.deepEqual(replayed.warnings.filter((w) => /failed/.test(w)), []);
        // the history replays identically; the live steps after it in the copied journal too
        const hist = (s: string): string => allCandles(replayed.state, [s]);
        assert.ok(hist('BTC-USDT').length > 1000);
        assert.equal(allCandles(replayed.state, ['BTC-USDT', 'ETH-BTC']), atStart);
        replayed.state.exchange.checkInvariants();
      } finally {
        await replayed.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never breaks the money invariants, nor crosses a book, whatever a person does between the steps (property)', () => {
    // no history here (a state seeded at T0): the live market alone, short runs
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(
          fc.oneof(
            fc.record({ k: fc.constant('steps' as const), n: fc.integer({ min: 1, max: 40 }) }),
            fc.record({ k: fc.constant('order' as const), side: fc.constantFrom('buy' as const, 'sell' as const), away: fc.integer({ min: -30, max: 30 }), size: fc.integer({ min: 1, max: 200 }) }),
            fc.record({ k: fc.constant('cancelAll' as const) }),
            fc.record({ k: fc.constant('status' as const), status: fc.constantFrom('open' as const, 'cancelonly' as const) }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        (seed, events) => {
          const state = new SandboxState({ manualClock: true, startTime: T0 });
          state.attachJournal(new MemoryJournal());
          state.run('world.seed', { seed: 1 });
          const person = state.run('user.create', {
            apiKey: 'person',
            apiSecret: 's',
            apiPassphrase: 'p',
            keyVersion: '2',
            permissions: [],
            balances: [
              { currency: 'USDT', type: 'trade', amount: '100000' },
              { currency: 'BTC', type: 'trade', amount: '2' },
            ],
          });
          const sim = startMarket(state, { seed, profile: 'volatile', intervalMs: 0 });
          for (const e of events) {
            if (e.k === 'steps') for (let i = 0; i < e.n; i++) tick(state, sim);
            else if (e.k === 'status') state.run('status.set', { status: e.status, msg: '' });
            else if (e.k === 'cancelAll') state.run('order.cancelAll', { uid: person.uid, symbol: 'BTC-USDT' });
            else {
              const bba = state.exchange.bestBidAsk('BTC-USDT');
              const ref = Number(bba.bestBid ?? bba.bestAsk ?? '60000');
              const price = (Math.round(ref * 10) / 10 + e.away * 5).toFixed(1);
              try {
                state.run('order.place', { uid: person.uid, req: { symbol: 'BTC-USDT', side: e.side, type: 'limit', price, size: (e.size / 10000).toFixed(4) } });
              } catch {
                // a rejected order (balance) changes nothing
              }
            }
            state.exchange.checkInvariants();
            for (const s of ['BTC-USDT', 'ETH-USDT', 'ETH-BTC']) {
              const b = state.exchange.level2(s, 1);
              if (b.bids.length && b.asks.length) assert.ok(D.cmp(b.bids[0][0], b.asks[0][0]) < 0, `${s} crossed`);
            }
          }
          // the person's money is where the ledger says: nothing created or lost by the bots' batches
          state.exchange.checkInvariants({ done: true });
        },
      ),
      { numRuns: 12 },
    );
  });

  it('live: BTC-USDT trades every second, its book changes in most steps, and its median spread is 1–2 ticks', () => {
    const { state } = withHistory(2);
    const sim = startMarket(state, { seed: 2, profile: 'realistic', intervalMs: 0 });
    let changes = 0;
    const spreads: number[] = [];
    let seq = state.exchange.sequence('BTC-USDT');
    const tradesBefore = state.exchange.trades('BTC-USDT').length;
    const steps = 1600; // 120 s
    for (let i = 0; i < steps; i++) {
      tick(state, sim);
      const s = state.exchange.sequence('BTC-USDT');
      if (s !== seq) changes++;
      seq = s;
      const b = state.exchange.bestBidAsk('BTC-USDT');
      spreads.push(Math.round((Number(b.bestAsk) - Number(b.bestBid)) * 10));
    }
    const trades = state.exchange.trades('BTC-USDT').length - tradesBefore;
    spreads.sort((x, y) => x - y);
    assert.ok(trades / 120 >= 1, `${trades / 120} trades/s`);
    assert.ok(changes / steps >= 0.75, `book changed in ${changes} of ${steps} steps`);
    assert.ok(spreads[steps / 2] <= 2, `median spread ${spreads[steps / 2]} ticks`);
    state.exchange.checkInvariants();
  });
});
