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
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
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

/** The fields of a key that signing and verification read (a {@link Credentials} or a sandbox user record). */
export type KeyFields = Pick<Credentials, 'apiKey' | 'apiSecret' | 'apiPassphrase' | 'keyVersion'>;

/** Values derived from a key that do not depend on the request: see {@link keyMaterial}. */
export interface KeyMaterial {
  /** HMAC-SHA256 key object of `apiSecret` (cheaper per HMAC than the secret string). */
  readonly hmacKey: KeyObject;
  /** The KC-API-PASSPHRASE header value ({@link signPassphrase}). */
  readonly signedPassphrase: string;
  /** UTF-8 bytes of `signedPassphrase`, for the verifier's constant-time comparison. */
  readonly signedPassphraseBytes: Buffer;
  /** `apiKey` masked for display ({@link maskKey}). */
  readonly maskedKey: string;
}

interface CachedMaterial extends KeyMaterial {
  readonly fields: KeyFields;
}

/**
 * Per-key-object cache shared by the client (signing) and the sandbox (verification): one entry
 * per credentials object / user record, re-derived when one of its key fields changed; the WeakMap
 * lets the objects be garbage-collected.
 */
const KEY_MATERIAL = new WeakMap<KeyFields, CachedMaterial>();

/**
 * The request-independent values of a key (HMAC key object, signed passphrase, masked key),
 * computed once per object and reused while its `apiKey`, `apiSecret`, `apiPassphrase` and
 * `keyVersion` stay the same. Signing then costs one HMAC; so does verifying.
 */
export function keyMaterial(k: KeyFields): KeyMaterial {
  const e = KEY_MATERIAL.get(k);
  if (e !== undefined) {
    const f = e.fields;
    if (f.apiSecret === k.apiSecret && f.apiPassphrase === k.apiPassphrase && f.keyVersion === k.keyVersion && f.apiKey === k.apiKey) return e;
  }
  const signedPassphrase = signPassphrase(k.apiSecret, k.apiPassphrase, k.keyVersion);
  const fresh: CachedMaterial = {
    fields: { apiKey: k.apiKey, apiSecret: k.apiSecret, apiPassphrase: k.apiPassphrase, keyVersion: k.keyVersion },
    hmacKey: createSecretKey(Buffer.from(k.apiSecret, 'utf8')),
    signedPassphrase,
    signedPassphraseBytes: Buffer.from(signedPassphrase, 'utf8'),
    maskedKey: maskKey(k.apiKey),
  };
  KEY_MATERIAL.set(k, fresh);
  return fresh;
}

/** base64(HMAC-SHA256(key, text)) with a cached key object: the same value as {@link computeSign}. */
export function signWithKey(hmacKey: KeyObject, text: string): string {
  return createHmac('sha256', hmacKey).update(text, 'utf8').digest('base64');
}

/**
 * Sign a request (see the module docstring for the scheme). One HMAC per call: the key material is
 * cached per credentials object ({@link keyMaterial}).
 */
export function signRequest(input: SignInput): SignedRequest {
  const { credentials: c } = input;
  const k = keyMaterial(c);
  const ts = String(input.timestamp);
  const prehash = prehashOf(ts, input.method, input.pathWithRawQuery, input.body);
  const headers: Record<string, string> = {
    'KC-API-KEY': c.apiKey,
    'KC-API-SIGN': signWithKey(k.hmacKey, prehash),
    'KC-API-TIMESTAMP': ts,
    'KC-API-PASSPHRASE': k.signedPassphrase,
    'KC-API-KEY-VERSION': c.keyVersion,
  };
  const redactedHeaders: Record<string, string> = {
    'KC-API-KEY': k.maskedKey,
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
