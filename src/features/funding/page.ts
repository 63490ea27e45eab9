/**
 * HTML shell of the funding webview. Strict CSP: no inline script; the one script and the one
 * style element carry a nonce; images/fonts only from the webview's own source. Colours come from
 * VS Code theme variables. Pure (used by the extension panel and by the e2e harness page); the
 * CSP and skeleton come from src/webviewBridge/html.ts.
 */
import { webviewPage, type WebviewPageSpec } from '../../webviewBridge/html';

/** Inputs of {@link fundingHtml}. */
export interface FundingHtmlOptions {
  /** `webview.cspSource` (or the harness page's origin). */
  cspSource: string;
  /** Fresh random nonce (base64/hex, ≥ 128 bits). */
  nonce: string;
  /** URI of dist/webview/funding.js as the webview may load it. */
  scriptUri: string;
  title?: string;
}

/** The CSS of the panel (theme variables only). */
export const FUNDING_CSS = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 12px 20px; }
h1 { font-size: 1.25em; font-weight: 600; margin: 0 0 12px; }
.grid { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; align-items: center; margin: 12px 0; }
.row { display: contents; }
.label { color: var(--vscode-descriptionForeground); }
.value { display: flex; gap: 8px; align-items: center; min-width: 0; }
.value-text { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, inherit); color: var(--vscode-foreground); word-break: break-all; }
.value-text.copyable { user-select: all; }
.value-none { color: var(--vscode-descriptionForeground); font-style: italic; }
button.copy, button.simulate { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 3px 10px; border-radius: 2px; cursor: pointer; white-space: nowrap; }
button.copy:hover, button.simulate:hover { background: var(--vscode-button-hoverBackground); }
button.copy:focus-visible, button.simulate:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.warning { border-left: 4px solid var(--vscode-editorWarning-foreground); background: var(--vscode-inputValidation-warningBackground); color: var(--vscode-foreground); padding: 8px 12px; margin: 8px 0; }
.sandbox-banner { font-weight: 600; }
.actions { margin: 16px 0 8px; }
.hint { color: var(--vscode-descriptionForeground); }
.qr-codes { display: flex; flex-wrap: wrap; gap: 24px; margin: 16px 0 8px; }
.qr-figure { margin: 0; display: flex; flex-direction: column; align-items: center; gap: 6px; }
.qr-figure figcaption { color: var(--vscode-descriptionForeground); }
canvas.qr { width: 164px; height: auto; image-rendering: pixelated; border: 1px solid var(--vscode-widget-border, transparent); }
.existing { border-left: 4px solid var(--vscode-editorInfo-foreground); background: var(--vscode-textBlockQuote-background); padding: 8px 12px; margin: 8px 0; }
`;

/** The funding page: dist/webview/funding.js, {@link FUNDING_CSS} inline (nonce'd) and `<main id="root">`. */
export const FUNDING_PAGE: WebviewPageSpec = {
  title: 'SpotDesk Funding',
  script: 'funding.js',
  inlineStyle: FUNDING_CSS,
  body: '<main id="root" aria-live="polite"></main>',
};

/**
 * The full HTML document of the funding webview: {@link webviewPage} with the shared CSP (plus
 * `'nonce-…'` in style-src for the one inline `<style>`), {@link FUNDING_CSS} and `<main id="root">`.
 */
export function fundingHtml(o: FundingHtmlOptions): string {
  return webviewPage({
    cspSource: o.cspSource,
    nonce: o.nonce,
    scriptUri: o.scriptUri,
    title: o.title ?? FUNDING_PAGE.title,
    inlineStyle: FUNDING_PAGE.inlineStyle,
    body: FUNDING_PAGE.body,
  });
}
