/**
 * The dead-man's switch of the exchange core (Exchange.setDeadCancel / deadCancelOf, KuCoin "Set DCP" /
 * "Get DCP"): it fires on the engine's clock at now + timeout, cancels the user's active orders of its symbols
 * (all when it names none) stamped with the trigger time, is replaced by a renewal, removed by −1 and by
 * firing, is ordered with GTT expiries by time, and survives a snapshot.
 */
import { strict as assert } from 'node:assert';
import { Exchange, type CoreEventSink, type OrderEvent, type SnapshotRecord } from '../../../src/exchange/core';
import { decodeSnapshotRecord, encodeSnapshotRecord } from '../../../src/exchange/server/snapshotCodec';
import { fund, place, SYM, throwsCode, world } from './helpers';

const ETH = 'ETH-USDT';

/** The reference world plus ETH-USDT, and a user with USDT in trade. */
function setup(): ReturnType<typeof world> {
  const w = world();
  w.ex.addCurrency({ currency: 'ETH', precision: 8 });
  w.ex.addSymbol({ symbol: ETH, baseCurrency: 'ETH', quoteCurrency: 'USDT', baseIncrement: '0.0001', priceIncrement: '0.01', quoteIncrement: '0.000001', baseMinSize: '0.0001', baseMaxSize: '10000', quoteMinSize: '0.1', quoteMaxSize: '99999999', enableTrading: true });
  fund(w.ex, 'u', 'USDT', '100000');
  return w;
}

const buy = (ex: Exchange, symbol: string, price: string): string => ex.placeOrder('u', { symbol, side: 'buy', type: 'limit', price, size: '0.01' }).orderId;

