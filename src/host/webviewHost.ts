/**
 * The one webview panel host of SpotDesk (after GitLens's WebviewController): every panel — order
 * book, request builder, funding — is a {@link WebviewHost}, which owns
 *
 * - the page: strict CSP with a fresh nonce per load (src/webviewBridge/html.ts `renderPage` of the
 *   webview's {@link WebviewPageSpec}), `localResourceRoots` limited to dist/webview and media/, no
 *   command URIs;
 * - the ready handshake and the queue: messages posted before the webview said `ready` (or while a
 *   hidden webview without `retainContextWhenHidden` is gone) are queued and delivered, in order,
 *   when it says `ready` again; then {@link onReady} fires so the owner can send its state;
 * - the load watchdog: a page that does not say `ready` in time is loaded again, then the person is
 *   told what to do ({@link READY_TIMEOUT_MS});
 * - validation: every message from the webview is checked with the protocol's `parseToHost`
 *   (src/webviewBridge/protocol.ts); an invalid one is logged and dropped;
 * - disposal: when the panel closes or the host is disposed, {@link onDidDispose} fires once, then
 *   the panel's own listeners and whatever the owner {@link track}s are disposed.
 *
 * Panels of one kind are kept in a {@link PanelSet}, which each feature disposes with the
 * extension (so no panel outlives it).
 */
import * as vscode from 'vscode';
import { makeNonce, renderPage, type WebviewPageSpec } from '../webviewBridge/html';
import type { AnyProtocol, ToHost, ToWebview } from '../webviewBridge/protocol';

/** Most messages kept while the webview is not ready (the oldest are dropped beyond it). */
export const MAX_QUEUED = 200;
/**
 * How long a visible webview may take to say `ready` before its page is loaded again (fresh nonce), ms; after
 * {@link MAX_PAGE_LOADS} loads the person is told to reopen the panel or reload the window. VS Code's webviews
 * in a browser (code-server, vscode.dev) sometimes never run their page when the webview service worker
 * misbehaves (microsoft/vscode#125993); setting the HTML again loads it afresh.
 */
export const READY_TIMEOUT_MS = 8_000;
/** Page loads tried for one showing of a panel before the person is told it did not load. */
export const MAX_PAGE_LOADS = 3;

/** The messages a host hands to its owner: every webview → extension message but `ready`. */
export type OwnerMessage<P extends AnyProtocol> = Exclude<ToHost<P>, { readonly type: 'ready' }>;

/** What kind of webview a host shows: its view type, page and protocol. */
export interface WebviewKind<P extends AnyProtocol> {
  /** `WebviewPanel.viewType` (also the serializer key of restorable panels). */
  readonly viewType: string;
  /** Short name used in log lines, e.g. "order book". */
  readonly name: string;
  readonly page: WebviewPageSpec;
  readonly protocol: P;
  /** Keep the webview alive while hidden (default false: it is re-created and says `ready` again). */
  readonly retainContextWhenHidden?: boolean;
}

/** What every host needs from the extension. */
export interface HostEnv {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** Starts the load watchdog's timer (default `setTimeout`; unit tests pass a manual clock). */
  readonly setTimer?: (fire: () => void, ms: number) => vscode.Disposable;
}

function defaultTimer(fire: () => void, ms: number): vscode.Disposable {
  const t = setTimeout(fire, ms);
  return { dispose: () => clearTimeout(t) };
}

/** Folders a SpotDesk webview may load from: dist/webview (bundles) and media (stylesheets). */
export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Webview options: scripts on, resources limited to {@link localResourceRoots}, no command URIs. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: localResourceRoots(extensionUri) };
}

