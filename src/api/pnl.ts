/**
 * Realized profit and loss of one trading pair from its fills (GET /api/v1/hf/fills), by the
 * WEIGHTED AVERAGE COST method, in exact arithmetic. Used by the Fills view and its CSV export.
 *
 * Fills are taken oldest first (`createdAt`, then fill `id`); the position is a base quantity Q and its cost
 * basis C in the quote currency: a buy adds (Q += size, C += funds), a sell realises `proceeds − C × size / Q`
 * and removes its share of Q and C. A fee in the quote or the base currency enters the cost or the quantity; a
 * fee in any other currency is listed in {@link PairPnl.otherFees}; the part of a sell beyond the position is
 * counted in {@link PairPnl.unmatchedSellSize}. Each rule: docs/ARCHITECTURE.md "Realized P&L (`src/api/pnl.ts`)".
 *
 * Exactness: quantities and money are decimal strings (src/api/decimal.ts); the cost basis and the realized
 * P&L are exact fractions of BigInts, and only the displayed results are rounded (half away from zero, to
 * `digits` fraction digits). No binary floating point anywhere.
 *
 * Pure: no `vscode`, no Node API (unit-tested in test/unit/shared/pnl.test.ts).
 */
import * as dec from './decimal';

/** An exact fraction n / d (d > 0). */
interface Ratio {
  n: bigint;
  d: bigint;
}

const ZERO: Ratio = { n: 0n, d: 1n };

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function norm(n: bigint, d: bigint): Ratio {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}

function ratio(s: string): Ratio {
  const p = dec.parse(s);
  return norm(p.units, 10n ** BigInt(p.scale));
}

const radd = (a: Ratio, b: Ratio): Ratio => norm(a.n * b.d + b.n * a.d, a.d * b.d);
const rsub = (a: Ratio, b: Ratio): Ratio => norm(a.n * b.d - b.n * a.d, a.d * b.d);
const rmul = (a: Ratio, b: Ratio): Ratio => norm(a.n * b.n, a.d * b.d);
const rdiv = (a: Ratio, b: Ratio): Ratio => norm(a.n * b.d, a.d * b.n);

/** `r` rounded half away from zero to `digits` fraction digits, as a plain decimal string. */
function round(r: Ratio, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const neg = r.n < 0n;
  const num = (neg ? -r.n : r.n) * scale;
  let q = num / r.d;
  if ((num % r.d) * 2n >= r.d) q += 1n;
  return dec.fromUnits(neg ? -q : q, digits);
}

/** The fields of a fill the method reads (a subset of the wire's HfFill). */
export interface PnlFill {
  /** Fill id (exact digit string): the tie-breaker of equal times. */
  id: string;
  side: 'buy' | 'sell';
  /** Base quantity, decimal string. */
  size: string;
  /** Quote amount (price × size), decimal string. */
  funds: string;
  /** Fee charged, decimal string (negative = rebate). */
  fee: string;
  feeCurrency: string;
  /** ms */
  createdAt: number;
}

/** Realized P&L of one pair (see module docstring); decimals are strings. */
export interface PairPnl {
  base: string;
  quote: string;
  /** Realized P&L in the quote currency, rounded to `digits`. */
  realized: string;
  /** Base quantity still held from the fills (exact). */
  position: string;
  /** Cost basis of that position in the quote currency, rounded to `digits`. */
  costBasis: string;
  /** Average cost per base unit, rounded to `digits` (null when the position is 0). */
  averageCost: string | null;
  /** Base sold beyond the position the fills explain (exact), excluded from `realized`. */
  unmatchedSellSize: string;
  /** Fees in currencies other than base and quote, per currency (exact), not in `realized`. */
  otherFees: Record<string, string>;
  /** Number of buy and sell fills used. */
  buys: number;
  sells: number;
  /**
   * The P&L each fill realised, by fill id, rounded to `digits` ("0" for buys): the per-row column
   * of the CSV export. Their exact sum is `realized` (the rounded values may differ from it in the last digit).
   */
  perFill: Record<string, string>;
}

/** Compare fills oldest first: by createdAt, then by id (exact digit strings, shorter = smaller). */
export function fillOrder(a: Pick<PnlFill, 'createdAt' | 'id'>, b: Pick<PnlFill, 'createdAt' | 'id'>): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  if (a.id.length !== b.id.length) return a.id.length - b.id.length;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The exact state the method leaves after a pair's fills (see the module docstring). */
interface Walk {
  /** Base quantity held from the fills. */
  q: string;
  /** Cost basis of `q`, exact. */
  cost: Ratio;
  realized: Ratio;
  unmatched: string;
  otherFees: Record<string, string>;
  /** P&L each fill realised (buys: zero), exact. */
  perFill: Array<[string, Ratio]>;
  buys: number;
  sells: number;
}

