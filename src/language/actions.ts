/**
 * Quick fixes of order documents, computed from the document's issues (src/language/analysis.ts)
 * that overlap the requested range — so a client that sends no diagnostics in the code-action
 * context gets them too:
 * - a price, size, visibleSize or funds off its increment: round DOWN and round UP onto the grid
 *   (two fixes; the nearer one is preferred);
 * - size below baseMinSize: raise it to the minimum; funds below quoteMinSize: raise them;
 *   order value below the minimum (price × size): raise the size to the smallest one that reaches it;
 * - a missing clientOid (hint) or a duplicated one: fill in a fresh one;
 * - a field the order type ignores or rejects (price/timeInForce/visibleSize/postOnly/hidden/
 *   iceberg/cancelAfter on a market order, funds on a limit order, visibleSize without iceberg,
 *   a field that is not an order field): remove it, with its comma.
 * Edits are by absolute offsets; amounts are exact decimals (src/api/decimal.ts).
 */
import { randomUUID } from 'crypto';
import * as D from '../api/decimal';
import type { DocIssue } from './analysis';
import type { OrderDocument, OrderEntry } from './document';
import type { SymbolMeta } from './symbols';

/** One edit by absolute offsets. */
export interface OffsetEdit {
  offset: number;
  length: number;
  newText: string;
}

/** A quick fix: its title, the issue it fixes, and its edits. */
export interface Fix {
  title: string;
  issue: DocIssue;
  edits: OffsetEdit[];
  preferred?: boolean;
}

/** Issue codes fixed by removing the field at fault. */
const REMOVE_CODES: Record<string, string> = {
  'market-price': 'a market order ignores it',
  'market-ignored': 'a market order ignores it',
  'market-limit-only': 'a market order rejects it',
  'market-cancel-after': 'a market order rejects it',
  'limit-funds': 'a limit order rejects it',
  'visible-size-without-iceberg': 'only an iceberg order takes it',
  'unknown-field': 'not an order field',
};

/** Increment of each decimal field's grid (a stop or OCO order's stopPrice and limitPrice are prices). */
function incrementOf(field: string, rules: SymbolMeta): string | undefined {
  if (field === 'price' || field === 'stopPrice' || field === 'limitPrice') return rules.priceIncrement;
  if (field === 'size' || field === 'visibleSize') return rules.baseIncrement;
  if (field === 'funds') return rules.quoteIncrement;
  return undefined;
}

/** Edit replacing the value of `field` by the JSON string `value`. */
function replaceValue(doc: OrderDocument, e: OrderEntry, field: string, value: string): OffsetEdit | undefined {
  const p = doc.property(e, field);
  return p ? { offset: p.value.offset, length: p.value.length, newText: JSON.stringify(value) } : undefined;
}

/** Edit removing the property `field` with the comma that separates it (keeps the rest's layout). */
export function removeProperty(doc: OrderDocument, e: OrderEntry, field: string): OffsetEdit | undefined {
  const props = doc.properties(e);
  const i = props.findIndex((p) => p.key === field);
  if (i < 0) return undefined;
  const p = props[i];
  if (i + 1 < props.length) return { offset: p.offset, length: props[i + 1].offset - p.offset, newText: '' };
  if (i > 0) {
    const prevEnd = props[i - 1].offset + props[i - 1].length;
    return { offset: prevEnd, length: p.offset + p.length - prevEnd, newText: '' };
  }
  return { offset: p.offset, length: p.length, newText: '' };
}

/** Edit adding `"clientOid": "<id>"` as the order's first property, in the order's own layout. */
export function addClientOid(doc: OrderDocument, e: OrderEntry, id: string): OffsetEdit {
  const props = doc.properties(e);
  const open = doc.start(e) + 1;
  if (props.length === 0) return { offset: open, length: 0, newText: `"clientOid": ${JSON.stringify(id)}` };
  const first = props[0];
  const gap = doc.text.slice(open, first.offset); // e.g. "\n    " or " " or ""
  // the same separator as the first property ("key": or "key":) and the same gap before the next
  const colon = /^"(?:[^"\\]|\\.)*"(\s*:\s*)/.exec(doc.text.slice(first.offset, first.offset + first.length))?.[1] ?? ': ';
  const sep = gap.includes('\n') ? gap.slice(gap.lastIndexOf('\n')) : gap;
  return { offset: first.offset, length: 0, newText: `"clientOid"${colon}${JSON.stringify(id)},${sep}` };
}

