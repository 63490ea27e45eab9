/**
 * KuCoin request signing (KuCoin "Authentication" / "Signing a Message"; the spec leaves the
 * scheme "not shown", so the real API is the reference).
 *
 *   prehash            = timestamp(ms) + METHOD + path[?rawQuery] + body
 *   KC-API-SIGN        = base64(HMAC-SHA256(apiSecret, prehash))
 *   KC-API-PASSPHRASE  = passphrase (key version 1) | base64(HMAC-SHA256(apiSecret, passphrase)) (2, 3)
 *   KC-API-KEY, KC-API-TIMESTAMP, KC-API-KEY-VERSION
 *   broker (optional): KC-API-PARTNER, KC-API-PARTNER-SIGN = base64(HMAC-SHA256(brokerKey,
 *                      timestamp + partner + apiKey)), KC-BROKER-NAME
 *
 * The same primitives are used by the sandbox to VERIFY ({@link computeSign},
 * {@link signPassphrase}, {@link signPartner}). Sign exactly the bytes sent: build the query once
 * with {@link buildQuery} and serialize the body once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyVersion } from './schemas';

/** Broker (partner) credentials, optional. */
export interface BrokerCredentials {
  /** KC-API-PARTNER value. */
  partner: string;
  /** Broker key used to sign KC-API-PARTNER-SIGN (a secret). */
  brokerKey: string;
  /** KC-BROKER-NAME value. */
  name: string;
}

/** API credentials. `apiSecret`, `apiPassphrase` and `broker.brokerKey` are secrets. */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  keyVersion: KeyVersion;
  broker?: BrokerCredentials;
}

/** base64(HMAC-SHA256(secret, text)) — the KC-API-SIGN of a prehash (also the sandbox's verifier). */
export function computeSign(secret: string, prehash: string): string {
  return createHmac('sha256', secret).update(prehash).digest('base64');
}

/** The KC-API-PASSPHRASE header: plain for key version 1, base64(HMAC-SHA256(secret, passphrase)) for 2/3. */
export function signPassphrase(secret: string, passphrase: string, keyVersion: KeyVersion): string {
  return keyVersion === '1' ? passphrase : computeSign(secret, passphrase);
}

/** KC-API-PARTNER-SIGN = base64(HMAC-SHA256(brokerKey, timestamp + partner + apiKey)). */
export function signPartner(brokerKey: string, timestamp: string, partner: string, apiKey: string): string {
  return computeSign(brokerKey, timestamp + partner + apiKey);
}

/** prehash = timestamp + METHOD (upper case) + pathWithRawQuery + body. */
export function prehashOf(timestamp: string, method: string, pathWithRawQuery: string, body: string): string {
  return timestamp + method.toUpperCase() + pathWithRawQuery + body;
}

/** Constant-time comparison of two header values (sandbox signature check). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** A query string in its two forms. */
export interface BuiltQuery {
  /** Un-encoded `k=v&k2=v2` (no leading `?`), '' when empty: what KuCoin signs. */
  raw: string;
  /** Percent-encoded form (encodeURIComponent of keys and values): what goes on the wire. */
  encoded: string;
}

/** A query parameter value; undefined/null values are omitted. */
export type QueryValue = string | number | boolean | bigint | undefined | null;

/**
 * Build the query string once, in insertion order, skipping undefined/null values.
 *
 * KuCoin signs the **raw, un-encoded** query: for `remark=a b&c` the prehash contains
 * `?remark=a b&c` literally, while the URL sent carries `?remark=a%20b%26c`; the server decodes
 * the URL and re-creates the raw form before checking the signature. Use `raw` in
 * {@link prehashOf} and `encoded` in the URL. (A raw value containing `&` or `=` is inherently
 * ambiguous in the signed string; that is KuCoin's scheme, reproduced as is.)
 */
export function buildQuery(params: Record<string, QueryValue> | undefined): BuiltQuery {
  const raw: string[] = [];
  const enc: string[] = [];
  if (params) {
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined || v === null) continue;
      const s = String(v);
      raw.push(`${k}=${s}`);
      enc.push(`${encodeURIComponent(k)}=${encodeURIComponent(s)}`);
    }
  }
  return { raw: raw.join('&'), encoded: enc.join('&') };
}

