/**
 * Order documents (`*.spotorder.json`): a JSON (with comments) file holding one HF order request
 * object or an array of them. This module parses the text with `jsonc-parser`, runs
 * {@link validateOrder} on each order and maps every issue to a character range on the
 * offending property, so the extension only has to turn offsets into `vscode.Diagnostic`s and
 * CodeLenses. Pure and `vscode`-free (unit-tested directly).
 */
// The ESM build: esbuild cannot bundle the UMD build (its dynamic require('./impl/format') fails at run time).
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser/lib/esm/main';
import { validateOrder, type RuleIssue, type RuleSeverity, type SymbolRules } from '../../api/orderRules';

/** A diagnostic on an order document, located by character offsets into the text. */
export interface DocumentIssue {
  /** Offset of the first character (UTF-16 code units, like `TextDocument.positionAt`). */
  offset: number;
  length: number;
  severity: RuleSeverity;
  /** The rule code of {@link RuleIssue.code}, or `json-syntax` / `not-an-order`. */
  code: string;
  message: string;
  /** Index of the order in the document (0 for a single-object document), or null for the document. */
  orderIndex: number | null;
}

/** One order found in a document. */
export interface DocumentOrder {
  index: number;
  /** Offset/length of the order's object (CodeLenses go on the line of `offset`). */
  offset: number;
  length: number;
  /** The order as plain JS values (as parsed; amounts stay the strings written). */
  value: Record<string, unknown>;
  /** Rule violations of this order (before mapping to ranges). */
  issues: RuleIssue[];
}

/** Result of {@link analyzeOrderDocument}. */
export interface OrderDocumentAnalysis {
  orders: DocumentOrder[];
  issues: DocumentIssue[];
}

function objectOrders(root: Node | undefined): { node: Node; index: number }[] | 'bad' {
  if (!root) return [];
  if (root.type === 'object') return [{ node: root, index: 0 }];
  if (root.type === 'array') return (root.children ?? []).map((node, index) => ({ node, index }));
  return 'bad';
}

/**
 * Parse an order document and validate every order.
 *
 * Ranges: a rule issue on a present property covers that property's value (for `unknown-field`,
 * its key); an issue whose property is absent covers the first character of the order's `{`.
 * JSON syntax errors are reported at the parser's offsets and stop rule checks only for the
 * orders that could not be parsed.
 *
 * @param text the document text.
 * @param symbols rules of every known symbol (undefined: symbol list not loaded yet, skip
 *   symbol-dependent checks and `unknown-symbol`).
 */
export function analyzeOrderDocument(text: string, symbols?: ReadonlyMap<string, SymbolRules>): OrderDocumentAnalysis {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  const issues: DocumentIssue[] = errors.map((e) => ({
    offset: e.offset,
    length: Math.max(e.length, 1),
    severity: 'error',
    code: 'json-syntax',
    message: `JSON syntax error: ${printParseErrorCode(e.error)}.`,
    orderIndex: null,
  }));
  const orders: DocumentOrder[] = [];
  const found = objectOrders(root);
  if (found === 'bad' && root) {
    issues.push({ offset: root.offset, length: root.length, severity: 'error', code: 'not-an-order', message: 'An order document holds one order object or an array of order objects.', orderIndex: null });
    return { orders, issues };
  }
  for (const { node, index } of found === 'bad' ? [] : found) {
    if (node.type !== 'object') {
      issues.push({ offset: node.offset, length: node.length, severity: 'error', code: 'not-an-order', message: `Order #${index + 1} must be an object.`, orderIndex: index });
      continue;
    }
    const value = getNodeValue(node) as Record<string, unknown>;
    const orderIssues = validateOrder(value, { symbols, reportUnknownFields: true });
    orders.push({ index, offset: node.offset, length: node.length, value, issues: orderIssues });
    for (const issue of orderIssues) {
      let offset = node.offset;
      let length = 1;
      if (issue.field !== null) {
        const valueNode = findNodeAtLocation(node, [issue.field]);
        const target = issue.code === 'unknown-field' ? valueNode?.parent?.children?.[0] : valueNode;
        if (target) {
          offset = target.offset;
          length = target.length;
        }
      }
      issues.push({ offset, length, severity: issue.severity, code: issue.code, message: issue.message, orderIndex: index });
    }
  }
  return { orders, issues };
}