/** One webview panel of kind `P` (see the module docs). */
export class WebviewHost<P extends AnyProtocol> implements vscode.Disposable {
  private isReady = false;
  private isDisposed = false;
  private wasVisible: boolean;
  private readonly queue: ToWebview<P>[] = [];
  /** Pages loaded since the panel was last shown without saying `ready` (the watchdog's count). */
  private loads = 1;
  private watchdog: vscode.Disposable | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private readonly owned: vscode.Disposable[] = [];
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private readonly messageEmitter = new vscode.EventEmitter<OwnerMessage<P>>();
  private readonly visibilityEmitter = new vscode.EventEmitter<boolean>();
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** Fires each time the webview (re)loaded and said `ready`, after the queue was delivered. */
  readonly onReady = this.readyEmitter.event;
  /** Every valid message from the webview except `ready`. */
  readonly onMessage = this.messageEmitter.event;
  /** Fires when the panel becomes visible (true) or hidden (false); not on focus-only changes. */
  readonly onDidChangeVisibility = this.visibilityEmitter.event;
  /** Fires once, when the panel is closed or the host disposed. */
  readonly onDidDispose = this.disposeEmitter.event;

  /** Open a new panel of `kind` titled `title` in `column` (default: the active one). */
  static open<P extends AnyProtocol>(env: HostEnv, kind: WebviewKind<P>, title: string, column: vscode.ViewColumn = vscode.ViewColumn.Active): WebviewHost<P> {
    const panel = vscode.window.createWebviewPanel(kind.viewType, title, column, {
      ...webviewOptions(env.extensionUri),
      retainContextWhenHidden: kind.retainContextWhenHidden === true,
    });
    return new WebviewHost(panel, env, kind);
  }

  /** Host a panel VS Code restored (WebviewPanelSerializer): options and HTML are set again. */
  static adopt<P extends AnyProtocol>(env: HostEnv, kind: WebviewKind<P>, panel: vscode.WebviewPanel): WebviewHost<P> {
    panel.webview.options = webviewOptions(env.extensionUri);
    return new WebviewHost(panel, env, kind);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly env: HostEnv,
    readonly kind: WebviewKind<P>,
  ) {
    this.wasVisible = panel.visible;
    this.subs.push(
      this.readyEmitter,
      this.messageEmitter,
      this.visibilityEmitter,
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidChangeViewState(() => this.viewStateChanged()),
      panel.onDidDispose(() => this.dispose()),
    );
    panel.webview.html = this.html();
    this.watch();
  }

  /** (Re)start the load watchdog when the panel is visible and the webview has not said `ready`. */
  private watch(): void {
    this.watchdog?.dispose();
    this.watchdog = undefined;
    if (this.isDisposed || this.isReady || !this.panel.visible) return;
    this.watchdog = (this.env.setTimer ?? defaultTimer)(() => this.loadTimedOut(), READY_TIMEOUT_MS);
  }

  private loadTimedOut(): void {
    this.watchdog = undefined;
    if (this.isDisposed || this.isReady || !this.panel.visible) return;
    const seconds = READY_TIMEOUT_MS / 1000;
    if (this.loads < MAX_PAGE_LOADS) {
      this.loads++;
      this.env.log.warn(`${this.kind.name}: the webview did not say ready within ${seconds} s; loading its page again (load ${this.loads} of ${MAX_PAGE_LOADS})`);
      this.panel.webview.html = this.html();
      this.watch();
      return;
    }
    this.env.log.error(`${this.kind.name}: the webview did not say ready after ${MAX_PAGE_LOADS} page loads of ${seconds} s each`);
    const reload = 'Reload Window';
    void vscode.window
      .showErrorMessage(
        `SpotDesk: the ${this.kind.name} panel did not load (its page never started, ${MAX_PAGE_LOADS} tries). Close the panel and open it again; if it stays blank, reload the window.`,
        reload,
      )
      .then((pick) => (pick === reload ? vscode.commands.executeCommand('workbench.action.reloadWindow') : undefined));
  }

  /** The page with a fresh nonce. */
  private html(): string {
    const w = this.panel.webview;
    return renderPage(this.kind.page, {
      cspSource: w.cspSource,
      nonce: makeNonce(),
      uri: (folder, file) => w.asWebviewUri(vscode.Uri.joinPath(this.env.extensionUri, ...folder.split('/'), file)).toString(),
    });
  }

  /** Whether the webview has said `ready` and is alive. */
  get ready(): boolean {
    return this.isReady;
  }

