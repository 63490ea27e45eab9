/**
 * The request-builder webview panel (command `spotdesk.openRequestBuilder`).
 *
 * Webview standards: strict CSP (src/shared/requestBuilder/html.ts: `default-src 'none'`, the
 * one script by nonce, styles only from the extension's resources, `connect-src 'none'`),
 * `localResourceRoots` limited to the built bundle folder and media/, no inline handlers, every
 * message validated with the protocol's zod schemas on receipt. The secret stays in the
 * extension: the webview gets redacted headers. The message handling is
 * {@link RequestBuilderSession} (vscode-free, shared with the Chromium harness).
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { panelHtml } from '../../shared/requestBuilder/html';
import { makeNonce } from '../../shared/webviewHtml';
import { emptyDraft, parseToExtension, type OrderDraft } from '../../shared/requestBuilder/protocol';
import type { Services } from '../services';
import { RequestBuilderSession, type AfterLoad, type RequestBuilderController } from './controller';

/** One request-builder panel (a singleton: opening again reveals it). */
export class RequestBuilderPanel implements vscode.Disposable {
  private static current: RequestBuilderPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The session behind the webview (host tests drive it with `session.handle(msg)`). */
  readonly session: RequestBuilderSession;

  /** The open panel, if any. */
  static get instance(): RequestBuilderPanel | undefined {
    return RequestBuilderPanel.current;
  }

  /**
   * Open (or reveal) the panel. With `draft` the form is replaced by it (order documents); `then`
   * runs the order test, or places the order through the guarded path (validation + modal
   * confirmation), once the webview is ready.
   */
  static show(extensionUri: vscode.Uri, services: Services, controller: RequestBuilderController, draft?: OrderDraft, then?: AfterLoad): RequestBuilderPanel {
    const existing = RequestBuilderPanel.current;
    if (existing) {
      existing.panel.reveal(vscode.ViewColumn.Active);
      if (draft) void existing.session.load(draft, then);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel('spotdesk.requestBuilder', 'SpotDesk: Request Builder', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    });
    const p = new RequestBuilderPanel(panel, extensionUri, services, controller, draft, then);
    RequestBuilderPanel.current = p;
    return p;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    services: Services,
    controller: RequestBuilderController,
    draft: OrderDraft | undefined,
    then: AfterLoad,
  ) {
    this.session = new RequestBuilderSession(
      controller,
      {
        post: (msg) => void panel.webview.postMessage(msg),
        writeClipboard: async (text) => vscode.env.clipboard.writeText(text),
        profile: () => {
          const p = services.profile();
          return { name: p.name, sandbox: p.sandbox };
        },
        warn: (line) => services.log.warn(line),
      },
      draft ?? emptyDraft('', randomBytes(16).toString('hex')),
      draft !== undefined,
      then,
    );
    const webview = panel.webview;
    const nonce = makeNonce();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'request-builder.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'request-builder.css')).toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => {
        const msg = parseToExtension(m);
        if (!msg) {
          services.log.warn('request builder: ignored a malformed webview message');
          return;
        }
        void this.session.handle(msg);
      }),
      panel.onDidDispose(() => this.dispose()),
      services.onDidChangeProfile(() => void this.session.profileChanged()),
    );
  }

  /** Close the panel. */
  dispose(): void {
    if (RequestBuilderPanel.current === this) RequestBuilderPanel.current = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
