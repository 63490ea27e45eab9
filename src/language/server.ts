/**
 * The order-document language server: LSP over any `vscode-languageserver`
 * connection — stdio for other editors, node IPC in VS Code (src/language/main.ts picks it).
 *
 * - Documents are synced incrementally; each is an {@link OrderDocument} (only the edited order is
 *   re-parsed) and its diagnostics are published right after the change (coalesced per tick).
 * - Diagnostics: every rule of the rules module with exact ranges (src/language/analysis.ts),
 *   plus a document-level note when the symbol metadata is offline or unknown.
 * - Completion, hover, quick fixes, formatting (jsonc-parser), and — only when the client names its
 *   commands in `initializationOptions.commands` — code lenses "Test order", "Show signature",
 *   "Place order" whose arguments are `[uri, orderIndex]`: the client re-reads the order itself and
 *   sends it through its own guarded path. The server has no credentials and sends no order.
 * - Symbol metadata: src/language/symbols.ts (refresh policy, offline copy). The base URL comes
 *   from `initializationOptions.baseUrl` and {@link PROFILE_NOTIFICATION}.
 *
 * Custom methods: see src/language/protocol.ts.
 */
import { format as formatJson } from 'jsonc-parser/lib/esm/main';
import {
  CodeActionKind,
  DiagnosticSeverity,
  TextDocumentSyncKind,
  type CodeAction,
  type CodeLens,
  type Connection,
  type Diagnostic,
  type InitializeResult,
  type Range,
  type TextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fixesFor } from './actions';
import { orderKind } from '../api/advancedOrderRules';
import { analyze, orderErrorCount, type DocIssue, type IssueSeverity } from './analysis';
import { completeAt } from './completion';
import { OrderDocument } from './document';
import { PublicApi } from './publicApi';
import { hoverAt } from './hover';
import {
  DEFAULT_BASE_URL,
  DIAGNOSTIC_SOURCE,
  MARKET_REQUEST,
  PROFILE_NOTIFICATION,
  REFRESH_SYMBOLS_REQUEST,
  STATUS_REQUEST,
  type InitOptions,
  type MarketParams,
  type MarketResult,
  type ProfileParams,
  type SymbolsStatus,
} from './protocol';
import { defaultCacheDir, SymbolStore } from './symbols';

/** Options of {@link startServer} (command-line values; `initializationOptions` override them). */
export interface ServerOptions {
  baseUrl?: string;
  cacheDir?: string;
}

const SEVERITY: Record<IssueSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** How long a hover waits for the live market, ms. */
const MARKET_TIMEOUT_MS = 2_500;

/** One open document: the LSP text (positions) and the order model (offsets), plus its last analysis. */
interface OpenDoc {
  text: TextDocument;
  model: OrderDocument;
  issues: DocIssue[] | undefined;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(t);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** Wire every handler of the server onto `connection` and start listening. */
export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const docs = new Map<string, OpenDoc>();
  const api = new PublicApi();
  let init: InitOptions = {};
  let snippets = false;
  /** Whether the client re-requests code lenses on `workspace/codeLens/refresh` (their error counts change with the symbol rules). */
  let lensRefresh = false;
  let profileName: string | undefined;
  const pending = new Set<string>();
  let flushScheduled = false;

  const log = (line: string) => connection.console.log(line);

  let store: SymbolStore | undefined;
  const symbols = (): SymbolStore => {
    if (!store) throw new Error('not initialized');
    return store;
  };

