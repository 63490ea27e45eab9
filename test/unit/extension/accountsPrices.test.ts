/**
 * The Accounts view's fiat prices (src/features/accounts/host/accounts.ts), on the stand-in vscode: a refresh
 * whose balances load but whose price request fails (the exchange going away mid-refresh) keeps the last prices
 * of the same fiat currency, so the portfolio value does not blank out; prices of another fiat are never reused.
 */
import { strict as assert } from 'assert';
import { fakeVscode, install } from './fakeVscode';

describe('Accounts: a failed price request keeps the last prices of the same fiat (src/features/accounts/host/accounts.ts)', () => {
  let uninstall: () => void;
  let fake: ReturnType<typeof fakeVscode>;
  let mod: typeof import('../../../src/features/accounts/host/accounts');

  before(() => {
    fake = fakeVscode();
    uninstall = install(fake);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- after the stand-in is installed
    mod = require('../../../src/features/accounts/host/accounts') as typeof mod;
  });
  after(() => uninstall());
  afterEach(() => fake.config.clear());

  /** A tree on a client whose price answers the test sets (`undefined`: the request fails). */
  function tree() {
    const answers: Array<Record<string, string> | undefined> = [];
    const account = { id: 'a1', currency: 'BTC', type: 'trade', balance: '1', available: '1', holds: '0' };
    const client = {
      getAccounts: async () => [account],
      getPrices: async () => {
        const next = answers.shift();
        if (next === undefined) throw new Error('connect ECONNREFUSED');
        return next;
      },
    };
    const services = {
      log: { warn: () => undefined, debug: () => undefined, info: () => undefined, error: () => undefined },
      credentialsPresent: async () => true,
      onDidChangeProfile: () => ({ dispose: () => undefined }),
      profile: () => ({ id: 'sandbox', name: 'Sandbox (local)', sandbox: true }),
      client: async () => client,
      publicClient: async () => ({ getCurrencies: async () => [{ currency: 'BTC', precision: 8 }] }),
    };
    return { t: new mod.AccountsTree(services as never), answers };
  }

  it('balances loaded, prices refused: the last prices stay; a later answer replaces them', async () => {
    const { t, answers } = tree();
    answers.push({ BTC: '67000.1' });
    await t.refresh();
    assert.deepEqual(t.state.data?.prices, { BTC: '67000.1' });
    const first = t.state.data;
    await t.refresh(); // the price request fails
    assert.notEqual(t.state.data, first, 'a new load (its balances are the exchange\'s newest)');
    assert.deepEqual(t.state.data?.prices, { BTC: '67000.1' }, 'the last prices kept');
    assert.equal(t.state.error, undefined);
    answers.push({ BTC: '68000' });
    await t.refresh();
    assert.deepEqual(t.state.data?.prices, { BTC: '68000' });
  });

  it('prices of another fiat are never reused: after a fiat change a failed request leaves the value unknown', async () => {
    const { t, answers } = tree();
    answers.push({ BTC: '67000.1' });
    await t.refresh();
    fake.config.set('spotdesk.fiatCurrency', 'EUR');
    await t.refresh(); // fails
    assert.equal(t.state.data?.fiat, 'EUR');
    assert.equal(t.state.data?.prices, undefined);
  });
});
