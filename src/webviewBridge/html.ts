/**
 * One Content-Security-Policy and page skeleton for every SpotDesk webview (funding, request
 * builder and the market panel's src/features/market/page.ts). Pure:
 * no `vscode`, no Node APIs (the nonce uses Web Crypto, present in Node ≥ 20 and browsers), so the
 * extension panels and the Chromium e2e harness pages build exactly the same HTML.
 *
 * The policy: `default-src 'none'`; scripts only by nonce (no inline handlers, no eval);
 * styles/images/fonts only from the webview's resource origin (`webview.cspSource`), plus inline
 * `<style nonce>` when asked; `connect-src 'none'` (webviews never talk to the network: the
 * extension host does and posts messages); no frames, form submissions or `<base>`.
 */

/** Inputs of {@link contentSecurityPolicy}. */
export interface CspOptions {
  /** `webview.cspSource` (or the e2e harness page's origin). */
  cspSource: string;
  /** The page's nonce (see {@link makeNonce}); allows the page's own `<script nonce>` elements. */
  nonce: string;
  /** Extra `img-src` sources after `cspSource`, e.g. `['data:']`. Default none. */
  imgSrc?: readonly string[];
  /** Also allow `<style nonce>` elements (style-src gets `'nonce-…'`). Default false. */
  styleNonce?: boolean;
}

/**
 * The policy string, directives in this order: default-src, script-src, style-src, img-src,
 * font-src, connect-src, frame-src, form-action, base-uri (joined with `"; "`). Example for
 * `{cspSource: 'https://x', nonce: 'n'}`:
 * `default-src 'none'; script-src 'nonce-n'; style-src https://x; img-src https://x; font-src https://x; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'`.
 */
export function contentSecurityPolicy(o: CspOptions): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    `style-src ${o.cspSource}${o.styleNonce ? ` 'nonce-${o.nonce}'` : ''}`,
    `img-src ${[o.cspSource, ...(o.imgSrc ?? [])].join(' ')}`,
    `font-src ${o.cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** A fresh nonce: 128 random bits (Web Crypto `getRandomValues`), base64 (24 characters). */
export function makeNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** Escape text for a double-quoted HTML attribute or a text node (`& < > "`; single quotes kept for CSP values). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** Inputs of {@link webviewPage}. */
export interface WebviewPageOptions extends CspOptions {
  /** Document title (escaped). */
  title: string;
  /** URI of the page's script bundle, loaded last with the nonce. */
  scriptUri: string;
  /** Stylesheet URIs (`<link rel="stylesheet">`, must be under `cspSource`). */
  styleUris?: readonly string[];
  /** CSS text of one `<style nonce>` element (sets `styleNonce`); trusted, not escaped. */
  inlineStyle?: string;
  /** Static body markup before the scripts (trusted, not escaped; never put data here). */
  body?: string;
  /** Extra inline script run before the bundle (e2e harness only); trusted, carries the nonce. */
  preScript?: string;
  /** `class` attribute of `<body>`. */
  bodyClass?: string;
}

/**
 * The full HTML document: CSP meta ({@link contentSecurityPolicy}), viewport, stylesheets, title,
 * optional nonce'd inline style, `body` markup, optional nonce'd pre-script, then the nonce'd
 * bundle script. Attribute values and the title are escaped.
 */
export function webviewPage(o: WebviewPageOptions): string {
  const n = escapeHtml(o.nonce);
  const csp = contentSecurityPolicy({ ...o, styleNonce: o.styleNonce || o.inlineStyle !== undefined });
  const links = (o.styleUris ?? []).map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}">\n`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}<title>${escapeHtml(o.title)}</title>
${o.inlineStyle !== undefined ? `<style nonce="${n}">${o.inlineStyle}</style>\n` : ''}</head>
<body${o.bodyClass ? ` class="${escapeHtml(o.bodyClass)}"` : ''}>
${o.body ? `${o.body}\n` : ''}${o.preScript ? `<script nonce="${n}">${o.preScript}</script>\n` : ''}<script nonce="${n}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}

/**
 * What a webview's page is made of, declared once per webview (the extension's webview host,
 * src/host/webviewHost.ts, and the e2e harness pages render the same spec with
 * {@link renderPage}). File names are relative to the extension: `script` in dist/webview/,
 * `styles` in media/. Nothing here may carry user or API data.
 */
export interface WebviewPageSpec {
  /** Document title. */
  readonly title: string;
  /** The bundle in dist/webview/, e.g. `orderbook.js`. */
  readonly script: string;
  /** Stylesheets in media/, e.g. `['orderbook.css']`. */
  readonly styles?: readonly string[];
  /** CSS of one nonce'd `<style>` element (trusted constant). */
  readonly inlineStyle?: string;
  /** Static body markup before the script (trusted constant, never data). */
  readonly body?: string;
  /** Extra `img-src` sources, e.g. `['data:']`. */
  readonly imgSrc?: readonly string[];
}

/** Where a page is rendered: the CSP source, a fresh nonce and how to address the extension's files. */
export interface PageEnv {
  /** `webview.cspSource` (or the harness page's origin). */
  cspSource: string;
  /** A fresh nonce ({@link makeNonce}). */
  nonce: string;
  /** URI of an extension file, e.g. `uri('dist/webview', 'orderbook.js')`. */
  uri(folder: 'dist/webview' | 'media', file: string): string;
  /** Harness only: an inline script run before the bundle. */
  preScript?: string;
  /** `class` of `<body>` (harness pages set the theme class VS Code would). */
  bodyClass?: string;
}

/** The HTML of `spec` in `env` ({@link webviewPage} with the spec's files, policy and markup). */
export function renderPage(spec: WebviewPageSpec, env: PageEnv): string {
  return webviewPage({
    cspSource: env.cspSource,
    nonce: env.nonce,
    title: spec.title,
    scriptUri: env.uri('dist/webview', spec.script),
    styleUris: (spec.styles ?? []).map((f) => env.uri('media', f)),
    inlineStyle: spec.inlineStyle,
    body: spec.body,
    imgSrc: spec.imgSrc,
    preScript: env.preScript,
    bodyClass: env.bodyClass,
  });
}
