/**
 * Sandbox server, black-box over HTTP: deposit addresses, withdrawals V1/V3/V4 (precision, minimum,
 * chain, fee + the four feeDeductType rules, whitelist, V4 UID/MAIL/PHONE limits, receiver rules),
 * settlement/release by the clock, quotas, admin deposits.
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { admin, balanceOf, createUser, signed, startTestSandbox } from './helpers';
import type { Credentials } from '../../../src/api/signing';

type User = Credentials & { uid: string };

/** Well-formed destinations (the sandbox checks format and checksum per chain: src/api/withdrawalAddress.ts). */
const TRON = 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz';
const TRON_OTHER = 'TBk5q2gyqwDj9oNHsQ3uaKskigZttxMc6f';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const EVM_OTHER = '0x02028456f38e78609904e8a002c787ede7a73d7c';
const LN_INVOICE =
  'lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq8rkx3yf5tcsyz3d73gafnh3cax9rn449d9p5uxz9ezhhypd0elx87sjle52x86fux2ypatgddc6k63n7erqz25le42c4u4ecky03ylcqca784w';

describe('sandbox server: funding', () => {
  let sb: RunningSandbox;

  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => sb.close());

  const fund = (uid: string, currency: string, amount: string) => admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency, amount });
  const withdrawals = async (uid: string) => (await admin(sb, 'GET', `/sandbox/v1/withdrawals?uid=${uid}`)).json.data as Array<Record<string, unknown>>;

  describe('deposit addresses', () => {
    let u: User;
    let client: SpotClient;
    const stored = (uid: string) => sb.state.depositAddresses.filter((a) => a.uid === uid);
    before(async () => {
      u = await createUser(sb);
      client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, now: () => sb.state.now(), maxRetries: 0 });
    });
    after(() => client.close());

    it('USDT: default ERC20, OMNI and TRC20 by name (each chain once); no memo', async () => {
      const d = await client.createDepositAddress({ currency: 'USDT' });
      assert.equal(d.chain, 'ERC20');
      assert.equal(d.chainId, 'eth');
      assert.equal(d.memo, '');
      assert.match(d.address, /^0x[0-9a-f]{40}$/);
      assert.equal((await client.createDepositAddress({ currency: 'USDT', chain: 'OMNI' })).chain, 'OMNI');
      const t = await client.createDepositAddress({ currency: 'USDT', chain: 'TRC20' });
      assert.equal(t.chain, 'TRC20');
      assert.equal(t.chainId, 'trx');
      assert.deepEqual(stored(u.uid).map((a) => a.chainId), ['eth', 'omni', 'trx']);
    });

    it('BTC: default Native; parameter forms btc / bech32 / trx and names Native / Segwit / TRC20 (a fresh user per form)', async () => {
      assert.equal((await client.createDepositAddress({ currency: 'BTC' })).chainId, 'btc');
      const pairs: Array<[string, string, string]> = [
        ['btc', 'btc', 'BTC'],
        ['bech32', 'bech32', 'BTC-Segwit'],
        ['trx', 'trx', 'TRC20'],
        ['Native', 'btc', 'BTC'],
        ['Segwit', 'bech32', 'BTC-Segwit'],
        ['TRC20', 'trx', 'TRC20'],
      ];
      for (const [chain, id, name] of pairs) {
        const other = await createUser(sb);
        const c = new SpotClient({ baseUrl: sb.baseUrl, credentials: other, now: () => sb.state.now(), maxRetries: 0 });
        const a = await c.createDepositAddress({ currency: 'BTC', chain });
        c.close();
        assert.deepEqual([a.chainId, a.chain], [id, name], chain);
        assert.equal(stored(other.uid).length, 1);
      }
    });

    it('memo returned where the chain needs a tag (XRP, TON); V3 form with `to`', async () => {
      const x = await client.createDepositAddress({ currency: 'XRP' });
      assert.match(String(x.memo), /^\d{10}$/);
      const t = await client.createDepositAddressV3({ currency: 'TON', chain: 'ton', to: 'trade' });
      assert.match(String(t.memo), /^\d{10}$/);
      assert.equal(t.to, 'TRADE');
      assert.equal(t.chainName, 'TON');
      assert.equal(t.expirationDate, 0);
    });

    it('V1: a second create for the same currency + chain (any spelling) → 260000 "Deposit address already exists." (HTTP 200), nothing stored', async () => {
      const before = stored(u.uid).map((a) => a.address);
      for (const body of [{ currency: 'USDT', chain: 'trx' }, { currency: 'USDT', chain: 'TRC20' }, { currency: 'USDT' }, { currency: 'XRP' }, { currency: 'BTC', chain: 'Native' }]) {
        const r = await signed(sb, u, 'POST', '/api/v1/deposit-addresses', body);
        assert.equal(r.status, 200, JSON.stringify(body));
        assert.deepEqual(r.json, { code: '260000', msg: 'Deposit address already exists.' }, JSON.stringify(body));
      }
      await assert.rejects(client.createDepositAddress({ currency: 'USDT', chain: 'OMNI' }), (e: unknown) => (e as { code?: string }).code === '260000');
      assert.deepEqual(stored(u.uid).map((a) => a.address), before);
      // another chain of the same currency is still a first create
      assert.equal((await client.createDepositAddress({ currency: 'USDT', chain: 'kcc' })).chainId, 'kcc');
      assert.equal(stored(u.uid).length, before.length + 1);
    });

    it('V3 keeps creating (KuCoin documents no refusal for V3): a second TON address, both listed by GET', async () => {
      const n = stored(u.uid).length;
      const again = await client.createDepositAddressV3({ currency: 'TON', chain: 'ton' });
      assert.equal(again.to, 'MAIN');
      assert.equal(stored(u.uid).length, n + 1);
      const list = await client.getDepositAddresses('TON');
      assert.deepEqual(list.map((a) => [a.chainId, a.to]), [['ton', 'TRADE'], ['ton', 'MAIN']]);
      assert.equal(list[1].address, again.address);
    });

    it('GET /api/v2/deposit-addresses returns the stored address with its memo; by chain id or name; [] when none', async () => {
      const [rec] = sb.state.depositAddresses.filter((a) => a.uid === u.uid && a.currency === 'XRP');
      const xrp = await signed(sb, u, 'GET', '/api/v2/deposit-addresses?currency=XRP&chain=xrp');
      assert.equal(xrp.status, 200);
      assert.deepEqual(xrp.json, {
        code: '200000',
        data: [{ address: rec.address, memo: rec.memo, chain: 'XRP', chainId: 'xrp', to: 'MAIN', currency: 'XRP', contractAddress: '' }],
      });
      assert.match(rec.memo, /^\d{10}$/);
      const usdt = await client.getDepositAddresses('USDT');
      assert.deepEqual(usdt.map((a) => [a.chain, a.chainId, a.memo, a.to]), [
        ['ERC20', 'eth', '', 'MAIN'],
        ['OMNI', 'omni', '', 'MAIN'],
        ['TRC20', 'trx', '', 'MAIN'],
        ['KCC', 'kcc', '', 'MAIN'],
      ]);
      const trc = await client.getDepositAddresses('USDT', 'TRC20');
      assert.deepEqual(trc.map((a) => a.address), [stored(u.uid).find((a) => a.chainId === 'trx')!.address]);
      assert.equal(trc[0].contractAddress, sb.state.world.currencyMap.get('USDT')!.chains.find((c) => c.chainId === 'trx')!.contractAddress);
      assert.deepEqual(await client.getDepositAddresses('ETH'), []);
      // another user's addresses are never listed
      const other = await createUser(sb);
      const r = await signed(sb, other, 'GET', '/api/v2/deposit-addresses?currency=USDT');
      assert.deepEqual(r.json, { code: '200000', data: [] });
    });

    it('unknown currency or chain → 400100 (create and GET)', async () => {
      const r = await signed(sb, u, 'POST', '/api/v1/deposit-addresses', { currency: 'NOPE' });
      assert.equal(r.json.code, '400100');
      const r2 = await signed(sb, u, 'POST', '/api/v1/deposit-addresses', { currency: 'USDT', chain: 'algorand' });
      assert.equal(r2.json.code, '400100');
      assert.match(String(r2.json.msg), /chain/);
      const g = await signed(sb, u, 'GET', '/api/v2/deposit-addresses?currency=NOPE');
      assert.deepEqual(g.json, { code: '400100', msg: 'currency: NOPE is not supported' });
      const g2 = await signed(sb, u, 'GET', '/api/v2/deposit-addresses?currency=USDT&chain=algorand');
      assert.deepEqual(g2.json, { code: '400100', msg: 'chain: algorand is not supported for USDT' });
      const g3 = await signed(sb, u, 'GET', '/api/v2/deposit-addresses');
      assert.equal(g3.json.code, '400100');
      assert.match(String(g3.json.msg), /^currency: /);
    });
  });

  describe('withdrawals', () => {
    it('V1: amount must be a multiple of the precision, ≥ withdrawalMinSize, chain enabled', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '100' }, { currency: 'BTC', type: 'main', amount: '1' }] });
      const w = (body: unknown) => signed(sb, u, 'POST', '/api/v1/withdrawals', body);
      let r = await w({ currency: 'USDT', address: TRON, amount: '10.0000001', chain: 'trx' });
      assert.equal(r.json.code, '400100');
      assert.match(String(r.json.msg), /multiple of the precision 0\.000001/);
      r = await w({ currency: 'USDT', address: TRON, amount: '9.99', chain: 'trx' });
      assert.equal(r.json.code, '400100');
      assert.match(String(r.json.msg), /withdrawalMinSize 10/);
      r = await w({ currency: 'USDT', address: TRON, amount: '0', chain: 'trx' });
      assert.equal(r.json.code, '400100');
      r = await w({ currency: 'USDT', address: TRON, amount: '1e3', chain: 'trx' });
      assert.equal(r.json.code, '400100');
      r = await w({ currency: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '0.01', chain: 'bech32' });
      assert.equal(r.json.code, '260220');
      assert.match(String(r.json.msg), /suspended/);
      for (const address of ['../../etc/passwd', 'hello', EVM]) {
        r = await w({ currency: 'USDT', address, amount: '20', chain: 'trx' });
        assert.deepEqual(r.json, { code: '400100', msg: 'Incorrect withdrawal address' }, address);
      }
      r = await w({ currency: 'USDT', address: TRON, amount: '200', chain: 'trx' });
      assert.equal(r.json.code, '200004');
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '100', available: '100', holds: '0' });
      assert.deepEqual(await withdrawals(u.uid), []);
    });

    it('fee deduction: EXTERNAL from main, INTERNAL from the amount, omitted → EXTERNAL if main covers it else INTERNAL', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '100' }] });
      const w = (body: Record<string, unknown>) => signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: TRON, chain: 'trx', ...body });
      // TRC20: withdrawalMinFee 1, rate 0.
      assert.equal((await w({ amount: 20, feeDeductType: 'EXTERNAL' })).json.code, '200000');
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '100', available: '79', holds: '21' });
      assert.equal((await w({ amount: '20', feeDeductType: 'INTERNAL' })).json.code, '200000');
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '100', available: '59', holds: '41' });
      assert.equal((await w({ amount: '20' })).json.code, '200000'); // 59 ≥ 21 → EXTERNAL
      assert.equal(balanceOf(sb, u.uid, 'USDT', 'main').available, '38');
      assert.equal((await w({ amount: '38' })).json.code, '200000'); // 38 < 39 → INTERNAL
      assert.equal(balanceOf(sb, u.uid, 'USDT', 'main').available, '0');
      const recs = await withdrawals(u.uid);
      assert.deepEqual(
        recs.map((r) => [r.amount, r.fee, r.feeDeductType, r.receiveAmount, r.totalDebit, r.status]),
        [
          ['20', '1', 'EXTERNAL', '20', '21', 'PROCESSING'],
          ['20', '1', 'INTERNAL', '19', '20', 'PROCESSING'],
          ['20', '1', 'EXTERNAL', '20', '21', 'PROCESSING'],
          ['38', '1', 'INTERNAL', '37', '38', 'PROCESSING'],
        ],
      );
      // Settled after the simulated delay (5 s of sandbox clock): holds leave the balance.
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 5_000 });
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '0', available: '0', holds: '0' });
      assert.deepEqual(
        (await withdrawals(u.uid)).map((r) => r.status),
        ['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS'],
      );
      const inv = await admin(sb, 'GET', '/sandbox/v1/invariants');
      assert.deepEqual(inv.json, { code: '200000', data: { ok: true } });
    });

    it('fee = max(withdrawalMinFee, amount × withdrawFeeRate) capped by withdrawMaxFee (USDT KCC: 0.5, 0.001, 2)', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '10000' }] });
      for (const amount of ['100', '1000', '5000']) {
        const r = await signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: EVM_OTHER, chain: 'kcc', amount, feeDeductType: 'INTERNAL' });
        assert.equal(r.json.code, '200000', r.text);
      }
      assert.deepEqual(
        (await withdrawals(u.uid)).map((r) => [r.fee, r.receiveAmount]),
        [
          ['0.5', '99.5'],
          ['1', '999'],
          ['2', '4998'],
        ],
      );
    });

    it('a failed withdrawal releases the hold', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '50' }] });
      const r = await signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: TRON, chain: 'trx', amount: '30' });
      const id = (r.json.data as { withdrawalId: string }).withdrawalId;
      assert.equal(balanceOf(sb, u.uid, 'USDT', 'main').holds, '31');
      const f = await admin(sb, 'POST', `/sandbox/v1/withdrawals/${id}/fail`, { reason: 'chain congested' });
      assert.equal((f.json.data as { status: string }).status, 'FAILURE');
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '50', available: '50', holds: '0' });
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 10_000 });
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '50', available: '50', holds: '0' });
    });

    it('a destination starting with FAIL is not an address of a known chain: refused (400100), nothing held', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '50' }] });
      const r = await signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: 'FAILxyz', chain: 'trx', amount: '10' });
      assert.deepEqual(r.json, { code: '400100', msg: 'Incorrect withdrawal address' });
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '50', available: '50', holds: '0' });
      assert.deepEqual(await withdrawals(u.uid), []);
    });

    it('a remark starting with FAIL simulates a chain failure at settlement: hold released, status FAILURE', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '50' }] });
      const r = await signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address: TRON, chain: 'trx', amount: '10', remark: 'FAIL please' });
      assert.equal(r.json.code, '200000', r.text);
      assert.equal(balanceOf(sb, u.uid, 'USDT', 'main').holds, '11');
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 10_000 });
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '50', available: '50', holds: '0' });
      assert.deepEqual((await withdrawals(u.uid)).map((w) => w.status), ['FAILURE']);
    });

    it('whitelist: address (with chain, case-sensitive) must be a favorite, else 260325 with the fixture message', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '500' }] });
      const wl = await admin(sb, 'PUT', `/sandbox/v1/users/${u.uid}/withdrawal-whitelist`, { enabled: true, favorites: [{ address: EVM, chain: 'eth' }] });
      assert.equal(wl.status, 200);
      const w = (address: string, chain: string) => signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'USDT', address, chain, amount: '10' });
      // The same account in lower case (a valid EVM address too), on another chain, another address.
      for (const [addr, chain] of [
        [EVM.toLowerCase(), 'eth'],
        [EVM, 'kcc'],
        [EVM_OTHER, 'eth'],
      ]) {
        const r = await w(addr, chain);
        assert.equal(r.status, 200);
        assert.deepEqual(r.json, { code: '260325', msg: 'Already set withdraw whitelist, this address is not favorite address' }, `${addr} on ${chain}`);
      }
      const v4 = await signed(sb, u, 'POST', '/api/v4/withdrawals', { currency: 'USDT', toAddress: EVM_OTHER, chain: 'eth', amount: '10', withdrawType: 'ADDRESS', receiverType: 'individual', firstName: 'A', lastName: 'B' });
      assert.equal(v4.json.code, '260325');
      assert.equal((await w(EVM, 'eth')).json.code, '200000');
      assert.equal((await w(EVM, 'ERC20')).json.code, '200000');
      await admin(sb, 'PUT', `/sandbox/v1/users/${u.uid}/withdrawal-whitelist`, { enabled: false, favorites: [] });
      assert.equal((await w(TRON_OTHER, 'trx')).json.code, '200000');
    });

    it('V4: receiverType company needs companyName, individual needs firstName and lastName', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '500' }] });
      const base = { currency: 'USDT', toAddress: TRON, chain: 'trx', amount: '10', withdrawType: 'ADDRESS' };
      let r = await signed(sb, u, 'POST', '/api/v4/withdrawals', { ...base, receiverType: 'company' });
      assert.equal(r.json.code, '400100');
      assert.match(String(r.json.msg), /companyName: is required when receiverType is company/);
      r = await signed(sb, u, 'POST', '/api/v4/withdrawals', { ...base, receiverType: 'individual', firstName: 'Ada' });
      assert.match(String(r.json.msg), /lastName: is required/);
      r = await signed(sb, u, 'POST', '/api/v4/withdrawals', { ...base, receiverType: 'company', companyName: 'ACME' });
      assert.equal(r.json.code, '200000', r.text);
      r = await signed(sb, u, 'POST', '/api/v3/withdrawals', { currency: 'USDT', toAddress: TRON, chain: 'trx', amount: '10', withdrawType: 'ADDRESS' });
      assert.equal(r.json.code, '200000', r.text);
    });

    it('V4 Lightning: EXTERNAL refused, omitted → INTERNAL; V1 may deduct externally', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'BTC', type: 'main', amount: '1' }] });
      const base = { currency: 'BTC', toAddress: LN_INVOICE, amount: '0.001', withdrawType: 'ADDRESS', receiverType: 'individual', firstName: 'A', lastName: 'B' };
      let r = await signed(sb, u, 'POST', '/api/v4/withdrawals', { ...base, chain: 'btcln', feeDeductType: 'EXTERNAL' });
      assert.equal(r.json.code, '400100');
      assert.match(String(r.json.msg), /Lightning/);
      r = await signed(sb, u, 'POST', '/api/v4/withdrawals', { ...base, chain: 'Lightning Network', feeDeductType: 'EXTERNAL' });
      assert.equal(r.json.code, '400100');
      r = await signed(sb, u, 'POST', '/api/v4/withdrawals', { ...base, chain: 'btcln' });
      assert.equal(r.json.code, '200000', r.text);
      r = await signed(sb, u, 'POST', '/api/v1/withdrawals', { currency: 'BTC', address: LN_INVOICE, amount: '0.001', chain: 'btcln', feeDeductType: 'EXTERNAL' });
      assert.equal(r.json.code, '200000', r.text);
      assert.deepEqual(
        (await withdrawals(u.uid)).map((w) => [w.version, w.feeDeductType, w.fee, w.receiveAmount]),
        [
          ['v4', 'INTERNAL', '0.000015', '0.000985'],
          ['v1', 'EXTERNAL', '0.000015', '0.001'],
        ],
      );
    });

    it('V4 by UID/MAIL/PHONE: 3 per 10 s, then an error with the time to wait; free of fee', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '1000' }] });
      const w = (withdrawType: string) =>
        signed(sb, u, 'POST', '/api/v4/withdrawals', { currency: 'USDT', toAddress: DEST[withdrawType], amount: '10', withdrawType, receiverType: 'individual', firstName: 'A', lastName: 'B' });
      const DEST: Record<string, string> = { UID: '226000099', MAIL: 'ada@example.com', PHONE: '+491701234567' };
      const bad = await signed(sb, u, 'POST', '/api/v4/withdrawals', { currency: 'USDT', toAddress: 'not-an-email', amount: '10', withdrawType: 'MAIL', receiverType: 'individual', firstName: 'A', lastName: 'B' });
      assert.deepEqual(bad.json, { code: '400100', msg: 'Incorrect withdrawal address' });
      for (const t of ['UID', 'MAIL', 'PHONE']) assert.equal((await w(t)).json.code, '200000');
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 4_000 });
      const r = await w('UID');
      assert.deepEqual(r.json, { code: '260310', msg: 'Withdrawals by UID, mail or phone are limited to 3 per 10 seconds; retry in 6 s' });
      assert.equal((await signed(sb, u, 'POST', '/api/v4/withdrawals', { currency: 'USDT', toAddress: TRON, chain: 'trx', amount: '10', withdrawType: 'ADDRESS', receiverType: 'individual', firstName: 'A', lastName: 'B' })).json.code, '200000');
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 6_000 });
      assert.equal((await w('UID')).json.code, '200000');
      const recs = (await withdrawals(u.uid)).filter((x) => x.withdrawType !== 'ADDRESS');
      assert.ok(recs.every((x) => x.fee === '0' && x.receiveAmount === '10'));
    });

    it('V4 by UID: 50 per 24 h rolling from the first request', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '1000' }] });
      const w = () => signed(sb, u, 'POST', '/api/v4/withdrawals', { currency: 'USDT', toAddress: '226000099', amount: '10', withdrawType: 'UID', receiverType: 'individual', firstName: 'A', lastName: 'B' });
      for (let i = 0; i < 50; i++) {
        if (i > 0 && i % 3 === 0) await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 10_000 });
        assert.equal((await w()).json.code, '200000', `#${i}`);
      }
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 10_000 });
      const r = await w();
      assert.equal(r.json.code, '260310');
      // first request was 16 × 10 s + 10 s = 170 s ago: 86 400 − 170 = 86 230 s to wait
      assert.equal(r.json.msg, 'Withdrawals by UID, mail or phone are limited to 50 per 24 hours; retry in 86230 s');
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 86_230_000 });
      assert.equal((await w()).json.code, '200000');
    });

    it('quotas report the chain fee, minimum, precision and available main balance', async () => {
      const u = await createUser(sb, { balances: [{ currency: 'BTC', type: 'main', amount: '0.5' }] });
      const client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, now: () => sb.state.now(), maxRetries: 0 });
      const q = await client.getWithdrawalQuotas('BTC');
      assert.equal(q.currency, 'BTC');
      assert.equal(q.chain, 'BTC');
      assert.equal(q.withdrawMinFee, '0.0005');
      assert.equal(q.withdrawMinSize, '0.001');
      assert.equal(q.precision, 8);
      assert.equal(q.availableAmount, '0.5');
      assert.equal(q.isWithdrawEnabled, true);
      const seg = await client.getWithdrawalQuotas('BTC', 'bech32');
      assert.equal(seg.isWithdrawEnabled, false);
      client.close();
    });

    it('admin deposit credits main; bad admin input → 400 with 400100', async () => {
      const u = await createUser(sb);
      const r = await fund(u.uid, 'ETH', '1.5');
      assert.equal(r.status, 200);
      assert.deepEqual(balanceOf(sb, u.uid, 'ETH', 'main'), { balance: '1.5', available: '1.5', holds: '0' });
      assert.equal((await fund(u.uid, 'ETH', '-1')).json.code, '400100');
      assert.equal((await fund(u.uid, 'ETH', '0.000000001')).json.code, '400100');
      assert.equal((await fund('nope', 'ETH', '1')).json.code, '400100');
      const noAuth = await signed(sb, u, 'POST', '/sandbox/v1/deposits', { uid: u.uid, currency: 'ETH', amount: '1' });
      assert.equal(noAuth.status, 401);
    });
  });
});