/** The smallest size on the baseIncrement grid with price × size ≥ min (and ≥ baseMinSize). */
function sizeForValue(price: string, min: string, rules: SymbolMeta): string {
  const inc = rules.baseIncrement;
  let s = D.roundUp(D.divDown(min, price, D.fractionDigits(inc) + 1), inc);
  while (D.cmp(D.mul(price, s), min) < 0) s = D.add(s, inc);
  return D.max(s, rules.baseMinSize);
}

/**
 * The quick fixes of the issues in `issues` (the document's issues overlapping the requested range).
 * @param newId fresh clientOid generator (default crypto.randomUUID).
 */
export function fixesFor(doc: OrderDocument, issues: readonly DocIssue[], symbols: ReadonlyMap<string, SymbolMeta> | undefined, newId: () => string = randomUUID): Fix[] {
  const fixes: Fix[] = [];
  for (const issue of issues) {
    if (issue.orderIndex === null) continue;
    const e = doc.orders[issue.orderIndex];
    if (!e?.value) continue;
    const order = e.value;
    const rules = typeof order.symbol === 'string' ? symbols?.get(order.symbol) : undefined;
    const field = issue.field;
    const code = issue.code;
    if (code in REMOVE_CODES && field) {
      const edit = removeProperty(doc, e, field);
      if (edit) fixes.push({ title: `Remove "${field}" (${REMOVE_CODES[code]})`, issue, edits: [edit], preferred: true });
      continue;
    }
    if (code === 'missing-client-oid') {
      fixes.push({ title: 'Fill in a fresh clientOid', issue, edits: [addClientOid(doc, e, newId())], preferred: true });
      continue;
    }
    if (code === 'duplicate-client-oid') {
      const edit = replaceValue(doc, e, 'clientOid', newId());
      if (edit) fixes.push({ title: 'Replace with a fresh clientOid', issue, edits: [edit], preferred: true });
      continue;
    }
    if (!rules || !field) continue;
    const value = order[field];
    if (typeof value !== 'string' || !D.isDecimal(value)) continue;
    if (code === 'price-increment' || code === 'size-increment' || code === 'visible-size-increment' || code === 'funds-increment') {
      const inc = incrementOf(field, rules);
      if (!inc) continue;
      const down = D.roundDown(value, inc);
      const up = D.roundUp(value, inc);
      const nearerUp = D.cmp(D.sub(up, value), D.sub(value, down)) < 0;
      const isPrice = inc === rules.priceIncrement && field !== 'size' && field !== 'visibleSize' && field !== 'funds';
      const unit = isPrice || field === 'funds' ? rules.quoteCurrency : rules.baseCurrency;
      const grid = isPrice ? 'priceIncrement' : field === 'funds' ? 'quoteIncrement' : 'baseIncrement';
      if (!D.isZero(down)) {
        const edit = replaceValue(doc, e, field, down);
        if (edit) fixes.push({ title: `Round ${field} down to ${down} ${unit} (${grid} ${inc})`, issue, edits: [edit], preferred: !nearerUp });
      }
      const edit = replaceValue(doc, e, field, up);
      if (edit) fixes.push({ title: `Round ${field} up to ${up} ${unit} (${grid} ${inc})`, issue, edits: [edit], preferred: nearerUp || D.isZero(down) });
      continue;
    }
    if (code === 'size-min') {
      const edit = replaceValue(doc, e, 'size', rules.baseMinSize);
      if (edit) fixes.push({ title: `Raise size to the minimum ${rules.baseMinSize} ${rules.baseCurrency} (baseMinSize)`, issue, edits: [edit], preferred: true });
      continue;
    }
    if (code === 'funds-min') {
      const edit = replaceValue(doc, e, 'funds', rules.quoteMinSize);
      if (edit) fixes.push({ title: `Raise funds to the minimum ${rules.quoteMinSize} ${rules.quoteCurrency} (quoteMinSize)`, issue, edits: [edit], preferred: true });
      continue;
    }
    if (code === 'min-funds') {
      const price = order.price;
      if (typeof price !== 'string' || !D.isDecimal(price) || D.isZero(price) || D.isNegative(price)) continue;
      const min = rules.minFunds && D.isDecimal(rules.minFunds) ? D.max(rules.minFunds, rules.quoteMinSize) : rules.quoteMinSize;
      const size = sizeForValue(price, min, rules);
      const edit = replaceValue(doc, e, 'size', size);
      if (edit) fixes.push({ title: `Raise size to ${size} ${rules.baseCurrency} (price × size ≥ ${min} ${rules.quoteCurrency})`, issue, edits: [edit], preferred: true });
    }
  }
  return fixes;
}
