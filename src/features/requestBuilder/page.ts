/**
 * The request-builder panel's page (pure, so the Chromium harness in test/e2e loads the bundle
 * under exactly the panel's policy). The CSP and page skeleton come from src/webviewBridge/html.ts:
 * `default-src 'none'`, the one script by nonce, styles/images/fonts only from the extension's
 * resources, `connect-src 'none'` (the webview makes no network requests), no frames or forms.
 */
import { webviewPage, type WebviewPageSpec } from '../../webviewBridge/html';

/** The request builder page: dist/webview/request-builder.js, media/request-builder.css and an empty `#app`. */
export const REQUEST_BUILDER_PAGE: WebviewPageSpec = {
  title: 'SpotDesk Request Builder',
  script: 'request-builder.js',
  styles: ['request-builder.css'],
  body: '<div id="app"></div>',
};

/**
 * The panel HTML: CSP meta, the stylesheet, an empty `#app` and the nonce'd bundle (the UI is
 * built by the script). `preScript` (harness only) is an extra nonce'd inline script run first.
 */
export function panelHtml(opts: { cspSource: string; nonce: string; scriptUri: string; styleUri: string; preScript?: string; bodyClass?: string }): string {
  const p = REQUEST_BUILDER_PAGE;
  return webviewPage({
    cspSource: opts.cspSource,
    nonce: opts.nonce,
    title: p.title,
    scriptUri: opts.scriptUri,
    styleUris: [opts.styleUri],
    body: p.body,
    preScript: opts.preScript,
    bodyClass: opts.bodyClass,
  });
}
