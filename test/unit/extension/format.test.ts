/** Unit tests of the tree views' pure text helpers (src/api/displayFormat.ts). */
import { strict as assert } from 'assert';
import { backoffMs, fiatValue, maxTransferable, padFraction, percent, validateAmount } from '../../../src/api/displayFormat';

describe('src/api/displayFormat', () => {
  it('padFraction never removes digits', () => {
    assert.strictEqual(padFraction('1.5', 3), '1.500');
    assert.strictEqual(padFraction('2', 2), '2.00');
    assert.strictEqual(padFraction('2', 0), '2');
    assert.strictEqual(padFraction('1.2345', 2), '1.2345');
  });

  it('fiatValue multiplies exactly and truncates to cents', () => {
    assert.strictEqual(fiatValue('0.5', '67193.1'), '33596.55');
    assert.strictEqual(fiatValue('0.1', '0.3'), '0.03');
    assert.strictEqual(fiatValue('3', '0.3333'), '0.99');
    assert.strictEqual(fiatValue('1', undefined), undefined);
    assert.strictEqual(fiatValue('1', '1e3'), undefined);
  });

  it('percent formats a change rate with sign and two decimals', () => {
    assert.strictEqual(percent('-0.0014'), '-0.14%');
    assert.strictEqual(percent('0.05'), '+5.00%');
    assert.strictEqual(percent('0'), '0.00%');
    assert.strictEqual(percent(null), '');
  });

  it('validateAmount accepts a positive decimal up to the available amount', () => {
    assert.strictEqual(validateAmount('12.5', '12.5', 'USDT'), undefined);
    assert.strictEqual(validateAmount(' 0.00000001 ', '1', 'BTC'), undefined);
    assert.strictEqual(validateAmount('12.50000001', '12.5', 'USDT'), 'Only 12.5 USDT is available.');
    assert.strictEqual(validateAmount('0', '1', 'BTC'), 'The amount must be greater than zero.');
    assert.strictEqual(validateAmount('1e3', '5000', 'BTC'), 'Enter a plain decimal number such as 12.5 (no exponent, no thousands separators).');
    assert.strictEqual(validateAmount('1,000', '5000', 'BTC'), 'Enter a plain decimal number such as 12.5 (no exponent, no thousands separators).');
  });

  it('validateAmount enforces the currency precision; maxTransferable rounds dust down', () => {
    // a trade balance with dust finer than USDT's 8 decimals (fill funds are exact)
    assert.strictEqual(maxTransferable('3920119.481450314', 8), '3920119.48145031');
    assert.strictEqual(maxTransferable('12.5', 8), '12.5');
    assert.strictEqual(validateAmount('3920119.481450314', '3920119.481450314', 'USDT', 8), 'USDT amounts have at most 8 decimals: at most 3920119.48145031 can be moved.');
    assert.strictEqual(validateAmount('3920119.48145031', '3920119.481450314', 'USDT', 8), undefined);
    assert.strictEqual(validateAmount('1.50000000', '2', 'USDT', 2), undefined, 'trailing zeros do not count');
  });

  it('backoffMs doubles from the base and is capped', () => {
    assert.deepStrictEqual([0, 1, 2, 3].map((n) => backoffMs(n, 10_000)), [10_000, 20_000, 40_000, 80_000]);
    assert.strictEqual(backoffMs(10, 10_000), 300_000);
  });
});
