import { strict as assert } from 'assert';
import { defaultChain, depositChains, depositCurrencies, isLightning, withdrawChains, withdrawCurrencies } from '../../../src/features/funding/model/chains';
import { explainFundingError, isUnknownOutcome } from '../../../src/features/funding/model/errors';
import { InFlightLock, requestKey } from '../../../src/features/funding/model/lock';
import { formatWait, RateTracker, waitFromMessage } from '../../../src/features/funding/model/rateLimit';
import { buildRequest, buildSummary, confirmationMatches, confirmationSuffix, depositAddressView, summaryText } from '../../../src/features/funding/model/summary';
import { BTC, BTC_NATIVE, ERC20, TRC20, USDT, XRP, v1Draft } from './fixtures';

describe('funding guard pieces', () => {
  describe('chains', () => {
    it('deposit/withdraw chain filters and currency lists', () => {
      assert.deepEqual(depositChains(USDT).map((c) => c.chainName), ['TRC20', 'ERC20']);
      assert.deepEqual(withdrawChains(BTC).map((c) => c.chainId), ['btcln', 'btc']);
      const none = { currency: 'OLD', fullName: 'Old', precision: 8, chains: [] };
      assert.deepEqual(depositCurrencies([XRP, USDT, none, BTC]).map((c) => c.currency), ['BTC', 'USDT', 'XRP']);
      assert.deepEqual(withdrawCurrencies([USDT, { ...XRP, chains: null }]).map((c) => c.currency), ['USDT']);
    });
    it('default chain: USDT → ERC20, BTC → Native (btc), else the first', () => {
      assert.equal(defaultChain('USDT', depositChains(USDT))?.chainName, 'ERC20');
      assert.equal(defaultChain('BTC', depositChains(BTC))?.chainId, 'btc');
      assert.equal(defaultChain('XRP', depositChains(XRP))?.chainId, 'xrp');
      assert.equal(defaultChain('BTC', []), undefined);
    });
    it('recognises Lightning', () => {
      assert.equal(isLightning({ chainId: 'btcln', chainName: 'x' }), true);
      assert.equal(isLightning({ chainId: 'ln', chainName: 'Lightning Network' }), true);
      assert.equal(isLightning(BTC_NATIVE), false);
    });
  });

  describe('typed confirmation', () => {
    it('suffix is the last 6 characters, compared exactly', () => {
      const dest = '0x62d35481cb74fa959aec61d33a5d4507a1234567';
      assert.equal(confirmationSuffix(dest), '234567');
      assert.equal(confirmationSuffix('1234'), '1234');
      assert.equal(confirmationMatches(dest, '234567'), true);
      assert.equal(confirmationMatches(dest, ' 234567 '), true);
      assert.equal(confirmationMatches('abcDEF123xyZ', '123xyz'), false);
      assert.equal(confirmationMatches(dest, ''), false);
    });
  });

  describe('summary and request bodies', () => {
    const quote = { requested: 'INTERNAL' as const, deduction: 'INTERNAL' as const, fee: '1', receiveAmount: '99', accountPays: '100' };
    it('summary shows amount, fee, received amount, full destination, chain, memo, API version', () => {
      const s = buildSummary(v1Draft(), ERC20, quote);
      assert.equal(s.title, 'Withdraw 100 USDT via V1 (POST /api/v1/withdrawals)');
      assert.equal(s.suffix, '234567');
      assert.equal(summaryText(s), [
        'Amount: 100 USDT',
        'Fee: 1 USDT',
        'Who pays the fee: the recipient (INTERNAL: taken from the amount)',
        'Recipient receives: 99 USDT',
        'Main account pays: 100 USDT',
        'Address: 0x62d35481cb74fa959aec61d33a5d4507a1234567',
        'Chain: ERC20 (eth)',
        'Memo: (none)',
        'API version: V1 — POST /api/v1/withdrawals',
      ].join('\n'));
    });
    it('summary says plainly when the address could not be verified (a chain with no known format), and only then', () => {
      const btcp = { ...ERC20, chainId: 'btcp', chainName: 'BTCP' };
      const s = buildSummary(v1Draft({ currency: 'BTCP', chain: 'btcp', destination: 'b1Vk3mZx9Q' }), btcp, quote);
      const lines = summaryText(s).split('\n');
      assert.equal(lines[5], 'Address: b1Vk3mZx9Q');
      assert.equal(
        lines[6],
        "Address check: NOT VERIFIED — SpotDesk knows no address format for BTCP, so only the characters were checked. Compare the address with the recipient's, character by character: a withdrawal to a wrong address cannot be undone.",
      );
      assert.ok(!summaryText(buildSummary(v1Draft(), ERC20, quote)).includes('Address check'), 'a verified ERC20 address gets no such line');
      assert.ok(!summaryText(buildSummary(v1Draft({ withdrawType: 'UID', destination: '12345678', apiVersion: 'V4' }), btcp, quote)).includes('Address check'), 'not for UID');
    });
    it('V1 body: address, amount as exact string, feeDeductType omitted for automatic', () => {
      assert.deepEqual(buildRequest(v1Draft({ feeDeduction: 'AUTO', amount: '100.000001' })), {
        version: 'V1',
        body: { currency: 'USDT', amount: '100.000001', chain: 'eth', address: '0x62d35481cb74fa959aec61d33a5d4507a1234567' },
      });
    });
    it('V4 body: toAddress, withdrawType and recipient fields', () => {
      const draft = v1Draft({
        apiVersion: 'V4', withdrawType: 'MAIL', destination: 'ada@example.com', chain: 'trx', memo: '', feeDeduction: 'EXTERNAL',
        recipient: { receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace', country: 'TR', identityType: 'ID_CARD', identityNo: '123', reasonOfTransfer: 'OTHER', companyName: '  ' },
      });
      assert.deepEqual(buildRequest(draft), {
        version: 'V4',
        body: {
          currency: 'USDT', amount: '100', chain: 'trx', feeDeductType: 'EXTERNAL', toAddress: 'ada@example.com', withdrawType: 'MAIL',
          receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace', country: 'TR', identityType: 'ID_CARD', identityNo: '123', reasonOfTransfer: 'OTHER',
        },
      });
      assert.throws(() => buildRequest(v1Draft({ apiVersion: 'V4' })), /needs the recipient/);
    });
    it('deposit address view: memo warning, min size and confirmations', () => {
      assert.deepEqual(depositAddressView('USDT', { address: '0xabc', memo: null, chain: 'ERC20', chainId: 'eth' }, ERC20), {
        currency: 'USDT', address: '0xabc', memo: '', chain: 'ERC20', chainId: 'eth', depositMinSize: '1', confirms: 64, memoWarning: undefined,
      });
      const v = depositAddressView('XRP', { address: 'rXYZ', memo: '1234', chain: 'XRP' }, TRC20);
      assert.equal(v.memoWarning, 'This address needs the memo 1234. A deposit sent without it may not be credited — always include the memo (also called tag or note) when sending XRP.');
    });
  });

  describe('in-flight lock', () => {
    it('keys ignore field order and undefined fields; a held key refuses a second acquire', () => {
      const k1 = requestKey('/api/v1/withdrawals', { currency: 'USDT', amount: '1', memo: undefined });
      const k2 = requestKey('/api/v1/withdrawals', { amount: '1', currency: 'USDT' });
      assert.equal(k1, k2);
      assert.notEqual(k1, requestKey('/api/v4/withdrawals', { amount: '1', currency: 'USDT' }));
      const lock = new InFlightLock();
      assert.equal(lock.tryAcquire(k1), true);
      assert.equal(lock.tryAcquire(k2), false);
      assert.equal(lock.size, 1);
      lock.release(k1);
      assert.equal(lock.tryAcquire(k2), true);
    });
  });

  describe('V4 rate tracker (3 / 10 s, 50 / 24 h, windows from the first request)', () => {
    it('fourth request within 10 s waits until the window closes', () => {
      const t = new RateTracker();
      t.record(1_000);
      t.record(2_000);
      assert.deepEqual(t.check(2_500), { waitMs: 0 });
      t.record(3_000);
      const c = t.check(4_000);
      assert.equal(c.waitMs, 7_000);
      assert.equal(c.rule?.label, '3 per 10 seconds');
      assert.deepEqual(t.check(11_000), { waitMs: 0 });
      t.record(11_000); // opens a new 10 s window
      assert.deepEqual(t.counts(11_000), [1, 4]);
    });
    it('the 24 h rule binds after 50 requests', () => {
      const t = new RateTracker();
      for (let i = 0; i < 50; i++) t.record(i * 10_000);
      const c = t.check(500_000);
      assert.equal(c.waitMs, 86_400_000 - 500_000);
      assert.equal(c.rule?.label, '50 per 24 hours');
    });
    it('formats waits and reads a server "retry in N s"', () => {
      assert.equal(formatWait(7_000), '7.0 s');
      assert.equal(formatWait(6_401), '6.5 s');
      assert.equal(formatWait(185_000), '3 min 5 s');
      assert.equal(formatWait(85_900_000), '23 h 51 min');
      assert.equal(waitFromMessage('Withdrawals by UID, mail or phone are limited to 3 per 10 seconds; retry in 7 s'), 7_000);
      assert.equal(waitFromMessage('nothing'), undefined);
    });
  });

  describe('error explanations', () => {
    it('260325 explains the whitelist and where favorites are managed', () => {
      const e = explainFundingError({ code: '260325', msg: 'Already set withdraw whitelist, this address is not favorite address' }, 'withdraw-v1');
      assert.equal(e.code, '260325');
      assert.equal(e.title, 'Withdrawal refused: address is not a favorite on the whitelist (260325)');
      assert.match(e.detail, /Account Security → Withdrawal Address Management/);
      assert.match(e.detail, /case-sensitive/);
    });
    it('400007 names the missing permission', () => {
      assert.equal(explainFundingError({ code: '400007', msg: 'Access denied' }, 'withdraw-v4').title, 'Missing API key permission: Transfer (400007)');
      assert.equal(explainFundingError({ code: '400007', msg: 'Access denied' }, 'deposit-address').title, 'Missing API key permission: General (400007)');
    });
    it('V4 rate limit gives the time to wait (local tracker first, else the server message)', () => {
      const err = { code: '260310', msg: 'Withdrawals by UID, mail or phone are limited to 3 per 10 seconds; retry in 9 s' };
      const a = explainFundingError(err, 'withdraw-v4', { waitMs: 6_400 });
      assert.equal(a.title, 'Withdrawal rate limit reached (260310)');
      assert.match(a.detail, /^Withdrawals by UID, e-mail or phone \(V4\) are limited to 3 per 10 seconds and 50 per 24 hours, rolling from the first request\. Wait 6\.4 s before the next one\./);
      assert.match(explainFundingError(err, 'withdraw-v4').detail, /Wait 9\.0 s before the next one\./);
    });
    it('timeout / ambiguous: status unknown, never resend', () => {
      for (const kind of ['timeout', 'ambiguous']) {
        const e = explainFundingError({ kind, message: 'no answer' }, 'withdraw-v1');
        assert.equal(e.title, 'Withdrawal status unknown — check withdrawal history');
        assert.equal(e.unknownOutcome, true);
        assert.equal(isUnknownOutcome({ kind }), true);
      }
      assert.equal(isUnknownOutcome({ kind: 'network' }), false);
      assert.equal(explainFundingError({ kind: 'network', message: 'ECONNREFUSED' }, 'withdraw-v1').unknownOutcome, false);
    });
    it('deposit address: already exists, chain disabled', () => {
      const a = explainFundingError({ code: '260000', msg: 'Deposit address already exists' }, 'deposit-address', { currency: 'USDT', chain: 'ERC20' });
      assert.equal(a.title, 'A deposit address already exists for USDT on ERC20 (260000)');
      const d = explainFundingError({ code: '260220', msg: 'withdrawal of USDT on chain OMNI is suspended' }, 'withdraw-v1', { currency: 'USDT', chain: 'OMNI' });
      assert.equal(d.title, 'Withdrawals are disabled on this chain (260220)');
      const dd = explainFundingError({ code: '400100', msg: 'deposit of USDT on chain OMNI is disabled' }, 'deposit-address', { currency: 'USDT', chain: 'OMNI' });
      assert.equal(dd.title, 'Deposits are disabled on this chain (400100)');
    });
  });
});
