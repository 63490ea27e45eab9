/**
 * Numbers a trader can read, exactly: src/api/numberFormat.ts pads to a tick,
 * trims to a precision (down, never up) and groups by the locale, with string operations only.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as dec from '../../../src/api/decimal';
import { displayPrecision, formatAmount, formatFiat, groupDigits, headline, padFraction, separatorsFor, trimToPrecision } from '../../../src/api/numberFormat';

const decimal = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 18 })).map(([u, s]) => dec.fromUnits(u, s));

describe('shared number formatting (src/api/numberFormat.ts)', () => {
  it('pads to a tick without changing the value ("67051" among "67051.3")', () => {
    assert.equal(padFraction('67051', 1), '67051.0');
    assert.equal(padFraction('0.0005', 8), '0.00050000');
    assert.equal(padFraction('1.2345', 2), '1.2345', 'never removes digits');
    assert.equal(padFraction('<b>', 2), '<b>');
    fc.assert(fc.property(decimal, fc.integer({ min: 0, max: 20 }), (v, d) => dec.cmp(padFraction(v, d), v) === 0 && dec.fractionDigits(padFraction(v, d)) >= d));
  });

  it('trims to the precision, rounding down, without trailing zeros', () => {
    assert.equal(trimToPrecision('99989.000000000', 8), '99989');
    assert.equal(trimToPrecision('0.123456789', 6), '0.123456');
    assert.equal(trimToPrecision('2.50', 8), '2.5');
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 12 }), (v, p) => {
        const t = trimToPrecision(v, p);
        return dec.fractionDigits(t) <= p && dec.cmp(dec.roundDown(v, dec.precisionIncrement(p)), t) === 0 && !/\.\d*0$/.test(t);
      }),
    );
  });

  it('groups the integer digits with the locale separators, keeping every digit', () => {
    assert.equal(groupDigits('-1234567.5', { group: ',', decimal: '.' }), '-1,234,567.5');
    assert.equal(groupDigits('123', { group: ',', decimal: '.' }), '123');
    assert.deepEqual(separatorsFor('en'), { group: ',', decimal: '.' });
    assert.deepEqual(separatorsFor('de'), { group: '.', decimal: ',' });
    assert.equal(formatAmount('1234567.89000', 8, 'de'), '1.234.567,89');
    const seps = separatorsFor('en');
    fc.assert(fc.property(decimal, (v) => groupDigits(v, seps).replace(/,/g, '') === v));
  });

  it('the digits that matter: a last digit worth at most two cents, never beyond the currency precision', () => {
    assert.equal(displayPrecision(8, '1.0003'), 2);
    assert.equal(displayPrecision(8, '0.9995'), 2);
    assert.equal(formatAmount('195991.71140772', displayPrecision(8, '0.9995'), 'en'), '195,991.71');
    assert.equal(displayPrecision(8, '67193.1'), 7);
    assert.equal(displayPrecision(8, '2600'), 6);
    assert.equal(displayPrecision(6, '0.0001'), 0, 'a cheap coin: whole units');
    assert.equal(displayPrecision(8, '1000000000'), 8, 'capped by the precision');
    assert.equal(displayPrecision(8, undefined), 8, 'no price: the precision');
    assert.equal(displayPrecision(undefined, undefined), undefined);
    assert.equal(displayPrecision(8, '0'), 8);
    // property: the last digit is worth at most two cents, and one digit fewer would be worth more (or none are left)
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 12 }), (u, s, precision) => {
        const price = dec.fromUnits(u, s);
        const d = displayPrecision(precision, price)!;
        assert.ok(d <= precision);
        if (d < precision) assert.ok(dec.cmp(dec.mul(price, dec.precisionIncrement(d)), '0.02') <= 0);
        if (d > 0) assert.ok(dec.cmp(dec.mul(price, dec.precisionIncrement(d - 1)), '0.02') > 0);
      }),
    );
  });

  it('headline: the shortest useful part of a message for a narrow row', () => {
    assert.equal(headline('Unreachable: connection refused (GET /api/v1/market/allTickers). Retrying in 4 s.'), 'Unreachable: connection refused');
    assert.equal(headline('Signature rejected — check the secret'), 'Signature rejected');
    assert.equal(headline('Short'), 'Short');
    assert.equal(headline('x'.repeat(80)), `${'x'.repeat(59)}…`);
  });

  it('fiat values: exactly two decimals, grouped', () => {
    assert.equal(formatFiat('839913.7', 'en'), '839,913.70');
    assert.equal(formatFiat('0.129', 'en'), '0.12');
    assert.equal(formatAmount('99989.000000000', 8, 'en'), '99,989');
    assert.equal(formatAmount('0.000000000', undefined, 'en'), '0');
  });
});
