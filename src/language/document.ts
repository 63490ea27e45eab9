/**
 * The server's model of one order document (`*.spotorder.json`): JSON with comments holding one HF
 * order request object or an array of them. Parsed with `jsonc-parser`; kept up to date
 * INCREMENTALLY: an edit strictly inside one order object re-parses only that object's text (and
 * shifts the orders after it), so a keystroke in a 1,000-order document costs one order's parse
 * and validation instead of the whole document's (bench/lsp.bench.ts). Anything else (an edit
 * between orders, across orders, or while the document has a syntax error) re-parses everything.
 *
 * Why re-parsing one object is exact: the object's text starts at a `{` token and ends at its
 * matching `}`; if the new text of that span parses alone as one object with no error and
 * exactly fills the span, the scanner reaches the same tokens inside the whole document too
 * (it enters the span in the same state, outside strings and comments), and the text around it
 * is unchanged. When that check fails, the whole document is parsed again.
 *
 * Offsets are UTF-16 code units into the text (like LSP's `TextDocument.offsetAt`). Pure: no
 * `vscode`, no Node APIs.
 */
// The ESM build: esbuild cannot bundle the UMD build (its dynamic require('./impl/format') fails at run time).
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser/lib/esm/main';

/** Parser options of order documents: comments allowed, trailing commas not (the exchange gets JSON). */
const PARSE_OPTIONS = { allowTrailingComma: false, disallowComments: false } as const;

/** One element of the document: an order object (or a non-object where an order should be). */
export interface OrderEntry {
  /** Position in the document (0 for a single-object document). */
  index: number;
  /** The parsed node. Its offsets are relative: the absolute offset is `node.offset + shift`. */
  node: Node;
  shift: number;
  /** The order as plain JS values (amounts stay the strings written); undefined when not an object. */
  value: Record<string, unknown> | undefined;
  /** Cache slot for the analysis (src/language/analysis.ts); cleared when the order's text changes. */
  cache?: unknown;
}

/** A JSON syntax error, by absolute offsets. */
export interface SyntaxIssue {
  offset: number;
  length: number;
  message: string;
}

/** One text change, by offsets into the text as it was just before this change. */
export interface TextChange {
  start: number;
  end: number;
  text: string;
}

/** How {@link OrderDocument.update} applied a change: one order re-parsed, or the whole text. */
export type UpdateKind = 'incremental' | 'full';

/** The parsed, incrementally maintained order document (see module docs). */
export class OrderDocument {
  private textValue = '';
  private entries: OrderEntry[] = [];
  private syntax: SyntaxIssue[] = [];
  private rootKind: 'object' | 'array' | 'other' | 'empty' = 'empty';
  private rootSpan = { offset: 0, length: 0 };
  /** Counts full parses and incremental updates (tests and the benchmark read it). */
  readonly stats = { full: 0, incremental: 0 };

  constructor(text: string) {
    this.parseAll(text);
  }

  /** The current text. */
  get text(): string {
    return this.textValue;
  }

  /** Orders (and non-object elements) in document order. */
  get orders(): readonly OrderEntry[] {
    return this.entries;
  }

  /** JSON syntax errors of the current text. */
  get syntaxIssues(): readonly SyntaxIssue[] {
    return this.syntax;
  }

  /** What the root value is: an order, an array of orders, something else, or nothing. */
  get kind(): 'object' | 'array' | 'other' | 'empty' {
    return this.rootKind;
  }

  /** Absolute span of the root value. */
  get root(): { offset: number; length: number } {
    return this.rootSpan;
  }

  /** Absolute offset of the first character (`{`) of an entry. */
  start(e: OrderEntry): number {
    return e.node.offset + e.shift;
  }

  /** Absolute offset just past the last character (`}`) of an entry. */
  end(e: OrderEntry): number {
    return e.node.offset + e.shift + e.node.length;
  }

