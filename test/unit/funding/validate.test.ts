import { strict as assert } from 'assert';
import { checkAmount, checkDestination, checkDestinationOn, checkRecipient, identityTypeFor, validateWithdrawal } from '../../../src/features/funding/model/validate';
import { BTC, BTCLN, ERC20, LN_INVOICE, OMNI, TRC20, USDT, XRP, XRP_CHAIN, usdtAccounts, v1Draft } from './fixtures';

const ctx = (main: string, trade = '0', chain = ERC20, remainAmount?: string) => ({
  currency: USDT,
  chain,
  accounts: usdtAccounts(main, trade),
  quota: remainAmount === undefined ? undefined : { remainAmount },
});

describe('funding validation', () => {
  describe('checkAmount', () => {
    it('accepts a positive multiple of the precision at least withdrawalMinSize', () => {
      assert.equal(checkAmount('10', USDT, ERC20), undefined);
      assert.equal(checkAmount('10.123456', USDT, ERC20), undefined);
    });
    it('rejects non-decimal input', () => {
      assert.equal(checkAmount('1e3', USDT, ERC20), '"1e3" is not a plain decimal number (digits, optional point; no exponent).');
      assert.equal(checkAmount('abc', USDT, ERC20), '"abc" is not a plain decimal number (digits, optional point; no exponent).');
      assert.equal(checkAmount('-5', USDT, ERC20), 'The amount must be positive.');
    });
    it('rejects zero', () => {
      assert.equal(checkAmount('0', USDT, ERC20), 'The amount must be positive.');
      assert.equal(checkAmount('0.000', USDT, ERC20), 'The amount must be positive.');
    });
    it('rejects more digits than withdrawPrecision (6 on ERC20 although the currency has 8)', () => {
      assert.equal(checkAmount('10.1234567', USDT, ERC20), 'The amount must be a multiple of 0.000001 (6 decimal places for USDT on ERC20).');
    });
    it('uses the currency precision when the chain has no withdrawPrecision', () => {
      const chain = { ...ERC20, withdrawPrecision: undefined };
      assert.equal(checkAmount('10.1234567', USDT, chain), undefined);
      assert.equal(checkAmount('10.123456789', USDT, chain), 'The amount must be a multiple of 0.00000001 (8 decimal places for USDT on ERC20).');
    });
    it('rejects amounts below withdrawalMinSize', () => {
      assert.equal(checkAmount('9.999999', USDT, ERC20), 'The minimum withdrawal on ERC20 is 10 USDT.');
      assert.equal(checkAmount('1.4', USDT, TRC20), 'The minimum withdrawal on TRC20 is 1.5 USDT.');
    });
  });

  describe('checkDestinationOn: an address of another of the currency\'s chains is named as such', () => {
    const USDT = [
      { chainId: 'omni', chainName: 'OMNI' },
      { chainId: 'eth', chainName: 'ERC20' },
      { chainId: 'trx', chainName: 'TRC20' },
      { chainId: 'kcc', chainName: 'KCC' },
    ];
    const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    it('an EVM address on TRC20: "this looks like an ERC20 or KCC address; you chose TRC20"', () => {
      assert.equal(checkDestinationOn('ADDRESS', EVM, USDT[2], USDT), 'This looks like an ERC20 or KCC address; you chose TRC20. Go Back to pick its chain, or check the address.');
      assert.equal(checkDestinationOn('ADDRESS', EVM, USDT[2], USDT.slice(0, 3)), 'This looks like an ERC20 address; you chose TRC20. Go Back to pick that chain, or check the address.');
      assert.equal(checkDestinationOn('ADDRESS', TRON, USDT[1], USDT), 'This looks like a TRC20 address; you chose ERC20. Go Back to pick that chain, or check the address.');
    });
    it('valid on the chosen chain: no issue; valid on no chain: the chain\'s own message; not an address type: unchanged', () => {
      assert.equal(checkDestinationOn('ADDRESS', TRON, USDT[2], USDT), undefined);
      assert.equal(checkDestinationOn('ADDRESS', 'hello', USDT[2], USDT), checkDestination('ADDRESS', 'hello', 'trx'));
      assert.equal(checkDestinationOn('UID', 'abc', USDT[2], USDT), checkDestination('UID', 'abc'));
      // A chain with no known format (generic syntax) never claims an address.
      assert.equal(checkDestinationOn('ADDRESS', EVM, USDT[2], [...USDT.slice(2, 3), { chainId: 'btcp', chainName: 'BTCP' }]), checkDestination('ADDRESS', EVM, 'trx'));
    });
  });

  describe('checkDestination (the shared rule, src/api/withdrawalAddress.ts)', () => {
    it('ADDRESS: checked against the chain (format and checksum), with the reason', () => {
      assert.equal(checkDestination('ADDRESS', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'trx'), undefined);
      assert.equal(
        checkDestination('ADDRESS', 'hello', 'trx'),
        'Not a valid address for this chain (expected: TRON address (T…, 34 characters, base58check)). Check it for a typo or a missing character.',
      );
      assert.equal(checkDestination('ADDRESS', '0x62d35481cb74fa959aec61d33a5d4507a1234567', 'trx')?.startsWith('Not a valid address for this chain'), true);
      assert.equal(checkDestination('ADDRESS', ''), 'Enter a destination.');
      assert.equal(checkDestination('ADDRESS', ' abc', 'btcp'), 'The destination has leading or trailing spaces.');
      assert.equal(checkDestination('ADDRESS', 'ab c', 'btcp'), 'An address is 1 to 128 letters, digits or :._- (no spaces).');
      assert.equal(checkDestination('ADDRESS', 'anything-goes_1', 'btcp'), undefined, 'unknown chain format: characters only');
    });
    it('MAIL, PHONE, UID formats', () => {
      assert.equal(checkDestination('MAIL', 'a@b.io'), undefined);
      assert.equal(checkDestination('MAIL', 'a@b'), 'Not an e-mail address (name@example.com).');
      assert.equal(checkDestination('PHONE', '+905320000000'), undefined);
      assert.equal(checkDestination('PHONE', '+90 532 000 0000'), 'Not a phone number: an optional + and 6 to 15 digits with the country code, no spaces (e.g. +491701234567).');
      assert.equal(checkDestination('PHONE', 'call me')?.startsWith('Not a phone number'), true);
      assert.equal(checkDestination('UID', '123456789'), undefined);
      assert.equal(checkDestination('UID', '12ab'), 'A KuCoin UID is 4 to 20 digits.');
    });
  });

  describe('validateWithdrawal', () => {
    it('a valid V1 INTERNAL draft passes with its quote', () => {
      const r = validateWithdrawal(v1Draft(), ctx('100'));
      assert.deepEqual(r, { ok: true, issues: [], quote: { requested: 'INTERNAL', deduction: 'INTERNAL', fee: '1', receiveAmount: '99', accountPays: '100' }, transfer: undefined });
    });
    it('EXTERNAL needs amount + fee available in main', () => {
      const r = validateWithdrawal(v1Draft({ feeDeduction: 'EXTERNAL' }), ctx('100.5'));
      assert.equal(r.ok, false);
      assert.deepEqual(r.issues, [{ field: 'amount', message: 'Main has 100.5 USDT available but the withdrawal needs 101 (100 + fee 1).' }]);
      assert.equal(r.transfer, undefined);
    });
    it('offers a trade → main transfer of the shortfall when trade holds the funds', () => {
      const r = validateWithdrawal(v1Draft({ feeDeduction: 'EXTERNAL' }), ctx('40', '70'));
      assert.deepEqual(r.transfer, { currency: 'USDT', amount: '61' });
      assert.deepEqual(r.issues, [{ field: 'amount', message: 'Main has 40 USDT available but the withdrawal needs 101 (100 + fee 1). Trade holds 70: transfer 61 from trade to main first.' }]);
    });
    it('no transfer offer when trade cannot cover the shortfall either', () => {
      const r = validateWithdrawal(v1Draft(), ctx('40', '59.99'));
      assert.equal(r.transfer, undefined);
      assert.deepEqual(r.issues, [{ field: 'amount', message: 'Main has 40 USDT available but the withdrawal needs 100.' }]);
    });
    it('checks the remaining quota', () => {
      const r = validateWithdrawal(v1Draft(), ctx('1000', '0', ERC20, '99.5'));
      assert.deepEqual(r.issues, [{ field: 'amount', message: 'The amount exceeds the remaining withdrawal quota of 99.5 USDT.' }]);
      assert.equal(validateWithdrawal(v1Draft(), ctx('1000', '0', ERC20, '100')).ok, true);
    });
    it('refuses an address that is not one of the chain (hello on TRC20) before anything else is priced', () => {
      const r = validateWithdrawal(v1Draft({ chain: 'trx', destination: 'hello', amount: '11' }), ctx('100', '0', TRC20));
      assert.deepEqual(r.issues, [{ field: 'destination', message: 'Not a valid address for this chain (expected: TRON address (T…, 34 characters, base58check)). Check it for a typo or a missing character.' }]);
      assert.equal(r.ok, false);
    });
    it('refuses a withdraw-disabled chain', () => {
      const r = validateWithdrawal(v1Draft({ chain: 'omni', destination: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' }), ctx('1000', '0', OMNI));
      assert.deepEqual(r.issues, [{ field: 'chain', message: 'Withdrawals of USDT on OMNI are disabled.' }]);
    });
    it('requires the memo on a needTag chain', () => {
      const draft = v1Draft({ currency: 'XRP', chain: 'xrp', destination: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', amount: '25' });
      const accounts = [{ currency: 'XRP', type: 'main', balance: '100', available: '100', holds: '0' }];
      const r = validateWithdrawal(draft, { currency: XRP, chain: XRP_CHAIN, accounts });
      assert.deepEqual(r.issues, [{ field: 'memo', message: 'XRP needs a memo/tag for XRP; without it the funds may be lost.' }]);
      assert.equal(validateWithdrawal({ ...draft, memo: '123456' }, { currency: XRP, chain: XRP_CHAIN, accounts }).ok, true);
    });
    it('UID/MAIL/PHONE need V4', () => {
      const r = validateWithdrawal(v1Draft({ withdrawType: 'UID', destination: '12345678' }), ctx('1000'));
      assert.deepEqual(r.issues, [{ field: 'apiVersion', message: 'Withdrawals by UID exist only in V4 (POST /api/v4/withdrawals).' }]);
    });
    it('Lightning on V4 refuses EXTERNAL (rule 4)', () => {
      const draft = v1Draft({ currency: 'BTC', chain: 'btcln', destination: LN_INVOICE, amount: '0.001', feeDeduction: 'EXTERNAL', apiVersion: 'V4', recipient: { receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace' } });
      const accounts = [{ currency: 'BTC', type: 'main', balance: '1', available: '1', holds: '0' }];
      const r = validateWithdrawal(draft, { currency: BTC, chain: BTCLN, accounts });
      assert.deepEqual(r.issues, [{ field: 'feeDeduction', message: 'feeDeductType EXTERNAL is not supported on the Lightning network (internal deduction only)' }]);
    });
    it('INTERNAL with an amount not above the fee is refused', () => {
      const r = validateWithdrawal(v1Draft({ chain: 'trx', destination: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '1.5' }), ctx('100', '0', TRC20));
      assert.deepEqual(r.issues, [{ field: 'feeDeduction', message: 'amount must exceed the fee 1.5 when the fee is deducted from it' }]);
    });
    it('reports an invalid amount without pricing it', () => {
      const r = validateWithdrawal(v1Draft({ amount: '5' }), ctx('100'));
      assert.deepEqual(r, { ok: false, issues: [{ field: 'amount', message: 'The minimum withdrawal on ERC20 is 10 USDT.' }], quote: undefined, transfer: undefined });
    });
    it('V4 needs recipient fields', () => {
      const r = validateWithdrawal(v1Draft({ apiVersion: 'V4' }), ctx('1000'));
      assert.deepEqual(r.issues, [{ field: 'recipient', message: 'V4 withdrawals need the recipient (receiverType and names).' }]);
    });
  });

  describe('checkRecipient (V4)', () => {
    it('individual needs first and last name; company needs companyName', () => {
      assert.deepEqual(checkRecipient({ recipient: { receiverType: 'individual', firstName: 'Ada' } }), [{ field: 'recipient', message: 'An individual recipient needs a first and a last name.' }]);
      assert.deepEqual(checkRecipient({ recipient: { receiverType: 'company' } }), [{ field: 'recipient', message: 'A company recipient needs the company name.' }]);
      assert.deepEqual(checkRecipient({ recipient: { receiverType: 'company', companyName: 'Acme Ltd' } }), []);
    });
    it('identity type follows the country: ID_CARD for TR, PASSPORT otherwise, with a number', () => {
      assert.equal(identityTypeFor('TR'), 'ID_CARD');
      assert.equal(identityTypeFor('tr'), 'ID_CARD');
      assert.equal(identityTypeFor('DE'), 'PASSPORT');
      const base = { receiverType: 'individual' as const, firstName: 'Ada', lastName: 'L' };
      assert.deepEqual(checkRecipient({ recipient: { ...base, country: 'TR', identityType: 'PASSPORT', identityNo: 'X1' } }), [{ field: 'recipient', message: 'For country TR the identity type is ID_CARD.' }]);
      assert.deepEqual(checkRecipient({ recipient: { ...base, country: 'DE', identityType: 'PASSPORT' } }), [{ field: 'recipient', message: 'Enter the passport number.' }]);
      assert.deepEqual(checkRecipient({ recipient: { ...base, country: 'TR', identityType: 'ID_CARD', identityNo: '12345678901', reasonOfTransfer: 'OTHER' } }), []);
    });
    it('reasonOfTransfer must be one of the spec values', () => {
      const r = checkRecipient({ recipient: { receiverType: 'company', companyName: 'A', reasonOfTransfer: 'GIFT' as never } });
      assert.equal(r.length, 1);
      assert.match(r[0].message, /^reasonOfTransfer must be one of TRADING_IN_OTHER_PLATFORMS, .*, OTHER\.$/);
    });
  });
});
