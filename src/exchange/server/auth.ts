/**
 * Signature verification of private endpoints (KuCoin scheme; src/api/signing.ts primitives).
 *
 * Checks, in order (code, HTTP status):
 *  - 400001 (401): a KC-API-KEY / KC-API-SIGN / KC-API-TIMESTAMP / KC-API-PASSPHRASE header is missing;
 *  - 400002 (400): KC-API-TIMESTAMP is not an integer or differs from the sandbox clock by more than 5 s;
 *  - 400003 (401): unknown KC-API-KEY;
 *  - 400004 (401): KC-API-PASSPHRASE wrong — plain passphrase for key version 1,
 *    base64(HMAC-SHA256(secret, passphrase)) for 2 and 3 (the key's own version decides);
 *  - 400005 (401): KC-API-SIGN ≠ base64(HMAC-SHA256(secret, timestamp + METHOD + path[?query] + body));
 *  - 400007 (403): the key lacks the endpoint's permission (General / Spot Trading / Transfer).
 *
 * The signed path is the path as sent plus `?` and the query. KuCoin clients sign the RAW query (`?remark=a b`)
 * while sending it percent-encoded, so a signature over any of three forms passes: the percent-decoded query
 * (KuCoin's documented rule), the query exactly as on the wire, the form-decoded one (`+` read as a space).
 * The body is signed exactly as sent. Details: docs/sandbox.md "Authentication".
 */
import { timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { keyMaterial, prehashOf, signWithKey } from '../../api/signing';
import type { EndpointPermission } from '../../api/endpoints';
import type { KeyPermission } from '../../api/schemas';
import { SandboxError, SandboxState, UserRecord } from './state';

/** Authenticated request context. */
export interface AuthContext {
  user: UserRecord;
}

/** Max allowed clock difference between KC-API-TIMESTAMP and the sandbox clock, ms. */
export const MAX_TIMESTAMP_SKEW_MS = 5_000;

/** Display names of the key permissions in the 400007 message (spec: 'Spot' is "Spot Trading"). */
const PERMISSION_NAME: Record<KeyPermission, string> = { General: 'General', Spot: 'Spot Trading', Transfer: 'Transfer' };

const TIMESTAMP_RE = /^\d{1,16}$/;
const PLUS_RE = /\+/g;

/** Constant-time comparison of a received header value with the expected bytes. */
function matches(received: string, expected: Buffer): boolean {
  const b = Buffer.from(received, 'utf8');
  return b.length === expected.length && timingSafeEqual(b, expected);
}

/** True when `sign` = base64(HMAC-SHA256(secret, prehash)), compared in constant time. */
function signatureMatches(key: KeyObject, sign: string, prehash: string): boolean {
  return matches(sign, Buffer.from(signWithKey(key, prehash), 'latin1'));
}

/** A request header (lower-case name); the first value when repeated as an array. */
function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return typeof v === 'string' || v === undefined ? v : v[0];
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The query forms whose signature is accepted (see module docstring), deduplicated. */
export function signedPathCandidates(pathname: string, rawQuery: string): string[] {
  if (rawQuery === '') return [pathname];
  const forms = new Set<string>();
  const dec = safeDecode(rawQuery);
  if (dec !== undefined) forms.add(dec);
  forms.add(rawQuery);
  const form = safeDecode(rawQuery.replace(PLUS_RE, ' '));
  if (form !== undefined) forms.add(form);
  return [...forms].map((q) => `${pathname}?${q}`);
}

/**
 * Verify the KC-API-* headers of a private request.
 * @throws SandboxError with the code and HTTP status listed in the module docstring.
 */
export function authenticate(
  state: SandboxState,
  headers: IncomingHttpHeaders,
  method: string,
  pathname: string,
  rawQuery: string,
  body: string,
  permission: EndpointPermission,
): AuthContext {
  const key = header(headers, 'kc-api-key');
  const sign = header(headers, 'kc-api-sign');
  const ts = header(headers, 'kc-api-timestamp');
  const pass = header(headers, 'kc-api-passphrase');
  if (!key || !sign || !ts || !pass) {
    throw new SandboxError('400001', 'Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE', 401);
  }
  if (!TIMESTAMP_RE.test(ts) || Math.abs(Number(ts) - state.now()) > MAX_TIMESTAMP_SKEW_MS) {
    throw new SandboxError('400002', 'Invalid KC-API-TIMESTAMP', 400);
  }
  const user = state.userByKey(key);
  if (!user || !user.apiSecret) throw new SandboxError('400003', 'KC-API-KEY not exists', 401);
  // Key material cached per user record, shared with the client's signer (src/api/signing.ts).
  const k = keyMaterial(user);
  if (!matches(pass, k.signedPassphraseBytes)) {
    throw new SandboxError('400004', 'Invalid KC-API-PASSPHRASE', 401);
  }
  let ok = false;
  if (rawQuery === '') ok = signatureMatches(k.hmacKey, sign, prehashOf(ts, method, pathname, body));
  else {
    for (const p of signedPathCandidates(pathname, rawQuery)) {
      if (signatureMatches(k.hmacKey, sign, prehashOf(ts, method, p, body))) {
        ok = true;
        break;
      }
    }
  }
  if (!ok) throw new SandboxError('400005', 'Invalid KC-API-SIGN', 401);
  if (permission !== 'public' && !user.permissions.includes(permission)) {
    throw new SandboxError('400007', `Access denied, require more permission: this endpoint needs the ${PERMISSION_NAME[permission]} permission`, 403);
  }
  return { user };
}
