/**
 * src/api/withdrawalFee.ts: the shared, pure fee / receive-amount math (spec fee deduction rules 1–4).
 */
import { strict as assert } from 'node:assert';
import { chainWithdrawalFee, computeWithdrawalFee, WithdrawalFeeError, type WithdrawalFeeInput } from '../../../src/api/withdrawalFee';

const TRC20: Omit<WithdrawalFeeInput, 'amount' | 'available'> = { precision: 6, withdrawalMinSize: '10', withdrawalMinFee: '1', withdrawFeeRate: '0' };

function err(fn: () => unknown, code: string, re: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof WithdrawalFeeError && e.code === code && re.test(e.message));
}

describe('withdrawal fee (src/api/withdrawalFee)', () => {
  it('chain fee: max(minFee, amount × rate) capped by maxFee, rounded up to the precision', () => {
    assert.equal(chainWithdrawalFee('100', 8, '0.5', '0.001'), '0.5');
    assert.equal(chainWithdrawalFee('1000', 8, '0.5', '0.001'), '1');
    assert.equal(chainWithdrawalFee('5000', 8, '0.5', '0.001', '2'), '2');
    assert.equal(chainWithdrawalFee('5000', 8, '0.5', '0.001', ''), '5');
    assert.equal(chainWithdrawalFee('5000', 8, '0.5', '0.001', null), '5');
    assert.equal(chainWithdrawalFee('1234.567891', 6, '0', '0.0003'), '0.370371');
    assert.equal(chainWithdrawalFee('1234.567891', 2, '0', '0.0003'), '0.38');
    assert.equal(chainWithdrawalFee('20', 6, '1', ''), '1');
  });

  it('rule 1 INTERNAL: fee from the amount', () => {
    assert.deepEqual(computeWithdrawalFee({ ...TRC20, amount: '20', available: '20', feeDeductType: 'INTERNAL' }), { fee: '1', feeDeductType: 'INTERNAL', receiveAmount: '19', totalDebit: '20' });
  });

  it('rule 2 EXTERNAL: fee from main; main must cover amount + fee', () => {
    assert.deepEqual(computeWithdrawalFee({ ...TRC20, amount: '20', available: '21', feeDeductType: 'EXTERNAL' }), { fee: '1', feeDeductType: 'EXTERNAL', receiveAmount: '20', totalDebit: '21' });
    err(() => computeWithdrawalFee({ ...TRC20, amount: '20', available: '20.999999', feeDeductType: 'EXTERNAL' }), '200004', /Balance insufficient/);
  });

  it('rule 3 omitted: EXTERNAL when main covers amount + fee, else INTERNAL', () => {
    assert.equal(computeWithdrawalFee({ ...TRC20, amount: '20', available: '21' }).feeDeductType, 'EXTERNAL');
    const r = computeWithdrawalFee({ ...TRC20, amount: '20', available: '20.5' });
    assert.deepEqual(r, { fee: '1', feeDeductType: 'INTERNAL', receiveAmount: '19', totalDebit: '20' });
    err(() => computeWithdrawalFee({ ...TRC20, amount: '20', available: '19.99' }), '200004', /Balance insufficient/);
  });

  it('rule 4 Lightning (V4/V3): internal only; V1 unaffected', () => {
    const ln = { precision: 8, withdrawalMinSize: '0.00001', withdrawalMinFee: '0.000015', withdrawFeeRate: '0', lightning: true };
    err(() => computeWithdrawalFee({ ...ln, amount: '0.001', available: '1', feeDeductType: 'EXTERNAL', version: 'v4' }), '400100', /Lightning/);
    assert.deepEqual(computeWithdrawalFee({ ...ln, amount: '0.001', available: '1', version: 'v4' }), { fee: '0.000015', feeDeductType: 'INTERNAL', receiveAmount: '0.000985', totalDebit: '0.001' });
    assert.equal(computeWithdrawalFee({ ...ln, amount: '0.001', available: '1', feeDeductType: 'EXTERNAL', version: 'v1' }).feeDeductType, 'EXTERNAL');
  });

  it('amount rules: positive, multiple of the precision, ≥ withdrawalMinSize, > fee when deducted internally', () => {
    err(() => computeWithdrawalFee({ ...TRC20, amount: '0', available: '100' }), '400100', /positive/);
    err(() => computeWithdrawalFee({ ...TRC20, amount: '1e2', available: '100' }), '400100', /positive decimal/);
    err(() => computeWithdrawalFee({ ...TRC20, amount: '10.0000001', available: '100' }), '400100', /multiple of the precision 0.000001/);
    err(() => computeWithdrawalFee({ ...TRC20, amount: '9.999999', available: '100' }), '400100', /withdrawalMinSize 10/);
    err(() => computeWithdrawalFee({ ...TRC20, withdrawalMinSize: '0.5', amount: '1', available: '1', feeDeductType: 'INTERNAL' }), '400100', /exceed the fee 1/);
  });

  it('inner withdrawals are free', () => {
    assert.deepEqual(computeWithdrawalFee({ ...TRC20, amount: '10', available: '10', isInner: true }), { fee: '0', feeDeductType: 'EXTERNAL', receiveAmount: '10', totalDebit: '10' });
  });
});
