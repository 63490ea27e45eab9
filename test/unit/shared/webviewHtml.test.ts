import { strict as assert } from 'assert';
import { contentSecurityPolicy, escapeHtml, makeNonce, webviewPage } from '../../../src/webviewBridge/html';
import { panelHtml } from '../../../src/features/requestBuilder/page';

const SRC = 'https://x.vscode-cdn.net';

describe('shared webview HTML helper (src/webviewBridge/html.ts)', () => {
  it('builds the exact strict CSP', () => {
    assert.equal(
      contentSecurityPolicy({ cspSource: SRC, nonce: 'abc' }),
      "default-src 'none'; script-src 'nonce-abc'; style-src https://x.vscode-cdn.net; img-src https://x.vscode-cdn.net; " +
        "font-src https://x.vscode-cdn.net; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'",
    );
  });

  it('adds a style nonce and extra image sources only when asked (order book: data: images)', () => {
    assert.equal(
      contentSecurityPolicy({ cspSource: SRC, nonce: 'n1', styleNonce: true, imgSrc: ['data:'] }),
      "default-src 'none'; script-src 'nonce-n1'; style-src https://x.vscode-cdn.net 'nonce-n1'; img-src https://x.vscode-cdn.net data:; " +
        "font-src https://x.vscode-cdn.net; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'",
    );
  });

  it('makes 128-bit base64 nonces that differ between calls', () => {
    const a = makeNonce();
    const b = makeNonce();
    assert.match(a, /^[A-Za-z0-9+/]{22}==$/);
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.notEqual(a, b);
  });

  it('escapes attribute values and text', () => {
    assert.equal(escapeHtml(`a&b<c>"d'`), `a&amp;b&lt;c&gt;&quot;d'`);
  });

  it('renders the page skeleton: CSP meta, stylesheet, title, body, pre-script and the one bundle script, all nonce\'d', () => {
    const html = webviewPage({
      cspSource: SRC,
      nonce: 'N',
      title: 'T <x>',
      scriptUri: `${SRC}/main.js`,
      styleUris: [`${SRC}/a.css`],
      body: '<div id="app"></div>',
      preScript: 'window.x=1',
      bodyClass: 'dark',
    });
    assert.equal(
      html,
      `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy({ cspSource: SRC, nonce: 'N' })}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${SRC}/a.css">
<title>T &lt;x&gt;</title>
</head>
<body class="dark">
<div id="app"></div>
<script nonce="N">window.x=1</script>
<script nonce="N" src="${SRC}/main.js"></script>
</body>
</html>`,
    );
  });

  it('an inline style gets the nonce and turns on the style-src nonce', () => {
    const html = webviewPage({ cspSource: SRC, nonce: 'N', title: 't', scriptUri: 's.js', inlineStyle: 'p{}' });
    assert.match(html, /style-src https:\/\/x\.vscode-cdn\.net 'nonce-N';/);
    assert.match(html, /<style nonce="N">p\{\}<\/style>/);
  });

  it('the request builder page uses the shared policy unchanged', () => {
    const html = panelHtml({ cspSource: SRC, nonce: 'abc', scriptUri: `${SRC}/rb.js`, styleUri: `${SRC}/rb.css` });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-abc'; style-src https://x.vscode-cdn.net; img-src https://x.vscode-cdn.net; " +
        "font-src https://x.vscode-cdn.net; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'",
    );
    assert.equal(html.match(/<script /g)?.length, 1);
    assert.match(html, /<div id="app"><\/div>\n<script nonce="abc" src="https:\/\/x\.vscode-cdn\.net\/rb\.js"><\/script>/);
  });
});
