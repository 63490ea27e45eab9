/**
 * HTML shell and webview options of the order book panel (issue 6).
 *
 * Strict CSP: `default-src 'none'`; the one script is allowed by nonce; styles only from the
 * extension's own resources (`webview.cspSource`), no inline styles (the script sets styles
 * through the CSSOM, which CSP allows); images from the extension or `data:`; `connect-src 'none'`
 * (the webview never talks to the network: the extension polls the API and posts messages).
 * `localResourceRoots` is limited to the built webview bundles (dist/webview) and media/.
 * The page embeds no data: the symbol and every API string arrive by message and are rendered
 * with textContent by the webview script.
 */
import * as vscode from 'vscode';
import { makeNonce, webviewPage } from '../../shared/webviewHtml';
import { ORDER_BOOK_IMG_SRC } from '../../shared/orderbook/csp';

/** The panel's view type; also the WebviewPanelSerializer key (and the `onWebviewPanel:` activation event). */
export const VIEW_TYPE = 'spotdesk.orderBook';

/** Folders the webview may load from: dist/webview (the bundle) and media (the stylesheet). */
export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Webview options: scripts on, resources limited to {@link localResourceRoots}, no command URIs. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: localResourceRoots(extensionUri) };
}

/**
 * The panel's HTML: CSP meta, stylesheet link (media/orderbook.css) and the nonce'd script
 * (dist/webview/orderbook.js). Contains no user or API data.
 */
export function renderHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce = makeNonce()): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'orderbook.js'));
  const css = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'orderbook.css'));
  return webviewPage({
    cspSource: webview.cspSource,
    nonce,
    imgSrc: ORDER_BOOK_IMG_SRC,
    title: 'Order Book',
    scriptUri: script.toString(),
    styleUris: [css.toString()],
  });
}
