/**
 * Exact decimal arithmetic on the wire's decimal strings (spec "General rules" 2).
 *
 * Money never passes through binary floating point: every value is parsed once into a
 * scaled BigInt (`units × 10^-scale`) and formatted back to a plain decimal string
 * (no exponent, no trailing zeros after the point, "0" for zero). This module has no
 * dependencies and no `vscode` import, so the client, the sandbox and the webviews share it.
 */

/** A plain decimal string: optional `-`, digits, optional fraction. No exponent, no NaN, no `+`. */
export const DECIMAL_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** Same as {@link DECIMAL_RE} but also accepts leading zeros ("007.5"), as some payloads carry. */
const LOOSE_DECIMAL_RE = /^-?\d+(?:\.\d+)?$/;

/** A decimal as an exact scaled integer: value = units / 10^scale. */
export interface Scaled {
  units: bigint;
  scale: number;
}

/** Error thrown for a string that is not a plain decimal. */
export class DecimalFormatError extends Error {
  constructor(readonly input: string) {
    super(`not a plain decimal string: ${JSON.stringify(input)}`);
    this.name = 'DecimalFormatError';
  }
}

/** True when `s` is a plain decimal string (leading zeros tolerated, no exponent/NaN/Infinity). */
export function isDecimal(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 80 && LOOSE_DECIMAL_RE.test(s);
}

/** Number of digits after the decimal point of a decimal string ("1.230" → 3). */
export function fractionDigits(s: string): number {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/**
 * Parse a decimal string into a scaled integer at its own scale.
 * @throws DecimalFormatError when `s` is not a plain decimal.
 */
export function parse(s: string): Scaled {
  if (!isDecimal(s)) throw new DecimalFormatError(s);
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const dot = body.indexOf('.');
  const digits = dot < 0 ? body : body.slice(0, dot) + body.slice(dot + 1);
  const scale = dot < 0 ? 0 : body.length - dot - 1;
  const units = BigInt(digits);
  return { units: neg ? -units : units, scale };
}

/**
 * Convert a decimal string to integer units at a fixed `scale` (e.g. lots of a baseIncrement).
 * @throws DecimalFormatError when `s` is not a plain decimal or has more than `scale` fraction digits
 *   (unless `round` is `'down'`, which truncates toward zero).
 */
export function toUnits(s: string, scale: number, round: 'exact' | 'down' = 'exact'): bigint {
  const p = parse(s);
  if (p.scale <= scale) return p.units * 10n ** BigInt(scale - p.scale);
  const div = 10n ** BigInt(p.scale - scale);
  if (round === 'exact' && p.units % div !== 0n) throw new DecimalFormatError(s);
  return p.units / div;
}

/** Format integer units at `scale` as a plain decimal string, trailing zeros removed ("1.5", "0", "-0.01"). */
export function fromUnits(units: bigint, scale: number): string {
  const neg = units < 0n;
  let digits = (neg ? -units : units).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    let int = digits.slice(0, digits.length - scale);
    let frac = digits.slice(digits.length - scale).replace(/0+$/, '');
    if (int === '') int = '0';
    digits = frac ? `${int}.${frac}` : int;
    frac = '';
  }
  return neg && digits !== '0' ? `-${digits}` : digits;
}

/** Format integer units at `scale` keeping exactly `scale` fraction digits ("1.50000000"). */
export function fromUnitsFixed(units: bigint, scale: number): string {
  const neg = units < 0n;
  let digits = (neg ? -units : units).toString();
  if (scale === 0) return (neg ? '-' : '') + digits;
  digits = digits.padStart(scale + 1, '0');
  const s = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return neg && units !== 0n ? `-${s}` : s;
}

function align(a: string, b: string): [bigint, bigint, number] {
  const pa = parse(a);
  const pb = parse(b);
  const scale = Math.max(pa.scale, pb.scale);
  return [pa.units * 10n ** BigInt(scale - pa.scale), pb.units * 10n ** BigInt(scale - pb.scale), scale];
}

/** Normalise a decimal string: "01.500" → "1.5", "-0" → "0". */
export function normalize(a: string): string {
  const p = parse(a);
  return fromUnits(p.units, p.scale);
}

/** Exact a + b. */
export function add(a: string, b: string): string {
  const [x, y, s] = align(a, b);
  return fromUnits(x + y, s);
}

/** Exact a − b. */
export function sub(a: string, b: string): string {
  const [x, y, s] = align(a, b);
  return fromUnits(x - y, s);
}

/** Exact a × b. */
export function mul(a: string, b: string): string {
  const pa = parse(a);
  const pb = parse(b);
  return fromUnits(pa.units * pb.units, pa.scale + pb.scale);
}

/** Compare: −1 if a < b, 0 if equal, 1 if a > b. */
export function cmp(a: string, b: string): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Smaller of two decimals. */
export function min(a: string, b: string): string {
  return cmp(a, b) <= 0 ? a : b;
}

/** Larger of two decimals. */
export function max(a: string, b: string): string {
  return cmp(a, b) >= 0 ? a : b;
}

/** True when a is zero. */
export function isZero(a: string): boolean {
  return parse(a).units === 0n;
}

/** True when a < 0. */
export function isNegative(a: string): boolean {
  return parse(a).units < 0n;
}

/** True when `a` is an exact multiple of `increment` (> 0), e.g. a price on the tick grid. */
export function isMultipleOf(a: string, increment: string): boolean {
  const [x, y] = align(a, increment);
  if (y <= 0n) throw new RangeError(`increment must be positive: ${increment}`);
  return x % y === 0n;
}

/** Round `a` toward zero onto the grid of `increment` (> 0): roundDown("1.237", "0.01") = "1.23". */
export function roundDown(a: string, increment: string): string {
  const [x, y, s] = align(a, increment);
  if (y <= 0n) throw new RangeError(`increment must be positive: ${increment}`);
  return fromUnits((x / y) * y, s);
}

/** Round `a` away from zero onto the grid of `increment` (> 0): roundUp("1.231", "0.01") = "1.24". */
export function roundUp(a: string, increment: string): string {
  const [x, y, s] = align(a, increment);
  if (y <= 0n) throw new RangeError(`increment must be positive: ${increment}`);
  const q = x / y;
  const r = x % y;
  return fromUnits((r === 0n ? q : x > 0n ? q + 1n : q - 1n) * y, s);
}

/** The increment "10^-digits" as a decimal string: precisionIncrement(8) = "0.00000001". */
export function precisionIncrement(digits: number): string {
  return digits <= 0 ? '1' : `0.${'0'.repeat(digits - 1)}1`;
}

/** a × b truncated toward zero to `digits` fraction digits (fees: rate × funds at the currency precision). */
export function mulDown(a: string, b: string, digits: number): string {
  return roundDown(mul(a, b), precisionIncrement(digits));
}

/** a × b rounded away from zero to `digits` fraction digits (holds that must cover a fee). */
export function mulUp(a: string, b: string, digits: number): string {
  return roundUp(mul(a, b), precisionIncrement(digits));
}

/** a ÷ b truncated toward zero to `digits` fraction digits. @throws RangeError when b is zero. */
export function divDown(a: string, b: string, digits: number): string {
  const pa = parse(a);
  const pb = parse(b);
  if (pb.units === 0n) throw new RangeError('division by zero');
  // a/b = (ua/10^sa) / (ub/10^sb); scale result to `digits`.
  const num = pa.units * 10n ** BigInt(digits + pb.scale);
  const den = pb.units * 10n ** BigInt(pa.scale);
  return fromUnits(num / den, digits);
}
