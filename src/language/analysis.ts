/**
 * Diagnostics of an order document: every order is checked with THE order rules module
 * (`validateOrder` of src/api/orderRules.ts — the same function the request
 * builder and the sandbox's validator follow, so the three never disagree; a stop or OCO order with
 * src/api/advancedOrderRules.ts, which builds on it, as the market panel's ticket does), and each issue is
 * given the exact range of the property at fault. On top of the per-order rules, the document-level
 * checks only a document can have: JSON syntax, a root that is not an order or an array of orders,
 * a `clientOid` used by two orders (the exchange rejects the second: 400100 "clientOid already
 * exists"), and a hint on orders without a `clientOid` (a retry could place them twice).
 *
 * Per-order results are cached on the entry (src/language/document.ts clears the cache when the
 * order's text changes) and keyed by the symbol metadata's version, so after a keystroke only the
 * edited order is validated again. Pure: no `vscode`, no Node APIs.
 */
import type { RuleIssue, SymbolRules } from '../api/orderRules';
import { orderKind, validateAnyOrder } from '../api/advancedOrderRules';
import type { OrderDocument, OrderEntry } from './document';

/** Severity of a document issue (LSP's four levels). */
export type IssueSeverity = 'error' | 'warning' | 'information' | 'hint';

/** One issue of the document, by absolute offsets (UTF-16 code units). */
export interface DocIssue {
  offset: number;
  length: number;
  severity: IssueSeverity;
  /** A rule code of {@link RuleIssue.code}, or `json-syntax`, `not-an-order`, `duplicate-client-oid`, `missing-client-oid`. */
  code: string;
  message: string;
  /** Index of the order, or null for the document. */
  orderIndex: number | null;
  /** The property at fault (null: the whole order or document). */
  field: string | null;
}

/** The symbol metadata the rules are checked against; `version` changes whenever `symbols` does. */
export interface RulesContext {
  /** Rules of every known symbol; undefined when none are known (symbol rules are then skipped). */
  symbols: ReadonlyMap<string, SymbolRules> | undefined;
  version: number;
}

/** An issue of one order, by offsets relative to the order's `{`. */
interface RelIssue {
  rel: number;
  length: number;
  severity: IssueSeverity;
  code: string;
  message: string;
  field: string | null;
}

interface EntryCache {
  version: number;
  issues: RelIssue[];
  lenses: number;
}

/** Rule issues of one order with ranges relative to its `{` (cached per rules version). */
function orderIssues(doc: OrderDocument, e: OrderEntry, ctx: RulesContext): EntryCache {
  const cached = e.cache as EntryCache | undefined;
  if (cached && cached.version === ctx.version) return cached;
  const value = e.value ?? {};
  const rules: RuleIssue[] = validateAnyOrder(value, { symbols: ctx.symbols, reportUnknownFields: true });
  const base = doc.start(e);
  const issues: RelIssue[] = rules.map((r) => {
    let rel = 0;
    let length = 1;
    if (r.field !== null) {
      const p = doc.property(e, r.field);
      if (p) {
        const span = r.code === 'unknown-field' ? p.key : p.value;
        rel = span.offset - base;
        length = span.length;
      }
    }
    return { rel, length, severity: r.severity, code: r.code, message: r.message, field: r.field };
  });
  const out: EntryCache = { version: ctx.version, issues, lenses: issues.filter((i) => i.severity === 'error').length };
  e.cache = out;
  return out;
}

/** Number of local errors of one order (for the "Test order (n local errors)" lens). */
export function orderErrorCount(doc: OrderDocument, e: OrderEntry, ctx: RulesContext): number {
  return e.value === undefined ? 1 : orderIssues(doc, e, ctx).lenses;
}

/**
 * Every issue of the document, in document order within each kind: syntax errors, then per order
 * its rule issues, the duplicate-clientOid errors and the missing-clientOid hints.
 * @returns the issues (never throws).
 */
export function analyze(doc: OrderDocument, ctx: RulesContext): DocIssue[] {
  const out: DocIssue[] = doc.syntaxIssues.map((s) => ({ ...s, severity: 'error', code: 'json-syntax', orderIndex: null, field: null }));
  if (doc.kind === 'other') {
    out.push({ ...doc.root, severity: 'error', code: 'not-an-order', message: 'An order document holds one order object or an array of order objects.', orderIndex: null, field: null });
    return out;
  }
  const firstByOid = new Map<string, number>();
  for (const e of doc.orders) {
    const start = doc.start(e);
    if (e.value === undefined) {
      out.push({ offset: start, length: e.node.length, severity: 'error', code: 'not-an-order', message: `Order #${e.index + 1} must be an object.`, orderIndex: e.index, field: null });
      continue;
    }
    for (const i of orderIssues(doc, e, ctx).issues) {
      out.push({ offset: start + i.rel, length: i.length, severity: i.severity, code: i.code, message: i.message, orderIndex: e.index, field: i.field });
    }
    const oid = e.value.clientOid;
    if (typeof oid === 'string' && oid !== '') {
      const first = firstByOid.get(oid);
      if (first === undefined) firstByOid.set(oid, e.index);
      else {
        const p = doc.property(e, 'clientOid');
        out.push({
          offset: p ? p.value.offset : start,
          length: p ? p.value.length : 1,
          severity: 'error',
          code: 'duplicate-client-oid',
          message: `clientOid "${oid}" is already used by order #${first + 1}: the exchange rejects a second order with the clientOid of an open one (400100 "clientOid already exists").`,
          orderIndex: e.index,
          field: 'clientOid',
        });
      }
    } else if (e.value.clientOid === undefined && orderKind(e.value) !== 'oco') {
      // (an OCO order without one is an error of its rules: KuCoin requires it)
      out.push({
        offset: start,
        length: 1,
        severity: 'hint',
        code: 'missing-client-oid',
        message: 'No "clientOid": if the answer is lost, a retry cannot tell whether this order was placed. Quick fix: fill in a fresh one.',
        orderIndex: e.index,
        field: null,
      });
    }
  }
  return out;
}
