/**
 * The stylized facts of returns the market is calibrated to (Vyetrenko et al., "Get Real: Realism Metrics
 * for Robust Limit Order Book Market Simulations", 2019), computed from 1-minute candles: used by
 * `npm run bench -- market` and the tests. Floats are fine here: these are statistics, not money.
 */

/** 1-minute log-returns of consecutive closes (rows oldest first; a missing minute breaks the chain). */
export function minuteReturns(rows: readonly { t: number; close: number }[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < rows.length; i++) if (rows[i].t - rows[i - 1].t === 60 && rows[i - 1].close > 0) out.push(Math.log(rows[i].close / rows[i - 1].close));
  return out;
}

/** Mean. */
export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length ? s / xs.length : NaN;
}

/** Excess kurtosis (0 for a normal distribution). */
export function excessKurtosis(xs: readonly number[]): number {
  const m = mean(xs);
  let m2 = 0;
  let m4 = 0;
  for (const x of xs) {
    const d = (x - m) ** 2;
    m2 += d;
    m4 += d * d;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m4 / (m2 * m2) - 3;
}

/** Autocorrelation at `lag`. */
export function autocorr(xs: readonly number[], lag: number): number {
  const m = mean(xs);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    den += (xs[i] - m) ** 2;
    if (i >= lag) num += (xs[i] - m) * (xs[i - lag] - m);
  }
  return num / den;
}

/** Pearson correlation of two equally long series. */
export function correlation(a: readonly number[], b: readonly number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let n = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    n += (a[i] - ma) * (b[i] - mb);
    da += (a[i] - ma) ** 2;
    db += (b[i] - mb) ** 2;
  }
  return n / Math.sqrt(da * db);
}

/** The `q` quantile (0..1) of `xs` (nearest rank). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/** The measures of one symbol's 1-minute candles. */
export interface ReturnFacts {
  returns: number;
  excessKurtosis: number;
  lag1Autocorr: number;
  /** autocorrelation of |returns| at lags 1..10 */
  absAutocorr: number[];
  volumeAbsReturnCorr: number;
}

/** Stylized facts of 1-minute candles (oldest first): returns' kurtosis and autocorrelations, volume–|return| correlation. */
export function returnFacts(rows: readonly { t: number; close: number; volume: number }[]): ReturnFacts {
  const r: number[] = [];
  const v: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].t - rows[i - 1].t !== 60) continue;
    r.push(Math.log(rows[i].close / rows[i - 1].close));
    v.push(rows[i].volume);
  }
  const abs = r.map(Math.abs);
  return {
    returns: r.length,
    excessKurtosis: excessKurtosis(r),
    lag1Autocorr: autocorr(r, 1),
    absAutocorr: Array.from({ length: 10 }, (_, i) => autocorr(abs, i + 1)),
    volumeAbsReturnCorr: correlation(v, abs),
  };
}

/**
 * True when the autocorrelations decay over the lags (given for lags 1, 2, …): the least-squares slope over
 * the lags is negative and the mean of the last three lags is below the mean of the first three. (Sampling
 * noise of an autocorrelation of n returns is about 1/√n, 0.015 for 3 days of minutes: single lags wiggle,
 * so the decay is judged on the trend, not lag by lag.)
 */
export function decays(ac: readonly number[]): boolean {
  const n = ac.length;
  const mx = (n + 1) / 2;
  const my = mean(ac);
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (i + 1 - mx) * (ac[i] - my);
    den += (i + 1 - mx) ** 2;
  }
  return num / den < 0 && mean(ac.slice(-3)) < mean(ac.slice(0, 3));
}