describe("exchange core: dead-man's switch (DCP)", () => {
  it('fires at now + timeout on the engine clock, stamped with the trigger time, and only on its symbols', () => {
    const { ex, clock } = setup();
    const b = buy(ex, SYM, '100');
    const e = buy(ex, ETH, '10');
    const t0 = clock.t;
    assert.deepEqual(ex.setDeadCancel('u', 5, [SYM]), { currentTime: Math.floor(t0 / 1000), triggerTime: Math.floor(t0 / 1000) + 5 });
    assert.deepEqual(ex.deadCancelOf('u'), { timeout: 5, symbols: SYM, currentTime: Math.floor(t0 / 1000), triggerTime: Math.floor(t0 / 1000) + 5 });
    clock.t = t0 + 4_999;
    assert.equal(ex.getOrder('u', SYM, b).active, true, 'not yet');
    // a read long after the trigger sees the cancel stamped at the trigger time (not the read's time)
    clock.t = t0 + 60_000;
    const o = ex.getOrder('u', SYM, b);
    assert.deepEqual([o.active, o.cancelExist, o.lastUpdatedAt], [false, true, t0 + 5_000]);
    assert.equal(ex.getOrder('u', ETH, e).active, true, 'another symbol is untouched');
    assert.equal(ex.deadCancelOf('u'), null, 'a fired switch is gone');
    assert.equal(ex.accounts('u', { currency: 'USDT', type: 'trade' })[0].holds, ex.getOrder('u', ETH, e).active ? '0.1001' : '0', 'the hold of the cancelled order is released');
    ex.checkInvariants();
  });

  it('without symbols it covers every symbol; a renewal replaces the trigger; -1 unsets', () => {
    const { ex, clock } = setup();
    const b = buy(ex, SYM, '100');
    const e = buy(ex, ETH, '10');
    const t0 = clock.t;
    ex.setDeadCancel('u', 5, []);
    clock.t = t0 + 4_000;
    ex.setDeadCancel('u', 5, []); // renewal: now t0 + 9 s
    clock.t = t0 + 8_999;
    assert.equal(ex.getOrder('u', SYM, b).active, true, 'renewed');
    clock.t = t0 + 9_000;
    ex.tick();
    assert.deepEqual([ex.getOrder('u', SYM, b).active, ex.getOrder('u', ETH, e).active], [false, false]);
    const c = buy(ex, SYM, '100');
    ex.setDeadCancel('u', 5, []);
    assert.deepEqual(ex.setDeadCancel('u', -1, []), { currentTime: Math.floor(clock.t / 1000), triggerTime: 0 });
    assert.equal(ex.deadCancelOf('u'), null);
    clock.t += 3_600_000;
    assert.equal(ex.getOrder('u', SYM, c).active, true, 'unset: nothing fires');
  });

  it('is ordered with GTT expiries by time', () => {
    const { ex, clock } = setup();
    const t0 = clock.t;
    const gtt = ex.placeOrder('u', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.01', timeInForce: 'GTT', cancelAfter: 10 }).orderId;
    ex.setDeadCancel('u', 5, [SYM]);
    clock.t = t0 + 20_000;
    ex.tick();
    // the switch (t0 + 5 s) came before the GTT expiry (t0 + 10 s)
    assert.equal(ex.getOrder('u', SYM, gtt).lastUpdatedAt, t0 + 5_000);
  });

  it('bad timeouts and symbols are refused and change nothing', () => {
    const { ex } = setup();
    for (const t of [0, 4, 86_401, 1.5, -2]) throwsCode(() => ex.setDeadCancel('u', t, []), '400100', 'timeout must be -1 (unset) or 5..86400 seconds');
    throwsCode(() => ex.setDeadCancel('u', 5, ['NOPE-USDT']), '900001');
    throwsCode(() => ex.setDeadCancel('u', 5, Array.from({ length: 51 }, () => SYM)), '400100');
    assert.equal(ex.deadCancelOf('u'), null);
  });

  it('the numeric entry points (placeLimitTicks, cancelSeq) fire it before their own order, also in a restored engine', () => {
    const { ex, clock } = setup();
    fund(ex, 'v', 'USDT', '100000');
    const t0 = clock.t;
    const b = buy(ex, SYM, '100');
    const b2 = buy(ex, SYM, '101');
    ex.setDeadCancel('u', 5, [SYM]);
    const c2 = { t: t0 };
    const re = Exchange.importSnapshot({ now: () => c2.t }, [...ex.exportSnapshot()].map((r) => decodeSnapshotRecord(encodeSnapshotRecord(r)) as SnapshotRecord));
    for (const [e, setT] of [
      [ex, (t: number) => (clock.t = t)],
      [re, (t: number) => (c2.t = t)],
    ] as const) {
      // u's order events, in the order the engine emits them
      const seen: string[] = [];
      const sink: CoreEventSink = { level: () => {}, trade: () => {}, balance: () => {}, order: (o: OrderEvent) => void seen.push(`${o.uid} ${o.orderId === b ? 'b' : o.orderId === b2 ? 'b2' : 'new'} ${o.type}`) };
      e.setEventSink(sink);
      e.watchUser('u', true);
      e.watchUser('v', true);
      setT(t0 + 4_999);
      const early = e.placeLimitTicks('v', SYM, 'buy', 900, 100);
      assert.deepEqual(seen, ['v new received', 'v new open'], 'not due yet');
      seen.length = 0;
      setT(t0 + 5_000);
      assert.equal(e.cancelSeq('v', early), true);
      assert.deepEqual(seen, ['u b canceled', 'u b2 canceled', 'v new canceled'], 'the switch fires first, inside cancelSeq');
      seen.length = 0;
      e.placeLimitTicks('v', SYM, 'buy', 900, 100);
      assert.deepEqual(seen, ['v new received', 'v new open'], 'a fired switch is gone');
      e.checkInvariants();
    }
  });

  it('survives a snapshot: the restored engine fires it at the same time', () => {
    const { ex, clock } = setup();
    const b = place(ex, 'u', { side: 'buy', type: 'limit', price: '100', size: '0.01' });
    const t0 = clock.t;
    ex.setDeadCancel('u', 30, [SYM]);
    const text = [...ex.exportSnapshot()].map((r) => encodeSnapshotRecord(r));
    assert.ok(text.some((l) => l.includes('"dcp"')));
    const c2 = { t: clock.t };
    const re = Exchange.importSnapshot({ now: () => c2.t }, text.map((l) => decodeSnapshotRecord(l) as SnapshotRecord));
    assert.deepEqual(re.deadCancelOf('u'), ex.deadCancelOf('u'));
    c2.t = t0 + 31_000;
    const o = re.getOrder('u', SYM, b);
    assert.deepEqual([o.active, o.lastUpdatedAt], [false, t0 + 30_000]);
    // and an engine without a switch writes no dcp record (snapshots read by older engines stay readable)
    re.checkInvariants();
    assert.ok(![...re.exportSnapshot()].some((r) => r.t === 'dcp'));
  });
});
