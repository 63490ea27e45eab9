/**
 * Completion in order documents:
 * - at a property key: the order's fields not yet present, with their documentation (required
 *   ones first), inserting `"field": ` and a value placeholder;
 * - at a value: `symbol` → every symbol with base/quote and trading status (enabled first);
 *   `side`, `type`, `timeInForce`, `stp` → the allowed values with their meaning; flags →
 *   true/false; `clientOid` → a fresh id;
 * - between orders (or in an empty document): a limit-order, a market-order, a stop-limit-order and an
 *   OCO-order skeleton.
 * The fields offered are those of the order's kind (src/api/advancedOrderRules.ts `orderKind`): an HF
 * order's, plus `stop`/`stopPrice` that make it a stop order; a stop order's; an OCO order's.
 * The replaced range is the token under the cursor (a half-typed key or value string), computed
 * from jsonc-parser's `getLocation` on the order's own text.
 */
import { randomUUID } from 'crypto';
import { getLocation, type Location } from 'jsonc-parser/lib/esm/main';
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem } from 'vscode-languageserver';
import type { OrderDocument } from './document';
import { enumValues, fieldDoc, fieldNames, fieldType, isRequired, type OrderKind } from './fields';
import { orderKind } from '../api/advancedOrderRules';
import type { SymbolMeta } from './symbols';

/** A completion item with its replacement range by absolute offsets (the server turns it into a TextEdit). */
export interface OffsetCompletion {
  item: Omit<CompletionItem, 'textEdit'>;
  newText: string;
  offset: number;
  length: number;
}

/** What completion needs from the server. */
export interface CompletionContext {
  symbols: ReadonlyMap<string, SymbolMeta> | undefined;
  /** Whether the client accepts snippets (`completionItem.snippetSupport`). */
  snippets: boolean;
}

function valuePlaceholder(field: string, snippets: boolean, kind: OrderKind): string {
  const values = enumValues(field);
  const type = fieldType(field, kind);
  if (!snippets) return type === 'boolean' ? 'true' : type === 'integer' ? '' : '""';
  if (values) return `"\${1|${values.map((v) => v.value).join(',')}|}"`;
  if (type === 'boolean') return '${1|true,false|}';
  if (type === 'integer') return '${1:60}';
  return '"$1"';
}

/** Locate the cursor in the order's own text when possible (cheap), else in the whole text. */
function locate(doc: OrderDocument, offset: number): { loc: Location; base: number; existing: Set<string>; kind: OrderKind } {
  const e = doc.syntaxIssues.length === 0 ? doc.entryAt(offset) : undefined;
  if (e && e.value) {
    const base = doc.start(e);
    return { loc: getLocation(doc.text.slice(base, doc.end(e)), offset - base), base, existing: new Set(Object.keys(e.value)), kind: orderKind(e.value) };
  }
  const loc = getLocation(doc.text, offset);
  // the whole text of an array: strip the order index from the path
  if (doc.kind === 'array' || (doc.kind !== 'object' && typeof loc.path[0] === 'number')) loc.path = loc.path.slice(1);
  const around = doc.entryAt(offset);
  return { loc, base: 0, existing: new Set(around?.value ? Object.keys(around.value) : []), kind: around?.value ? orderKind(around.value) : 'order' };
}

function orderSkeletons(offset: number, snippets: boolean): OffsetCompletion[] {
  const limit = snippets
    ? '{\n\t"clientOid": "${1:' + randomUUID() + '}",\n\t"symbol": "${2:BTC-USDT}",\n\t"side": "${3|buy,sell|}",\n\t"type": "limit",\n\t"price": "$4",\n\t"size": "$5"\n}'
    : `{ "clientOid": "${randomUUID()}", "symbol": "BTC-USDT", "side": "buy", "type": "limit", "price": "", "size": "" }`;
  const market = snippets
    ? '{\n\t"clientOid": "${1:' + randomUUID() + '}",\n\t"symbol": "${2:BTC-USDT}",\n\t"side": "${3|buy,sell|}",\n\t"type": "market",\n\t"${4|size,funds|}": "$5"\n}'
    : `{ "clientOid": "${randomUUID()}", "symbol": "BTC-USDT", "side": "buy", "type": "market", "size": "" }`;
  const stop = snippets
    ? '{\n\t"clientOid": "${1:' + randomUUID() + '}",\n\t"symbol": "${2:BTC-USDT}",\n\t"side": "${3|sell,buy|}",\n\t"type": "limit",\n\t"price": "$4",\n\t"size": "$5",\n\t"stopPrice": "$6",\n\t"stop": "${7|loss,entry|}"\n}'
    : `{ "clientOid": "${randomUUID()}", "symbol": "BTC-USDT", "side": "sell", "type": "limit", "price": "", "size": "", "stopPrice": "", "stop": "loss" }`;
  const oco = snippets
    ? '{\n\t"clientOid": "${1:' + randomUUID() + '}",\n\t"symbol": "${2:BTC-USDT}",\n\t"side": "${3|sell,buy|}",\n\t"price": "$4",\n\t"size": "$5",\n\t"stopPrice": "$6",\n\t"limitPrice": "$7"\n}'
    : `{ "clientOid": "${randomUUID()}", "symbol": "BTC-USDT", "side": "sell", "price": "", "size": "", "stopPrice": "", "limitPrice": "" }`;
  const mk = (label: string, text: string, doc: string): OffsetCompletion => ({
    item: { label, kind: CompletionItemKind.Snippet, insertTextFormat: snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText, documentation: { kind: MarkupKind.Markdown, value: doc } },
    newText: text,
    offset,
    length: 0,
  });
  return [
    mk('limit order', limit, 'A limit order with a fresh `clientOid`.'),
    mk('market order', market, 'A market order (by `size` or `funds`) with a fresh `clientOid`.'),
    mk('stop-limit order', stop, 'A stop order (POST /api/v1/stop-order): a limit order placed when the last trade price reaches `stopPrice` (`stop` loss: at or below; entry: at or above).'),
    mk('OCO order', oco, 'An OCO order (POST /api/v3/oco/order): a take-profit leg at `price` and a stop leg at `limitPrice` fired at `stopPrice`; the first to fire cancels the other.'),
  ];
}

