/**
 * The funding webview panel (one at a time, reused), hosted by the shared {@link WebviewHost}
 * (src/extension/webviewHost.ts): shows a created deposit address with copy buttons. Copying goes
 * through `vscode.env.clipboard` on the extension side, with the address of the panel's own view
 * (the webview only names the field). Panels are kept in the funding feature's {@link PanelSet}
 * (./index.ts), disposed with the extension.
 */
import * as vscode from 'vscode';
import { FUNDING_PAGE } from '../../shared/funding/html';
import { FUNDING_PROTOCOL } from '../../shared/funding/protocol';
import type { DepositAddressView } from '../../shared/funding/summary';
import { WebviewHost, type HostEnv, type PanelSet, type WebviewKind } from '../webviewHost';

/** The funding webview: not kept alive while hidden (it is re-created and re-sent its view). */
export const FUNDING_KIND: WebviewKind<typeof FUNDING_PROTOCOL> = {
  viewType: 'spotdesk.funding',
  name: 'funding',
  page: FUNDING_PAGE,
  protocol: FUNDING_PROTOCOL,
};

/** The single funding panel. */
export class FundingPanel implements vscode.Disposable {
  private view: DepositAddressView | undefined;
  /** Fires once when the panel is closed. */
  readonly onDidDispose: vscode.Event<void>;

  private constructor(readonly host: WebviewHost<typeof FUNDING_PROTOCOL>) {
    this.onDidDispose = host.onDidDispose;
    host.track(
      host.onReady(() => {
        if (this.view) this.host.post({ type: 'deposit', view: this.view });
      }),
      host.onMessage(async (m) => {
        if (m.type !== 'copy' || !this.view) return;
        const text = m.field === 'address' ? this.view.address : this.view.memo;
        if (!text) return;
        await vscode.env.clipboard.writeText(text);
        this.host.post({ type: 'copied', field: m.field });
      }),
    );
  }

  /** The panel, created or revealed, titled `title`. */
  private static show(env: HostEnv, panels: PanelSet<string, FundingPanel>, title: string): FundingPanel {
    let p = panels.get('');
    if (!p) {
      p = panels.add('', new FundingPanel(WebviewHost.open(env, FUNDING_KIND, title)));
    } else {
      p.host.title = title;
      p.host.reveal();
    }
    return p;
  }

  /** Show a deposit address in a panel of `panels`. */
  static showDeposit(env: HostEnv, panels: PanelSet<string, FundingPanel>, view: DepositAddressView): FundingPanel {
    const p = FundingPanel.show(env, panels, `Deposit ${view.currency} (${view.chain})`);
    p.view = view;
    // A webview that is not ready yet gets the view from the onReady handler.
    if (p.host.ready) p.host.post({ type: 'deposit', view });
    return p;
  }

  /** Close the panel. */
  dispose(): void {
    this.host.dispose();
  }
}
