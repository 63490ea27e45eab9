/**
 * A market order's walk of the visible order book (spec "Market order": it takes the opposite side
 * level by level, best first): the base it takes and the quote it pays, the volume-weighted average
 * price, the slippage from the best price in basis points, and whether the order is larger than the
 * visible depth. The ONE walk behind every estimate SpotDesk shows — the Order Ticket and its
 * confirmation (src/features/market/model/ticket.ts), the request builder's placement confirmation
 * (src/api/orderEstimate.ts, which re-exports it) and the order documents' hover
 * (src/language/hover.ts) — kept in src/api because the language server may import only src/api.
 *
 * Exact decimals (./decimal.ts). Pure: no `vscode`, no DOM, no Node API.
 */
import * as D from './decimal';

/** One price level of a book side: [price, size], decimal strings. */
export type BookLevel = readonly [string, string];

/** What a market order would take from the visible book ({@link walkBook}). Decimals are strings. */
export interface BookWalk {
  /** Base the order takes from the visible levels, exact. */
  size: string;
  /** Quote paid (buy) or received (sell) for it, exact. */
  funds: string;
  /** funds / size (the volume-weighted average price), truncated; null when nothing is taken. */
  averagePrice: string | null;
  /** The best opposite price (the first level), null when that side is empty. */
  bestPrice: string | null;
  /** Number of levels the order reaches. */
  levels: number;
  /** How much worse the average is than the best price, in basis points (≥ 0, truncated to 2 decimals); null when nothing is taken. */
  slippageBps: string | null;
  /** True when the visible levels cannot fill the whole order. */
  exceedsDepth: boolean;
  /** Everything the visible side holds: base size and its quote value. */
  depth: { size: string; funds: string; levels: number };
}

/**
 * Walk `levels` (the opposite side, best first: asks for a buy, bids for a sell) for a market order
 * of `amount` — a base `size`, or quote `funds` (a funds order takes, at each level, what its
 * remaining funds buy, truncated to `baseDigits` decimals, as the exchange does with the lot).
 * Malformed or non-positive levels are skipped. Never throws.
 */
export function walkBook(side: 'buy' | 'sell', levels: readonly BookLevel[], amount: { size: string } | { funds: string }, baseDigits = 8): BookWalk {
  const ok = (v: string) => D.isDecimal(v) && !D.isNegative(v) && !D.isZero(v);
  const book = levels.filter(([p, q]) => ok(p) && ok(q));
  let size = '0';
  let funds = '0';
  let used = 0;
  let left = 'size' in amount ? amount.size : amount.funds;
  const bySize = 'size' in amount;
  let depthSize = '0';
  let depthFunds = '0';
  for (const [price, qty] of book) {
    depthSize = D.add(depthSize, qty);
    depthFunds = D.add(depthFunds, D.mul(price, qty));
    if (D.isZero(left) || D.isNegative(left)) continue;
    const take = bySize ? D.min(left, qty) : D.min(qty, D.divDown(left, price, baseDigits));
    if (D.isZero(take)) {
      left = '0'; // the remaining funds buy less than one lot here: the order is done
      continue;
    }
    used++;
    size = D.add(size, take);
    funds = D.add(funds, D.mul(price, take));
    left = D.sub(left, bySize ? take : D.mul(price, take));
  }
  const bestPrice = book[0]?.[0] ?? null;
  const taken = !D.isZero(size);
  const averagePrice = taken && bestPrice ? D.normalize(D.divDown(funds, size, D.fractionDigits(D.normalize(bestPrice)) + 4)) : null;
  let slippageBps: string | null = null;
  if (averagePrice !== null && bestPrice !== null) {
    // Exact: what the walk pays (receives) against the same size at the best price, not the rounded average.
    const atBest = D.mul(bestPrice, size);
    const worse = side === 'buy' ? D.sub(funds, atBest) : D.sub(atBest, funds);
    slippageBps = D.normalize(D.divDown(D.mul(D.max(worse, '0'), '10000'), atBest, 2));
  }
  return {
    size,
    funds,
    averagePrice,
    bestPrice,
    levels: used,
    slippageBps,
    exceedsDepth: !D.isZero(left) && !D.isNegative(left) && (bySize || used === book.length),
    depth: { size: depthSize, funds: depthFunds, levels: book.length },
  };
}

/**
 * The walk in one phrase, as the ticket, the request builder's confirmation and the hover show it:
 * "≈ 67085.69 USDT average over 5 ask levels, 22.4 bps above the best ask 66976.5".
 */
export function walkSummary(w: BookWalk, side: 'buy' | 'sell', quote: string): string {
  const book = side === 'buy' ? 'ask' : 'bid';
  if (w.averagePrice === null || w.bestPrice === null) return `No ${book}s in the visible book: the price cannot be estimated.`;
  const dir = side === 'buy' ? 'above' : 'below';
  const slip = w.slippageBps !== null && !D.isZero(w.slippageBps) ? `, ${w.slippageBps} bps ${dir} the best ${book} ${w.bestPrice}` : ` (the best ${book})`;
  return `≈ ${w.averagePrice}${quote ? ` ${quote}` : ''} average over ${w.levels} ${book} level${w.levels === 1 ? '' : 's'}${slip}`;
}

/** The warning of an order larger than the visible book (one wording for every surface). */
export function depthWarning(w: BookWalk, side: 'buy' | 'sell', base: string, quote: string): string {
  const book = side === 'buy' ? 'ask' : 'bid';
  return `Larger than the visible book: its ${w.depth.levels} ${book} level${w.depth.levels === 1 ? '' : 's'} hold ${D.normalize(w.depth.size)}${base ? ` ${base}` : ''} (${D.normalize(w.depth.funds)}${quote ? ` ${quote}` : ''}); the rest fills at prices nobody can see, or not at all.`;
}
