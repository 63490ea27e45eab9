import { strict as assert } from 'node:assert';
import * as D from '../../../src/api/decimal';

describe('decimal (exact money arithmetic)', () => {
  it('parses and formats without binary floating point', () => {
    assert.equal(D.add('0.1', '0.2'), '0.3');
    assert.equal(D.sub('1', '0.00000001'), '0.99999999');
    assert.equal(D.mul('67717.6', '0.00001'), '0.677176');
    assert.equal(D.normalize('0050.1200'), '50.12');
    assert.equal(D.normalize('-0.000'), '0');
  });
  it('rejects exponents, NaN, signs and junk', () => {
    for (const bad of ['1e5', 'NaN', 'Infinity', '+1', '1.', '.5', '', ' 1', '0x10', '1,5']) {
      assert.equal(D.isDecimal(bad), false, bad);
      assert.throws(() => D.parse(bad), D.DecimalFormatError);
    }
  });
  it('converts to and from fixed-scale units', () => {
    assert.equal(D.toUnits('1.5', 8), 150000000n);
    assert.throws(() => D.toUnits('1.123', 2));
    assert.equal(D.toUnits('1.129', 2, 'down'), 112n);
    assert.equal(D.fromUnits(-5n, 3), '-0.005');
    assert.equal(D.fromUnitsFixed(150000000n, 8), '1.50000000');
  });
  it('grid checks and rounding', () => {
    assert.equal(D.isMultipleOf('67717.6', '0.1'), true);
    assert.equal(D.isMultipleOf('67717.65', '0.1'), false);
    assert.equal(D.roundDown('1.237', '0.01'), '1.23');
    assert.equal(D.roundUp('1.231', '0.01'), '1.24');
    assert.equal(D.roundUp('-1.231', '0.01'), '-1.24');
    assert.equal(D.mulDown('0.677176', '0.001', 8), '0.00067717');
    assert.equal(D.mulUp('0.677176', '0.001', 8), '0.00067718');
    assert.equal(D.divDown('1', '3', 4), '0.3333');
    assert.equal(D.cmp('2', '10'), -1);
    assert.equal(D.precisionIncrement(8), '0.00000001');
  });
});