  /** The entry whose span contains `offset` (its `{` through its `}`), or undefined. */
  entryAt(offset: number): OrderEntry | undefined {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.entries[mid];
      if (offset < this.start(e)) hi = mid - 1;
      else if (offset >= this.end(e)) lo = mid + 1;
      else return e;
    }
    return undefined;
  }

  /** The property `field` of an order: absolute spans of its key and value, or undefined when absent. */
  property(e: OrderEntry, field: string): { key: { offset: number; length: number }; value: { offset: number; length: number }; node: Node } | undefined {
    const v = findNodeAtLocation(e.node, [field]);
    const key = v?.parent?.children?.[0];
    if (!v || !key) return undefined;
    return { key: { offset: key.offset + e.shift, length: key.length }, value: { offset: v.offset + e.shift, length: v.length }, node: v };
  }

  /** The property nodes (`"key": value` pairs) of an order, with absolute spans of the whole pair. */
  properties(e: OrderEntry): { key: string; offset: number; length: number; valueNode: Node | undefined }[] {
    if (e.node.type !== 'object') return [];
    return (e.node.children ?? []).map((p) => ({
      key: String(p.children?.[0]?.value ?? ''),
      offset: p.offset + e.shift,
      length: p.length,
      valueNode: p.children?.[1],
    }));
  }

  /**
   * Apply text changes in order (each by offsets into the text as it was before it). Edits strictly
   * inside one order object re-parse only that object; anything else re-parses the whole text.
   * @returns 'incremental' when every change was applied to one order, else 'full'.
   */
  update(changes: readonly TextChange[]): UpdateKind {
    let kind: UpdateKind = 'incremental';
    for (const c of changes) {
      const next = this.textValue.slice(0, c.start) + c.text + this.textValue.slice(c.end);
      if (!this.tryIncremental(c, next)) {
        kind = 'full';
        this.parseAll(next);
      }
    }
    return kind;
  }

  /** Replace the whole text (a full-document sync). */
  setText(text: string): void {
    this.parseAll(text);
  }

  private tryIncremental(c: TextChange, next: string): boolean {
    if (this.syntax.length > 0 || (this.rootKind !== 'array' && this.rootKind !== 'object')) return false;
    const e = this.entryAt(c.start);
    if (!e || e.value === undefined) return false;
    const s = this.start(e);
    const end = this.end(e);
    // strictly inside the braces: the `{` and the `}` stay
    if (c.start < s + 1 || c.end > end - 1) return false;
    const delta = c.text.length - (c.end - c.start);
    const sub = next.slice(s, end + delta);
    const errors: ParseError[] = [];
    const node = parseTree(sub, errors, PARSE_OPTIONS);
    if (errors.length > 0 || !node || node.type !== 'object' || node.offset !== 0 || node.length !== sub.length) return false;
    e.node = node;
    e.shift = s;
    e.value = getNodeValue(node) as Record<string, unknown>;
    e.cache = undefined;
    for (let i = e.index + 1; i < this.entries.length; i++) this.entries[i].shift += delta;
    this.rootSpan = { offset: this.rootSpan.offset, length: this.rootSpan.length + delta };
    this.textValue = next;
    this.stats.incremental++;
    return true;
  }

  private parseAll(text: string): void {
    this.stats.full++;
    this.textValue = text;
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, PARSE_OPTIONS);
    this.syntax = errors.map((e) => ({ offset: e.offset, length: Math.max(e.length, 1), message: `JSON syntax error: ${printParseErrorCode(e.error)}.` }));
    this.entries = [];
    if (!root) {
      this.rootKind = 'empty';
      this.rootSpan = { offset: 0, length: 0 };
      return;
    }
    this.rootSpan = { offset: root.offset, length: root.length };
    if (root.type === 'object') {
      this.rootKind = 'object';
      this.entries = [{ index: 0, node: root, shift: 0, value: getNodeValue(root) as Record<string, unknown> }];
    } else if (root.type === 'array') {
      this.rootKind = 'array';
      this.entries = (root.children ?? []).map((node, index) => ({
        index,
        node,
        shift: 0,
        value: node.type === 'object' ? (getNodeValue(node) as Record<string, unknown>) : undefined,
      }));
    } else {
      this.rootKind = 'other';
    }
  }
}
