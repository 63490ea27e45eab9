/**
 * What the status bar and the market panel say about a borrowed market (src/api/borrowedMarket.ts), read from
 * the statuses a real mirror sandbox reports (an in-process upstream, then the upstream stopped) and from the
 * other messages mirror/market.ts writes; and the order ticket's refusal reason.
 */
import { strict as assert } from 'node:assert';
import { modeLabel, parseSourceStatus, refusalReason, sourceWords } from '../../../src/api/borrowedMarket';
import type { RunningSandbox } from '../../../src/exchange/server';
import { startMirror, startUpstream, waitFor } from './helpers';

describe('borrowed market words (status bar, market panel, ticket)', function () {
  this.timeout(30_000);

  it('a live mirror says "paper · live"; with its upstream stopped, "paper · unreachable" and the ticket says why', async () => {
    let up: RunningSandbox | undefined = await startUpstream();
    const { sb } = await startMirror(up.baseUrl, ['BTC-USDT']);
    try {
      const live = { status: sb.state.status.status, msg: sb.state.status.msg };
      assert.deepEqual(live, { status: 'open', msg: '' });
      const w = sourceWords({ kind: 'paper' }, live);
      assert.equal(w.short, 'paper · live');
      assert.equal(w.state, 'live');
      assert.equal(w.warn, false);
      assert.equal(refusalReason(live), null);

      await up.close();
      up = undefined;
      await waitFor(() => sb.state.status.status === 'cancelonly', 'cancelonly');
      const down = { status: sb.state.status.status, msg: sb.state.status.msg };
      const p = parseSourceStatus(down);
      assert.equal(p.state, 'unreachable');
      assert.match(p.since ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      assert.equal(down.msg.includes(p.since ?? '<none>'), true);
      const u = sourceWords({ kind: 'paper' }, down);
      assert.equal(u.short, 'paper · unreachable');
      assert.equal(u.warn, true);
      assert.match(u.detail, /The upstream is unreachable since \d\d:\d\d:\d\d UTC.*New orders are refused; open orders can still be cancelled/);
      assert.match(refusalReason(down) ?? '', /^New orders are refused: the upstream market is unreachable since \d\d:\d\d:\d\d UTC\. Open orders can still be cancelled\.$/);
    } finally {
      await sb.close();
      await up?.close();
    }
  });

  it('resyncing, an operator\'s cancel-only or close, and a status not read yet', () => {
    const resync = { status: 'cancelonly', msg: 'mirror: the upstream book of ETH-USDT is resyncing since 2026-11-27T10:01:02.345Z (the ETH-USDT book is resyncing (gap)); orders can be cancelled, not placed' };
    assert.deepEqual(parseSourceStatus(resync), { state: 'resyncing', since: '2026-11-27T10:01:02.345Z', symbol: 'ETH-USDT', reason: 'the ETH-USDT book is resyncing (gap)' });
    assert.equal(sourceWords({ kind: 'paper' }, resync).short, 'paper · resyncing');
    assert.match(refusalReason(resync) ?? '', /the upstream book of ETH-USDT is resyncing since 10:01:02 UTC/);
    const operator = { status: 'cancelonly', msg: 'maintenance' };
    assert.equal(parseSourceStatus(operator).state, 'closed');
    assert.equal(sourceWords({ kind: 'paper' }, operator).short, 'paper · cancel-only');
    assert.equal(refusalReason(operator), 'New orders are refused: the exchange is in cancel-only mode (maintenance). Open orders can still be cancelled.');
    assert.equal(sourceWords({ kind: 'paper' }, { status: 'close', msg: '' }).short, 'paper · closed');
    assert.match(refusalReason({ status: 'close', msg: '' }) ?? '', /the exchange is closed/);
    assert.equal(sourceWords({ kind: 'paper' }, undefined).short, 'paper · connecting');
    assert.equal(sourceWords({ kind: 'paper' }, undefined).warn, false);
  });

  it('a replay shows its speed, its position while it plays, and "finished" at its end', () => {
    assert.equal(modeLabel({ kind: 'replay', speed: 10 }), 'replay ×10');
    assert.equal(modeLabel({ kind: 'replay', speed: 'manual' }), 'replay · manual clock');
    const open = { status: 'open', msg: '' };
    const t = Date.UTC(2026, 10, 27, 14, 3, 7, 250);
    assert.equal(sourceWords({ kind: 'replay', speed: 10 }, open).short, 'replay ×10 · live');
    const playing = sourceWords({ kind: 'replay', speed: 10 }, open, { time: t, finished: false });
    assert.equal(playing.short, 'replay ×10 · 14:03:07');
    assert.match(playing.detail, /^Replay position 2026-11-27T14:03:07\.250Z\./);
    const done = sourceWords({ kind: 'replay', speed: 60 }, open, { time: t, finished: true });
    assert.equal(done.short, 'replay ×60 · finished');
    assert.equal(done.state, 'finished');
    assert.equal(done.detail, 'The recording ended at 2026-11-27T14:03:07.250Z: the book stays as it left it. Your orders still match against it, with play money.');
    // an outage inside the recording is replayed as one
    const recordedOutage = { status: 'cancelonly', msg: 'replay: the upstream is unreachable since 2026-11-27T14:00:00.000Z (closed); orders can be cancelled, not placed' };
    const w = sourceWords({ kind: 'replay', speed: 1 }, recordedOutage, { time: t, finished: false });
    assert.equal(w.short, 'replay ×1 · unreachable');
    assert.match(w.detail, /The recorded upstream is unreachable since 14:00:00 UTC \(closed\)/);
  });
});