/** Mask an API key for display: first 4 and last 4 characters (`5c2d…1734`); short keys fully masked. */
export function maskKey(apiKey: string): string {
  return apiKey.length <= 8 ? '…' : `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}

/** Header values shown instead of secrets. */
export const REDACTED = '<redacted>';

/** Input of {@link signRequest}. */
export interface SignInput {
  credentials: Credentials;
  /** Milliseconds since the epoch (already corrected by the server-time offset). */
  timestamp: number | string;
  method: string;
  /** Path plus `?` + raw (un-encoded) query when there is one, e.g. `/api/v1/hf/orders/active?symbol=BTC-USDT`. */
  pathWithRawQuery: string;
  /** Exact body string sent ('' for GET/DELETE). */
  body: string;
}

/** Output of {@link signRequest}. */
export interface SignedRequest {
  /** The string that was signed. Contains no secret. */
  prehash: string;
  /** The headers to send (contain the signature and, for key version 1, the plain passphrase). */
  headers: Record<string, string>;
  /** The same headers safe to display/log: key masked, sign/passphrase/partner-sign `<redacted>`. */
  redactedHeaders: Record<string, string>;
}

interface CredentialCache {
  secret: string;
  passphrase: string;
  keyVersion: KeyVersion;
  apiKey: string;
  signedPassphrase: string;
  masked: string;
}

/**
 * Per-credentials-object cache of the values that do not depend on the request (the signed
 * passphrase and the masked key): signing then costs one HMAC. Entries are re-derived if a field
 * of the object changed; the WeakMap lets credentials be garbage-collected.
 */
const CACHE = new WeakMap<Credentials, CredentialCache>();

function cached(c: Credentials): CredentialCache {
  let e = CACHE.get(c);
  if (!e || e.secret !== c.apiSecret || e.passphrase !== c.apiPassphrase || e.keyVersion !== c.keyVersion || e.apiKey !== c.apiKey) {
    e = {
      secret: c.apiSecret,
      passphrase: c.apiPassphrase,
      keyVersion: c.keyVersion,
      apiKey: c.apiKey,
      signedPassphrase: signPassphrase(c.apiSecret, c.apiPassphrase, c.keyVersion),
      masked: maskKey(c.apiKey),
    };
    CACHE.set(c, e);
  }
  return e;
}

/**
 * Sign a request (see the module docstring for the scheme). One HMAC per call: the signed
 * passphrase is cached per credentials object.
 */
export function signRequest(input: SignInput): SignedRequest {
  const { credentials: c } = input;
  const k = cached(c);
  const ts = String(input.timestamp);
  const prehash = prehashOf(ts, input.method, input.pathWithRawQuery, input.body);
  const headers: Record<string, string> = {
    'KC-API-KEY': c.apiKey,
    'KC-API-SIGN': computeSign(c.apiSecret, prehash),
    'KC-API-TIMESTAMP': ts,
    'KC-API-PASSPHRASE': k.signedPassphrase,
    'KC-API-KEY-VERSION': c.keyVersion,
  };
  const redactedHeaders: Record<string, string> = {
    'KC-API-KEY': k.masked,
    'KC-API-SIGN': REDACTED,
    'KC-API-TIMESTAMP': ts,
    'KC-API-PASSPHRASE': REDACTED,
    'KC-API-KEY-VERSION': c.keyVersion,
  };
  if (c.broker) {
    headers['KC-API-PARTNER'] = c.broker.partner;
    headers['KC-API-PARTNER-SIGN'] = signPartner(c.broker.brokerKey, ts, c.broker.partner, c.apiKey);
    headers['KC-BROKER-NAME'] = c.broker.name;
    redactedHeaders['KC-API-PARTNER'] = c.broker.partner;
    redactedHeaders['KC-API-PARTNER-SIGN'] = REDACTED;
    redactedHeaders['KC-BROKER-NAME'] = c.broker.name;
  }
  return { prehash, headers, redactedHeaders };
}
