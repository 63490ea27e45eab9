/**
 * The request-builder webview panel (command `spotdesk.openRequestBuilder`), hosted by the shared
 * {@link WebviewHost} (src/host/webviewHost.ts): strict CSP with a nonce
 * (src/features/requestBuilder/page.ts), `localResourceRoots` limited to the built bundle folder and
 * media/, every message validated with the protocol on receipt, kept alive while hidden. The secret
 * stays in the extension: the webview gets redacted headers. The message handling is
 * {@link RequestBuilderSession} (vscode-free, shared with the Chromium harness).
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { REQUEST_BUILDER_PAGE } from '../page';
import { emptyDraft, REQUEST_BUILDER_PROTOCOL, type OrderDraft } from '../protocol';
import type { Services } from '../../../host/services';
import { WebviewHost, type WebviewKind } from '../../../host/webviewHost';
import { RequestBuilderSession, type AfterLoad, type RequestBuilderController } from '../controller';

/** The request builder webview: one panel, kept alive while hidden (the form keeps its state). */
export const REQUEST_BUILDER_KIND: WebviewKind<typeof REQUEST_BUILDER_PROTOCOL> = {
  viewType: 'spotdesk.requestBuilder',
  name: 'request builder',
  page: REQUEST_BUILDER_PAGE,
  protocol: REQUEST_BUILDER_PROTOCOL,
  retainContextWhenHidden: true,
};

/** One request-builder panel (a singleton: opening again reveals it). */
export class RequestBuilderPanel implements vscode.Disposable {
  private static current: RequestBuilderPanel | undefined;
  /** The session behind the webview (host tests drive it with `session.handle(msg)`). */
  readonly session: RequestBuilderSession;
  /** Fires once when the panel is closed. */
  readonly onDidDispose: vscode.Event<void>;

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
      existing.host.reveal(vscode.ViewColumn.Active);
      if (draft) void existing.session.load(draft, then);
      return existing;
    }
    const host = WebviewHost.open({ extensionUri, log: services.log }, REQUEST_BUILDER_KIND, 'SpotDesk: Request Builder');
    const p = new RequestBuilderPanel(host, services, controller, draft, then);
    RequestBuilderPanel.current = p;
    return p;
  }

  private constructor(
    readonly host: WebviewHost<typeof REQUEST_BUILDER_PROTOCOL>,
    services: Services,
    controller: RequestBuilderController,
    draft: OrderDraft | undefined,
    then: AfterLoad,
  ) {
    this.onDidDispose = host.onDidDispose;
    this.session = new RequestBuilderSession(
      controller,
      {
        post: (msg) => host.post(msg),
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
    host.track(
      host.onReady(() => void this.session.handle({ type: 'ready' })),
      host.onMessage((msg) => void this.session.handle(msg)),
      host.onDidDispose(() => {
        if (RequestBuilderPanel.current === this) RequestBuilderPanel.current = undefined;
      }),
      services.onDidChangeProfile(() => void this.session.profileChanged()),
    );
  }

  /** The webview panel. */
  get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  /** Close the panel. */
  dispose(): void {
    this.host.dispose();
  }
}
