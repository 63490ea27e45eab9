/**
 * The written-out fast paths of the exchange core (Matcher.restPlain, OrderBook.cancelResting) agree with the canonical
 * code they mirror: the same random command streams run on an engine with them and on one constructed with
 * `fastPaths: false`; every result and, after every command, the whole observable state must be equal.
 * (On the BigInt-only path no hold is on the Number path, so the fast paths never run there.)
 * `npm run engine:diff -- --rev HEAD --new-opts '{"fastPaths":false}' --streams` does the same for the 1M-order
 * benchmark streams.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Driver, engineCmdArb, ratesArb } from './commands';

describe('exchange core: fast paths agree with the canonical code', function () {
  this.timeout(120_000);
  it('random command streams give identical results and state with and without the fast paths', () => {
    let cancels = 0;
    fc.assert(
      fc.property(ratesArb, fc.array(engineCmdArb, { minLength: 1, maxLength: 80, size: 'max' }), (rates, cmds) => {
        const fast = new Driver(rates as [string, string][]);
        const canon = new Driver(rates as [string, string][], { fastPaths: false });
        cmds.forEach((c, step) => {
          const where = `step ${step} ${JSON.stringify(c)}`;
          const a = fast.apply(c);
          assert.deepEqual(canon.apply(c), a, `${where}: result`);
          if (c.k.startsWith('cancel') && 'ok' in a && a.ok !== false) cancels++;
          assert.deepEqual(canon.observe(), fast.observe(), `${where}: state`);
        });
        fast.ex.checkInvariants();
        canon.ex.checkInvariants();
      }),
      { numRuns: Number(process.env.EXCHANGE_MODEL_RUNS ?? 300), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    assert.ok(cancels > 0, 'the streams cancelled orders');
  });
});