/** Run the weighted-average-cost method over the fills of `base`-`quote` (any order). */
function walk(fills: readonly PnlFill[], base: string, quote: string): Walk {
  let q = '0';
  let cost: Ratio = ZERO;
  let realized: Ratio = ZERO;
  let unmatched = '0';
  const otherFees: Record<string, string> = {};
  const perFill: Array<[string, Ratio]> = [];
  let buys = 0;
  let sells = 0;
  for (const f of [...fills].sort(fillOrder)) {
    const feeQuote = f.feeCurrency === quote ? f.fee : '0';
    const feeBase = f.feeCurrency === base && f.feeCurrency !== quote ? f.fee : '0';
    if (f.feeCurrency !== quote && f.feeCurrency !== base && !dec.isZero(f.fee)) otherFees[f.feeCurrency] = dec.add(otherFees[f.feeCurrency] ?? '0', f.fee);
    if (f.side === 'buy') {
      buys++;
      q = dec.add(q, dec.sub(f.size, feeBase));
      cost = radd(cost, ratio(dec.add(f.funds, feeQuote)));
      perFill.push([f.id, ZERO]);
      continue;
    }
    sells++;
    const out = dec.add(f.size, feeBase); // base leaving the position
    let proceeds = ratio(dec.sub(f.funds, feeQuote));
    let gain: Ratio;
    if (dec.cmp(out, q) > 0) {
      // only the held part has a cost; the rest of the sale is unmatched (pro-rata proceeds)
      const held = dec.isNegative(q) ? '0' : q;
      unmatched = dec.add(unmatched, dec.sub(out, held));
      proceeds = rmul(proceeds, rdiv(ratio(held), ratio(out)));
      gain = rsub(proceeds, cost);
      q = '0';
      cost = ZERO;
    } else {
      const share = rdiv(rmul(cost, ratio(out)), ratio(q));
      gain = rsub(proceeds, share);
      q = dec.sub(q, out);
      cost = dec.isZero(q) ? ZERO : rsub(cost, share);
    }
    realized = radd(realized, gain);
    perFill.push([f.id, gain]);
  }
  return { q, cost, realized, unmatched, otherFees, perFill, buys, sells };
}

/**
 * Realized P&L of the pair `base`-`quote` from its fills (any order), by weighted average cost.
 * @param digits fraction digits of the rounded results (the quote currency's precision).
 * @throws DecimalFormatError when a fill carries a malformed decimal.
 */
export function realizedPnl(fills: readonly PnlFill[], base: string, quote: string, digits: number): PairPnl {
  return summary(walk(fills, base, quote), base, quote, digits);
}

/** The rounded figures of a walk (shared by {@link realizedPnl} and {@link unrealizedPnl}). */
function summary(w: Walk, base: string, quote: string, digits: number): PairPnl {
  const perFill: Record<string, string> = {};
  for (const [id, g] of w.perFill) perFill[id] = g === ZERO ? '0' : round(g, digits);
  return {
    base,
    quote,
    realized: round(w.realized, digits),
    position: w.q,
    costBasis: round(w.cost, digits),
    averageCost: dec.isZero(w.q) ? null : round(rdiv(w.cost, ratio(w.q)), digits),
    unmatchedSellSize: w.unmatched,
    otherFees: w.otherFees,
    buys: w.buys,
    sells: w.sells,
    perFill,
  };
}

/** Unrealized P&L of the position a pair's fills leave, at a price (see {@link unrealizedPnl}). */
export interface HoldingPnl extends PairPnl {
  /** The price used (decimal string, quote per base). */
  last: string;
  /** position × last, rounded to `digits`. */
  value: string;
  /** position × last − cost basis (exact, then rounded half away from zero to `digits`). */
  unrealized: string;
}

/**
 * Unrealized P&L of the pair's position at `last` (e.g. the last traded price), by the same
 * weighted-average-cost walk as {@link realizedPnl}: the position Q and its exact cost basis C left
 * by the fills; unrealized = Q × last − C. Computed on exact fractions, rounded only at the end.
 * It covers only what the fills explain: coins deposited or bought before the fill history have no
 * cost here (compare `position` with the balance).
 * @throws DecimalFormatError when a fill or `last` is malformed.
 */
export function unrealizedPnl(fills: readonly PnlFill[], base: string, quote: string, last: string, digits: number): HoldingPnl {
  const w = walk(fills, base, quote);
  const value = ratio(dec.mul(w.q, last));
  return { ...summary(w, base, quote, digits), last, value: round(value, digits), unrealized: round(rsub(value, w.cost), digits) };
}

/** "+29.82", "-15.15", "0" (signed, as the wire spells decimals). */
export function signed(v: string): string {
  return dec.isNegative(v) || dec.isZero(v) ? v : `+${v}`;
}

/**
 * The Accounts view's description suffix (`uP&L +29.82 USDT`, the largest position's pair) and
 * tooltip markdown (one line per pair: unrealized, position, average cost, last, value, realized,
 * and how the balance differs from the position the fills explain) for a currency's P&L.
 * @param balance the currency's balance (main + trade), decimal string.
 */
export function pnlText(p: { readonly pairs: readonly (HoldingPnl & { symbol: string })[] }, balance: string): { description: string; tooltip: string } {
  const top = p.pairs[0];
  const description = `uP&L ${signed(top.unrealized)} ${top.quote}`;
  const lines = p.pairs.map((h) => {
    const c = dec.cmp(balance, h.position);
    const uncovered =
      c > 0
        ? `; ${dec.sub(balance, h.position)} ${h.base} of the balance has no cost in these fills`
        : c < 0
          ? `; the fills hold ${dec.sub(h.position, balance)} ${h.base} more than the balance (moved out without a sell), so this figure overstates the holding`
          : '';
    return (
      `- **${h.symbol}**: unrealized **${signed(h.unrealized)} ${h.quote}** on ${h.position} ${h.base} ` +
      `(average cost ${h.averageCost ?? '—'}, last ${h.last}, value ${h.value}); realized ${signed(h.realized)} ${h.quote}${uncovered}`
    );
  });
  const tooltip = [
    ...lines,
    '',
    'Weighted average cost from your fills (buys add funds plus a quote-currency fee; a base-currency fee reduces the coins received; a sell realises its funds minus its fee minus the average cost of what it sold); exact arithmetic.',
  ].join('\n');
  return { description, tooltip };
}
