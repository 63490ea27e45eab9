/**
 * Releasing history is invisible (src/exchange/core: Archive.release, FillStore.release, the GTT heap rebuild,
 * CoreState.releaseHistory): random command streams with clock jumps across the 3 × 24 h window, bulk loads
 * that fill and seal archive and fill-store chunks, and users without history run on an engine that releases
 * and on one constructed with `release: false`; every result and, after every command, the whole observable
 * state must be equal. The releasing engine must actually have released chunks, moved live orders aside and
 * kept readable done orders aside, and must hold far less than the other after a long run.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Driver, FILLER, historyCmdArb, ratesArb, type EngineCmd } from './commands';
import { SYM } from './helpers';

/** The archive's statistics of an engine (protected state, read for the test). */
function stats(d: Driver): { chunks: number; released: number; outside: number; kept: number } {
  return (d.ex as unknown as { st: { archive: { stats(): { chunks: number; released: number; outside: number; kept: number } } } }).st.archive.stats();
}

describe('exchange core: releasing history nobody can read is invisible', function () {
  this.timeout(300_000);
  for (const bigIntOnly of [false, true]) {
    it(`random streams with window-crossing clock jumps and bulk loads give identical results and state with and without release${bigIntOnly ? ' (BigInt-only path)' : ''}`, () => {
      const seen = { released: 0, outside: 0, kept: 0, runs: 0 };
      fc.assert(
        fc.property(
          ratesArb,
          fc.subarray(['u2', FILLER]),
          fc.array(historyCmdArb, { minLength: 1, maxLength: 60, size: 'max' }),
          (rates, noHistory, cmds) => {
            const opts = { bigIntOnly, noHistory };
            const rel = new Driver(rates as [string, string][], opts);
            const keep = new Driver(rates as [string, string][], { ...opts, release: false });
            cmds.forEach((c: EngineCmd, step) => {
              const where = `step ${step} ${JSON.stringify(c)}`;
              assert.deepEqual(rel.apply(c), keep.apply(c), `${where}: result`);
              assert.deepEqual(rel.observe(), keep.observe(), `${where}: state`);
              const s = stats(rel);
              seen.released = Math.max(seen.released, s.released);
              seen.outside = Math.max(seen.outside, s.outside);
              seen.kept = Math.max(seen.kept, s.kept);
            });
            rel.ex.checkInvariants();
            keep.ex.checkInvariants();
            seen.runs++;
          },
        ),
        { numRuns: Number(process.env.EXCHANGE_MODEL_RUNS ?? 60), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
      );
      // the streams exercised the release paths
      assert.ok(seen.released > 0 && seen.outside > 0 && seen.kept > 0, JSON.stringify(seen));
    });
  }

  it('a long run of a user without history, with a little history of others, ends up holding the live state only', () => {
    const rates: [string, string][] = [['0.001', '0.001'], ['0.001', '0.001'], ['0.001', '0.001']];
    const rel = new Driver(rates, { noHistory: [FILLER] });
    const keep = new Driver(rates, { noHistory: [FILLER], release: false });
    for (let h = 0; h < 24 * 5; h++) {
      for (const d of [rel, keep]) {
        d.apply({ k: 'filler', n: 3000, cross: h % 2 === 0, keep: 0 });
        // a user with history trades once an hour
        d.apply({ k: 'place', u: 0, r: { side: 'buy', type: 'limit', price: '100', size: '0.01', timeInForce: 'IOC' } });
        d.apply({ k: 'jump', ms: 3_600_000 });
      }
    }
    assert.deepEqual(rel.observe(), keep.observe());
    rel.ex.checkInvariants();
    const s = stats(rel);
    const k = stats(keep);
    // 5 days × 24 × ~3,000 orders ≈ 85 archive chunks without release; with it: the newest, and those with u0's
    // readable orders among the last 3 days (at most one a chunk) moved aside
    assert.ok(k.chunks > 80, JSON.stringify(k));
    assert.ok(s.chunks <= 2, JSON.stringify(s));
    assert.ok(s.kept <= 3 * 24 + 1, JSON.stringify(s));
    assert.equal(rel.ex.doneOrders('u0', SYM, { limit: 100 }).length, keep.ex.doneOrders('u0', SYM, { limit: 100 }).length);
    assert.ok(rel.ex.fills('u0', { symbol: SYM }).items.length > 0);
  });
});
