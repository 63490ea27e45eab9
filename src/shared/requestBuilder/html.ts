/**
 * The request-builder panel's HTML and Content-Security-Policy (pure, so the Chromium harness
 * in test/e2e loads the bundle under exactly the panel's policy).
 */

/**
 * The panel CSP for `cspSource` (the webview resource origin) and the script `nonce`:
 * `default-src 'none'`, the one script by nonce, styles/images/fonts only from the extension's
 * resources, `connect-src 'none'` (the webview makes no network requests), no frames or forms.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Escape a value for an HTML attribute. */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The panel HTML: CSP meta, the stylesheet, an empty `#app` and the nonce'd bundle (the UI is
 * built by the script). `preScript` (harness only) is an extra nonce'd inline script run first.
 */
export function panelHtml(opts: { cspSource: string; nonce: string; scriptUri: string; styleUri: string; preScript?: string; bodyClass?: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(opts.cspSource, opts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(opts.styleUri)}">
<title>SpotDesk Request Builder</title>
</head>
<body${opts.bodyClass ? ` class="${attr(opts.bodyClass)}"` : ''}>
<div id="app"></div>
${opts.preScript ? `<script nonce="${attr(opts.nonce)}">${opts.preScript}</script>\n` : ''}<script nonce="${attr(opts.nonce)}" src="${attr(opts.scriptUri)}"></script>
</body>
</html>`;
}
