import { strict as assert } from 'assert';
import { fundingHtml } from '../../../src/features/funding/page';
import { isFundingToHost } from '../../../src/features/funding/protocol';

describe('funding webview shell and protocol', () => {
  it('strict CSP: nonce on the only script and style, no unsafe-inline, no inline handlers', () => {
    const html = fundingHtml({ cspSource: 'https://x.vscode-cdn.net', nonce: 'abc123', scriptUri: 'https://x.vscode-cdn.net/dist/webview/funding.js' });
    const csp = /content="([^"]+)"/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-abc123'; style-src https://x.vscode-cdn.net 'nonce-abc123'; img-src https://x.vscode-cdn.net; font-src https://x.vscode-cdn.net; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'",
    );
    assert.match(html, /<style nonce="abc123">\nbody \{/);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.equal(html.match(/<script /g)?.length, 1);
    assert.match(html, /<script nonce="abc123" src="https:\/\/x\.vscode-cdn\.net\/dist\/webview\/funding\.js"><\/script>/);
  });
  it('escapes attribute values', () => {
    const html = fundingHtml({ cspSource: 'a', nonce: 'n', scriptUri: 'x" onload="alert(1)' });
    assert.match(html, /src="x&quot; onload=&quot;alert\(1\)"/);
  });
  it('accepts only the known webview messages', () => {
    assert.equal(isFundingToHost({ type: 'ready' }), true);
    assert.equal(isFundingToHost({ type: 'copy', field: 'memo' }), true);
    assert.equal(isFundingToHost({ type: 'copy', field: 'secret' }), false);
    assert.equal(isFundingToHost({ type: 'withdraw' }), false);
    assert.equal(isFundingToHost(null), false);
  });
});
