/**
 * What went wrong, in words: one description of a failed request for every SpotDesk view (trees,
 * order book, request builder, status bar) and for the request log, so each says the failure it
 * actually has — the exchange is unreachable (and why: connection refused, host not found…), a
 * timeout, an HTTP status that is not the API's JSON, or the exchange's own error code and message
 * — instead of a guess.
 *
 * The errors are recognised by shape (`name` and fields of src/api/errors.ts's ApiError,
 * TransportError, ValidationError, and the extension's UserFacingError), so this module imports no
 * client code and can run anywhere. Pure.
 */

/** The class of a failure. */
export type FailureKind = 'unreachable' | 'timeout' | 'http' | 'exchange' | 'unknown-outcome' | 'response' | 'setup' | 'other';

/** A failure described for a person. */
export interface Failure {
  kind: FailureKind;
  /** One line: what happened, e.g. "Unreachable: connection refused (GET /api/v1/markets)". */
  text: string;
  /** What to do next, when known, e.g. "check the profile's base URL and your connection, then Retry." */
  hint?: string;
  /** The exchange's error code (ApiError) or the OS error code (network), when known. */
  code?: string;
  /** HTTP status of the answer, when one arrived. */
  httpStatus?: number;
}

/** OS / fetch error codes of a connection that never got an answer, in words. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  ERR_INVALID_URL: 'invalid base URL',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
};

const UNREACHABLE_HINT = "check the profile's base URL and your connection, then Retry.";

type Shape = {
  name?: unknown;
  message?: unknown;
  kind?: unknown;
  code?: unknown;
  msg?: unknown;
  httpStatus?: unknown;
  method?: unknown;
  path?: unknown;
  cause?: { code?: unknown; errno?: unknown; message?: unknown };
};

const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** The OS error code behind a network failure (from `cause.code` or the message), if any. */
function networkCode(e: Shape): string | undefined {
  const c = str(e.cause?.code) ?? str(e.cause?.errno);
  if (c) return c;
  const text = `${str(e.message) ?? ''} ${str(e.cause?.message) ?? ''}`;
  return Object.keys(NETWORK_REASONS).find((k) => text.includes(k));
}

/** What to do about an exchange error code, when SpotDesk knows. */
export function hintForCode(code: string): string | undefined {
  switch (code) {
    case '400001':
    case '400003':
    case '400004':
    case '400005':
    case '400006':
    case '400007':
      return 'check the profile\'s API credentials ("SpotDesk: Set API Credentials").';
    case '400002':
      return "the computer clock differs from the exchange's; sync the system clock.";
    case '429000':
      return 'rate limit reached; SpotDesk backs off and retries automatically.';
    default:
      return undefined;
  }
}

/** " (a, b)" of the non-empty parts, or "". */
function paren(parts: string[]): string {
  const p = parts.filter((x) => x);
  return p.length ? ` (${p.join(', ')})` : '';
}

/** Describe `err` (see the module docs). Never throws. */
export function describeFailure(err: unknown): Failure {
  if (!err || typeof err !== 'object') return { kind: 'other', text: String(err) };
  const e = err as Shape;
  const name = str(e.name);
  const message = str(e.message) ?? String(err);
  const where = str(e.method) && str(e.path) ? ` (${str(e.method)} ${str(e.path)})` : '';
  if (name === 'UserFacingError') return { kind: 'setup', text: message };
  if (name === 'TransportError') {
    const status = typeof e.httpStatus === 'number' ? e.httpStatus : undefined;
    switch (e.kind) {
      case 'network': {
        const code = networkCode(e);
        const why = code ? (NETWORK_REASONS[code] ?? code) : message.replace(/^\S+ \S+: network error: /, '');
        return { kind: 'unreachable', text: `Unreachable: ${why}${where}`, hint: UNREACHABLE_HINT, ...(code ? { code } : {}) };
      }
      case 'timeout':
        return { kind: 'timeout', text: `Timeout: ${message.replace(/^\S+ \S+: /, '').replace(/ \(timeout\)$/, '')}${where}`, hint: 'the exchange is slow or unreachable; Retry later.' };
      case 'non-json':
        return {
          kind: 'http',
          text: `HTTP ${status ?? '?'}: the answer is not the API's JSON${where}`,
          hint: 'a proxy or gateway in front of the API may be failing, or the base URL is wrong.',
          ...(status !== undefined ? { httpStatus: status } : {}),
        };
      case 'ambiguous':
        return { kind: 'unknown-outcome', text: message };
      case 'redirect':
        return { kind: 'http', text: message, hint: "check the profile's base URL: SpotDesk does not follow an exchange's redirects with signed requests.", ...(status !== undefined ? { httpStatus: status } : {}) };
    }
  }
  if (name === 'ApiError' && typeof e.code === 'string') {
    const status = typeof e.httpStatus === 'number' ? e.httpStatus : undefined;
    const msg = str(e.msg);
    const hint = hintForCode(e.code);
    return {
      kind: 'exchange',
      text: `Exchange error ${e.code}${msg ? `: ${msg}` : ''}${paren([status !== undefined ? `HTTP ${status}` : '', where.slice(2, -1)])}`,
      code: e.code,
      ...(hint ? { hint } : {}),
      ...(status !== undefined ? { httpStatus: status } : {}),
    };
  }
  if (name === 'ValidationError') return { kind: 'response', text: `Unexpected data: ${message}` };
  return { kind: 'other', text: message };
}

/** {@link describeFailure} as one line: the text, then " — " and the hint when there is one. */
export function failureText(err: unknown): string {
  const f = describeFailure(err);
  return f.hint ? `${f.text} — ${f.hint}` : f.text;
}
