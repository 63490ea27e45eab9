/**
 * Pure text helpers for the tree views (no `vscode` import, so unit tests can load them).
 * Money stays a decimal string throughout: padding is done with string operations and
 * arithmetic with `src/api/decimal.ts`, never with `Number`.
 */
import * as dec from './decimal';
import { padFraction } from './numberFormat';

export { padFraction } from './numberFormat';

/**
 * Fiat value of `amount` at `price` (both decimal strings), truncated to 2 fraction digits:
 * `fiatValue("0.5", "67193.1")` → `"33596.55"`. Returns undefined when either is not a decimal.
 */
export function fiatValue(amount: string, price: string | undefined): string | undefined {
  if (price === undefined || !dec.isDecimal(amount) || !dec.isDecimal(price)) return undefined;
  return dec.mulDown(amount, price, 2);
}

/**
 * 24 h change rate (decimal string, e.g. "-0.0014") as a signed percentage with 2 fraction
 * digits: `percent("-0.0014")` → `"-0.14%"`, `percent("0.05")` → `"+5.00%"`.
 */
export function percent(rate: string | undefined | null): string {
  if (!rate || !dec.isDecimal(rate)) return '';
  const p = dec.mulDown(rate, '100', 2);
  const fixed = padFraction(p, 2);
  return (dec.isNegative(p) || dec.isZero(p) ? fixed : '+' + fixed) + '%';
}

/** Local wall-clock time as HH:mm:ss (the "updated" description of each view). */
export function hhmmss(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * Validate a transfer amount typed by the user: a positive plain decimal ≤ `available`, with at
 * most `precision` fraction digits when the currency's precision is known (GET /api/v3/currencies).
 * Returns an error message for the input box, or undefined when valid.
 */
export function validateAmount(input: string, available: string, currency: string, precision?: number): string | undefined {
  const v = input.trim();
  if (!dec.isDecimal(v)) return 'Enter a plain decimal number such as 12.5 (no exponent, no thousands separators).';
  if (dec.isNegative(v) || dec.isZero(v)) return 'The amount must be greater than zero.';
  if (dec.cmp(v, available) > 0) return `Only ${available} ${currency} is available.`;
  if (precision !== undefined && dec.fractionDigits(dec.normalize(v)) > precision) {
    return `${currency} amounts have at most ${precision} decimals: at most ${maxTransferable(available, precision)} can be moved.`;
  }
  return undefined;
}

/**
 * The largest amount of `available` that can be moved at `precision` fraction digits (rounded
 * down): trade balances can carry dust finer than the currency precision (fill funds are exact).
 */
export function maxTransferable(available: string, precision: number): string {
  return dec.roundDown(available, dec.precisionIncrement(precision));
}

/** Next back-off delay in ms after an error: doubles from `baseMs`, capped at `maxMs`. */
export function backoffMs(failures: number, baseMs: number, maxMs = 5 * 60_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(failures, 20)));
}
