/**
 * The funding webview panel (one at a time, reused): shows a created deposit address with copy
 * buttons. Copying goes through `vscode.env.clipboard` on the extension
 * side. Messages from the webview are checked with `isFundingToHost`.
 */
import * as vscode from 'vscode';
import { fundingHtml } from '../../shared/funding/html';
import { makeNonce } from '../../shared/webviewHtml';
import { isFundingToHost, type HostToFunding } from '../../shared/funding/protocol';
import type { DepositAddressView } from '../../shared/funding/summary';

/** The single funding panel. */
export class FundingPanel {
  private static current: FundingPanel | undefined;
  private ready = false;
  private pending: HostToFunding | undefined;
  private view: DepositAddressView | undefined;

  private constructor(private readonly panel: vscode.WebviewPanel, extensionUri: vscode.Uri) {
    const webview = panel.webview;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'funding.js'));
    webview.html = fundingHtml({ cspSource: webview.cspSource, nonce: makeNonce(), scriptUri: script.toString() });
    webview.onDidReceiveMessage(async (m: unknown) => {
      if (!isFundingToHost(m)) return;
      if (m.type === 'ready') {
        this.ready = true;
        if (this.pending) void webview.postMessage(this.pending);
        this.pending = undefined;
      } else if (m.type === 'copy' && this.view) {
        const text = m.field === 'address' ? this.view.address : this.view.memo;
        if (text) {
          await vscode.env.clipboard.writeText(text);
          void webview.postMessage({ type: 'copied', field: m.field } satisfies HostToFunding);
        }
      }
    });
    panel.onDidDispose(() => {
      if (FundingPanel.current === this) FundingPanel.current = undefined;
    });
  }

  /** Show (creating or revealing) the panel with `msg`. */
  static show(extensionUri: vscode.Uri, msg: HostToFunding, title: string): FundingPanel {
    let p = FundingPanel.current;
    if (!p) {
      const panel = vscode.window.createWebviewPanel('spotdesk.funding', title, vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
      });
      p = FundingPanel.current = new FundingPanel(panel, extensionUri);
    } else {
      p.panel.title = title;
      p.panel.reveal();
    }
    p.post(msg);
    return p;
  }

  /** Show a deposit address. */
  static showDeposit(extensionUri: vscode.Uri, view: DepositAddressView): FundingPanel {
    const p = FundingPanel.show(extensionUri, { type: 'deposit', view }, `Deposit ${view.currency} (${view.chain})`);
    p.view = view;
    return p;
  }

  private post(msg: HostToFunding): void {
    if (this.ready) void this.panel.webview.postMessage(msg);
    else this.pending = msg;
  }
}
