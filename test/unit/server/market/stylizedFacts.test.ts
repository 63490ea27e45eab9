/**
 * The calibration measures (src/exchange/server/market/stylizedFacts.ts) on series with known answers.
 */
import { strict as assert } from 'node:assert';
import { Rng } from '../../../../src/exchange/server/market/rng';
import { autocorr, correlation, decays, excessKurtosis, quantile, returnFacts } from '../../../../src/exchange/server/market/stylizedFacts';

describe('stylized facts', () => {
  const rng = new Rng(42);
  const normal = Array.from({ length: 50_000 }, () => rng.normal());

  it('a normal sample: excess kurtosis ≈ 0, no autocorrelation; a Laplace-like mixture has fat tails', () => {
    assert.ok(Math.abs(excessKurtosis(normal)) < 0.1);
    assert.ok(Math.abs(autocorr(normal, 1)) < 0.02);
    const mixed = normal.map((x, i) => x * (i % 10 === 0 ? 4 : 1));
    assert.ok(excessKurtosis(mixed) > 3);
  });

  it('autocorrelation, correlation and quantiles of known series', () => {
    const ar = [0];
    for (let i = 1; i < 50_000; i++) ar.push(0.5 * ar[i - 1] + normal[i]);
    assert.ok(Math.abs(autocorr(ar, 1) - 0.5) < 0.02);
    assert.ok(Math.abs(correlation(normal, normal.map((x) => 2 * x + 1)) - 1) < 1e-12);
    assert.equal(quantile([5, 1, 3, 2, 4], 0.5), 3);
    assert.equal(quantile([5, 1, 3, 2, 4], 0.99), 5);
  });

  it('decay of autocorrelations: a declining trend counts, a flat or rising one does not', () => {
    assert.equal(decays([0.2, 0.18, 0.16, 0.14, 0.12, 0.1, 0.08, 0.06, 0.05, 0.04]), true);
    assert.equal(decays([0.14, 0.15, 0.14, 0.14, 0.17, 0.13, 0.12, 0.13, 0.12, 0.11]), true, 'noisy but declining');
    assert.equal(decays([0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.06]), false);
    assert.equal(decays([0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12, 0.13, 0.14]), false);
  });

  it('returnFacts reads 1-minute candles, skipping gaps', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ t: i * 60 + (i >= 100 ? 60 : 0), close: 100 * Math.exp(0.001 * normal[i]), volume: 1 + Math.abs(normal[i]) }));
    const f = returnFacts(rows);
    assert.equal(f.returns, 198, 'one return lost to the gap');
    assert.equal(f.absAutocorr.length, 10);
  });
});
