/**
 * The sandbox refuses the destinations SpotDesk refuses (one shared rule, src/api/withdrawalAddress.ts):
 * over its HTTP API, for every seeded withdraw-enabled chain, valid addresses are accepted and
 * invalid ones answered `{"code":"400100","msg":"Incorrect withdrawal address"}` with nothing
 * changed (no withdrawal recorded, balances untouched); its own deposit addresses can be withdrawn to.
 */
import { strict as assert } from 'assert';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { admin, balanceOf, createUser, signed, startTestSandbox } from '../server/helpers';
import { ADDRESSES } from './addresses';

const INCORRECT = { code: '400100', msg: 'Incorrect withdrawal address' };

describe('sandbox: withdrawal destinations (shared rule, over HTTP)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;

  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => sb.close());

  const withdrawals = async (uid: string) => (await admin(sb, 'GET', `/sandbox/v1/withdrawals?uid=${uid}`)).json.data as Array<Record<string, unknown>>;

  it('every seeded withdraw-enabled chain: valid addresses and the sandbox\'s own deposit address accepted, invalid ones refused with nothing changed', async () => {
    const chains = sb.state.world.currencies.flatMap((c) => c.chains.filter((ch) => ch.isWithdrawEnabled).map((ch) => ({ currency: c.currency, ch })));
    assert.ok(chains.length >= 15, `${chains.length} withdraw-enabled (currency, chain) pairs`);
    const currencies = [...new Set(chains.map((c) => c.currency))];
    const u = await createUser(sb, { balances: currencies.map((currency) => ({ currency, type: 'main', amount: '100000' })) });
    let accepted = 0;
    for (const { currency, ch } of chains) {
      const cases = ADDRESSES[ch.chainId];
      assert.ok(cases, `test addresses for ${ch.chainId}`);
      const w = (address: string) =>
        signed(sb, u, 'POST', '/api/v1/withdrawals', { currency, address, chain: ch.chainId, amount: ch.withdrawalMinSize, ...(ch.needTag ? { memo: '123456' } : {}) });
      for (const address of cases.invalid) {
        const before = balanceOf(sb, u.uid, currency, 'main');
        const count = (await withdrawals(u.uid)).length;
        const r = await w(address);
        assert.deepEqual(r.json, INCORRECT, `${address} on ${currency}/${ch.chainId}`);
        assert.deepEqual(balanceOf(sb, u.uid, currency, 'main'), before, 'balance unchanged');
        assert.equal((await withdrawals(u.uid)).length, count, 'no withdrawal recorded');
      }
      for (const address of cases.valid) {
        const r = await w(address);
        assert.equal(r.json.code, '200000', `${address} on ${currency}/${ch.chainId}: ${r.text}`);
        accepted++;
      }
      // A deposit address the sandbox hands out is a valid destination (V3 create: one more each call).
      const dep = await signed(sb, u, 'POST', '/api/v3/deposit-address/create', { currency, chain: ch.chainId });
      if (dep.json.code === '200000') {
        const address = (dep.json.data as { address: string }).address;
        const r = await w(address);
        assert.equal(r.json.code, '200000', `own deposit address ${address} on ${currency}/${ch.chainId}: ${r.text}`);
        accepted++;
      }
    }
    assert.equal((await withdrawals(u.uid)).length, accepted);
  });

  it('V4 toAddress: the issue\'s case ("hello" on TRC20, 11 USDT) is refused and main keeps its funds; UID/MAIL/PHONE by their formats', async () => {
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '100' }] });
    const v4 = (toAddress: string, withdrawType: string, chain?: string) =>
      signed(sb, u, 'POST', '/api/v4/withdrawals', { currency: 'USDT', toAddress, amount: '11', withdrawType, receiverType: 'individual', firstName: 'A', lastName: 'B', ...(chain ? { chain } : {}) });
    assert.deepEqual((await v4('hello', 'ADDRESS', 'trx')).json, INCORRECT);
    assert.deepEqual((await signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: 'hello', amount: '11', chain: 'trx' })).json, INCORRECT);
    for (const [toAddress, type] of [['12a', 'UID'], ['not-an-email', 'MAIL'], ['+90 532 000 0000', 'PHONE']]) assert.deepEqual((await v4(toAddress, type)).json, INCORRECT, `${type} ${toAddress}`);
    assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '100', available: '100', holds: '0' });
    assert.deepEqual(await withdrawals(u.uid), []);
    assert.equal((await v4('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'ADDRESS', 'trx')).json.code, '200000');
    assert.equal((await v4('ada@example.com', 'MAIL')).json.code, '200000');
  });

  it('a withdraw-disabled chain (BTC-Segwit): a malformed address is refused as such, a valid one meets 260220', async () => {
    const u = await createUser(sb, { balances: [{ currency: 'BTC', type: 'main', amount: '1' }] });
    const w = (address: string) => signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'BTC', address, amount: '0.01', chain: 'bech32' });
    assert.deepEqual((await w('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).json, INCORRECT);
    assert.equal((await w('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).json.code, '260220');
  });
});
