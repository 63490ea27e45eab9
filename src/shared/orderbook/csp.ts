/**
 * Content-Security-Policy of the order book webview (issue 6), shared by the extension (which
 * writes it into the panel's HTML) and the Chromium e2e harness (which reproduces the webview
 * environment with exactly the same policy).
 *
 * `default-src 'none'`; the one script by nonce; styles only from the extension's resources
 * (`cspSource`) — no inline styles: the script sets styles through the CSSOM, which CSP allows;
 * images from the extension or `data:`; `connect-src 'none'` (the webview never talks to the
 * network: the extension polls the API and posts messages).
 */

/** The policy for `cspSource` (the webview's resource origin, `webview.cspSource`) and `nonce` (base64). */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
