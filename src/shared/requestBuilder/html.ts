/**
 * The request-builder panel's HTML (pure, so the Chromium harness in test/e2e loads the bundle
 * under exactly the panel's policy). The CSP and page skeleton come from src/shared/webviewHtml.ts:
 * `default-src 'none'`, the one script by nonce, styles/images/fonts only from the extension's
 * resources, `connect-src 'none'` (the webview makes no network requests), no frames or forms.
 */
import { webviewPage } from '../webviewHtml';

/**
 * The panel HTML: CSP meta, the stylesheet, an empty `#app` and the nonce'd bundle (the UI is
 * built by the script). `preScript` (harness only) is an extra nonce'd inline script run first.
 */
export function panelHtml(opts: { cspSource: string; nonce: string; scriptUri: string; styleUri: string; preScript?: string; bodyClass?: string }): string {
  return webviewPage({
    cspSource: opts.cspSource,
    nonce: opts.nonce,
    title: 'SpotDesk Request Builder',
    scriptUri: opts.scriptUri,
    styleUris: [opts.styleUri],
    body: '<div id="app"></div>',
    preScript: opts.preScript,
    bodyClass: opts.bodyClass,
  });
}