  /** Whether the panel is visible. */
  get visible(): boolean {
    return !this.isDisposed && this.panel.visible;
  }

  /** Whether the host has been disposed (the panel is closed). */
  get disposed(): boolean {
    return this.isDisposed;
  }

  /** The panel's title. */
  get title(): string {
    return this.panel.title;
  }

  set title(t: string) {
    if (!this.isDisposed) this.panel.title = t;
  }

  /** Post `msg` now when the webview is ready, else queue it (at most {@link MAX_QUEUED}). */
  post(msg: ToWebview<P>): void {
    if (this.isDisposed) return;
    if (!this.isReady) {
      this.queue.push(msg);
      if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
      return;
    }
    void this.panel.webview.postMessage(msg).then(undefined, () => undefined);
  }

  /** Reveal the panel (in `column`, default its own). */
  reveal(column?: vscode.ViewColumn, preserveFocus = false): void {
    if (!this.isDisposed) this.panel.reveal(column, preserveFocus);
  }

  /** Dispose `disposables` together with this host. */
  track(...disposables: vscode.Disposable[]): void {
    if (this.isDisposed) for (const d of disposables) d.dispose();
    else this.owned.push(...disposables);
  }

  private receive(raw: unknown): void {
    const msg = this.kind.protocol.parseToHost(raw) as ToHost<P> | undefined;
    if (!msg) {
      this.env.log.warn(`${this.kind.name}: ignored an invalid message from the webview (${this.kind.protocol.explainToHost(raw)})`);
      return;
    }
    if (msg.type !== 'ready') {
      this.messageEmitter.fire(msg as OwnerMessage<P>);
      return;
    }
    this.isReady = true;
    this.watchdog?.dispose();
    this.watchdog = undefined;
    if (this.loads > 1) this.env.log.info(`${this.kind.name}: the webview said ready on page load ${this.loads}`);
    this.loads = 1;
    for (const m of this.queue.splice(0)) void this.panel.webview.postMessage(m).then(undefined, () => undefined);
    this.readyEmitter.fire();
  }

  private viewStateChanged(): void {
    if (this.isDisposed) return;
    const visible = this.panel.visible;
    if (visible === this.wasVisible) return; // a focus-only change
    this.wasVisible = visible;
    // Without retainContextWhenHidden the webview is destroyed while hidden and reloads when shown.
    if (!visible && !this.kind.retainContextWhenHidden) this.isReady = false;
    this.loads = 1;
    this.watch();
    this.visibilityEmitter.fire(visible);
  }

  /** Close the panel and release everything the host and its owner registered (once). */
  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.isReady = false;
    this.queue.length = 0;
    this.watchdog?.dispose();
    this.watchdog = undefined;
    this.disposeEmitter.fire();
    for (const d of [...this.owned.splice(0), ...this.subs.splice(0)]) d.dispose();
    this.disposeEmitter.dispose();
    this.panel.dispose();
  }
}

/**
 * The open panels of one kind, by key (symbol, address…): a panel leaves the set when it is
 * disposed; disposing the set disposes every panel (features push their set to
 * `context.subscriptions`, so no panel outlives the extension).
 */
export class PanelSet<K, T extends vscode.Disposable & { readonly onDidDispose: vscode.Event<void> }> implements vscode.Disposable {
  private readonly map = new Map<K, T>();

  /** The panel under `key`, if open. */
  get(key: K): T | undefined {
    return this.map.get(key);
  }

  /** Add `panel` under `key` (it leaves the set when disposed). Returns it. */
  add(key: K, panel: T): T {
    this.map.set(key, panel);
    panel.onDidDispose(() => {
      if (this.map.get(key) === panel) this.map.delete(key);
    });
    return panel;
  }

  /** The open panels. */
  values(): T[] {
    return [...this.map.values()];
  }

  /** Number of open panels. */
  get size(): number {
    return this.map.size;
  }

  /** Dispose every panel. */
  dispose(): void {
    for (const p of [...this.map.values()]) p.dispose();
    this.map.clear();
  }
}
