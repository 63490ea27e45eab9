/**
 * The user's own orders on the market panel: which book rows they mark, and which price lines the
 * candle chart draws for them.
 *
 * - {@link ownLevels}: resting orders by the level the book shows them at — at grouping ×1 their
 *   own price; grouped, the bucket the book puts that price in (bids round down, asks round up onto
 *   `priceIncrement × grouping`, as buildView does) — with the summed remaining size and the count.
 *   A buy rests among the bids, a sell among the asks. A stop order that has not triggered is not in
 *   the book, so it marks no row.
 * - {@link ownPriceLines}: one line per side and price of the resting orders (sizes summed), and one
 *   dashed line per untriggered stop order at its trigger (`stopPrice`), labelled with what it does
 *   when it triggers.
 *
 * Exact decimal strings throughout (src/api/decimal.ts); prices are compared in their canonical
 * form ({@link canonicalPrice}). Pure: shared by the webview bundles and unit tests.
 */
import { add, cmp, normalize, roundDown, roundUp } from '../../../api/decimal';
import type { Grouping, OwnOrder } from '../protocol';
import { groupingStep } from './viewModel';

/** A price without leading or trailing zeros ("067000.10" → "67000.1"): own orders and rows compare in this form. */
export function canonicalPrice(p: string): string {
  let s = p.replace(/^0+(?=\d)/, '');
  if (s.includes('.')) s = s.replace(/\.?0+$/, '');
  return s;
}

/** The user's resting orders at one displayed level: total remaining size (decimal string) and how many orders. */
export interface OwnLevel {
  readonly size: string;
  readonly count: number;
}

/** Own levels of each side of the book, keyed by the canonical displayed price. */
export interface OwnLevels {
  readonly asks: ReadonlyMap<string, OwnLevel>;
  readonly bids: ReadonlyMap<string, OwnLevel>;
}

/** Whether `o` is a stop order that has not triggered yet (it is not in the book). */
export function isUntriggeredStop(o: OwnOrder): boolean {
  return o.stop !== undefined && o.stopPrice !== undefined;
}

/**
 * The rows the user's resting orders mark (see the module docstring).
 * @param priceIncrement the symbol's tick (decimal string); with `grouping` it gives the bucket step.
 * @throws DecimalFormatError when the increment or an order's price is not a decimal.
 */
export function ownLevels(orders: readonly OwnOrder[], priceIncrement: string, grouping: Grouping): OwnLevels {
  const asks = new Map<string, OwnLevel>();
  const bids = new Map<string, OwnLevel>();
  if (!orders.length) return { asks, bids };
  const step = groupingStep(priceIncrement, grouping);
  const grouped = grouping !== '1';
  for (const o of orders) {
    if (isUntriggeredStop(o)) continue;
    const price = grouped ? (o.side === 'buy' ? roundDown(o.price, step) : roundUp(o.price, step)) : o.price;
    const key = canonicalPrice(price);
    const m = o.side === 'buy' ? bids : asks;
    const at = m.get(key);
    m.set(key, { size: add(at?.size ?? '0', o.remain), count: (at?.count ?? 0) + 1 });
  }
  return { asks, bids };
}

/**
 * The user's waiting stop orders (GET /api/v1/stop-order `items`, KuCoin "Get Stop Orders List") as
 * {@link OwnOrder}s for the panel: `stop` loss/entry with its `stopPrice`; `price` the limit it will be
 * placed at, "0" for a market stop; `remain` its size. Orders without a size (a market stop by funds)
 * or of another stop kind are left out (they have no size to show).
 */
export function ownStopOrders(items: ReadonlyArray<{ id: string; side: 'buy' | 'sell'; type: 'limit' | 'market'; price: string | null; size: string | null; stop: string; stopPrice: string }>): OwnOrder[] {
  const out: OwnOrder[] = [];
  for (const o of items) {
    if ((o.stop !== 'loss' && o.stop !== 'entry') || o.size === null) continue;
    out.push({ id: o.id, side: o.side, price: o.type === 'limit' && o.price !== null ? o.price : '0', remain: o.size, stop: o.stop, stopPrice: o.stopPrice });
  }
  return out;
}

/** A price line of the candle chart for the user's orders. */
export interface OwnPriceLine {
  /** Stable key: `order:<side>:<price>` or `stop:<order id>`. */
  readonly key: string;
  /** Where the line is drawn: the resting price, or a stop order's trigger (decimal string). */
  readonly price: string;
  readonly side: 'buy' | 'sell';
  /** `order`: resting in the book (solid line); `stop`: a trigger that has not fired (dashed). */
  readonly kind: 'order' | 'stop';
  /** The line's label on the price axis, e.g. "Buy 0.0024 (2)", "Stop sell 0.5 → 64000". */
  readonly title: string;
}

/**
 * The chart's price lines for the user's orders (see the module docstring), resting lines first,
 * each group by price, highest first.
 */
export function ownPriceLines(orders: readonly OwnOrder[]): OwnPriceLine[] {
  const resting = new Map<string, { price: string; side: 'buy' | 'sell'; size: string; count: number }>();
  const stops: OwnPriceLine[] = [];
  for (const o of orders) {
    const word = o.side === 'buy' ? 'buy' : 'sell';
    if (isUntriggeredStop(o)) {
      const then = /[1-9]/.test(o.price) ? ` → ${canonicalPrice(o.price)}` : ' at market';
      stops.push({ key: `stop:${o.id}`, price: canonicalPrice(o.stopPrice!), side: o.side, kind: 'stop', title: `Stop ${word} ${normalize(o.remain)}${then}` });
      continue;
    }
    const price = canonicalPrice(o.price);
    const key = `order:${o.side}:${price}`;
    const at = resting.get(key);
    resting.set(key, { price, side: o.side, size: add(at?.size ?? '0', o.remain), count: (at?.count ?? 0) + 1 });
  }
  const byPrice = (a: { price: string }, b: { price: string }) => cmp(b.price, a.price);
  const lines: OwnPriceLine[] = [...resting].map(([key, r]) => ({
    key,
    price: r.price,
    side: r.side,
    kind: 'order' as const,
    title: `${r.side === 'buy' ? 'Buy' : 'Sell'} ${r.size}${r.count > 1 ? ` (${r.count})` : ''}`,
  }));
  return [...lines.sort(byPrice), ...stops.sort(byPrice)];
}
