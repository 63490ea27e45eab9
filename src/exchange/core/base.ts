/**
 * Shared constants, order ids and fast decimals of the exchange core: the scales of ledger amounts and fee
 * rates, side / time-in-force / STP codes, order ids built without cons strings, the exact Number parse of
 * short decimal strings and fee rates with their per-exchange intern table. No state.
 */
import { fromUnits, parse } from '../../api/decimal';
import { E_PARAM, ExchangeError } from './errors';

/** Fraction digits of ledger units (balances, holds, funds, fees). */
export const LEDGER_SCALE = 18;
/** Fraction digits of fee rates. */
export const RATE_SCALE = 12;
/** 3 × 24 h in ms: readable window of fills and done orders. */
export const HISTORY_WINDOW_MS = 3 * 24 * 3600 * 1000;
/** Fixed 8-hex-digit prefix of order ids (followed by a 16-hex-digit counter). */
export const ORDER_ID_PREFIX = '6a5d0c00';
/** Fixed 8-hex-digit prefix of account ids (followed by a 16-hex-digit counter). */
export const ACCOUNT_ID_PREFIX = '6a5d0c01';
/** 2^53−1: bound of every Number amount (ticks, lots, Number-path units). */
export const MAX_LOTS = Number.MAX_SAFE_INTEGER;
export const ZERO = 0n;

export const BUY = 0;
export const SELL = 1;
/** A side code: BUY or SELL (also the F_SELL bit of an order's flags). */
export type SideN = 0 | 1;
export const TIF_GTC = 0;
export const TIF_GTT = 1;
export const TIF_IOC = 2;
export const TIF_FOK = 3;
export const TIF_NAMES = ['GTC', 'GTT', 'IOC', 'FOK'] as const;
export const STP_NONE = 0;
export const STP_DC = 1;
export const STP_CO = 2;
export const STP_CN = 3;
export const STP_CB = 4;
export const STP_NAMES = ['', 'DC', 'CO', 'CN', 'CB'] as const;

/** Chunk of the archive and the fill store: 4,096 records (no copying as the history grows). */
export const CHUNK_BITS = 12;
export const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/** A 400100 rejection with `msg`. */
export function perr(msg: string): ExchangeError {
  return new ExchangeError(E_PARAM, msg);
}
/** Char code of hex digit v (0..15, lowercase). */
function hexCode(v: number): number {
  return v < 10 ? 48 + v : 87 + v;
}
/**
 * ORDER_ID_PREFIX + 16 lowercase hex digits of seq (0 ≤ seq ≤ 2^53−1), built as one flat string:
 * a concatenation of ≥ 13 chars is a cons string that every later read (e.g. cancel by id) must flatten.
 */
export function orderIdString(seq: number): string {
  const hi = Math.floor(seq / 4294967296);
  const lo = seq >>> 0;
  const p = ORDER_ID_PREFIX;
  return String.fromCharCode(
    p.charCodeAt(0), p.charCodeAt(1), p.charCodeAt(2), p.charCodeAt(3), p.charCodeAt(4), p.charCodeAt(5), p.charCodeAt(6), p.charCodeAt(7),
    hexCode((hi >>> 28) & 15), hexCode((hi >>> 24) & 15), hexCode((hi >>> 20) & 15), hexCode((hi >>> 16) & 15),
    hexCode((hi >>> 12) & 15), hexCode((hi >>> 8) & 15), hexCode((hi >>> 4) & 15), hexCode(hi & 15),
    hexCode((lo >>> 28) & 15), hexCode((lo >>> 24) & 15), hexCode((lo >>> 20) & 15), hexCode((lo >>> 16) & 15),
    hexCode((lo >>> 12) & 15), hexCode((lo >>> 8) & 15), hexCode((lo >>> 4) & 15), hexCode(lo & 15),
  );
}
/**
 * Seq of an order id string (ORDER_ID_PREFIX + 16 lowercase hex digits), -1 when it is not one or its
 * value exceeds 2^53−1 (no existing seq).
 */
export function seqOfOrderId(orderId: string): number {
  if (typeof orderId !== 'string' || orderId.length !== 24 || !orderId.startsWith(ORDER_ID_PREFIX)) return -1;
  let seq = 0;
  for (let i = 8; i < 24; i++) {
    const c = orderId.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return -1;
    seq = seq * 16 + d;
    if (seq > MAX_LOTS) return -1;
  }
  return seq;
}
/** n (0 ≤ n < 2^53) as 16 lowercase hex digits. */
export function hex16(n: number): string {
  return n.toString(16).padStart(16, '0');
}
/** 10^n as a BigInt. */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}
/** Fraction digits of a decimal string. @throws as src/api/decimal `parse`. */
export function fracDigits(s: string): number {
  return parse(s).scale;
}
/**
 * A zeroed typed array with every 4 KiB page already written: large typed arrays come from lazily
 * mapped zero pages, and the first write to each page faults. Touching them all at allocation moves those
 * faults off the order path (one allocation every 4,096 orders pays them instead of ~2% of orders).
 */
