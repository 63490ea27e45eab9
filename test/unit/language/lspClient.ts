/**
 * A JSON-RPC client of the order-document language server for the unit tests: builds the server
 * bundle exactly like esbuild.js's `language-server` target into a temporary directory, spawns it
 * with `--stdio` and speaks LSP to it over the process's stdin/stdout (vscode-languageserver's
 * protocol connection). Tests see only what the protocol carries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleNodeEntry } from '../server/helpers';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type Hover,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
  type TextEdit,
} from 'vscode-languageserver/node';
import type { InitOptions, MarketResult, SymbolsStatus } from '../../../src/language/protocol';

let bundle: Promise<string> | undefined;

/** Build dist-equivalent `spotorder-language-server.js` once per test run; returns its path. */
export function buildServer(): Promise<string> {
  return (bundle ??= bundleNodeEntry('src/language/main.ts', path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lsp-build-')), 'spotorder-language-server.js')));
}

/** Options of {@link startLsp}. */
export interface StartOptions {
  init?: InitOptions;
  /** Extra command-line arguments after `--stdio`. */
  args?: string[];
  /** Answers `spotdesk/market` requests (when init.market is 'client'). */
  market?: (symbol: string, depth?: boolean) => MarketResult | Promise<MarketResult>;
  /** Advertise snippet support in completion (default false: plain text is easier to assert). */
  snippets?: boolean;
}

/** A running server and the client side of its connection. */
export class LspSession {
  private readonly diags = new Map<string, PublishDiagnosticsParams[]>();
  private readonly waiters: Array<() => void> = [];
  readonly logs: string[] = [];
  readonly marketRequests: string[] = [];
  /** How many `workspace/codeLens/refresh` requests the server sent. */
  lensRefreshes = 0;
  private versions = new Map<string, number>();
  private texts = new Map<string, string>();

  constructor(
    readonly proc: ChildProcess,
    readonly conn: ProtocolConnection,
    readonly initResult: InitializeResult,
  ) {}

  /** @internal */
  onDiagnostics(p: PublishDiagnosticsParams): void {
    const list = this.diags.get(p.uri) ?? [];
    list.push(p);
    this.diags.set(p.uri, list);
    for (const w of this.waiters.splice(0)) w();
  }

  /** Every publishDiagnostics received for `uri`, oldest first. */
  published(uri: string): PublishDiagnosticsParams[] {
    return this.diags.get(uri) ?? [];
  }

  /** Resolve with the first published diagnostics of `uri` that satisfy `pred` (checks those already received). */
  waitForDiagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean, timeoutMs = 15_000): Promise<Diagnostic[]> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching diagnostics for ${uri} within ${timeoutMs} ms; last: ${JSON.stringify(this.published(uri).at(-1))}`)), timeoutMs);
      const check = () => {
        const hit = this.published(uri).find(pred);
        if (hit) {
          clearTimeout(t);
          resolve(hit.diagnostics);
          return;
        }
        this.waiters.push(check);
      };
      check();
    });
  }

  /** Diagnostics published for the current version of `uri` (waits for them). */
  diagnosticsNow(uri: string): Promise<Diagnostic[]> {
    const v = this.versions.get(uri);
    return this.waitForDiagnostics(uri, (p) => p.version === v && this.published(uri).at(-1) === p);
  }

  /** The text the client holds for `uri`. */
  text(uri: string): string {
    return this.texts.get(uri) ?? '';
  }

  /** textDocument/didOpen (languageId spotorder, version 1). */
  open(uri: string, text: string): void {
    this.versions.set(uri, 1);
    this.texts.set(uri, text);
    void this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'spotorder', version: 1, text } });
  }

  /** textDocument/didChange with one incremental change (the client-side text is updated too). */
  change(uri: string, range: Range, newText: string): number {
    const v = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, v);
    this.texts.set(uri, applyEdits(this.text(uri), [{ range, newText }]));
    void this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ range, text: newText }] });
    return v;
  }

  /** Apply edits (e.g. of a code action) as one didChange per edit, last first. */
  applyEdits(uri: string, edits: TextEdit[]): void {
    const sorted = [...edits].sort((a, b) => offsetOf(this.text(uri), b.range.start) - offsetOf(this.text(uri), a.range.start));
    for (const e of sorted) this.change(uri, e.range, e.newText);
  }

  /** textDocument/didClose. */
  close(uri: string): void {
    void this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async completion(uri: string, offset: number): Promise<CompletionItem[]> {
    const r = await this.conn.sendRequest<CompletionItem[] | CompletionList | null>('textDocument/completion', { textDocument: { uri }, position: positionOf(this.text(uri), offset) });
    return Array.isArray(r) ? r : (r?.items ?? []);
  }

  hover(uri: string, offset: number): Promise<Hover | null> {
    return this.conn.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(this.text(uri), offset) });
  }

  async codeActions(uri: string, from: number, to: number = from, diagnostics: Diagnostic[] = []): Promise<CodeAction[]> {
    const range = { start: positionOf(this.text(uri), from), end: positionOf(this.text(uri), to) };
    return (await this.conn.sendRequest<CodeAction[] | null>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics } })) ?? [];
  }

  async codeLenses(uri: string): Promise<CodeLens[]> {
    return (await this.conn.sendRequest<CodeLens[] | null>('textDocument/codeLens', { textDocument: { uri } })) ?? [];
  }

  status(): Promise<SymbolsStatus> {
    return this.conn.sendRequest<SymbolsStatus>('spotdesk/status');
  }

  refreshSymbols(): Promise<SymbolsStatus> {
    return this.conn.sendRequest<SymbolsStatus>('spotdesk/refreshSymbols');
  }

  /** shutdown + exit; resolves when the process ended. */
  async stop(): Promise<void> {
    const ended = new Promise<void>((r) => (this.proc.exitCode !== null ? r() : this.proc.once('exit', () => r())));
    try {
      await this.conn.sendRequest('shutdown');
      void this.conn.sendNotification('exit');
    } catch {
      this.proc.kill();
    }
    await ended;
    this.conn.dispose();
  }
}

/** Position (line, UTF-16 character) of `offset` in `text`. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

/** Offset of a position in `text`. */
export function offsetOf(text: string, pos: { line: number; character: number }): number {
  let off = 0;
  for (let l = 0; l < pos.line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return off + pos.character;
}

/** The text of `range` in `text`. */
export function textOf(text: string, range: Range): string {
  return text.slice(offsetOf(text, range.start), offsetOf(text, range.end));
}

/** Apply non-overlapping edits to `text`. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offsetOf(out, e.range.start)) + e.newText + out.slice(offsetOf(out, e.range.end));
  return out;
}

/** Spawn the server (`--stdio`), initialize it and return the session. */
export async function startLsp(opts: StartOptions = {}): Promise<LspSession> {
  const server = await buildServer();
  const proc = spawn(process.execPath, [server, '--stdio', ...(opts.args ?? [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  proc.stderr!.on('data', (b: Buffer) => stderr.push(b.toString()));
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const ref: { session?: LspSession } = {};
  const early: PublishDiagnosticsParams[] = [];
  const logs: string[] = [];
  const marketRequests: string[] = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (ref.session) ref.session.onDiagnostics(p);
    else early.push(p);
  });
  conn.onNotification('window/logMessage', (p: { message: string }) => {
    (ref.session ? ref.session.logs : logs).push(p.message);
  });
  conn.onRequest('spotdesk/market', async (p: { symbol: string; depth?: boolean }) => {
    (ref.session ? ref.session.marketRequests : marketRequests).push(p.symbol);
    if (!opts.market) throw new Error('no market in this test');
    return opts.market(p.symbol, p.depth);
  });
  conn.onRequest('workspace/codeLens/refresh', () => {
    if (ref.session) ref.session.lensRefreshes++;
    return null;
  });
  conn.listen();
  const initResult = await conn.sendRequest<InitializeResult>('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: { textDocument: { completion: { completionItem: { snippetSupport: opts.snippets === true } } }, workspace: { codeLens: { refreshSupport: true } } },
    initializationOptions: opts.init ?? {},
  });
  void conn.sendNotification('initialized', {});
  const session = new LspSession(proc, conn, initResult);
  ref.session = session;
  session.logs.push(...logs);
  for (const p of early) session.onDiagnostics(p);
  proc.once('exit', (code) => {
    if (code && code !== 0) console.error(`language server exited with ${code}: ${stderr.join('')}`);
  });
  return session;
}
