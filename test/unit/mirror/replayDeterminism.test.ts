/**
 * Replay determinism through the mirror market (issue "paper trading and record/replay": "two replays with the
 * same user orders give the same fills, byte for byte"): a recording of an upstream sandbox moved by real orders
 * is replayed twice on a manual clock (`--replay FILE --manual-clock`: the admin clock steps the ReplaySource),
 * the same user orders are placed at the same recorded times, and everything the user can read afterwards —
 * fills, orders, accounts, the public tape and book — is compared as JSON text.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as D from '../../../src/api/decimal';
import { replayMirrorOption } from '../../../src/exchange/cli';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server';
import { readRecording } from '../../../src/exchange/server/mirror/recording';
import { admin, credsOf, signed, startTestSandbox } from '../server/helpers';
import { recordSession, tempDir, trader } from '../record/helpers';

const SYMBOL = 'BTC-USDT';

/** One replay of `file` with the scripted user orders; @returns what the user and the public can read, as JSON. */
async function replayOnce(file: string): Promise<{ text: string; fills: number; steps: number }> {
  const { events } = readRecording(file);
  const times = [...new Set(events.map((e) => (e.type === 'status' ? e.since : e.time)))].sort((a, b) => a - b);
  const sb: RunningSandbox = await startSandbox({ sim: false, manualClock: true, startTime: times[0], rateLimits: false, mirror: replayMirrorOption(file, 1, true) });
  try {
    const creds = credsOf(sb);
    const place = async (body: Record<string, unknown>): Promise<void> => {
      const r = await signed(sb, creds, 'POST', '/api/v1/hf/orders', body);
      assert.equal(r.json.code, '200000', JSON.stringify(r.json));
    };
    for (let i = 1; i < times.length; i++) {
      // the same orders at the same recorded steps: a resting bid joining the best bid's queue, a market buy
      // walking the asks, a resting ask at the best ask
      const top = sb.state.exchange.level2(SYMBOL, 1);
      // orders only while the replayed market is open (the recording begins with its sync)
      if (sb.state.status.status === 'open') {
        if (i % 3 === 1 && top.bids.length > 0) await place({ clientOid: `bid-${i}`, symbol: SYMBOL, side: 'buy', type: 'limit', price: top.bids[0][0], size: '0.0004' });
        if (i % 3 === 2 && top.asks.length > 0) await place({ clientOid: `mkt-${i}`, symbol: SYMBOL, side: 'buy', type: 'market', size: '0.0002' });
        if (i % 3 === 0 && top.asks.length > 0) await place({ clientOid: `ask-${i}`, symbol: SYMBOL, side: 'sell', type: 'limit', price: top.asks[0][0], size: '0.0003' });
      }
      const r = await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: times[i] - sb.state.now() });
      assert.equal(r.json.code, '200000', JSON.stringify(r.json));
    }
    const read = async (p: string): Promise<unknown> => {
      const r = await signed(sb, creds, 'GET', p);
      assert.equal(r.json.code, '200000', `${p}: ${JSON.stringify(r.json)}`);
      return r.json.data;
    };
    const fills = (await read(`/api/v1/hf/fills?symbol=${SYMBOL}&limit=100`)) as { items: unknown[] };
    const seen = {
      fills,
      active: await read(`/api/v1/hf/orders/active?symbol=${SYMBOL}`),
      done: await read(`/api/v1/hf/orders/done?symbol=${SYMBOL}&limit=100`),
      accounts: await read('/api/v1/accounts'),
      tape: sb.state.exchange.trades(SYMBOL),
      book: sb.state.exchange.level2(SYMBOL, 100),
    };
    sb.state.exchange.checkInvariants();
    return { text: JSON.stringify(seen), fills: fills.items.length, steps: times.length };
  } finally {
    await sb.close();
  }
}

describe('replay determinism through the mirror market', function () {
  this.timeout(90_000);
  let tmp: ReturnType<typeof tempDir>;
  let up: RunningSandbox;
  let file: string;

  before(async () => {
    tmp = tempDir('spotdesk-replaydet-');
    up = await startTestSandbox({ rateLimits: false });
    const c = await trader(up);
    file = path.join(tmp.dir, 'session.sdrec');
    // the upstream's clock is manual: one second per round, so the replay has steps to place orders between
    await recordSession(up, c, file, 12, { symbols: [SYMBOL], afterRound: async () => void (await admin(up, 'POST', '/sandbox/v1/clock', { advanceMs: 1_000 })) });
    c.close();
  });
  after(async () => {
    await up?.close();
    tmp?.cleanup();
  });

  it('two replays with the same user orders give the same fills, orders, accounts, tape and book, byte for byte', async () => {
    const a = await replayOnce(file);
    assert.ok(a.steps >= 12, `recorded steps: ${a.steps}`);
    const b = await replayOnce(file);
    assert.ok(a.fills > 0, 'the scripted orders filled (a market buy takes the recorded asks)');
    console.log(`      replay: ${a.steps} steps, ${a.fills} fills of the user`);
    assert.equal(b.text, a.text);
    // and the replay is not trivially empty: the recorded trades reached the tape
    const tape = (JSON.parse(a.text) as { tape: { size: string }[] }).tape;
    assert.ok(tape.length > 0 && tape.every((t) => D.cmp(t.size, '0') > 0));
  });
});
