/**
 * Order documents (`*.spotorder.json`) in the editor: diagnostics from
 * src/shared/requestBuilder/orderDocument.ts (symbol rules, cross-field rules), recomputed on
 * open and as the user types (debounced), and CodeLenses "Test order" / "Show signature" above
 * each order, which open the request builder on that order. JSON-schema validation comes from
 * the `jsonValidation` contribution (media/spotorder.schema.json).
 */
import * as vscode from 'vscode';
import { analyzeOrderDocument } from '../../shared/requestBuilder/orderDocument';
import type { SymbolRules } from '../../shared/requestBuilder/orderRules';
import { isOrderDocument, ORDER_DOCUMENT_GLOB, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './ids';

export { isOrderDocument, ORDER_DOCUMENT_GLOB, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './ids';

/** Debounce of diagnostics while typing, ms. */
export const DIAGNOSTIC_DEBOUNCE_MS = 250;

/** Diagnostics + CodeLenses of order documents. */
export class OrderDocuments implements vscode.CodeLensProvider, vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('spotdesk-orders');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly lensChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensChanged.event;
  /** Symbol rules; undefined until loaded (then symbol-dependent checks are skipped). */
  private symbols: ReadonlyMap<string, SymbolRules> | undefined;

  constructor(private readonly loadSymbols: () => Promise<ReadonlyMap<string, SymbolRules> | undefined>) {
    this.disposables.push(
      this.collection,
      this.lensChanged,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, DIAGNOSTIC_DEBOUNCE_MS)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.collection.delete(d.uri);
        this.cancel(d.uri);
      }),
      vscode.languages.registerCodeLensProvider({ pattern: ORDER_DOCUMENT_GLOB }, this),
    );
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  /** Reload the symbol rules (profile changed) and re-check every open order document. */
  async reloadSymbols(): Promise<void> {
    this.symbols = await this.loadSymbols().catch(() => undefined);
    for (const d of vscode.workspace.textDocuments) if (isOrderDocument(d)) this.update(d);
  }

  private cancel(uri: vscode.Uri): void {
    const k = uri.toString();
    const t = this.timers.get(k);
    if (t) clearTimeout(t);
    this.timers.delete(k);
  }

  private schedule(doc: vscode.TextDocument, delayMs: number): void {
    if (!isOrderDocument(doc)) return;
    this.cancel(doc.uri);
    this.timers.set(
      doc.uri.toString(),
      setTimeout(() => {
        this.timers.delete(doc.uri.toString());
        if (this.symbols === undefined) void this.reloadSymbols();
        else this.update(doc);
      }, delayMs),
    );
  }

  /** Recompute the diagnostics of one document now. @returns them. */
  update(doc: vscode.TextDocument): vscode.Diagnostic[] {
    const analysis = analyzeOrderDocument(doc.getText(), this.symbols);
    const diags = analysis.issues.map((i) => {
      const start = doc.positionAt(i.offset);
      const end = doc.positionAt(Math.min(i.offset + i.length, doc.getText().length));
      const d = new vscode.Diagnostic(
        new vscode.Range(start, end.isEqual(start) ? start.translate(0, 0) : end),
        i.message,
        i.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'SpotDesk';
      d.code = i.code;
      return d;
    });
    this.collection.set(doc.uri, diags);
    this.lensChanged.fire();
    return diags;
  }

  /** Wait for pending debounced updates of `doc` (tests). */
  async settle(doc: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
    this.cancel(doc.uri);
    if (this.symbols === undefined) this.symbols = await this.loadSymbols().catch(() => undefined);
    return this.update(doc);
  }

  /** Two lenses above each order: "Test order" and "Show signature". */
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!isOrderDocument(doc)) return [];
    const { orders } = analyzeOrderDocument(doc.getText(), this.symbols);
    const lenses: vscode.CodeLens[] = [];
    for (const o of orders) {
      const pos = doc.positionAt(o.offset);
      const range = new vscode.Range(pos, pos);
      const errors = o.issues.filter((i) => i.severity === 'error').length;
      const label = `${String(o.value.side ?? '?')} ${String(o.value.symbol ?? '?')}`;
      lenses.push(
        new vscode.CodeLens(range, {
          title: errors ? `$(beaker) Test order (${errors} local error${errors > 1 ? 's' : ''})` : '$(beaker) Test order',
          tooltip: `POST /api/v1/hf/orders/test for order #${o.index + 1} (${label})`,
          command: TEST_ORDER_COMMAND,
          arguments: [doc.uri.toString(), o.index],
        }),
        new vscode.CodeLens(range, {
          title: '$(key) Show signature',
          tooltip: 'Open the request builder on this order: prehash, body bytes and KC-API-* headers',
          command: SHOW_SIGNATURE_COMMAND,
          arguments: [doc.uri.toString(), o.index],
        }),
      );
    }
    return lenses;
  }

  /** The order object at `index` of the document `uri`, or undefined. */
  static async orderAt(uri: string, index: number): Promise<Record<string, unknown> | undefined> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    return analyzeOrderDocument(doc.getText()).orders.find((o) => o.index === index)?.value;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