  /** Publish the diagnostics of every document in `pending`, once per tick. */
  const schedule = (uri: string) => {
    pending.add(uri);
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      for (const u of [...pending]) {
        pending.delete(u);
        const d = docs.get(u);
        if (d) publish(u, d);
      }
    });
  };
  const scheduleAll = () => {
    for (const uri of docs.keys()) schedule(uri);
  };

  const rulesContext = () => ({ symbols: store?.map, version: store?.version ?? 0 });

  function statusDiagnostic(d: OpenDoc): Diagnostic | undefined {
    if (!store) return undefined;
    const s = store.status();
    const range: Range = { start: { line: 0, character: 0 }, end: d.text.positionAt(Math.min(1, d.model.text.length)) };
    const where = `GET ${s.baseUrl ?? '(no base URL)'}/api/v2/symbols`;
    if (s.state === 'offline') {
      return {
        range,
        severity: DiagnosticSeverity.Information,
        source: DIAGNOSTIC_SOURCE,
        code: 'symbols-offline',
        message: `Offline: checked against the last known symbol rules (${s.count} symbols fetched ${s.fetchedAt ? new Date(s.fetchedAt).toISOString() : 'earlier'}); ${where} failed: ${s.error ?? 'unknown error'}.`,
      };
    }
    if (s.state === 'none' && (s.error !== undefined || !s.baseUrl)) {
      return {
        range,
        severity: DiagnosticSeverity.Warning,
        source: DIAGNOSTIC_SOURCE,
        code: 'symbols-unavailable',
        message: s.baseUrl
          ? `Symbol rules unknown: ${where} failed (${s.error ?? 'unknown error'}) and no earlier copy is cached. Increments, sizes, funds and trading status are not checked.`
          : 'Symbol rules unknown: no exchange base URL is configured. Increments, sizes, funds and trading status are not checked.',
      };
    }
    return undefined;
  }

  function toDiagnostic(t: TextDocument, i: DocIssue): Diagnostic {
    return {
      range: { start: t.positionAt(i.offset), end: t.positionAt(i.offset + i.length) },
      severity: SEVERITY[i.severity],
      source: DIAGNOSTIC_SOURCE,
      code: i.code,
      message: i.message,
    };
  }

  function analyzeDoc(d: OpenDoc): DocIssue[] {
    if (!d.issues) d.issues = analyze(d.model, rulesContext());
    return d.issues;
  }

  function publish(uri: string, d: OpenDoc): void {
    store?.ensureFresh();
    const issues = analyzeDoc(d);
    const diagnostics = issues.map((i) => toDiagnostic(d.text, i));
    const note = statusDiagnostic(d);
    if (note) diagnostics.unshift(note);
    void connection.sendDiagnostics({ uri, version: d.text.version, diagnostics });
  }

  const market = async (symbol: string, depth?: boolean): Promise<MarketResult> => {
    if (init.market === 'none') return null;
    if (init.market === 'client') return withTimeout(connection.sendRequest<MarketResult>(MARKET_REQUEST, { symbol, ...(depth ? { depth } : {}) } satisfies MarketParams), MARKET_TIMEOUT_MS, 'the editor');
    const url = store?.status().baseUrl;
    if (!url) throw new Error('no exchange base URL is configured');
    return withTimeout(api.market(url, symbol, depth), MARKET_TIMEOUT_MS, `GET ${url}/api/v1/market/${depth ? 'orderbook/level2_20' : 'allTickers'}`);
  };

  connection.onInitialize((params): InitializeResult => {
    init = (params.initializationOptions ?? {}) as InitOptions;
    snippets = params.capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
    lensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    profileName = init.profileName;
    store = new SymbolStore({
      fetchSymbols: (url) => api.symbols(url),
      cacheDir: init.cacheDir ?? options.cacheDir ?? defaultCacheDir(),
      maxAgeMs: init.symbolsMaxAgeMs,
      onChange: () => {
        for (const d of docs.values()) d.issues = undefined;
        scheduleAll();
        if (lensRefresh && init.commands && docs.size > 0) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
      },
      log,
    });
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ['"', ':'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        documentFormattingProvider: true,
        ...(init.commands ? { codeLensProvider: { resolveProvider: false } } : {}),
      },
      serverInfo: { name: 'spotorder-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    const url = init.baseUrl === undefined ? (options.baseUrl ?? DEFAULT_BASE_URL) : init.baseUrl;
    symbols().setBaseUrl(url);
    log(`SpotDesk order-document server: symbols from ${url ?? '(none)'}${profileName ? ` (profile ${profileName})` : ''}`);
  });

  connection.onNotification(PROFILE_NOTIFICATION, (p: ProfileParams) => {
    profileName = p.profileName;
    symbols().setBaseUrl(p.baseUrl);
  });
  connection.onRequest(REFRESH_SYMBOLS_REQUEST, async (): Promise<SymbolsStatus> => {
    await symbols().refresh();
    return symbols().status();
  });
  connection.onRequest(STATUS_REQUEST, (): SymbolsStatus => symbols().status());

  connection.onDidOpenTextDocument(({ textDocument: t }) => {
    const text = TextDocument.create(t.uri, t.languageId, t.version, t.text);
    docs.set(t.uri, { text, model: new OrderDocument(t.text), issues: undefined });
    schedule(t.uri);
  });

  connection.onDidChangeTextDocument(({ textDocument: t, contentChanges }) => {
    const d = docs.get(t.uri);
    if (!d) return;
    for (const c of contentChanges) {
      if ('range' in c) {
        const start = d.text.offsetAt(c.range.start);
        const end = d.text.offsetAt(c.range.end);
        TextDocument.update(d.text, [c], t.version);
        d.model.update([{ start, end, text: c.text }]);
      } else {
        TextDocument.update(d.text, [c], t.version);
        d.model.setText(c.text);
      }
    }
    d.issues = undefined;
    schedule(t.uri);
  });

  connection.onDidCloseTextDocument(({ textDocument: t }) => {
    docs.delete(t.uri);
    pending.delete(t.uri);
    void connection.sendDiagnostics({ uri: t.uri, diagnostics: [] });
  });

  connection.onCompletion(({ textDocument, position }) => {
    const d = docs.get(textDocument.uri);
    if (!d) return [];
    return completeAt(d.model, d.text.offsetAt(position), { symbols: store?.map, snippets }).map((c) => ({
      ...c.item,
      textEdit: { range: { start: d.text.positionAt(c.offset), end: d.text.positionAt(c.offset + c.length) }, newText: c.newText },
    }));
  });

  connection.onHover(async ({ textDocument, position }) => {
    const d = docs.get(textDocument.uri);
    if (!d || !store) return null;
    const h = await hoverAt(d.model, d.text.offsetAt(position), { symbols: store.map, status: store.status(), market });
    if (!h) return null;
    return { contents: { kind: 'markdown', value: h.markdown }, range: { start: d.text.positionAt(h.offset), end: d.text.positionAt(h.offset + h.length) } };
  });

  connection.onCodeAction(({ textDocument, range }): CodeAction[] => {
    const d = docs.get(textDocument.uri);
    if (!d) return [];
    const from = d.text.offsetAt(range.start);
    const to = d.text.offsetAt(range.end);
    const issues = analyzeDoc(d).filter((i) => i.offset <= to && i.offset + i.length >= from);
    return fixesFor(d.model, issues, store?.map).map((f) => ({
      title: f.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [toDiagnostic(d.text, f.issue)],
      ...(f.preferred ? { isPreferred: true } : {}),
      edit: {
        changes: {
          [textDocument.uri]: f.edits.map((e): TextEdit => ({ range: { start: d.text.positionAt(e.offset), end: d.text.positionAt(e.offset + e.length) }, newText: e.newText })),
        },
      },
    }));
  });

  connection.onCodeLens(({ textDocument }): CodeLens[] => {
    const d = docs.get(textDocument.uri);
    const cmds = init.commands;
    if (!d || !cmds) return [];
    const ctx = rulesContext();
    const lenses: CodeLens[] = [];
    for (const e of d.model.orders) {
      if (!e.value) continue;
      const pos = d.text.positionAt(d.model.start(e));
      const range: Range = { start: pos, end: pos };
      const errors = orderErrorCount(d.model, e, ctx);
      const kind = orderKind(e.value);
      const label = `${String(e.value.side ?? '?')} ${String(e.value.symbol ?? '?')}${kind === 'oco' ? ' OCO' : kind === 'stop' ? ' stop' : ''}`;
      const args = [textDocument.uri, e.index];
      // A stop or OCO order has no test endpoint of its own: the editor tests the limit or market order(s) it
      // becomes (POST /api/v1/hf/orders/test) and places it with its own endpoint; the request builder's
      // signature view is for HF orders.
      const test =
        kind === 'order'
          ? `POST /api/v1/hf/orders/test for order #${e.index + 1} (${label})`
          : `Test order #${e.index + 1} (${label}): POST /api/v1/hf/orders/test of the ${kind === 'oco' ? 'two limit orders its legs become' : 'order it becomes'}; the trigger is checked locally`;
      const place =
        kind === 'order'
          ? `Place order #${e.index + 1} (${label}) for real: the request builder validates it and asks you to confirm first`
          : `Place order #${e.index + 1} (${label}) for real with POST ${kind === 'oco' ? '/api/v3/oco/order' : '/api/v1/stop-order'}: validated locally, then you confirm first`;
      lenses.push({ range, command: { title: errors ? `$(beaker) Test order (${errors} local error${errors > 1 ? 's' : ''})` : '$(beaker) Test order', tooltip: test, command: cmds.testOrder, arguments: args } });
      if (kind === 'order') {
        lenses.push({ range, command: { title: '$(key) Show signature', tooltip: 'Open the request builder on this order: prehash, body bytes and KC-API-* headers', command: cmds.showSignature, arguments: args } });
      }
      lenses.push({ range, command: { title: '$(rocket) Place order…', tooltip: place, command: cmds.placeOrder, arguments: args } });
    }
    return lenses;
  });

  connection.onDocumentFormatting(({ textDocument, options: fmt }): TextEdit[] => {
    const d = docs.get(textDocument.uri);
    if (!d) return [];
    return formatJson(d.model.text, undefined, { tabSize: fmt.tabSize, insertSpaces: fmt.insertSpaces, eol: '\n' }).map((e) => ({
      range: { start: d.text.positionAt(e.offset), end: d.text.positionAt(e.offset + e.length) },
      newText: e.content,
    }));
  });

  connection.onShutdown(() => api.dispose());
  connection.listen();
}
