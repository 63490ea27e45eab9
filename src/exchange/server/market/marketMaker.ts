/**
 * Market makers: one per symbol, quoting a ladder of post-only limit orders on both sides around the fair
 * price, skewed against their inventory (Avellaneda–Stoikov style: a long maker lowers both its bid and its
 * ask, so that it sells more than it buys).
 *
 * The ladder ({@link quoteLadder}): the touch at `spreadTicks` apart (1 tick on the majors, about
 * MINOR_SPREAD_BP basis points on the minor pairs; the best bid on multiples of `nearSpacingTicks`, so that
 * a move smaller than that re-quotes nothing), `nearLevels` levels `nearSpacingTicks` apart behind it,
 * then `farLevels` levels on a fixed grid of `farGridTicks` (they stay put while the price moves inside the
 * grid, so a move re-quotes only the near levels, as on a real book). Past `maxInventoryUnits` of inventory
 * the maker trades out (executor.ts); past {@link EMERGENCY_FACTOR} times that it also stops quoting the near
 * levels of the side that would add to it (only its grid levels stay).
 *
 * Re-quoting ({@link requote}): orders at prices outside the ladder are cancelled, missing prices are quoted
 * with a fresh size (`levelUnits` × 1–2, deeper levels larger); besides, at `refreshPerSecond` per second one
 * near quote is replaced with a new size (queue churn, which keeps a quiet book changing).
 */
import type { Rng } from './rng';

/** Parameters of a symbol's market maker (ticks are the symbol's price increments). */
export interface MakerParams {
  spreadTicks: number;
  nearLevels: number;
  nearSpacingTicks: number;
  farLevels: number;
  farGridTicks: number;
  /** Size of a near level, unit sizes. */
  levelUnits: number;
  /** Ticks the quotes move per unit size of inventory. */
  skewTicksPerUnit: number;
  maxInventoryUnits: number;
  refreshPerSecond: number;
}

/** Past this multiple of its inventory limit a maker stops quoting the side that adds to it (it trades out from the limit on: executor.ts). */
export const EMERGENCY_FACTOR = 4;

/** A quote the maker wants: price in ticks, size in unit sizes. */
export interface Quote {
  ticks: number;
  units: number;
}

/** One of the maker's resting orders (from the engine). */
export interface RestingQuote {
  seq: number;
  side: 0 | 1;
  ticks: number;
}

/** What {@link requote} decides: sequences to cancel and quotes to place. */
export interface Requote {
  cancels: number[];
  bids: Quote[];
  asks: Quote[];
}

/**
 * The ladder around `fairTicks` (a real number of ticks) for an inventory of `inventoryUnits` (long > 0):
 * bid prices descending, ask prices ascending, all ≥ 1 tick.
 */
export function quoteLadder(p: MakerParams, fairTicks: number, inventoryUnits: number): { bids: number[]; asks: number[] } {
  const center = fairTicks - p.skewTicksPerUnit * inventoryUnits;
  // the touch moves on the grid of the near levels: a move smaller than their spacing re-quotes nothing
  const g0 = p.nearSpacingTicks;
  const bid0 = Math.floor((center - (p.spreadTicks - 1) / 2) / g0) * g0;
  const ask0 = bid0 + p.spreadTicks;
  const bids: number[] = [];
  const asks: number[] = [];
  const longCap = inventoryUnits > EMERGENCY_FACTOR * p.maxInventoryUnits;
  const shortCap = inventoryUnits < -EMERGENCY_FACTOR * p.maxInventoryUnits;
  for (let k = 0; k < p.nearLevels; k++) {
    if (!longCap) bids.push(bid0 - k * p.nearSpacingTicks);
    if (!shortCap) asks.push(ask0 + k * p.nearSpacingTicks);
  }
  const g = p.farGridTicks;
  const lastBid = bid0 - (p.nearLevels - 1) * p.nearSpacingTicks;
  const lastAsk = ask0 + (p.nearLevels - 1) * p.nearSpacingTicks;
  let gb = Math.floor((lastBid - 1) / g) * g;
  let ga = Math.ceil((lastAsk + 1) / g) * g;
  for (let k = 0; k < p.farLevels; k++, gb -= g, ga += g) {
    bids.push(gb);
    asks.push(ga);
  }
  return { bids: bids.filter((t) => t >= 1), asks };
}

/**
 * Compare the maker's resting orders with the ladder: cancel what is off the ladder (and duplicates), quote
 * what is missing, plus the random refresh of one near quote.
 */
export function requote(p: MakerParams, rng: Rng, dt: number, fairTicks: number, inventoryUnits: number, resting: readonly RestingQuote[]): Requote {
  const want = quoteLadder(p, fairTicks, inventoryUnits);
  const wantBid = new Set(want.bids);
  const wantAsk = new Set(want.asks);
  const haveBid = new Set<number>();
  const haveAsk = new Set<number>();
  const cancels: number[] = [];
  const near: RestingQuote[] = [];
  for (const o of resting) {
    const wanted = o.side === 0 ? wantBid : wantAsk;
    const have = o.side === 0 ? haveBid : haveAsk;
    if (!wanted.has(o.ticks) || have.has(o.ticks)) {
      cancels.push(o.seq);
      continue;
    }
    have.add(o.ticks);
    const nearEnd = o.side === 0 ? want.bids[Math.min(p.nearLevels, want.bids.length) - 1] : want.asks[Math.min(p.nearLevels, want.asks.length) - 1];
    if (o.side === 0 ? o.ticks >= nearEnd : o.ticks <= nearEnd) near.push(o);
  }
  if (near.length > 0 && rng.next() < p.refreshPerSecond * dt) {
    const o = near[rng.int(0, near.length - 1)];
    cancels.push(o.seq);
    (o.side === 0 ? haveBid : haveAsk).delete(o.ticks);
  }
  const size = (i: number): number => p.levelUnits * (1 + 0.35 * i) * (1 + rng.next());
  const bids = want.bids.map((t, i) => ({ t, i })).filter((q) => !haveBid.has(q.t)).map((q) => ({ ticks: q.t, units: size(q.i) }));
  const asks = want.asks.map((t, i) => ({ t, i })).filter((q) => !haveAsk.has(q.t)).map((q) => ({ ticks: q.t, units: size(q.i) }));
  return { cancels, bids, asks };
}
