/**
 * Numbers a trader can read, exactly: decimal strings are trimmed, padded and grouped
 * with string operations on their digits (src/api/decimal.ts for the arithmetic), never through a
 * binary `Number`. Only the locale's separators come from `Intl` (`formatToParts` of a sample).
 *
 * - {@link padFraction}: "67051" → "67051.0" at a tick of 0.1 (the order book's columns line up);
 * - {@link trimToPrecision}: "99989.000000000" → "99989" at the currency's precision;
 * - {@link groupDigits}: "1234567.5" → "1,234,567.5" (en), "1.234.567,5" (de).
 *
 * Pure: no `vscode`, no DOM.
 */
import * as dec from './decimal';

/** `padFraction("1.5", 3)` → `"1.500"`; `padFraction("2", 2)` → `"2.00"`; never removes digits; a non-decimal is returned as is. */
export function padFraction(v: string, digits: number): string {
  if (!dec.isDecimal(v)) return v;
  const have = dec.fractionDigits(v);
  if (have >= digits) return v;
  return (have === 0 ? v + (digits > 0 ? '.' : '') : v) + '0'.repeat(digits - have);
}

/**
 * `v` rounded DOWN to `precision` fraction digits, trailing zeros removed:
 * `trimToPrecision("99989.000000000", 8)` → `"99989"`, `("0.123456789", 6)` → `"0.123456"`.
 * Down, because a balance shown must never be more than there is. A non-decimal is returned as is.
 */
export function trimToPrecision(v: string, precision: number): string {
  if (!dec.isDecimal(v)) return v;
  return dec.normalize(dec.roundDown(v, dec.precisionIncrement(Math.max(0, Math.floor(precision)))));
}

/** The group and decimal separators of a locale. */
export interface Separators {
  group: string;
  decimal: string;
}

const SEPARATORS = new Map<string, Separators>();

/**
 * The separators `Intl` uses for `locale` (e.g. "en" → `,` and `.`; "de" → `.` and `,`; "fr" →
 * a narrow no-break space and `,`). An unknown locale falls back to the runtime's default.
 */
export function separatorsFor(locale: string): Separators {
  let s = SEPARATORS.get(locale);
  if (!s) {
    let parts: Intl.NumberFormatPart[];
    try {
      parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    } catch {
      parts = new Intl.NumberFormat().formatToParts(1234567.5);
    }
    s = { group: parts.find((p) => p.type === 'group')?.value ?? ',', decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.' };
    SEPARATORS.set(locale, s);
  }
  return s;
}

/**
 * The decimal string `v` with its integer digits grouped by three and the locale's decimal
 * separator: `groupDigits("-1234567.5", {group: ",", decimal: "."})` → `"-1,234,567.5"`. The digits are
 * unchanged; a non-decimal is returned as is.
 */
export function groupDigits(v: string, seps: Separators): string {
  if (!dec.isDecimal(v)) return v;
  const neg = v.startsWith('-');
  const body = neg ? v.slice(1) : v;
  const dot = body.indexOf('.');
  const int = dot < 0 ? body : body.slice(0, dot);
  const frac = dot < 0 ? '' : body.slice(dot + 1);
  let grouped = '';
  for (let i = 0; i < int.length; i++) {
    if (i > 0 && (int.length - i) % 3 === 0) grouped += seps.group;
    grouped += int[i];
  }
  return `${neg ? '-' : ''}${grouped}${frac ? seps.decimal + frac : ''}`;
}

/**
 * An amount for display: trimmed to `precision` (when known) and grouped for `locale`:
 * `formatAmount("99989.000000000", 8, "en")` → `"99,989"`.
 */
export function formatAmount(v: string, precision: number | undefined, locale: string): string {
  return groupDigits(precision === undefined ? (dec.isDecimal(v) ? dec.normalize(v) : v) : trimToPrecision(v, precision), separatorsFor(locale));
}

/** A fiat value with exactly 2 fraction digits, grouped for `locale`: `("839913.7", "en")` → `"839,913.70"`. */
export function formatFiat(v: string, locale: string): string {
  return groupDigits(padFraction(trimToPrecision(v, 2), 2), separatorsFor(locale));
}

/**
 * The fraction digits of an amount that matter to a reader: the fewest digits whose last unit is
 * worth at most two cents of the fiat (`unitPrice` × 10^-digits ≤ 0.02: a stablecoin a hair above 1
 * still gets 2 digits), never more than the currency's `precision` (GET /api/v3/currencies). USDT at
 * 1.0003 USD → 2 ("195,991.71", not "195,991.71140772"); BTC at 67,000 USD → 7. Without a (positive)
 * price: the currency's precision. The exact figure belongs in a tooltip.
 */
export function displayPrecision(precision: number | undefined, unitPrice: string | undefined): number | undefined {
  if (unitPrice === undefined || !dec.isDecimal(unitPrice) || dec.isZero(unitPrice) || dec.isNegative(unitPrice)) return precision;
  const cap = precision ?? 18;
  for (let d = 0; d < cap; d++) if (dec.cmp(dec.mul(unitPrice, dec.precisionIncrement(d)), '0.02') <= 0) return d;
  return cap;
}

/**
 * The first, shortest useful part of a message for a narrow row — up to the first " (", " — " or
 * ". " — at most `max` characters (cut with "…"); the whole message belongs in the tooltip:
 * `headline("Unreachable: connection refused (GET /api/v1/…). Retrying in 4 s.")` → "Unreachable: connection refused".
 */
export function headline(message: string, max = 60): string {
  let cut = message.length;
  for (const sep of [' (', ' — ', '. ']) {
    const i = message.indexOf(sep);
    if (i > 0 && i < cut) cut = i;
  }
  const head = message.slice(0, cut).replace(/[.:;,]$/, '');
  return head.length > max ? `${head.slice(0, max - 1)}…` : head;
}
