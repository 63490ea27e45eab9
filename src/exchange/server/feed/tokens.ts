/**
 * Connection tokens of the sandbox's WebSocket feed (POST /api/v1/bullet-public and
 * /api/v1/bullet-private). A token is self-contained and signed, so the server keeps no table of
 * issued tokens (memory does not grow with the number of tokens handed out):
 *
 *   token = base64url(JSON {v: 1, k: "public" | "private", u: uid | "", x: expiresAt ms, n: nonce})
 *           + "." + base64url(HMAC-SHA256(secret, first part))
 *
 * The secret is random per server start, so tokens do not survive a restart (clients get a fresh
 * token on reconnect, as KuCoin's clients do). Expiry is checked against the sandbox clock when a
 * connection is opened; a token is valid for {@link TOKEN_TTL_MS} (24 h, KuCoin's).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Validity of a token, ms of the sandbox clock (24 h). */
export const TOKEN_TTL_MS = 24 * 3600 * 1000;

/** What a valid token grants. */
export interface TokenClaims {
  kind: 'public' | 'private';
  /** The user a private token is bound to ('' for public tokens). */
  uid: string;
  /** Expiry, ms of the sandbox clock. */
  expiresAt: number;
}

/** Issues and verifies feed tokens (see the module docstring). */
export class TokenIssuer {
  private readonly secret: Buffer;

  constructor(secret: Buffer = randomBytes(32)) {
    this.secret = secret;
  }

  /** A new token for `kind` (and `uid` for private tokens) valid until `now + TOKEN_TTL_MS`. */
  issue(kind: 'public' | 'private', uid: string, now: number): string {
    const body = Buffer.from(JSON.stringify({ v: 1, k: kind, u: uid, x: now + TOKEN_TTL_MS, n: randomBytes(9).toString('base64url') })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The claims of `token` when it is well-formed, signed by this issuer and not expired at `now`;
   * otherwise undefined (the caller answers 401 "token is expired", as KuCoin does for any bad token).
   */
  verify(token: string, now: number): TokenClaims | undefined {
    if (token.length > 512) return undefined;
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    const want = Buffer.from(this.mac(body), 'base64url');
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) return undefined;
    let c: { v?: unknown; k?: unknown; u?: unknown; x?: unknown };
    try {
      c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof c;
    } catch {
      return undefined;
    }
    if (c.v !== 1 || (c.k !== 'public' && c.k !== 'private') || typeof c.u !== 'string' || typeof c.x !== 'number') return undefined;
    if (now >= c.x) return undefined;
    return { kind: c.k, uid: c.u, expiresAt: c.x };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