export function prefaulted<T extends Float64Array | Int32Array>(a: T): T {
  const step = 4096 / a.BYTES_PER_ELEMENT;
  for (let i = 0; i < a.length; i += step) a[i] = 0;
  return a;
}

/**
 * An empty array of doubles whose elements kind is already PACKED_DOUBLE_ELEMENTS. A `[]` starts as small
 * integers and changes kind at its first double (NaN, ±Infinity, a time in ms): optimised code that met the
 * previous exchange's arrays then deoptimises once per new exchange and per push site (docs/engine.md,
 * "Measuring the engine").
 */
export function doubleArray(): number[] {
  const a = [0.5];
  a.length = 0;
  return a;
}

/**
 * An empty array of objects (or null) whose elements kind is already PACKED_ELEMENTS, for the same reason as
 * {@link doubleArray}.
 */
export function objectArray<T>(): T[] {
  const a: unknown[] = [null];
  a.length = 0;
  return a as T[];
}

/** True when v is an integer that fits an int32. */
export function i32(v: number): boolean {
  return (v | 0) === v;
}

/** 10^k as an exact double, k = 0..22. */
const POW10N = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Fast path of decimal parsing (string API): a plain unsigned decimal of at most 15 digits ("123",
 * "0.5", "100000.1") with at most `scale` fraction digits, as integer units at `scale`, when the result
 * is ≤ 2^53−1; -1 for anything else (then callers use the exact BigInt path of src/api/decimal, which
 * also produces the errors). Exact: ≤ 15 decimal digits are exact in a double, and a product whose true
 * value exceeds 2^53−1 never rounds to ≤ 2^53−1.
 */
export function fastUnits(str: string, scale: number): number {
  const n = str.length;
  if (n === 0 || n > 16) return -1;
  let v = 0;
  let digits = 0;
  let dot = -1;
  for (let i = 0; i < n; i++) {
    const c = str.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
    } else if (c === 46 && dot < 0 && i > 0 && i < n - 1) {
      dot = i;
    } else {
      return -1;
    }
  }
  if (digits > 15) return -1;
  const frac = dot < 0 ? 0 : n - dot - 1;
  if (frac > scale || scale - frac > 22) return -1;
  const u = v * POW10N[scale - frac];
  return u <= MAX_LOTS ? u : -1;
}

/**
 * A fee rate: exact BigInt at RATE_SCALE for the general path, and num/den (den = 10^fraction digits,
 * both safe integers) for the Number fast path. Immutable; orders snapshot the rate's id at placement.
 * Created only by a {@link RateTable} (or as {@link DEFAULT_RATE}), which gives it its id.
 */
export class Rate {
  readonly big: bigint;
  readonly num: number;
  readonly den: number;
  /** the normalised decimal string (no trailing zeros) */
  readonly str: string;
  /**
   * @param str a normalised decimal string (validated by the caller)
   * @param id its index in the owning {@link RateTable} (live order rows and fill records keep it)
   */
  constructor(
    str: string,
    readonly id: number,
  ) {
    const p = parse(str);
    this.str = fromUnits(p.units, p.scale);
    this.big = p.units * pow10(RATE_SCALE - p.scale);
    this.num = Number(p.units);
    this.den = 10 ** p.scale;
  }
}

/** The default taker and maker rate (0.1%): id 0 of every {@link RateTable}. */
export const DEFAULT_RATE = new Rate('0.001', 0);

/**
 * The distinct fee rates one exchange has used, interned by normalised string (bounded by the distinct
 * rates configured). Live order rows and fill records keep a rate's id, so the table belongs to one
 * Exchange: a snapshot carries it ({@link list}) and a restored engine gets the same ids ({@link RateTable.from}).
 */
export class RateTable {
  /** Rate objects by id ({@link DEFAULT_RATE} is id 0). */
  readonly objs: Rate[] = [DEFAULT_RATE];
  private readonly ids = new Map<string, number>([[DEFAULT_RATE.str, 0]]);

  /** The rate of decimal string `s` (validated by the caller), created with the next id when new. */
  intern(s: string): Rate {
    const raw = parse(s);
    const str = fromUnits(raw.units, raw.scale);
    const id = this.ids.get(str);
    if (id !== undefined) return this.objs[id];
    const r = new Rate(str, this.objs.length);
    this.objs.push(r);
    this.ids.set(str, r.id);
    return r;
  }

  /** The decimal string of rate id `id`. */
  str(id: number): string {
    return this.objs[id].str;
  }

  /** Every rate's string, by id (what a snapshot carries). */
  list(): string[] {
    return this.objs.map((r) => r.str);
  }

  /** A table with exactly these strings as ids 0.. (a snapshot's {@link list}). @throws Error when id 0 is not
   * the default rate or a string repeats or is not a decimal. */
  static from(strs: readonly string[]): RateTable {
    const t = new RateTable();
    if (strs[0] !== DEFAULT_RATE.str) throw new Error('snapshot: rate table must start with the default rate');
    for (let i = 1; i < strs.length; i++) {
      if (t.intern(strs[i]).id !== i) throw new Error(`snapshot: rate ${strs[i]} repeats or is not normalised`);
    }
    return t;
  }
}
