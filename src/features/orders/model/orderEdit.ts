/**
 * The checks of "Edit Order…" (KuCoin's modify: POST /api/v1/hf/orders/alter), pure (no `vscode`; unit-tested in
 * test/unit/extension/orderEdit.test.ts). KuCoin cancels the order and places a NEW limit order (a new id, at the
 * back of its price level's queue) at `newPrice` for `newSize` − the size already filled: `newSize` is the new
 * TOTAL size. So the new price must be on the symbol's tick, and the new total size on its lot and above the filled
 * size, with the new order (price × what remains) within the symbol's rules — the ONE rules module
 * (src/api/orderRules.ts `validateOrder`) checks that order. A total size not above the filled size would only
 * cancel the order: "Cancel Order" says that better, so it is refused here.
 */
import * as D from '../../../api/decimal';
import { validateOrder, type SymbolRules } from '../../../api/orderRules';

/** The order being edited, as the exchange has it (GET /api/v1/hf/orders/{orderId}). Decimals are strings. */
export interface EditedOrder {
  symbol: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  dealSize: string;
}

const positive = (v: string): boolean => D.isDecimal(v) && !D.isNegative(v) && !D.isZero(v);

/** Why `input` cannot be the new price (an input box's message), or undefined when it can. */
export function editPriceError(input: string, rules: SymbolRules): string | undefined {
  const v = input.trim();
  if (!positive(v)) return 'Enter a price greater than 0 as a plain decimal number such as 29500.5.';
  if (!D.isMultipleOf(v, rules.priceIncrement)) return `The price must be a multiple of ${rules.priceIncrement} (nearest: ${D.roundDown(v, rules.priceIncrement)} or ${D.roundUp(v, rules.priceIncrement)}).`;
  return undefined;
}

/**
 * Why `input` cannot be the new total size at `price` (an input box's message), or undefined when it can: on the
 * lot, above the filled size, and the new order of (size − filled) at `price` within the symbol's rules.
 */
export function editSizeError(input: string, price: string, o: EditedOrder, rules: SymbolRules): string | undefined {
  const v = input.trim();
  if (!positive(v)) return 'Enter a size greater than 0 as a plain decimal number such as 0.01.';
  if (!D.isMultipleOf(v, rules.baseIncrement)) return `The size must be a multiple of ${rules.baseIncrement} (round down to ${D.roundDown(v, rules.baseIncrement)}).`;
  if (D.cmp(v, o.dealSize) <= 0) return `The new total size must be above the ${o.dealSize} already filled (to stop the order, cancel it).`;
  const remain = D.sub(v, o.dealSize);
  const issue = validateOrder({ symbol: o.symbol, side: o.side, type: 'limit', price: price.trim(), size: remain }, { symbols: new Map([[o.symbol, rules]]) }).find(
    (i) => i.severity === 'error' && i.field === 'size',
  );
  return issue ? `The new order (${remain} left to fill): ${issue.message}` : undefined;
}

/** What the modify changes: `newPrice` and/or `newSize` (only those that differ), or null when nothing does. */
export function editRequest(o: EditedOrder, price: string, size: string): { newPrice?: string; newSize?: string } | null {
  const out: { newPrice?: string; newSize?: string } = {};
  if (D.cmp(price.trim(), o.price) !== 0) out.newPrice = price.trim();
  if (D.cmp(size.trim(), o.size) !== 0) out.newSize = size.trim();
  return out.newPrice === undefined && out.newSize === undefined ? null : out;
}
