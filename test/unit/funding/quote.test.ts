import { strict as assert } from 'assert';
import { deductionOptions, describeQuote, quoteWithdrawal } from '../../../src/features/funding/model/quote';
import { BTCLN, ERC20, TRC20 } from './fixtures';

const erc = (amount: string, feeDeduction: 'INTERNAL' | 'EXTERNAL' | 'AUTO', mainAvailable: string, apiVersion: 'V1' | 'V4' = 'V1') =>
  quoteWithdrawal({ amount, feeDeduction, chain: ERC20, precision: 6, mainAvailable, apiVersion });

describe('funding quote (fee and receive amount via src/api/withdrawalFee.ts)', () => {
  describe('fee = max(withdrawalMinFee, amount × withdrawFeeRate) capped by withdrawMaxFee', () => {
    it('minimum fee applies when amount × rate is below it', () => {
      assert.deepEqual(erc('100', 'EXTERNAL', '1000'), { requested: 'EXTERNAL', deduction: 'EXTERNAL', fee: '1', receiveAmount: '100', accountPays: '101' });
    });
    it('rate applies above the minimum', () => {
      assert.deepEqual(erc('3000.5', 'EXTERNAL', '5000'), { requested: 'EXTERNAL', deduction: 'EXTERNAL', fee: '3.0005', receiveAmount: '3000.5', accountPays: '3003.5005' });
    });
    it('rate result is rounded up to the amount precision', () => {
      // 1234.567891 × 0.001 = 1.234567891 → 1.234568 at 6 digits
      assert.equal((erc('1234.567891', 'EXTERNAL', '5000') as { fee: string }).fee, '1.234568');
    });
    it('withdrawMaxFee caps the fee', () => {
      assert.deepEqual(erc('10000', 'INTERNAL', '10000'), { requested: 'INTERNAL', deduction: 'INTERNAL', fee: '5', receiveAmount: '9995', accountPays: '10000' });
    });
    it('an empty withdrawMaxFee means no cap', () => {
      const q = quoteWithdrawal({ amount: '100000', feeDeduction: 'INTERNAL', chain: { ...TRC20, withdrawFeeRate: '0.001' }, precision: 6, mainAvailable: '100000', apiVersion: 'V1' });
      assert.deepEqual(q, { requested: 'INTERNAL', deduction: 'INTERNAL', fee: '100', receiveAmount: '99900', accountPays: '100000' });
    });
    it('UID/MAIL/PHONE (inner) withdrawals are fee-free', () => {
      const q = quoteWithdrawal({ amount: '100', feeDeduction: 'AUTO', chain: ERC20, precision: 6, mainAvailable: '100', apiVersion: 'V4', withdrawType: 'UID' });
      assert.deepEqual(q, { requested: 'AUTO', deduction: 'EXTERNAL', fee: '0', receiveAmount: '100', accountPays: '100' });
    });
  });

  describe('the four fee deduction rules', () => {
    it('rule 1 INTERNAL: recipient gets amount − fee, main pays the amount', () => {
      assert.deepEqual(erc('100', 'INTERNAL', '100'), { requested: 'INTERNAL', deduction: 'INTERNAL', fee: '1', receiveAmount: '99', accountPays: '100' });
    });
    it('rule 2 EXTERNAL: recipient gets the amount, main pays amount + fee', () => {
      assert.deepEqual(erc('100', 'EXTERNAL', '101'), { requested: 'EXTERNAL', deduction: 'EXTERNAL', fee: '1', receiveAmount: '100', accountPays: '101' });
    });
    it('rule 3 omitted, main covers amount + fee: fee from main', () => {
      assert.deepEqual(erc('100', 'AUTO', '101'), { requested: 'AUTO', deduction: 'EXTERNAL', fee: '1', receiveAmount: '100', accountPays: '101' });
    });
    it('rule 3 omitted, main short of amount + fee: fee from the amount', () => {
      assert.deepEqual(erc('100', 'AUTO', '100.999999'), { requested: 'AUTO', deduction: 'INTERNAL', fee: '1', receiveAmount: '99', accountPays: '100' });
    });
    it('rule 3 omitted, main short of the amount: priced as INTERNAL so the shortfall can be reported', () => {
      assert.deepEqual(erc('100', 'AUTO', '40'), { requested: 'AUTO', deduction: 'INTERNAL', fee: '1', receiveAmount: '99', accountPays: '100' });
    });
    it('EXTERNAL without funds is still priced (the caller reports the shortfall)', () => {
      assert.deepEqual(erc('100', 'EXTERNAL', '0'), { requested: 'EXTERNAL', deduction: 'EXTERNAL', fee: '1', receiveAmount: '100', accountPays: '101' });
    });
    it('rule 4 V4 Lightning: EXTERNAL refused', () => {
      const q = quoteWithdrawal({ amount: '0.001', feeDeduction: 'EXTERNAL', chain: BTCLN, precision: 8, mainAvailable: '1', apiVersion: 'V4' });
      assert.deepEqual(q, { error: 'feeDeductType EXTERNAL is not supported on the Lightning network (internal deduction only)', code: '400100' });
    });
    it('rule 4 V4 Lightning: omitted resolves to INTERNAL even when main could pay', () => {
      const q = quoteWithdrawal({ amount: '0.001', feeDeduction: 'AUTO', chain: BTCLN, precision: 8, mainAvailable: '1', apiVersion: 'V4' });
      assert.deepEqual(q, { requested: 'AUTO', deduction: 'INTERNAL', fee: '0.000015', receiveAmount: '0.000985', accountPays: '0.001' });
    });
    it('INTERNAL with amount ≤ fee is refused', () => {
      const q = quoteWithdrawal({ amount: '1.5', feeDeduction: 'INTERNAL', chain: TRC20, precision: 6, mainAvailable: '10', apiVersion: 'V1' });
      assert.deepEqual(q, { error: 'amount must exceed the fee 1.5 when the fee is deducted from it', code: '400100' });
    });
  });

  it('describeQuote words the amounts', () => {
    const q = erc('100', 'INTERNAL', '500');
    assert.ok(!('error' in q));
    assert.equal(describeQuote(q, 'USDT'), 'recipient gets 99 USDT, account pays 100 USDT (fee 1 USDT)');
  });

  it('deductionOptions explains all three choices; Lightning V4 disables EXTERNAL', () => {
    const opts = deductionOptions({ amount: '100', chain: ERC20, precision: 6, mainAvailable: '500', apiVersion: 'V1' }, 'USDT');
    // Plain words first, the API term beside them.
    assert.deepEqual(opts.map((o) => [o.value, o.label, o.term, o.detail, o.disabled]), [
      ['INTERNAL', 'Recipient pays the fee', 'INTERNAL — fee taken from the amount', 'recipient gets 99 USDT, account pays 100 USDT (fee 1 USDT)', undefined],
      ['EXTERNAL', 'I pay the fee', 'EXTERNAL — fee paid from the main account', 'recipient gets 100 USDT, account pays 101 USDT (fee 1 USDT)', undefined],
      ['AUTO', 'Automatic: I pay it if main can, else the recipient', 'AUTO — feeDeductType omitted', 'recipient gets 100 USDT, account pays 101 USDT (fee 1 USDT) → I pay the fee', undefined],
    ]);
    const ln = deductionOptions({ amount: '0.001', chain: BTCLN, precision: 8, mainAvailable: '1', apiVersion: 'V4' }, 'BTC');
    assert.equal(ln[1].disabled, 'feeDeductType EXTERNAL is not supported on the Lightning network (internal deduction only)');
    assert.equal(ln[2].detail, 'recipient gets 0.000985 BTC, account pays 0.001 BTC (fee 0.000015 BTC) → the recipient pays the fee');
  });
});
