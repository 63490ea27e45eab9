/**
 * Feed tokens (src/exchange/server/feed/tokens.ts): signed, self-contained, bound to a user, valid
 * 24 h of the sandbox clock, refused when tampered with or issued by another server.
 */
import { strict as assert } from 'node:assert';
import { TOKEN_TTL_MS, TokenIssuer } from '../../../src/exchange/server/feed/tokens';

describe('stream/feed tokens', () => {
  const t0 = 1_700_000_000_000;

  it('a private token carries its user and expires after 24 h of the sandbox clock', () => {
    const iss = new TokenIssuer();
    const tok = iss.issue('private', '226000001', t0);
    assert.deepEqual(iss.verify(tok, t0), { kind: 'private', uid: '226000001', expiresAt: t0 + TOKEN_TTL_MS });
    assert.ok(iss.verify(tok, t0 + TOKEN_TTL_MS - 1));
    assert.equal(iss.verify(tok, t0 + TOKEN_TTL_MS), undefined);
  });

  it('refuses a token of another server (a restart), a changed claim, garbage', () => {
    const a = new TokenIssuer();
    const b = new TokenIssuer();
    const tok = a.issue('public', '', t0);
    assert.equal(b.verify(tok, t0), undefined);
    const [body, mac] = tok.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, k: 'private', u: '1' })).toString('base64url');
    assert.equal(a.verify(`${forged}.${mac}`, t0), undefined);
    for (const bad of ['', '.', 'x.y', `${body}.`, `${body}.${mac}x`, 'a'.repeat(600)]) assert.equal(a.verify(bad, t0), undefined, bad.slice(0, 20));
  });

  it('two tokens of the same user differ (a random nonce)', () => {
    const iss = new TokenIssuer();
    assert.notEqual(iss.issue('public', '', t0), iss.issue('public', '', t0));
  });
});
