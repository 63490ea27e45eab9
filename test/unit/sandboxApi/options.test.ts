/**
 * Options of the package's startSandbox() (src/sandboxApi/options.ts): defaults, refusals that name the
 * option, the CLI arguments, and the one mapping of `market` (and `tls`, `world`) onto the flags the bundled
 * CLI has — passed on when it has them, mapped or refused when it does not.
 */
import { strict as assert } from 'node:assert';
import { checkOptions, cliArgs, marketArgs, MARKETS, NO_FLAGS, OptionProblem, parseCliFlags, type MarketName } from '../../../src/sandboxApi/options';
import type { SandboxStartOptions } from '../../../src/sandboxApi/index';

// the public option type and the checked list name the same profiles
const sameMarkets: [MarketName, NonNullable<SandboxStartOptions['market']>] = ['quiet', 'volatile'];
const backwards: NonNullable<SandboxStartOptions['market']>[] = [...MARKETS];

describe('spotdesk-sandbox options', () => {
  it('defaults: seed 1, a free port on 127.0.0.1, the quiet market, wall clock, in memory, 30 s to start', () => {
    const o = checkOptions(undefined);
    assert.deepStrictEqual({ ...o, log: undefined }, { seed: 1, port: 0, host: '127.0.0.1', market: 'quiet', manualClock: false, stateDir: null, tls: false, world: undefined, startTimeoutMs: 30_000, log: undefined });
    assert.deepStrictEqual(cliArgs(o, NO_FLAGS), ['--host', '127.0.0.1', '--port', '0', '--seed', '1', '--in-memory', '--no-sim']);
    assert.equal(sameMarkets.length + backwards.length, 5);
  });

  it('every option reaches the CLI', () => {
    const o = checkOptions({ seed: 42, port: 8100, host: '::1', market: 'realistic', manualClock: true, stateDir: '/s' });
    assert.deepStrictEqual(cliArgs(o, { ...NO_FLAGS, fastReset: true }), ['--host', '::1', '--port', '8100', '--seed', '42', '--state-dir', '/s', '--manual-clock', '--fast-reset']);
  });

  it('refuses what it cannot use, naming the option: wrong types, ranges, unknown options, non-objects', () => {
    const refused = (raw: unknown): OptionProblem => {
      try {
        checkOptions(raw);
      } catch (e) {
        assert.ok(e instanceof OptionProblem, String(e));
        return e;
      }
      assert.fail(`accepted ${JSON.stringify(raw)}`);
    };
    assert.equal(refused({ seed: 2 ** 31 }).option, 'seed');
    assert.equal(refused({ seed: '1' }).option, 'seed');
    assert.equal(refused({ port: -1 }).option, 'port');
    assert.equal(refused({ host: 5 }).option, 'host');
    assert.equal(refused({ market: 'QUIET' }).option, 'market');
    assert.equal(refused({ manualclock: true }).option, 'manualclock');
    assert.equal(refused({ startTimeoutMs: 700_000 }).option, 'startTimeoutMs');
    assert.equal(refused([]).option, 'options');
    assert.equal(refused(7).option, 'options');
  });

  it('market: --market <name> where the CLI has the profile; else quiet = no simulation, realistic/volatile = the default simulation', () => {
    assert.deepStrictEqual(marketArgs('quiet', NO_FLAGS), ['--no-sim']);
    assert.deepStrictEqual(marketArgs('realistic', NO_FLAGS), []);
    assert.deepStrictEqual(marketArgs('volatile', NO_FLAGS), []);
    const some = { ...NO_FLAGS, market: ['quiet', 'volatile'] };
    assert.deepStrictEqual(marketArgs('quiet', some), ['--market', 'quiet']);
    assert.deepStrictEqual(marketArgs('volatile', some), ['--market', 'volatile']);
    assert.deepStrictEqual(marketArgs('realistic', some), []);
  });

  it('tls and world: passed on where the CLI has the flag, refused (not dropped) where it does not', () => {
    assert.throws(() => cliArgs(checkOptions({ tls: true }), { ...NO_FLAGS, tls: true }), (e: unknown) => e instanceof OptionProblem && e.option === 'tls' && /needs a stateDir/.test(e.message));
    const o = checkOptions({ tls: true, world: 'w.json', stateDir: '/s' });
    assert.throws(() => cliArgs(o, NO_FLAGS), (e: unknown) => e instanceof OptionProblem && e.option === 'tls');
    assert.throws(() => cliArgs(o, { ...NO_FLAGS, tls: true }), (e: unknown) => e instanceof OptionProblem && e.option === 'world');
    const args = cliArgs(o, { ...NO_FLAGS, tls: true, world: true });
    assert.ok(args.includes('--tls'));
    assert.deepStrictEqual(args.slice(args.indexOf('--world'), args.indexOf('--world') + 2), ['--world', 'w.json']);
  });

  it('cli-flags.json: missing, malformed or partial counts as absent flags', () => {
    assert.deepStrictEqual(parseCliFlags(undefined), NO_FLAGS);
    assert.deepStrictEqual(parseCliFlags('{'), NO_FLAGS);
    assert.deepStrictEqual(parseCliFlags('{"market": ["quiet", 3], "tls": "yes", "fastReset": true}'), { market: ['quiet'], tls: false, world: false, fastReset: true });
  });
});
