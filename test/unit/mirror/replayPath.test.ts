/**
 * The replay path of the mirror option: `startSandbox({mirror: {source, label: 'replay', world}})` with a source
 * on a manual clock (a stand-in for the recorder's ReplaySource, same contract: src/exchange/server/mirror/source.ts).
 * Admin POST /sandbox/v1/clock steps it (`advanceTo` before the clock moves); its events become commands stamped with
 * their own times; a `status` event makes the sandbox cancel-only with the `replay:` label.
 */
import { strict as assert } from 'node:assert';
import type { RunningSandbox } from '../../../src/exchange/server';
import { startSandbox } from '../../../src/exchange/server';
import type { MarketEvent, MarketSource } from '../../../src/exchange/server/mirror/source';
import type { MirrorWorldData } from '../../../src/exchange/server/mirror/upstream';
import { buildWorld } from '../../../src/exchange/server/world';
import { admin, credsOf, signed } from '../server/helpers';

const T0 = 1_800_000_000_000;
const SYMBOL = 'BTC-USDT';

class ScriptedSource implements MarketSource {
  private onEvent: ((e: MarketEvent) => void) | undefined;
  private next = 0;
  constructor(private readonly events: MarketEvent[]) {}
  async start(onEvent: (e: MarketEvent) => void): Promise<void> {
    this.onEvent = onEvent;
    this.advanceTo(T0);
  }
  advanceTo(t: number): void {
    const timeOf = (e: MarketEvent): number => (e.type === 'status' ? e.since : e.time);
    while (this.next < this.events.length && timeOf(this.events[this.next]) <= t) this.onEvent?.(this.events[this.next++]);
  }
  async close(): Promise<void> {
    this.onEvent = undefined;
  }
}

describe('mirror option with a replay source on a manual clock', function () {
  this.timeout(20_000);
  let sb: RunningSandbox;

  before(async () => {
    const w = buildWorld();
    const world: MirrorWorldData = { symbols: [w.symbolMap.get(SYMBOL) as never], currencies: [], candles: {} };
    const source = new ScriptedSource([
      { type: 'snapshot', symbol: SYMBOL, sequence: '100', bids: [['59990', '1']], asks: [['60010', '2']], time: T0 },
      { type: 'l2', symbol: SYMBOL, sequenceStart: '101', sequenceEnd: '101', changes: { bids: [['59995', '0.5', '101']], asks: [] }, time: T0 + 1_000 },
      { type: 'trade', symbol: SYMBOL, sequence: '102', tradeId: '1', price: '60010', size: '0.25', side: 'buy', time: T0 + 2_000 },
      { type: 'status', state: 'resyncing', symbol: SYMBOL, reason: 'a gap in the recording', since: T0 + 3_000 },
    ]);
    sb = await startSandbox({ sim: false, manualClock: true, startTime: T0, mirror: { source, label: 'replay', world } });
  });
  after(async () => {
    await sb?.close();
  });

  it('serves the snapshot, and each clock step delivers the events up to the new time, stamped with their times', async () => {
    assert.deepEqual(sb.state.exchange.level2(SYMBOL, 5), { ...sb.state.exchange.level2(SYMBOL, 5), bids: [['59990', '1']], asks: [['60010', '2']] });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 1_500 });
    assert.deepEqual(sb.state.exchange.level2(SYMBOL, 5).bids, [['59995', '0.5'], ['59990', '1']]);
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 1_000 });
    const t = sb.state.exchange.trades(SYMBOL).at(-1);
    assert.ok(t);
    assert.deepEqual([t.price, t.size, t.side, t.time], ['60010', '0.25', 'buy', T0 + 2_000]);
    assert.deepEqual(sb.state.exchange.level2(SYMBOL, 5).asks, [['60010', '1.75']]);
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 1_000 });
    assert.equal(sb.state.status.status, 'cancelonly');
    assert.match(sb.state.status.msg, /^replay: the upstream book of BTC-USDT is resyncing since 2027-01-15T08:00:03.000Z \(a gap in the recording\)/);
    const r = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders', { symbol: SYMBOL, side: 'buy', type: 'limit', price: '59000', size: '0.001' });
    assert.equal(r.json.code, '400200');
    assert.match(String(r.json.msg), /^Forbidden to place an order \(replay: /);
    const reset = await admin(sb, 'POST', '/sandbox/v1/reset');
    assert.equal(reset.json.code, '400100');
    assert.match(String(reset.json.msg), /cannot be reset/);
    sb.state.exchange.checkInvariants();
  });
});
