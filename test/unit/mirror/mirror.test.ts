/**
 * Mirror mode end to end: an upstream sandbox (seeded books, driven by placing orders on it) and a mirror
 * sandbox reading its public REST and WebSocket through `UpstreamSource` (src/exchange/server/mirror).
 */
import { strict as assert } from 'node:assert';
import type { RunningSandbox } from '../../../src/exchange/server';
import { mirrorLiquidity } from '../../../src/exchange/server/mirror/commands';
import type { UpstreamSource } from '../../../src/exchange/server/mirror/upstream';
import { bookOf, fundedUser, startMirror, startUpstream, waitFor } from './helpers';

const SYMBOL = 'BTC-USDT';

describe('mirror mode: the book', function () {
  this.timeout(20_000);
  let up: RunningSandbox;
  let mirror: RunningSandbox;
  let source: UpstreamSource;

  before(async () => {
    up = await startUpstream();
    ({ sb: mirror, source } = await startMirror(up.baseUrl, [SYMBOL]));
  });
  after(async () => {
    await mirror?.close();
    await up?.close();
  });

  it('equals the upstream book after the snapshot', () => {
    const want = bookOf(up, SYMBOL);
    assert.ok(want.bids.length > 5 && want.asks.length > 5, 'the upstream has a seeded book');
    assert.deepEqual(bookOf(mirror, SYMBOL), want);
    // and the mirror's liquidity is that book (no sandbox user has an order)
    const liq = mirrorLiquidity(mirror.state, SYMBOL);
    assert.deepEqual(liq.bids.length, want.bids.length);
  });

  it('equals the upstream book after many increments', async () => {
    const uid = fundedUser(up, [
      { currency: 'USDT', amount: '10000000' },
      { currency: 'BTC', amount: '1000' },
    ]);
    const best = up.state.exchange.level2(SYMBOL, 1);
    const mid = (Number(best.bids[0][0]) + Number(best.asks[0][0])) / 2;
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const side = i % 2 === 0 ? 'buy' : 'sell';
      // resting orders at new and existing levels, some cancelled again
      const off = (1 + (i % 17)) * 0.5;
      const price = (side === 'buy' ? mid - off : mid + off).toFixed(1);
      const r = up.state.run('order.place', { uid, req: { symbol: SYMBOL, side, type: 'limit', price, size: (0.001 * (1 + (i % 5))).toFixed(3), clientOid: `c${i}` } });
      ids.push(r.orderId);
      if (i % 3 === 2) up.state.run('order.cancel', { uid, symbol: SYMBOL, orderId: ids[i - 1] });
    }
    const target = up.state.exchange.sequence(SYMBOL);
    await waitFor(() => source.stats()[SYMBOL] !== undefined && JSON.stringify(bookOf(mirror, SYMBOL)) === JSON.stringify(bookOf(up, SYMBOL)), `the mirror book at upstream sequence ${target}`);
    assert.deepEqual(bookOf(mirror, SYMBOL), bookOf(up, SYMBOL));
    assert.equal(source.stats()[SYMBOL].gaps, 0);
    mirror.state.exchange.checkInvariants();
  });
});
