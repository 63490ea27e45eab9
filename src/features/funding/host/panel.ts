/**
 * The funding webview panels, hosted by the shared {@link WebviewHost} (src/host/webviewHost.ts):
 * one tab per deposit address (a new address never replaces another's tab; the same address again
 * reveals its tab), with copy buttons and QR codes. Copying goes
 * through `vscode.env.clipboard` on the extension side, with the address of the panel's own view
 * (the webview only names the field). Panels are kept in the funding feature's {@link PanelSet}
 * (./index.ts), disposed with the extension.
 */
import * as vscode from 'vscode';
import { FUNDING_PAGE } from '../page';
import { FUNDING_PROTOCOL } from '../protocol';
import type { DepositAddressView } from '../model/summary';
import { WebviewHost, type HostEnv, type PanelSet, type WebviewKind } from '../../../host/webviewHost';
import { COMMANDS } from '../../../host/commandIds';

/** The funding webview: not kept alive while hidden (it is re-created and re-sent its view). */
export const FUNDING_KIND: WebviewKind<typeof FUNDING_PROTOCOL> = {
  viewType: 'spotdesk.funding',
  name: 'funding',
  page: FUNDING_PAGE,
  protocol: FUNDING_PROTOCOL,
};

/** Key of a deposit address's tab: currency, chain, address and memo. */
export function depositKey(v: DepositAddressView): string {
  return [v.currency, v.chainId ?? v.chain, v.address, v.memo].join('\u0000');
}

/** One deposit-address panel. */
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
        if (m.type === 'simulateDeposit') {
          // The panel's own view names the currency and chain, never the message.
          if (this.view?.simulated) await vscode.commands.executeCommand(COMMANDS.simulateDeposit, { currency: this.view.currency, chain: this.view.chainId ?? this.view.chain });
          return;
        }
        if (m.type !== 'copy' || !this.view) return;
        const text = m.field === 'address' ? this.view.address : this.view.memo;
        if (!text) return;
        await vscode.env.clipboard.writeText(text);
        this.host.post({ type: 'copied', field: m.field });
      }),
    );
  }

  /** Show a deposit address: its own tab in `panels` (revealed when it is already open). */
  static showDeposit(env: HostEnv, panels: PanelSet<string, FundingPanel>, view: DepositAddressView): FundingPanel {
    const key = depositKey(view);
    let p = panels.get(key);
    if (p) p.host.reveal();
    else p = panels.add(key, new FundingPanel(WebviewHost.open(env, FUNDING_KIND, `Deposit ${view.currency} (${view.chain})`)));
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