/**
 * The completions at `offset` (absolute), or [] when there is nothing to offer.
 * Never throws.
 */
export function completeAt(doc: OrderDocument, offset: number, ctx: CompletionContext): OffsetCompletion[] {
  const { loc, base, existing, kind } = locate(doc, offset);
  const prev = loc.previousNode;
  // replace the token under the cursor (a half-typed "key" or "value"), else insert at the cursor
  const token = prev && offset - base >= prev.offset && offset - base <= prev.offset + prev.length ? { offset: base + prev.offset, length: prev.length } : { offset, length: 0 };

  if (loc.path.length === 0) return doc.entryAt(offset) ? [] : orderSkeletons(offset, ctx.snippets);
  if (loc.path.length !== 1 || typeof loc.path[0] !== 'string') return [];
  const field = loc.path[0];

  if (loc.isAtPropertyKey) {
    // a key followed by ':' already has its value: replace the key only
    const after = doc.text.slice(token.offset + token.length).match(/^\s*:/);
    return fieldNames(kind).filter((f) => f === field || !existing.has(f)).map((f, i) => ({
      item: {
        label: f,
        kind: CompletionItemKind.Property,
        detail: `${fieldType(f, kind) ?? ''}${isRequired(f, kind) ? ' · required' : ''}`,
        documentation: { kind: MarkupKind.Markdown, value: fieldDoc(f, kind) ?? '' },
        sortText: `${isRequired(f, kind) ? 0 : 1}${String(i).padStart(2, '0')}`,
        insertTextFormat: after || !ctx.snippets ? InsertTextFormat.PlainText : InsertTextFormat.Snippet,
      },
      newText: after ? `"${f}"` : `"${f}": ${valuePlaceholder(f, ctx.snippets, kind)}`,
      offset: token.offset,
      length: token.length,
    }));
  }

  const valueItem = (label: string, newText: string, kind: CompletionItemKind, detail: string, doc: string, sortText?: string): OffsetCompletion => ({
    item: { label, kind, detail, documentation: { kind: MarkupKind.Markdown, value: doc }, ...(sortText ? { sortText } : {}), filterText: newText },
    newText,
    offset: token.offset,
    length: token.length,
  });

  if (field === 'symbol') {
    if (!ctx.symbols) return [];
    return [...ctx.symbols.values()].map((s) =>
      valueItem(
        s.symbol,
        JSON.stringify(s.symbol),
        CompletionItemKind.Value,
        `${s.baseCurrency} / ${s.quoteCurrency}${s.market ? ` · ${s.market}` : ''} · ${s.enableTrading ? 'trading' : 'trading disabled'}`,
        `tick ${s.priceIncrement} · lot ${s.baseIncrement} · size ${s.baseMinSize}–${s.baseMaxSize} ${s.baseCurrency} · funds ≥ ${s.quoteMinSize} ${s.quoteCurrency}`,
        `${s.enableTrading ? 0 : 1}${s.symbol}`,
      ),
    );
  }
  const values = enumValues(field);
  if (values) return values.map((v, i) => valueItem(v.value, JSON.stringify(v.value), CompletionItemKind.EnumMember, field, v.doc, String(i).padStart(2, '0')));
  if (fieldType(field, kind) === 'boolean') return ['true', 'false'].map((v) => valueItem(v, v, CompletionItemKind.Value, field, fieldDoc(field, kind) ?? ''));
  if (field === 'clientOid') {
    const id = randomUUID();
    return [valueItem(id, JSON.stringify(id), CompletionItemKind.Value, 'a fresh clientOid', 'A random UUID: 36 characters of `[0-9a-f-]`, unique per order.')];
  }
  return [];
}
